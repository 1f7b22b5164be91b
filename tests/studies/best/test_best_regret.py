"""benchmarks/best/best_regret.py: collect and evaluate on a few games, and its errors for bad input."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[3] / "benchmarks" / "best" / "best_regret.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300)


def test_collect_then_evaluate(tmp_path):
    positions = tmp_path / "positions.jsonl.gz"
    done = run("collect", "--games", "40", "--seed", "33", "--jobs", "1", "--out", str(positions))
    assert done.returncode == 0, done.stderr
    with gzip.open(positions, "rt") as f:
        rows = [json.loads(line) for line in f]
    assert rows and all(30 <= row["layouts"] <= 3000 for row in rows)
    sidecar = json.loads((tmp_path / "positions.json").read_text())
    assert sidecar["games"] == 40 and sidecar["positions"] == len(rows)
    out = tmp_path / "eval"
    done = run(
        "evaluate", str(positions), "--strategy", "best[endgame=False]", "--strategy", "exact", "--jobs", "1", "--out", str(out)
    )
    assert done.returncode == 0, done.stderr
    data = json.loads((out / "data.json").read_text())
    assert data["collected"] == sidecar and data["positions_searched"] == len(rows)
    first, second = data["strategies"]
    assert first["difference_points"] == 0 and first["regret_points"] >= 0 and second["regret_points"] >= 0
    assert (out / "table.md").read_text().count("\n| `") == 2


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["collect", "--games", "0", "--out", "{tmp}/p.jsonl.gz"], "--games must be at least 1, not 0"),
        (["collect", "--games", "3", "--low", "9", "--high", "3", "--out", "{tmp}/p.jsonl.gz"], "low <= high"),
        (["evaluate", "{tmp}/missing.jsonl.gz", "--strategy", "exact", "--out", "{tmp}/o"], "cannot read"),
        (["evaluate", "{tmp}/bad.jsonl.gz", "--strategy", "exact", "--out", "{tmp}/o"], "bad.jsonl.gz, line 2"),
        (["evaluate", "{tmp}/bad.jsonl.gz", "--strategy", "best[off_edge=0]", "--out", "{tmp}/o"], "off_edge must be"),
        (["evaluate", "{tmp}/bad.jsonl.gz", "--strategy", "nope", "--out", "{tmp}/o"], "unknown strategy 'nope'"),
        (["evaluate", "{tmp}/cut.jsonl.gz", "--strategy", "exact", "--out", "{tmp}/o"], "cannot read"),
        (["evaluate", "{tmp}/latin.jsonl.gz", "--strategy", "exact", "--out", "{tmp}/o"], "cannot read"),
    ],
)
def test_bad_input_is_named(tmp_path, args, words):
    with gzip.open(tmp_path / "bad.jsonl.gz", "wt") as f:
        f.write(json.dumps({"position": "3x1x1\n1HH\n"}) + "\n" + json.dumps({"position": "3x1x1\n9HH\n"}) + "\n")
    whole = (tmp_path / "bad.jsonl.gz").read_bytes()
    (tmp_path / "cut.jsonl.gz").write_bytes(whole[: len(whole) // 2])  # a gzip stream cut short
    (tmp_path / "latin.jsonl.gz").write_bytes(gzip.compress('{"position": "caf\u00e9"}\n'.encode("latin-1")))
    done = run(*(a.replace("{tmp}", str(tmp_path)) for a in args))
    assert done.returncode != 0 and words in done.stderr and "Traceback" not in done.stderr, done.stderr
