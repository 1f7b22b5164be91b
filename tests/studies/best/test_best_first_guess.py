"""benchmarks/best/best_first_guess.py: the symmetry classes, a small survey, the paired comparison, and named errors."""

from __future__ import annotations

import csv
import gzip
import io
import json
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest

from sweeplab.studies.best import section
from tests.bench import scripts

SCRIPT = scripts.path("best_first_guess")
survey = scripts.load("best_first_guess")
run = partial(scripts.run, "best_first_guess")


def rows_of(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(gzip.decompress(path.read_bytes()).decode())))


def write(path: Path, rows: list[list[object]], header: tuple[str, ...] = survey.FIELDS) -> None:
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(header)
    writer.writerows(rows)
    path.write_bytes(gzip.compress(text.getvalue().encode()))
    path.with_name(path.name.split(".")[0] + ".json").write_text(
        json.dumps({"board": "9x9x10", "rule": "safe", "first_click": [0, 0], "layouts": 9, "seed": 1, "candidates": [[3, 0]]})
    )


@pytest.mark.parametrize(
    ("width", "height", "first", "classes"),
    [
        (9, 9, (0, 0), 44),  # the diagonal mirror keeps the corner: (81 - 9) / 2 + 9 - 1
        (30, 16, (0, 0), 479),  # no symmetry of a non-square board keeps a corner
        (9, 9, (4, 4), 14),  # all eight keep the centre: 15 classes of cells, less the centre
        (30, 16, (14, 7), 479),  # off the middle lines: nothing but the identity
        (3, 1, (1, 0), 1),  # the two ends mirror each other
    ],
)
def test_symmetric_cells_are_one_per_class(width, height, first, classes):
    cells = survey.symmetric_cells(width, height, first)
    assert len(cells) == classes and first not in cells and len(set(cells)) == len(cells)


def test_collect_plays_best_and_each_forced_guess_on_the_same_layouts(tmp_path):
    """`best` opens (0,0) and, when it shows a number, guesses the far corner (8,0): the candidate (8,0) forced is the
    same game, so it is won exactly when `best`'s own game is."""
    out = tmp_path / "b.csv.gz"
    done = run("collect", "--layouts", "30", "--seed", "3", "--jobs", "1", "--cells", "8,0 2,2", "--out", str(out))
    assert done.returncode == 0, done.stderr
    rows = rows_of(out)
    games: dict[str, dict[str, str]] = {}
    for row in rows:
        assert int(row["k"]) >= 1 and row["won"] in ("0", "1")
        games.setdefault(row["layout"], {})[row["candidate"]] = row["won"]
    assert games and all(set(g) == {"best", "8,0", "2,2"} for g in games.values())
    assert all(g["8,0"] == g["best"] for g in games.values())
    assert {row["cell"] for row in rows if row["candidate"] == "best"} == {"8"}
    sidecar = json.loads((tmp_path / "b.json").read_text())
    assert sidecar["layouts"] == 30 and sidecar["guessed"] == len(games) and sidecar["candidates"] == [[8, 0], [2, 2]]
    done = run("summarise", str(out), "--out", str(tmp_path / "s"))
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "s" / "data.json").read_text())
    first = data["boards"][0]["positions"][0]
    assert first["best_cells"] == [8] and {c["cell"] for c in first["candidates"]} == {"8,0", "2,2"}
    assert "(8,0)" in (tmp_path / "s" / "table.md").read_text()
    # the docs section (docs/results.md, through resultsdoc) shows it, with the commands that made it
    results = tmp_path / "results" / "best" / "first-guess"
    results.mkdir(parents=True)
    (results / "data.json").write_bytes((tmp_path / "s" / "data.json").read_bytes())
    text = section(tmp_path / "results")
    assert "### First guesses" in text and "| 9x9x10 safe (0, 0) | 1 |" in text and "| (8, 0) |" in text
    assert '--seed 3 --cells "8,0 2,2" --out ' in text and "best_first_guess.py summarise" in text


