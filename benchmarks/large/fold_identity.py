"""The chain's C kernel in two trees, to the bit: the same folds, backward passes, spectral orders and chain moves.

Run from a checkout with the C kernels built: ``python benchmarks/large/fold_identity.py --old PATH [--new PATH]
[positions]``, each PATH a sweeplab tree with its kernels built in place (default ``--new``: this checkout). Each
position WxHxM@SHARE:SEED is dealt as ``benchmarks/large/large_positions.py`` deals it, and the ``--components`` largest of
the components its analysis at 2 s hands to its folds are taken once, here. In each tree, a fresh process folds each
of them for its weights and then against made-up completions in two of its spectral orders (``_chain.fold_keep``,
``fold_back``, and the weights-only ``fold``) and builds its spectral order; then it draws ``--moves`` strip moves of
the chain over the largest component of the first position from one seed. Prints each tree's SHA-256 of the ``repr`` of everything
computed (every double in full) and exits 1 when they differ."""

from __future__ import annotations

import argparse
import hashlib
import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

from fold_check import Position, position
from fold_orders import handed

from sweeplab.bench.layouts import strewn_position

DEFAULT = ["256x256x16384@0.3:8", "512x128x16384@0.3:6"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("positions", nargs="*", type=position, metavar="WxHxM@SHARE:SEED", help="positions to deal")
    parser.add_argument("--old", type=Path, required=True, help="a sweeplab tree with its kernels built")
    parser.add_argument("--new", type=Path, default=Path(__file__).resolve().parents[2], help="another (default: this one)")
    parser.add_argument("--components", type=int, default=6, help="the largest components of each position folded")
    parser.add_argument("--moves", type=int, default=300, help="chain moves drawn")
    args = parser.parse_args(argv)
    args.positions = args.positions or [position(text) for text in DEFAULT]
    for tree in (args.old, args.new):
        if not (tree / "sweeplab" / "analysis").is_dir():
            parser.error(f"{tree} is not a sweeplab tree (no sweeplab/analysis in it)")
    taken = []
    spec: Position
    for spec in args.positions:
        obs = strewn_position(*spec)[0]
        comps = sorted(handed(obs, 2.0), key=lambda c: len(c.supercells))[-args.components :]
        taken.append((obs, spec[0], comps))
    digests = []
    with tempfile.TemporaryDirectory() as folder:
        dealt = Path(folder) / "components.pickle"
        dealt.write_bytes(pickle.dumps(taken))
        for tree in (args.old, args.new):
            env = {**os.environ, "PYTHONPATH": str(tree.resolve())}
            command = [sys.executable, __file__, "--worker", str(dealt), str(args.moves)]
            done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=tree)
            if done.returncode != 0:
                print(f"{tree}: the worker failed:\n{done.stderr}", file=sys.stderr)
                return 2
            digests.append(done.stdout.strip())
            print(f"{tree}: {digests[-1]}", flush=True)
    same = digests[0] == digests[1]
    print("the same to the bit" if same else "they differ")
    return 0 if same else 1


def _worker(dealt: Path, moves: int) -> str:
    """The digest of everything computed in this tree (imported from PYTHONPATH) over the components in ``dealt``."""
    import random

    from sweeplab.analysis.estimate import chain, folding
    from sweeplab.analysis.estimate.kernel import CHAIN

    assert CHAIN is not None, "the C chain is not built in this tree"
    taken = pickle.loads(dealt.read_bytes())
    out: list[object] = []
    for _, _, comps in taken:
        for comp in comps:
            built: list = [None] * len(folding.ORDERS)
            for k in (folding.SPECTRAL, folding.ROUGH):
                plan = folding._orders(comp, built, k)
                kept = CHAIN.fold_keep(plan[1], plan[2], plan[3], folding.FOLD_STATES, 2**25, 30.0)
                if isinstance(kept, int):
                    out.append(("gave up", kept))
                    continue
                log_h = [-0.001 * q for q in range(len(comp.cells) + 1)]
                out.append((kept[:3], kept[4:], CHAIN.fold_back(kept[3], log_h, 30.0)))
                out.append(CHAIN.fold(plan[1], plan[2], plan[3], None, folding.FOLD_STATES, 2**25, 30.0))
            out.append(folding.spectral_order(comp))
    obs, width, comps = taken[0]
    comp = max(comps, key=lambda c: len(c.supercells))
    log_h = chain.completions([], len(comp.cells), len(obs.covered()) - len(comp.cells), obs.mines)
    walker = chain._Chain(comp, log_h, random.Random(3), True, width)
    walker.first(comp, float("inf"))
    total = sum(walker.x)
    for _ in range(moves):
        moved = walker.move(total)
        if moved is not None:
            total = moved[3]
            out.append(moved)
    out.append(walker.x)
    return hashlib.sha256(repr(out).encode()).hexdigest()


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        print(_worker(Path(sys.argv[2]), int(sys.argv[3])))
        sys.exit(0)
    sys.exit(main())
