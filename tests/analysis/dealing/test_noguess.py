"""The noguess dealer: every layout opens at the click and is cleared by certain deductions alone, checked by brute
force over every layout on small boards and by the exact strategy (never guessing) on the presets."""

from __future__ import annotations

import random
import subprocess
import sys
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sweeplab.analysis.dealing.noguess import NoGuessReport, deal_noguess, solve_certain
from sweeplab.core.errors import ArgumentError, BoardSpecError
from sweeplab.core.game import Game, GameState
from sweeplab.core.geometry import Board
from sweeplab.core.rules import Rules, make_rules
from sweeplab.strategies.base import play
from sweeplab.strategies.registry import make


def brute_force_clears(width: int, height: int, mines: set[int], click: int) -> bool:
    """Whether the layout is cleared from ``click`` by revealing only cells that are safe in every layout of the
    mine count consistent with what is shown (each layout enumerated; no engine involved)."""
    board = Board(width, height)
    cells = board.cells
    around = [sum(1 << n for n in board.neighbours[c]) for c in range(cells)]
    number = [sum(n in mines for n in board.neighbours[c]) for c in range(cells)]
    layouts = [sum(1 << c for c in chosen) for chosen in combinations(range(cells), len(mines))]
    shown: set[int] = set()

    def reveal(cell: int) -> list[int]:
        opened, stack = [], [cell]
        while stack:
            c = stack.pop()
            if c in shown:
                continue
            shown.add(c)
            opened.append(c)
            if number[c] == 0:
                stack.extend(board.neighbours[c])
        return opened

    new = reveal(click)
    while len(shown) < cells - len(mines):
        layouts = [lay for lay in layouts if all(not lay >> c & 1 and (lay & around[c]).bit_count() == number[c] for c in new)]
        assert layouts, "the true layout is always consistent"
        anywhere = 0
        for lay in layouts:
            anywhere |= lay
        safe = [c for c in range(cells) if c not in shown and not anywhere >> c & 1]
        if not safe:
            return False
        new = [c for cell in safe if cell not in shown for c in reveal(cell)]
    return True


def opens_at(rules: Rules, mines: set[int], click: int) -> bool:
    return not ({click, *rules.board.neighbours[click]} & mines)


@pytest.mark.parametrize(
    ("width", "height", "count", "x", "y"), [(5, 5, 5, 0, 0), (5, 5, 6, 2, 2), (6, 4, 5, 1, 1), (4, 4, 3, 3, 3)]
)
@pytest.mark.parametrize("repair", [True, False])
def test_small_layouts_clear_without_guessing_by_brute_force(width, height, count, x, y, repair):
    rules = Rules(width, height, count, "noguess")
    click = rules.board.index(x, y)
    for seed in range(6):
        attempts = {"uniform_attempts": 0} if repair else {"uniform_attempts": 10_000, "repair_attempts": 0}
        mines, report = deal_noguess(rules, click, random.Random(seed), **attempts)
        assert report.kept and len(set(mines)) == count
        assert opens_at(rules, set(mines), click)
        assert brute_force_clears(width, height, set(mines), click), (seed, sorted(mines))
        assert report.attempts == report.rejected + 1
        assert report.repaired == (report.moves > 0)  # only repairs move mines
        if not repair:
            assert report.moves == 0


def test_brute_force_check_can_fail():
    # a 50/50 at the end: the two cells of the right column's corner, one mine between them
    rules = Rules(3, 2, 1, "noguess")
    assert not brute_force_clears(3, 2, {2}, 0) and solve_certain(rules, [2], 0) == (5,)
    assert brute_force_clears(3, 3, {8}, 0) and solve_certain(Rules(3, 3, 1, "noguess"), [8], 0) == ()


@pytest.mark.parametrize(("board", "x", "y"), [("beginner", 0, 0), ("intermediate", 2, 2), ("expert", 3, 3), ("expert", 0, 0)])
def test_exact_wins_every_game_without_a_guess(board, x, y):
    rules = make_rules(board, "noguess")
    click = rules.board.index(x, y)
    for seed in range(4):
        game = Game(rules, seed)
        game.reveal(click)
        mines = game.mine_cells()
        assert len(mines) == rules.mines and game.number(click) == 0 and opens_at(rules, set(mines), click)
        assert game.rule_kept and isinstance(game.deal_report, NoGuessReport) and game.deal_report.kept
        strategy = make("exact")
        play(strategy, game)
        assert game.state is GameState.WON
        assert strategy.guesses == [], [g.kind for g in strategy.guesses]


def test_a_seed_deals_the_same_layout():
    rules = make_rules("expert", "noguess")
    first, second = Game(rules, 11), Game(rules, 11)
    first.reveal(100)
    second.reveal(100)
    assert first.mine_cells() == second.mine_cells()
    other = Game(rules, 12)
    other.reveal(100)
    assert other.mine_cells() != first.mine_cells()
    a, report_a = deal_noguess(rules, 100, random.Random(5))
    b, report_b = deal_noguess(rules, 100, random.Random(5))
    assert a == b and (report_a.moves, report_a.rejected) == (report_b.moves, report_b.rejected)


