"""Every learned-player verdict again on a second held-out seed: the learn page's check that its verdicts hold.

The verdicts of the learn page (seed 003's ranking on ``results/learn/heldout/winrates``, the neural player's goals
on ``results/learn/heldout/neural``) and seed 003's learned-player claims (``results/seed003``, with the claims that
``results/seed003-ratio``'s longer mine-ratio sweep also makes taken from it) are measured on the held-out seed
:data:`~sweeplab.core.heldout.VERDICT_SEED`. The same runs, with the same commands but another held-out seed, sit
under ``results/learn/recheck/`` (``winrates/``, ``neural/``, ``seed003/``, ``seed003-ratio/``). Each verdict is worked out on
both by the same rule, and the table says whether it is the same: a verdict that changed on fresh games was not
decided by its own.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sweeplab.core.heldout import verdict_seed
from sweeplab.studies.bench_runs import _board_runs, _learn_paired, _runs_outcomes
from sweeplab.studies.pages.learned import LEARN_BOARDS, _measured
from sweeplab.studies.pages.neural import NEURAL_GOAL, _verdict
from sweeplab.studies.pages.page import Doc, _table
from sweeplab.studies.pages.verdicts import held_out, seed_of
from sweeplab.studies.papers.seed003_claims import MORE_GAMES, retest, with_more_games

#: The learned players of seed 003's claims experiment: its claims that name one of them are learned verdicts.
SEED003_LEARNED = ("xgboost", "nn", "dqn", "dqn-single")


def _ranking(doc: Doc, base: Path) -> tuple[dict[str, dict[str, Any]], int | None]:
    """The learn page's ranking claims measured on the runs under ``base`` (each of a held-out seed), by key."""
    _, _, claims, _, seed = _measured(doc, base, verdicts=True)
    return {c["key"]: c for c in claims}, seed


def _neural(base: Path) -> tuple[dict[str, dict[str, Any]], int | None]:
    """The neural player's win-rate goal on each board measured on the runs under ``base``, by a key of its own."""
    found: dict[str, dict[str, Any]] = {}
    seed = None
    for board in LEARN_BOARDS:
        runs = held_out(_board_runs(base / board))
        d = _learn_paired(_runs_outcomes(runs), "neural", "exact")
        if d is None:
            continue
        seed = seed_of(runs)
        games = min(s["games"] for _, bench in runs for s in bench["summaries"])
        goal = NEURAL_GOAL[board]
        found[f"neural | {board} | within {goal:g} point{'' if goal == 1 else 's'} of exact"] = {
            "measured": f"{100 * d[0]:+.2f} ± {100 * d[1]:.2f} pts ({games:,} games)",
            "verdict": _verdict(*d, NEURAL_GOAL[board]),
        }
    return found, seed


def _seed003(path: Path) -> tuple[dict[str, dict[str, Any]], int | None]:
    """Seed 003's claims that name a learned player, from a claims run's ``data.json``, by key; its seed must be
    held out."""
    if not path.exists():
        return {}, None
    more = path.parent.with_name(path.parent.name + MORE_GAMES) / "data.json"  # the ratio sweep with more games
    data = with_more_games(  # as seed 003's page tests them (with_more_games retests the longer run itself)
        retest(json.loads(path.read_text())), json.loads(more.read_text()) if more.exists() else None, str(more)
    )
    seed = verdict_seed(data.get("seed"), str(path))
    learned = {
        c["key"]: c
        for c in data.get("claims", [])
        if any(name in SEED003_LEARNED for part in c["key"].split(" | ") for name in part.split(" - "))
    }
    return learned, seed


#: Verdicts that claim nothing yet: the interval holds the goal (or 0), and more games are needed.
OPEN = ("undecided",)
#: The "same" column when one seed decided a verdict and the other did not, and when they decided it both ways.
ONE_SEED = "decided on one seed only"
OPPOSITE = "**opposite**"


def _same(a: str, b: str) -> str:
    """Whether two verdicts agree: ``yes``, :data:`ONE_SEED` (one is undecided: no contradiction, too few games on
    one seed) or :data:`OPPOSITE` (met on one seed's games and not met on the other's)."""
    if a == b:
        return "yes"
    return ONE_SEED if a in OPEN or b in OPEN else OPPOSITE


