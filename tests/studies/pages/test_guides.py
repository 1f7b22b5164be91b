"""The strategies page's table of PSEQ's own program on pseq's layouts, from synthetic peer runs."""

from __future__ import annotations

import gzip
import json
import re

import pytest

from sweeplab.core.heldout import VERDICT_SEED
from sweeplab.studies.pages.guides import pseq_peer
from sweeplab.studies.published import PSEQ_README

POSITIONS = {
    "published": {"layouts": 4, "compared": 10, "same": 8, "ties": 0, "figure_differs": 2},
    "corrected": {"layouts": 4, "compared": 10, "same": 9, "ties": 1, "figure_differs": 0},
}


def write_peer(results, seed, pseq_won, passes):
    """For every board: pseq's games in ``results/pseq/BOARD/games.csv.gz`` and the peer's outcomes and summary."""
    for name in PSEQ_README:
        run = results / "pseq" / name
        run.mkdir(parents=True)
        rows = "".join(f"pseq,{i},{w},0,x,1,0.001,1,1,0\n" for i, w in enumerate(pseq_won))
        header = "strategy,game,won,timed_out,outcome,moves,cpu_seconds,three_bv,revealed,guesses\n"
        (run / "games.csv.gz").write_bytes(gzip.compress((header + rows).encode()))
        peer = results / "pseq" / "peer" / name
        peer.mkdir(parents=True)
        rows_out = [f"{i}," + ",".join(str(passes[k][i]) for k in passes) for i in range(len(pseq_won))]
        lines = ["game," + ",".join(passes), *rows_out]
        (peer / "outcomes.csv.gz").write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
        summary = {"seed": seed, "positions": POSITIONS, "pseq_commit": "8f5a804469938f20",
                   "command": f"python benchmarks/peers/pseq_paired.py --pseq /tmp/pseqsrc --out /tmp/peer/{name}"}  # fmt: skip
        (peer / "summary.json").write_text(json.dumps(summary))


def test_the_paired_difference_is_against_the_mean_of_pseqs_passes(tmp_path):
    pseq_won = [1, 1, 0, 1]
    passes = {"published-1": [1, 0, 0, 1], "published-2": [1, 1, 0, 0], "corrected-1": [1, 1, 0, 1]}
    write_peer(tmp_path, VERDICT_SEED, pseq_won, passes)
    text = pseq_peer(tmp_path)
    # pseq - mean(published): (0, 0.5, 0, 0.5) -> +25.00; corrected: identical -> +0.00 ± 0.00
    assert "| expert | 4 | 75.00 | 50.00 / 50.00 | +25.00 ± 14.43 | 75.00 | +0.00 ± 0.00 |" in text
    assert "within two standard errors of PSEQ's own program on the same layouts on 3 of 3 boards" in text
    assert "| expert | 10 / 10 | 80.0% | 90.0% | 2 / 0 | 0 / 1 |" in text
    assert "--pseq MineSweeperProb" in text and "--out results/pseq/peer/expert" in text


def test_a_development_seed_cannot_carry_the_verdict(tmp_path):
    write_peer(tmp_path, 0, [1, 0], {"published-1": [1, 0], "published-2": [0, 0], "corrected-1": [1, 1]})
    with pytest.raises(ValueError, match=re.escape("results/pseq/peer/beginner/summary.json: seed 0 is not held out")):
        pseq_peer(tmp_path)
