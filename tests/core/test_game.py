"""The engine's rules, with Hypothesis properties for its invariants."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sweeplab.core.errors import ArgumentError, IllegalMoveError, RuleError
from sweeplab.core.game import Game, GameState, Move
from sweeplab.core.observation import COVERED, FLAGGED
from sweeplab.core.rules import Rules

rules_st = st.builds(
    lambda w, h, frac, rule: Rules(w, h, _mines(w, h, frac, rule), rule),
    st.integers(1, 12),
    st.integers(1, 12),
    st.floats(0, 1),
    st.sampled_from(["unsafe", "safe", "xp", "zero", "hint"]),
)


def _mines(w, h, frac, rule):
    cells = w * h
    cap = {"unsafe": cells, "safe": cells - 1, "xp": cells - 1, "hint": cells - 1}.get(rule)
    if cap is None:  # zero: the smallest zone is a corner's
        cap = cells - (min(w, 2) * min(h, 2))
    return int(frac * max(cap, 0))


def _numbers_ok(game):
    mines = game.mine_cells()
    view = game.observation().view
    for c, v in enumerate(view):
        if v >= 0:
            assert c not in mines
            assert v == sum(n in mines for n in game.board.neighbours[c])


@settings(max_examples=150, deadline=None)
@given(rules_st, st.integers(0, 2**32), st.data())
def test_first_click_guarantees_and_mine_count(rules, seed, data):
    game = Game(rules, seed)
    cell = data.draw(st.integers(0, rules.width * rules.height - 1))
    if game.over or game.observation().view[cell] != COVERED:  # the hint opened it already
        assert rules.first_click == "hint"
        return
    before = game.mine_cells() if game.dealt else None
    game.reveal(cell)
    mines = game.mine_cells()
    assert len(mines) == rules.mines  # mine count conserved
    if rules.first_click == "safe":
        assert cell not in mines
    if rules.first_click == "zero":
        assert cell not in mines
        if rules.width * rules.height - 1 - len(game.board.neighbours[cell]) >= rules.mines:
            assert not mines & set(game.board.neighbours[cell])
        # the promise is that the click opens; rule_kept reports exactly whether it did
        assert game.rule_kept == (not mines & set(game.board.neighbours[cell]))
        assert (game.rule_failure is None) == game.rule_kept
    else:
        assert game.rule_kept and game.rule_failure is None
    if rules.first_click == "unsafe":
        assert before == mines
    if rules.first_click == "xp":
        assert cell not in mines
        moved = before - mines
        if moved:
            assert moved == {cell}
            (target,) = mines - before
            assert all(c in before for c in range(target) if c != cell)
    if game.state is not GameState.LOST:
        _numbers_ok(game)


@settings(max_examples=100, deadline=None)
@given(rules_st, st.integers(0, 2**32))
def test_hint_opens_a_safe_cell_in_the_sparsest_window(rules, seed):
    if rules.first_click != "hint":
        rules = Rules(rules.width, rules.height, min(rules.mines, rules.width * rules.height - 1), "hint")
    game = Game(rules, seed)
    assert game.hint is not None and game.hint not in game.mine_cells()
    assert game.observation().view[game.hint] >= 0
    assert game.moves == 0


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 14), st.integers(2, 14), st.floats(0, 0.5), st.integers(0, 2**32), st.data())
def test_flood_fill_opens_the_zero_region_and_its_border(w, h, density, seed, data):
    rules = Rules(w, h, int(w * h * density), "unsafe")
    game = Game(rules, seed)
    mines = game.mine_cells()
    safe = [c for c in range(w * h) if c not in mines]
    if not safe:
        return
    cell = data.draw(st.sampled_from(safe))
    opened = set(game.reveal(cell))
    # expected: the connected region of zeros reachable from cell, plus its border
    nb = game.board.neighbours
    expected = {cell}
    if game.number(cell) == 0:
        stack = [cell]
        while stack:
            for n in nb[stack.pop()]:
                if n not in expected:
                    expected.add(n)
                    if game.number(n) == 0:
                        stack.append(n)
    assert opened == expected
    assert not opened & mines


@settings(max_examples=100, deadline=None)
@given(rules_st, st.integers(0, 2**32), st.lists(st.integers(0, 10_000), max_size=40))
def test_observation_never_leaks_and_replay_reproduces(rules, seed, picks):
    game = Game(rules, seed)
    for pick in picks:
        if game.over:
            break
        view = game.observation().view
        covered = [c for c, v in enumerate(view) if v == COVERED]
        flagged = [c for c, v in enumerate(view) if v == FLAGGED]
        options = [Move.reveal(c) for c in covered] + [Move.flag(c) for c in covered[:3]] + [Move.unflag(c) for c in flagged]
        if not options:
            break
        game.apply(options[pick % len(options)])
        obs = game.observation()
        # the observation carries only the view: every revealed value is the true number of a safe cell
        assert not hasattr(obs, "__dict__") and not hasattr(obs, "_mine")
        if game.dealt and game.state is not GameState.LOST:
            _numbers_ok(game)
    again = Game.replay(rules, seed, game.history)
    assert again.observation() == game.observation()
    assert again.state is game.state
    if game.dealt:
        assert again.mine_cells() == game.mine_cells()


def test_observation_fields_are_only_the_view():
    obs = Game(Rules(9, 9, 10, "unsafe"), 1).observation()
    assert set(obs.__slots__) == {"board", "mines", "view", "moves"}


def test_same_seed_same_layout_different_seed_differs():
    r = Rules(30, 16, 99, "unsafe")
    assert Game(r, 5).mine_cells() == Game(r, 5).mine_cells()
    assert Game(r, 5).mine_cells() != Game(r, 6).mine_cells()


def test_safe_layout_is_dealt_at_first_click():
    g = Game(Rules(9, 9, 10, "safe"), 3)
    assert not g.dealt
    with pytest.raises(IllegalMoveError, match="reveal a cell first"):
        g.mine_cells()
    g.reveal(40)
    assert g.dealt and 40 not in g.mine_cells()


def test_win_and_loss():
    g = Game(Rules(3, 1, 1, "unsafe"), layout=[1])
    assert g.reveal(0) == (0,)
    assert g.state is GameState.PLAYING
    g.reveal(2)
    assert g.state is GameState.WON
    g = Game(Rules(3, 1, 1, "unsafe"), layout=[1])
    g.reveal(1)
    assert g.state is GameState.LOST and g.exploded == 1
    with pytest.raises(IllegalMoveError, match="the game is over"):
        g.reveal(0)


def test_flags_and_chord():
    # row: 0 1 M 1 0 on a 5x1 board
    g = Game(Rules(5, 1, 1, "unsafe"), layout=[2])
    g.reveal(1)
    with pytest.raises(IllegalMoveError, match="shows 1 but has 0 flagged"):
        g.chord(1)
    g.flag(2)
    with pytest.raises(IllegalMoveError, match="flagged"):
        g.reveal(2)
    with pytest.raises(IllegalMoveError, match="already flagged"):
        g.flag(2)
    assert g.chord(1) == (0,)
    g.unflag(2)
    with pytest.raises(IllegalMoveError, match="not flagged"):
        g.unflag(2)
    g.reveal(3)
    assert g.state is GameState.PLAYING
    g.reveal(4)
    assert g.state is GameState.WON


def test_chord_with_a_wrong_flag_loses():
    g = Game(Rules(3, 2, 1, "unsafe"), layout=[3])
    g.reveal(1)  # shows 1 (mine at (0,1))
    g.flag(5)
    g.chord(1)
    assert g.state is GameState.LOST and g.exploded == 3


@pytest.mark.parametrize(
    "move,message",
    [
        (Move.reveal(99), "off the 3x3 board"),
        (Move.reveal(-1), "off the 3x3 board"),
        (Move.flag(4), "revealed"),
        (Move.reveal(4), "already revealed"),
        (Move.chord(0), "not revealed"),
    ],
)
def test_illegal_moves_name_the_cell_and_reason(move, message):
    g = Game(Rules(3, 3, 1, "unsafe"), layout=[0])
    g.reveal(4)
    with pytest.raises(IllegalMoveError, match=message):
        g.apply(move)


def test_unknown_move_kind():
    with pytest.raises(IllegalMoveError, match="unknown move kind"):
        Move("dig", 0)


def test_layout_must_match_rules():
    with pytest.raises(RuleError, match="layout has 1 distinct mines"):
        Game(Rules(3, 3, 2, "unsafe"), layout=[0, 0])


def test_three_bv():
    # 3x3 with a mine in the corner: one opening covers everything -> 1 click
    assert Game(Rules(3, 3, 1, "unsafe"), layout=[0]).three_bv() == 1
    # 3x1: 1 M 1 -> two isolated numbers
    assert Game(Rules(3, 1, 1, "unsafe"), layout=[1]).three_bv() == 2
    # 5x1: . 1 M 1 . -> two openings
    assert Game(Rules(5, 1, 1, "unsafe"), layout=[2]).three_bv() == 2


def test_xp_moves_mine_to_the_top_left():
    # find a seed where the click lands on a mine
    rules = Rules(5, 5, 8, "xp")
    for seed in range(200):
        g = Game(rules, seed)
        before = g.mine_cells()
        click = max(before)
        if 0 not in before:
            g.reveal(click)
            assert 0 in g.mine_cells() and click not in g.mine_cells()
            return
    raise AssertionError("no suitable seed")


def test_zero_rule_too_dense_for_an_opening_says_so():
    # 3x3 with 7 mines: a corner's zone (4 cells) fits, the centre's (9 cells) cannot
    game = Game(Rules(3, 3, 4, "zero"), seed=1)
    assert game.rule_kept and game.rule_failure is None  # nothing promised is broken before the first click
    game.reveal(4)
    assert game.first_click == 4 and 4 not in game.mine_cells()
    assert not game.rule_kept
    assert game.rule_failure is not None and "(1, 1)" in game.rule_failure and "only the click was kept safe" in game.rule_failure
    corner = Game(Rules(3, 3, 4, "zero"), seed=1)
    corner.reveal(0)
    assert corner.rule_kept and corner.observation().view[0] == 0


def test_fixed_layout_that_breaks_its_rule_is_reported():
    # a fixed layout is played as dealt; if it does not obey its rule at the click made, rule_kept says so
    on_mine = Game(Rules(3, 1, 1, "safe"), layout=[0])
    on_mine.reveal(0)
    assert on_mine.state is GameState.LOST and not on_mine.rule_kept
    assert "mine under the first click (0, 0)" in on_mine.rule_failure
    not_open = Game(Rules(3, 1, 1, "zero"), layout=[2])
    not_open.reveal(1)
    assert not not_open.rule_kept and "shows 1, not 0" in not_open.rule_failure
    opens = Game(Rules(3, 1, 1, "zero"), layout=[2])
    opens.reveal(0)
    assert opens.rule_kept
    unsafe = Game(Rules(3, 1, 1, "unsafe"), layout=[0])
    unsafe.reveal(0)
    assert unsafe.rule_kept  # the unsafe rule promises nothing


def test_repr_and_str_never_show_the_layout_while_playing():
    game = Game(Rules(4, 2, 2, "unsafe"), seed=3, layout=[2, 3])
    assert repr(game) == "<Game 4x2x2 unsafe, seed 3: playing, 0 moves>"
    assert str(game) == "  0123\n0 ####\n1 ####"
    game.reveal(0)
    assert repr(game) == "<Game 4x2x2 unsafe, seed 3: playing, 1 move>"
    assert str(game) == "  0123\n0 .1##\n1 .1##"  # the mines at 2 and 3 stay hidden
    game.flag(3)
    game.reveal(2)
    assert repr(game) == "<Game 4x2x2 unsafe, seed 3: lost, 3 moves>"
    assert str(game) == game.render() == "  0123\n0 .1@F\n1 .1##"


def test_the_first_reveal_is_protected_only_where_the_rule_promises_it():
    for rule, protected in (("safe", True), ("xp", True), ("zero", True), ("unsafe", False), ("hint", False)):
        game = Game(Rules(9, 9, 10, rule), seed=3)
        assert game.first_reveal_protected is protected, rule
        game.reveal(next(c for c, v in enumerate(game.observation().view) if v < 0))
        assert game.first_reveal_protected is False, rule
    on_a_layout = Game(Rules(3, 3, 1, "safe"), layout=[0])  # nothing is dealt or moved: the click can hit it
    assert on_a_layout.first_reveal_protected is False


def test_noguess_needs_a_registered_dealer_and_uses_it(monkeypatch):
    import sweeplab.core.rules as rules_module

    monkeypatch.setattr(rules_module, "_DEALERS", {})
    with pytest.raises(RuleError, match=r"import sweeplab\.analysis "):
        Game(Rules(9, 9, 10, "noguess"), seed=1)
    fixed = Game(Rules(3, 1, 1, "noguess"), layout=[2])  # a fixed layout needs no dealer: checked as zero is
    fixed.reveal(1)
    assert not fixed.rule_kept and "shows 1, not 0" in fixed.rule_failure
    calls = []

    def dealer(rules, click, rng):
        calls.append((rules.spec(), click))
        return [8], {"kept": True}

    rules_module.register_dealer("noguess", dealer)
    game = Game(Rules(3, 3, 1, "noguess"), seed=1)
    assert not game.dealt and game.deal_report is None
    game.reveal(0)
    assert calls == [("3x3x1", 0)] and game.mine_cells() == {8} and game.deal_report == {"kept": True}
    assert game.state is GameState.WON and game.rule_kept


def test_noguess_dealer_that_gives_up_breaks_the_promise(monkeypatch):
    import sweeplab.core.rules as rules_module

    class Report:
        kept = False
        failure = "no layout found"

    monkeypatch.setattr(rules_module, "_DEALERS", {"noguess": lambda rules, click, rng: ([8], Report())})
    game = Game(Rules(3, 3, 1, "noguess"), seed=1)
    game.reveal(0)
    assert not game.rule_kept and game.rule_failure == "no layout found"


def test_reveal_moves_are_shared_objects_and_a_revealed_cell_is_still_refused():
    assert Move.reveal(3) is Move.reveal(3) and Move.reveal(3) == Move("reveal", 3)
    game = Game(Rules(9, 9, 10, "safe"), seed=2)
    assert game.is_covered(0)
    opened = game.apply(Move.reveal(0))
    assert opened and not game.is_covered(0) and game.history == [Move.reveal(0)]
    with pytest.raises(IllegalMoveError, match="already revealed"):
        game.apply(Move.reveal(opened[-1]))
    with pytest.raises(IllegalMoveError, match="off the 9x9 board"):
        game.apply(Move.reveal(81))


def test_reveal_queued_plays_covered_reveals_in_order_and_stops_where_asked():
    from collections import deque

    game = Game(Rules(9, 9, 10, "safe"), seed=2)
    queue = deque([Move.reveal(0)])
    game.reveal_queued(queue, 100)  # before the first click: left to the general path (it deals)
    assert list(queue) == [Move.reveal(0)] and game.moves == 0
    game.apply(queue.popleft())
    safe = [c for c in range(81) if c not in game.mine_cells() and game.is_covered(c)]
    queue = deque([Move.reveal(safe[0]), Move.reveal(safe[0]), Move.flag(safe[-1]), Move.reveal(safe[-1])])
    game.reveal_queued(queue, 100)
    assert game.history[1:] == [Move.reveal(safe[0])] and list(queue) == [Move.flag(safe[-1]), Move.reveal(safe[-1])]
    queue = deque(Move.reveal(c) for c in safe[1:])
    game.reveal_queued(queue, game.moves + 1)  # the move limit
    assert game.moves == 3 and queue
    game.reveal_queued(queue, 1000)
    assert game.state is GameState.WON  # it stops once the game is over, whatever is left queued


def test_raw_gives_the_layout_numbers_and_a_view_copy_and_record_reveals_takes_moves_back():
    rules = Rules(3, 2, 1, "safe")
    with pytest.raises(IllegalMoveError, match="dealt at the first reveal"):
        Game(rules, 0).raw()
    game = Game(Rules(3, 2, 1, "unsafe"), layout=[5])  # 0 1 1 / 0 1 *
    mine, number, view = game.raw()
    assert mine == (False,) * 5 + (True,) and number == (0, 1, 1, 0, 1, 0) and view == [-1] * 6
    game.reveal(0)  # opens 0, 1, 3, 4
    _, _, view = game.raw()
    view[2] = 1  # what a player in C does: reveal 2 on its copy
    assert game.observation().view[2] == -1  # a copy: the game is unchanged until it takes the reveals back
    game.record_reveals([2], view, 1)
    assert game.state is GameState.WON and game.history[-1] == Move.reveal(2) and game.observation().view[2] == 1
    lost = Game(Rules(3, 2, 1, "unsafe"), layout=[5])
    lost.reveal(0)
    _, _, view = lost.raw()
    lost.record_reveals([5], view, 0)
    assert lost.state is GameState.LOST and lost.exploded == 5 and lost.moves == 2
    lost.record_reveals([], view, 0)  # nothing played: nothing changes
    assert lost.moves == 2


def test_observation_at_replays_the_game_as_it_was_dealt():
    for rules in (Rules(9, 9, 10, "safe"), Rules(9, 9, 10, "hint")):
        game = Game(rules, 3)
        seen = [game.observation()]
        while not game.over:
            covered = [c for c, v in enumerate(game.observation().view) if v == COVERED]
            game.reveal(covered[len(covered) // 2])
            seen.append(game.observation())
        assert [game.observation_at(m).view for m in range(game.moves + 1)] == [o.view for o in seen]
    fixed = Game(Rules(3, 2, 1, "unsafe"), layout=[5])
    fixed.reveal(0)
    assert fixed.observation_at(0).view == (COVERED,) * 6 and fixed.observation_at(1).view == fixed.observation().view
    with pytest.raises(ArgumentError, match="not a move of this game"):
        fixed.observation_at(2)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 1200), st.data(), st.integers(0, 2**64))
def test_the_deal_draws_what_random_sample_draws(n, data, seed):
    """Every seed's layout depends on it: the game's own draw is the interpreter's ``sample``, pool or set."""
    import random

    from sweeplab.core.game import _sample

    k = data.draw(st.integers(0, n))
    assert _sample(random.Random(seed), list(range(n)), k) == random.Random(seed).sample(range(n), k)


