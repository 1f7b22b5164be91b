import math
import random

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from sweeplab.analysis.search.local_search import (
    METHODS,
    format_layout,
    landscape,
    penalty,
    search,
)
from sweeplab.cli import main
from sweeplab.core.errors import InconsistentPositionError, SweeplabError
from sweeplab.core.game import Game
from sweeplab.core.observation import FLAGGED
from sweeplab.core.rules import Rules
from sweeplab.formats.position import parse_position

EASY = "5x3x3\n1H1HH\n2HHHH\nHHHHH\n"
WITH_FLAG = "4x3x3\nF2HH\n2HHH\nHHHH\n"
IMPOSSIBLE = "3x2x1\n2HH\nHH2\n"  # each 2 needs two mines, the board has one


def opened(seed):
    """A real position: a beginner game after its first click in the centre."""
    game = Game(Rules(9, 9, 10, "safe"), seed)
    game.reveal(40)
    return game.observation()


def assert_consistent(obs, layout):
    assert penalty(obs, layout) == 0
    assert set(obs.flagged()) <= layout
    assert not any(obs.view[c] >= 0 for c in layout)
    assert len(layout) == obs.mines


def test_penalty_by_hand():
    obs = parse_position("3x2x2\n12H\nHHH\n")
    # the 1 at (0,0) sees cells 1, 3, 4 (1 is revealed); the 2 at (1,0) sees 0, 2, 3, 4, 5
    assert penalty(obs, {2, 4}) == 0
    assert penalty(obs, {3, 5}) == 0
    assert penalty(obs, {2, 5}) == (1 - 0) ** 2 + (2 - 2) ** 2 == 1
    assert penalty(obs, set()) == 1 + 4
    assert penalty(obs, {3, 4}) == (1 - 2) ** 2 + 0 == 1


def test_penalty_counts_flags_as_the_layout_says():
    obs = parse_position(WITH_FLAG)
    assert penalty(obs, {0, 6, 8}) == 0  # the flag (0) is in the layout
    assert penalty(obs, {6, 9, 10}) == (2 - 1) ** 2 + (2 - 1) ** 2  # without it both 2s fall one short


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 10_000))
def test_landscape_penalty_agrees_with_the_definition(game_seed, layout_seed):
    obs = opened(game_seed)
    land = landscape(obs)
    rng = random.Random(layout_seed)
    state = [0] * len(land.cells)
    for v in rng.sample(range(len(land.cells)), land.mines):
        state[v] = 1
    assert land.penalty(state) == penalty(obs, land.layout(state))


@pytest.mark.parametrize("method", METHODS)
def test_every_method_finds_a_layout_on_easy_positions(method):
    for text in (EASY, WITH_FLAG):
        obs = parse_position(text)
        result = search(obs, method, random.Random(0), budget=20_000)
        assert result.found and result.penalty == 0 and result.iterations <= 20_000
        assert_consistent(obs, result.layout)


@pytest.mark.parametrize("method", ["hc", "sa", "ga"])
def test_methods_solve_real_beginner_positions(method):
    for seed in range(3):
        obs = opened(seed)
        result = search(obs, method, random.Random(seed), budget=50_000, seconds=20)
        assert result.found, (seed, result)
        assert_consistent(obs, result.layout)


@pytest.mark.parametrize("method", METHODS)
def test_impossible_position_is_not_found_within_budget(method):
    result = search(parse_position(IMPOSSIBLE), method, random.Random(0), budget=500)
    assert not result.found and result.penalty > 0 and result.iterations <= 500
    assert len(result.layout) == 1


@pytest.mark.parametrize("method", ["sa", "ga", "hc", "rs"])
def test_deterministic_for_a_seed(method):
    obs = opened(7)
    a = search(obs, method, random.Random(42), budget=3000, seconds=math.inf)
    b = search(obs, method, random.Random(42), budget=3000, seconds=math.inf)
    assert (a.layout, a.penalty, a.iterations, a.found) == (b.layout, b.penalty, b.iterations, b.found)


def test_different_seeds_find_different_layouts():
    obs = parse_position(EASY)
    layouts = {search(obs, "sa", random.Random(s), budget=5000).layout for s in range(20)}
    assert len(layouts) > 1


def test_time_budget_stops_a_search():
    # a position no layout fits, with a huge iteration budget: the clock ends it
    result = search(parse_position(IMPOSSIBLE), "sa", random.Random(0), budget=10**9, seconds=0.2)
    assert not result.found and result.seconds < 2.0


def test_bad_inputs():
    with pytest.raises(SweeplabError, match="unknown local-search method"):
        search(parse_position(EASY), "tabu", random.Random(0))
    with pytest.raises(InconsistentPositionError, match="2 mine"):
        landscape(parse_position("2x1x2\n1H\n"))


def test_format_layout():
    obs = parse_position("3x2x2\n12H\nHHH\n")
    assert format_layout(obs, {2, 4}) == "12*\n.*."


# ----- the CLI -----


def write(tmp_path, text):
    path = tmp_path / "position.txt"
    path.write_text(text)
    return str(path)


def run(*args):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("method", [*METHODS, "exact"])
def test_cli_found_exits_0_and_prints_the_layout(tmp_path, method):
    result = run("consistent", write(tmp_path, EASY), "--method", method, "--budget", "5000", "--seed", "3")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith(f"{method}: consistent layout found; penalty 0")
    board = lines[1:]
    assert len(board) == 3 and all(len(row) == 5 for row in board)
    assert "".join(board).count("*") == 3
    assert board[0][0] == "1" and board[1][0] == "2"


def test_cli_flags_stay_mines(tmp_path):
    result = run("consistent", write(tmp_path, WITH_FLAG), "-m", "sa")
    assert result.exit_code == 0 and result.output.splitlines()[1][0] == "*"
    assert parse_position(WITH_FLAG).view[0] == FLAGGED


@pytest.mark.parametrize("method", METHODS)
def test_cli_local_search_not_found_exits_4_undecided(tmp_path, method):
    result = run("consistent", write(tmp_path, IMPOSSIBLE), "-m", method, "--budget", "200")
    assert result.exit_code == 4, result.output
    assert "no consistent layout found within the budget" in result.output


def test_cli_exact_proves_inconsistent_exits_3(tmp_path):
    result = run("consistent", write(tmp_path, IMPOSSIBLE), "-m", "exact")
    assert result.exit_code == 3, result.output
    assert "the position is inconsistent" in result.output


def test_cli_bad_input_exits_2(tmp_path):
    result = run("consistent", str(tmp_path / "missing.txt"))
    assert result.exit_code == 2 and "cannot read it" in result.output
    result = run("consistent", write(tmp_path, "3x1x1\n1H\n"))
    assert result.exit_code == 2 and "row 0 has 2 cells" in result.output
    result = run("consistent", write(tmp_path, "2x1x2\n1H\n"))  # proved inconsistent: 2 mines, 1 covered cell
    assert result.exit_code == 3 and "only 1 covered" in result.output
    result = run("consistent", write(tmp_path, EASY), "--method", "tabu")
    assert result.exit_code == 2
    result = run("consistent", write(tmp_path, EASY), "--budget", "0")
    assert result.exit_code == 2
