"""benchmarks/best/best_calibrate.py: collect on a few games, the fit recovers a known worth, and its errors for bad input."""

from __future__ import annotations

import csv
import gzip
import importlib.util
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

if importlib.util.find_spec("scipy") is None:  # the `dev` extra brings it; make test installs it
    if os.environ.get("CI") == "true":
        raise RuntimeError("the best_calibrate tests need scipy: pip install -e '.[dev]' (make test does)")
    pytest.skip("scipy is not installed: pip install -e '.[dev]'", allow_module_level=True)

SCRIPT = Path(__file__).resolve().parents[3] / "benchmarks" / "best" / "best_calibrate.py"
FIELDS = ["game", "move", "covered", "living", "b1", "b2", "won"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300)


def write(path: Path, rows: list[list[object]], header: list[str] = FIELDS) -> None:
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(header)
    writer.writerows(rows)
    path.write_bytes(gzip.compress(text.getvalue().encode()))


def test_collect_records_the_surviving_look_ahead_guesses(tmp_path):
    out = tmp_path / "expert.csv.gz"
    done = run("collect", "--games", "30", "--seed", "5", "--jobs", "1", "--out", str(out))
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(gzip.decompress(out.read_bytes()).decode())))
    assert rows and list(rows[0]) == FIELDS
    for row in rows:
        assert 0 <= int(row["game"]) < 30 and int(row["living"]) in (0, 1, 2) and row["won"] in ("0", "1")
        assert 0 < int(row["covered"]) < 480 and 0.0 <= float(row["b2"]) <= float(row["b1"]) <= 1.0
    by_game: dict[str, set[str]] = {}
    for row in rows:
        by_game.setdefault(row["game"], set()).add(row["won"])
    assert all(len(outcomes) == 1 for outcomes in by_game.values())  # a game's guesses share its outcome
    sidecar = json.loads((tmp_path / "expert.json").read_text())
    assert sidecar["games"] == 30 and sidecar["positions"] == len(rows) and sidecar["board"] == "30x16x99"


def test_fit_takes_a_tiny_file(tmp_path):
    """One position, and three in one phase: every phase in the table has positions, and the fit still runs."""
    for rows in ([[0, 1, 400, 2, 0.8, 0.8, 1]], [[0, 1, 400, k, 0.8, 0.7, k % 2] for k in (0, 1, 2)]):
        write(tmp_path / "tiny.csv.gz", rows)
        done = run("fit", str(tmp_path / "tiny.csv.gz"), "--out", str(tmp_path / "fit"))
        assert done.returncode == 0, done.stderr
        data = json.loads((tmp_path / "fit" / "data.json").read_text())
        assert data["positions"] == len(rows) and data["collected"] is None
        assert all(p["n0"] + p["n1"] + p["n2"] > 0 for p in data["phases"])


def test_fit_recovers_a_known_worth(tmp_path):
    """Positions whose win chance is 0.7 * blend ** 2 with no counted safe cell and 0.7 with two: k0 comes out near 2."""
    rng = np.random.default_rng(3)
    rows = []
    for i in range(30_000):
        covered = int(rng.integers(100, 480))
        living = int(rng.choice([0, 2]))
        b1 = float(rng.uniform(0.6, 0.95))
        b2 = float(rng.uniform(0.5, b1))
        chance = 0.7 * ((4 * b1 + b2) / 5) ** 2 if living == 0 else 0.7
        rows.append([i, 1, covered, living, b1, b2, int(rng.random() < chance)])
    write(tmp_path / "synthetic.csv.gz", rows)
    done = run("fit", str(tmp_path / "synthetic.csv.gz"), "--out", str(tmp_path / "fit"))
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "fit" / "data.json").read_text())
    assert 1.7 < data["k0"] < 2.3
    assert data["log_likelihood_fitted"] > data["log_likelihood_hand_set"]
    assert sum(p["n0"] + p["n1"] + p["n2"] for p in data["phases"]) == data["positions"] == 30_000
    assert f"** {data['k0']:.2f}" in (tmp_path / "fit" / "table.md").read_text()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["collect", "--games", "0", "--out", "{tmp}/c.csv.gz"], "--games must be at least 1, not 0"),
        (["collect", "--games", "1", "--first-click", "30,0", "--out", "{tmp}/c.csv.gz"], "off the 30x16 board"),
        (["collect", "--games", "1", "--board", "3x3x99", "--out", "{tmp}/c.csv.gz"], "do not fit"),
        (["collect", "--games", "1", "--rule", "lucky", "--out", "{tmp}/c.csv.gz"], "--rule 'lucky'"),
        (["collect", "--games", "1", "--first-click", "3", "--out", "{tmp}/c.csv.gz"], "a first click is X,Y"),
        (["fit", "{tmp}/missing.csv.gz", "--out", "{tmp}/o"], "cannot read"),
        (["fit", "{tmp}/header.csv.gz", "--out", "{tmp}/o"], "the header is not"),
        (["fit", "{tmp}/words.csv.gz", "--out", "{tmp}/o"], "words.csv.gz, line 3: not a row of numbers"),
        (["fit", "{tmp}/empty.csv.gz", "--out", "{tmp}/o"], "no positions"),
        (["fit", "{tmp}/sidecar.csv.gz", "--out", "{tmp}/o"], "sidecar.json: not JSON"),
    ],
)
def test_bad_input_is_named(tmp_path, args, words):
    write(tmp_path / "header.csv.gz", [[1, 2, 3]], header=["a", "b", "c"])
    write(tmp_path / "words.csv.gz", [[0, 1, 400, 2, 0.8, 0.8, 1], [0, 2, "many", 2, 0.8, 0.8, 1]])
    write(tmp_path / "empty.csv.gz", [])
    write(tmp_path / "sidecar.csv.gz", [[0, 1, 400, 2, 0.8, 0.8, 1]])
    (tmp_path / "sidecar.json").write_text("{games: 3")
    done = run(*(a.replace("{tmp}", str(tmp_path)) for a in args))
    assert done.returncode != 0 and words in done.stderr and "Traceback" not in done.stderr, done.stderr
