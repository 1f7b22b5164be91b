"""The reference clients of examples/ (Python, JavaScript, C) through `sweeplab bench -s cmd:...` on 300 beginner
games against `reference`, the built-in player of the same rules: the same wins and the same moves on every game.
The JavaScript client needs `node` and the C client `cc` (the test compiles it); without them those tests are
skipped, saying so."""

import csv
import os
import shlex
import shutil
import subprocess

import pytest
from click.testing import CliRunner

from sweeplab.cli import main
from sweeplab.strategies import make
from sweeplab.strategies.external.reference import ReferenceStrategy, lowest_local

from .conftest import PYTHON_CLIENT, ROOT

GAMES = 300


def against_reference(tmp_path, spec):
    result = CliRunner().invoke(
        main, ["bench", "-s", f"reference,{spec}", "-b", "beginner", "-n", str(GAMES), "-j", "2", "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader((tmp_path / "games.csv").open()))
    by = {}
    for r in rows:
        by.setdefault(r["strategy"], {})[int(r["game"])] = (r["won"], r["moves"], r["outcome"])
    assert set(by) == {"reference", spec} and len(by[spec]) == GAMES
    assert by[spec] == by["reference"]  # same wins, moves and outcomes (the guesses too), game by game
    assert "only reference won 0" in result.output
    assert 0.6 < sum(w == "1" for w, _, _ in by[spec].values()) / GAMES < 0.9


def test_the_python_client_plays_as_reference(tmp_path):
    against_reference(tmp_path, PYTHON_CLIENT)


def missing(tool: str) -> bool:
    """Whether ``tool`` is not on PATH, for a skip on a developer's machine; under CI (``CI`` set) never: `make test`
    installs it there, and a missing tool must fail the run rather than skip its test."""
    return shutil.which(tool) is None and not os.environ.get("CI")


@pytest.mark.skipif(missing("node"), reason="the JavaScript client needs Node (`node` is not on PATH)")
def test_the_javascript_client_plays_as_reference(tmp_path):
    against_reference(tmp_path, f"cmd:node {shlex.quote(str(ROOT / 'examples' / 'javascript' / 'client.js'))}")


@pytest.mark.skipif(missing("cc"), reason="the C client needs a C compiler (`cc` is not on PATH)")
def test_the_c_client_plays_as_reference(tmp_path):
    binary = tmp_path / "client"
    source = ROOT / "examples" / "c" / "client.c"
    subprocess.run(["cc", "-O2", "-std=c99", "-Wall", "-Wextra", "-Werror", "-o", str(binary), str(source)], check=True)
    against_reference(tmp_path / "run", f"cmd:{shlex.quote(str(binary))}")


def test_reference_opens_in_the_corner_then_plays_the_trivial_rules():
    from sweeplab.core.game import Game
    from sweeplab.core.rules import Rules

    game = Game(Rules(9, 9, 10, "safe"), 4)
    player = make("reference", seed=0)
    assert isinstance(player, ReferenceStrategy)
    first = player.choose(game.observation())
    assert first.cell == 0 and player.guesses == [] and player.pending_guess.kind == "first"
    cell, p = lowest_local(game.observation())
    assert (cell, p) == (0, 10 / 81)


def test_the_overhead_benchmark_runs_and_writes_its_table(tmp_path):
    import json

    from tests.bench import scripts

    result = scripts.run("protocol_overhead", "--games", "20", "--chunks", "2", "--out", str(tmp_path / "o"))
    assert result.returncode == 0, result.stderr
    data = json.loads((tmp_path / "o.json").read_text())
    assert [r["board"] for r in data["rows"]] == ["9x9x10", "30x16x99"]
    assert all(r["same_wins"] and r["same_moves"] for r in data["rows"]) and data["round_trip"]["wall_us"] > 0
    assert "bare round trip per answer" in (tmp_path / "o.txt").read_text()