def test_deal_at_deals_for_the_first_click_without_revealing_it():
    game = Game(Rules(9, 9, 10, "zero"), 3)
    game.deal_at(40)
    mine, number, view = game.raw()
    assert game.first_click == 40 and not game.history and view == [COVERED] * 81
    assert not any(mine[c] for c in (40, 30, 31, 32, 39, 41, 48, 49, 50)) and number[40] == 0  # dealt as zero keeps it
    revealed = Game(Rules(9, 9, 10, "zero"), 3)
    revealed.reveal(40)
    assert revealed.mine_cells() == game.mine_cells()  # the same layout as the reveal deals
    with pytest.raises(IllegalMoveError, match="only before the first reveal"):
        game.deal_at(0)
    flagged = Game(Rules(9, 9, 10, "safe"), 3)
    flagged.flag(5)
    with pytest.raises(IllegalMoveError, match="cannot deal at"):
        flagged.deal_at(5)
    with pytest.raises(IllegalMoveError, match="off the 9x9 board"):
        Game(Rules(9, 9, 10, "safe"), 3).deal_at(81)


@settings(max_examples=150, deadline=None)
@given(
    width=st.integers(1, 9), height=st.integers(1, 9), density=st.floats(0, 0.9), seed=st.integers(0, 10**6),
    rule=st.sampled_from(["unsafe", "safe", "zero", "xp", "hint"]), clicks=st.lists(st.integers(0, 80), max_size=12),
)  # fmt: skip
def test_revealed_counts_the_cells_that_show_a_number(width, height, density, seed, rule, clicks):
    cells = width * height
    mines = min(round(density * cells), cells - 1 if rule != "zero" else max(0, cells - 9))
    game = Game(Rules(width, height, mines, rule), seed)
    for click in clicks:
        view = game.observation().view
        assert game.revealed == sum(1 for v in view if v >= 0)
        if game.over or view[click % cells] != COVERED:
            continue
        if click % 3 == 2:
            game.flag(click % cells)
        else:
            game.reveal(click % cells)
    view = game.observation().view
    assert game.revealed == sum(1 for v in view if v >= 0)