def test_a_board_too_dense_to_open_keeps_the_click_safe_and_says_so():
    rules = Rules(4, 4, 11, "noguess")  # a corner's neighbourhood fits, the middle's does not
    game = Game(rules, 1)
    game.reveal(5)
    assert game.state is not GameState.LOST and not game.rule_kept
    assert "no room to keep (1, 1)" in (game.rule_failure or "")


def test_a_dealer_that_gives_up_says_so():
    rules = make_rules("expert", "noguess")
    mines, report = deal_noguess(rules, 0, random.Random(3), uniform_attempts=1, repair_attempts=0)
    assert not report.kept and report.rejected == 1 and report.attempts == 1
    assert "1 attempts" in (report.failure or "") and len(mines) == 99
    assert solve_certain(rules, mines, 0)  # it really is stuck somewhere


def test_the_report_reads_as_a_dict():
    _, report = deal_noguess(make_rules("beginner", "noguess"), 0, random.Random(0))
    data = report.as_dict()
    assert set(data) == {"kept", "seconds", "attempts", "rejected", "moves", "analyses", "repaired", "failure"}
    assert data["kept"] and data["seconds"] >= 0


def test_solve_certain_names_a_wrong_layout():
    rules = Rules(3, 3, 1, "noguess")
    with pytest.raises(ArgumentError, match="none under the click"):
        solve_certain(rules, [0], 0)
    with pytest.raises(BoardSpecError, match="mine 9 is off the 3x3 board"):
        solve_certain(rules, [9], 0)


def test_the_certain_play_agrees_with_brute_force_on_uniform_layouts():
    rules = Rules(5, 5, 5, "noguess")
    rng = random.Random(7)
    verdicts = set()
    for _ in range(25):
        click = rng.randrange(25)
        free = [c for c in range(25) if c not in {click, *rules.board.neighbours[click]}]
        mines = rng.sample(free, 5)
        clears = brute_force_clears(5, 5, set(mines), click)
        assert clears == (solve_certain(rules, mines, click) == ()), (click, sorted(mines))
        verdicts.add(clears)
    assert verdicts == {True, False}  # both kinds of layout were met


def test_deal_noguess_needs_an_attempt():
    with pytest.raises(ArgumentError, match="at least one attempt"):
        deal_noguess(Rules(3, 3, 1, "noguess"), 0, random.Random(0), uniform_attempts=0, repair_attempts=0)


def test_a_board_too_dense_for_uniform_draws_is_repaired_and_still_clears():
    rules = Rules(30, 16, 130, "noguess")
    for seed in range(2):
        game = Game(rules, seed)
        game.reveal(rules.board.index(3, 3))
        report = game.deal_report
        assert isinstance(report, NoGuessReport) and report.kept and report.repaired and report.moves > 0
        assert report.rejected >= 100 and len(game.mine_cells()) == 130
        strategy = make("exact")
        play(strategy, game)
        assert game.state is GameState.WON and strategy.guesses == []


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.floats(0, 1), st.data())
def test_any_board_deals_a_verified_layout_or_says_why(width, height, density, data):
    board = Board(width, height)
    cap = board.cells - min(len(n) for n in board.neighbours) - 1
    rules = Rules(width, height, round(cap * density), "noguess")
    click = data.draw(st.integers(0, board.cells - 1))
    seed = data.draw(st.integers(0, 2**32))
    mines, report = deal_noguess(rules, click, random.Random(seed), uniform_attempts=3, repair_attempts=3)
    assert len(set(mines)) == rules.mines and click not in mines
    if report.kept:
        assert opens_at(rules, set(mines), click) and solve_certain(rules, mines, click) == ()
    else:
        assert report.failure
        roomy = board.cells - len(board.neighbours[click]) - 1 >= rules.mines
        assert ("no room" not in report.failure) == roomy
        assert opens_at(rules, set(mines), click) or not roomy  # moves never touch the revealed cells


def test_importing_strategies_registers_the_dealer_and_core_alone_says_what_to_import():
    game = "from sweeplab.core.game import Game; from sweeplab.core.rules import make_rules; "
    game += "g = Game(make_rules('beginner', 'noguess'), 1); g.reveal(0); print(g.rule_kept, len(g.mine_cells()))"
    dealt = subprocess.run([sys.executable, "-c", "import sweeplab.strategies; " + game], capture_output=True, text=True)
    assert dealt.returncode == 0 and dealt.stdout.split() == ["True", "10"], dealt.stderr
    alone = subprocess.run([sys.executable, "-c", game], capture_output=True, text=True)
    assert alone.returncode != 0 and "import sweeplab.analysis " in alone.stderr