def _rows(first: dict[str, dict[str, Any]], second: dict[str, dict[str, Any]], where: str) -> tuple[list[list[str]], list[str]]:
    """A row per verdict of ``first`` (with the same one in ``second``, or '-' where it was not rerun), and the keys
    whose verdict changed."""
    rows, changed = [], []
    for key, a in first.items():
        b = second.get(key)
        same = "-" if b is None else _same(a["verdict"], b["verdict"])
        if b is not None and a["verdict"] != b["verdict"]:
            changed.append(key)
        cells = [key, f"{a['measured']}: {a['verdict']}", "-" if b is None else f"{b['measured']}: {b['verdict']}"]
        rows.append([where, *(c.replace("|", "\\|") for c in cells), same])  # a key's bars would split the cell
    return rows, changed


def recheck_section(doc: Doc, root: Path) -> None:
    """The verdicts of the learned players on the held-out seed beside the same verdicts on a second held-out seed,
    from ``results/learn/heldout``, ``results/seed003`` and ``results/learn/recheck`` (nothing when no rerun is
    committed)."""
    again = root / "learn" / "recheck"
    if not again.exists():
        return
    held = root / "learn" / "heldout"
    pairs = [
        ("learn page: seed 003's ranking", _ranking(doc, held / "winrates"), _ranking(doc, again / "winrates")),
        ("learn page: the neural player", _neural(held / "neural"), _neural(again / "neural")),
    ]
    if (again / "seed003" / "data.json").exists():  # seed 003's claims run, rerun on the second seed
        pairs.append(("seed 003's page", _seed003(root / "seed003" / "data.json"), _seed003(again / "seed003" / "data.json")))
    rows: list[list[str]] = []
    changed: list[str] = []
    seeds: set[tuple[int | None, int | None]] = set()
    for where, (first, seed_a), (second, seed_b) in pairs:
        if seed_a is not None and seed_a == seed_b:
            raise ValueError(f"results/learn/recheck: {where} was rerun on seed {seed_a}, the seed it checks")
        seeds.add((seed_a, seed_b))
        found, moved = _rows(first, second, where)
        rows += found
        changed += moved
    rerun = [r for r in rows if r[4] != "-"]
    opposite = [r[1].replace("\\|", "|") for r in rerun if r[4] == OPPOSITE]  # the keys, as written
    one_seed = [r[1].replace("\\|", "|") for r in rerun if r[4] == ONE_SEED]
    firsts = ", ".join(sorted(f"{a:,}" for a, _ in seeds if a is not None))
    seconds = ", ".join(sorted(f"{b:,}" for _, b in seeds if b is not None))
    doc.add("### Every learned verdict again, on a second held-out seed")
    doc.add(
        f"**{len(rerun) - len(changed)} of {len(rerun)} verdicts are the same on fresh games; {len(opposite)} turned "
        "into its opposite"
        + (f" ({'; '.join(opposite)})" if opposite else "")
        + f"; {len(one_seed)} {'was' if len(one_seed) == 1 else 'were'} decided on one seed and undecided on the other"
        + (f" ({'; '.join(one_seed)})" if one_seed else "")
        + ".**"
        + f" The verdicts above are measured on the held-out seed {firsts}; the same runs (the same players, boards "
        "and game counts; seed 003's sweeps with only the Manhattan and the learned versions) on the held-out seed "
        f"{seconds}, which nothing else has played, give the verdicts beside them, by the same rules. A verdict "
        "undecided on either seed asks for more games before anything is claimed; one decided both ways would say "
        "that the games decided it, not the players."
        + (f" {len(rows) - len(rerun)} verdicts were not rerun ('-')." if len(rows) > len(rerun) else "")
    )
    doc.add(_table(["page", "verdict", f"seed {firsts}", f"seed {seconds}", "same"], rows))
    sources = sorted(
        {p.parent.relative_to(root).as_posix() for p in again.rglob("command.txt")}
        | {p.parent.relative_to(root).as_posix() for p in again.rglob("data.json")}
    )
    doc.add(
        "Data: "
        + ", ".join(f"`results/{s}/`" for s in sources)
        + "; each folder's `command.txt` (or `data.json`'s command) is the command that made it."
    )