def test_compare_pairs_by_layout_and_needs_the_bar():
    rows = []
    for layout in range(100):  # `best` wins 50, "a" the same 50 and 10 more, "b" 49 of best's 50
        best, a, b = layout < 50, layout < 60, layout < 49
        rows += [
            {"layout": layout, "k": 1, "candidate": "best", "cell": 8, "won": int(best)},
            {"layout": layout, "k": 1, "candidate": "a", "cell": 3, "won": int(a)},
            {"layout": layout, "k": 1, "candidate": "b", "cell": 4, "won": int(b)},
        ]
    (position,) = survey.compare(rows)
    assert position["layouts"] == 100 and position["best_win"] == 0.5
    a, b = position["candidates"]
    assert (a["cell"], b["cell"]) == ("a", "b")
    assert a["difference"] == pytest.approx(0.10) and a["se"] == pytest.approx((9 / 99 / 100) ** 0.5)
    assert b["difference"] == pytest.approx(-0.01)
    assert position["better"] == ["a"]  # +0.10 is more than 3 SE (0.03)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["collect", "--layouts", "3", "--cells", "2;2"], ["--cells", "'2;2'"]),
        (["collect", "--layouts", "3", "--cells", "9,0"], ["--cells", "9,0", "off the 9x9"]),
        (["collect", "--layouts", "3", "--cells", "0,0"], ["0,0", "the first click"]),
        (["collect", "--layouts", "3", "--cells", "1,2 1,2"], ["1,2", "twice"]),
        (["collect", "--layouts", "3", "--rule", "zero"], ["--rule zero", "opens an area"]),
        (["collect", "--layouts", "3", "--rule", "hint"], ["--rule hint", "a cell of its own"]),
        (["collect", "--layouts", "0"], ["--layouts", "at least 1"]),
        (["collect", "--layouts", "3", "--shown", "0"], ["--shown", "1 to 8", "not 0"]),
        (["collect", "--layouts", "3", "--first-click", "a"], ["--first-click", "'a'"]),
        (["collect", "--layouts", "3", "--board", "3x3x20"], ["--board", "3x3x20"]),
        (["summarise", "missing.csv.gz", "--out", "o"], ["cannot read", "missing.csv.gz"]),
    ],
)
def test_bad_arguments_are_named(tmp_path, args, words):
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args, *([] if args[0] == "summarise" else ["--out", "x.csv.gz"])],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode != 0
    for word in words:
        assert word in done.stderr, done.stderr


@pytest.mark.parametrize(
    ("rows", "header", "words"),
    [
        ([[0, 1, "best", 8, 1]], ("layout", "k", "cell", "won"), ["the header is not"]),
        ([[0, 1, "best", 8, 2]], survey.FIELDS, ["line 2", "won must be 0 or 1"]),
        ([[0, "one", "best", 8, 1]], survey.FIELDS, ["line 2", "not a row"]),
        ([], survey.FIELDS, ["no layout needed a first guess"]),
        ([[0, 1, "a", 3, 1]], survey.FIELDS, ["k = 1", "no game of `best`"]),
        ([[0, 1, "best", 8, 1], [1, 1, "best", 8, 0], [1, 1, "a", 3, 1]], survey.FIELDS, ["candidate a", "missing"]),
    ],
)
def test_bad_files_are_named(tmp_path, rows, header, words):
    path = tmp_path / "s.csv.gz"
    write(path, rows, header)
    done = run("summarise", str(path), "--out", str(tmp_path / "out"))
    assert done.returncode != 0
    for word in words:
        assert word in done.stderr, done.stderr


def test_a_missing_or_broken_sidecar_is_named(tmp_path):
    path = tmp_path / "s.csv.gz"
    write(path, [[0, 1, "best", 8, 1]])
    sidecar = tmp_path / "s.json"
    sidecar.write_text(json.dumps({"board": "9x9x10"}))
    done = run("summarise", str(path), "--out", str(tmp_path / "out"))
    assert done.returncode != 0 and "s.json" in done.stderr and "no 'rule'" in done.stderr
    sidecar.write_text("{not json")
    done = run("summarise", str(path), "--out", str(tmp_path / "out"))
    assert done.returncode != 0 and "s.json" in done.stderr and "not JSON" in done.stderr
    sidecar.unlink()
    done = run("summarise", str(path), "--out", str(tmp_path / "out"))
    assert done.returncode != 0 and "s.json" in done.stderr


def test_shown_surveys_one_number_only(tmp_path):
    out = tmp_path / "two.csv.gz"
    done = run("collect", "--layouts", "60", "--seed", "3", "--jobs", "1", "--shown", "2", "--cells", "2,2", "--out", str(out))
    assert done.returncode == 0, done.stderr
    rows = rows_of(out)
    assert rows and {row["k"] for row in rows} == {"2"}
    sidecar = json.loads((tmp_path / "two.json").read_text())
    assert sidecar["shown"] == 2 and "--shown 2" in survey.command(sidecar, out)


def test_lookahead_scores_rank_best_s_own_cell_first():
    """On 9x9/10 with (0,0) showing 1, `best` guesses the far corner (8,0): its score is the highest, above a cell
    beside the number (2,2) and a cell of the number itself (1,1, one chance in three of a mine)."""
    settings = {"board": "9x9x10", "rule": "safe", "first_click": [0, 0]}
    scores = survey.lookahead_scores(settings, 1, [8, 20, 10])
    assert scores[8] > scores[20] > scores[10] > 0
    assert scores[10] <= 2 / 3  # a score is at most the cell's safety


def test_spearman():
    assert survey.spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert survey.spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert survey.spearman([1, 1, 2], [5, 5, 9]) == pytest.approx(1.0)  # ties share their mean rank
    assert survey.spearman([1, 2], [1, 2]) is None and survey.spearman([1, 1, 1], [1, 2, 3]) is None
