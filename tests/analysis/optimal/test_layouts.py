"""The game's dealing as bitmask layouts, against the game itself, and the board's symmetries."""

from __future__ import annotations

import math
from itertools import combinations

import pytest

from sweeplab.analysis.optimal.gametree import SearchError
from sweeplab.analysis.optimal.layouts import dealt_layouts, layout_masks, symmetries, xp_move
from sweeplab.core.game import Game
from sweeplab.core.geometry import Board
from sweeplab.core.rules import Rules


def test_dealt_layouts_match_the_games_deal():
    """Every layout the game deals (seeded deals, first click 4 on 3x3) is one the model lists, and the model's
    multiset has the size of the uniform deal it stands for."""
    for rule in ("unsafe", "safe", "zero", "xp"):
        rules = Rules(3, 3, 2, rule)
        model = dealt_layouts(rules, 0)
        seen = set()
        for seed in range(300):
            game = Game(rules, seed)
            game.reveal(0)
            seen.add(sum(1 << c for c in game.mine_cells()))
        assert seen == set(model), rule
        expected = {"unsafe": 36, "xp": 36, "safe": math.comb(8, 2), "zero": math.comb(5, 2)}[rule]
        assert len(model) == expected


def test_xp_move_matches_the_game():
    rules = Rules(3, 3, 3, "xp")
    for seed in range(200):
        game = Game(rules, seed)
        before = sum(1 << c for c in game.mine_cells())
        game.reveal(4)
        assert sum(1 << c for c in game.mine_cells()) == xp_move(before, 4, 9)


def test_zero_on_a_dense_board_keeps_only_the_click():
    """3x3 with 2 mines: the centre's neighbourhood is the whole board, so the game keeps just the centre free."""
    assert len(dealt_layouts(Rules(3, 3, 2, "zero"), 4)) == math.comb(8, 2)


def test_layout_masks_are_every_combination():
    assert sorted(layout_masks(6, 3)) == sorted(sum(1 << c for c in combo) for combo in combinations(range(6), 3))
    assert layout_masks(5, 0) == [0]


def test_symmetries_are_permutations():
    for w, h in ((4, 4), (3, 5), (1, 7)):
        for perm in symmetries(Board(w, h)):
            assert sorted(perm) == list(range(w * h))


def test_the_noguess_rule_is_not_modelled_and_says_why():
    with pytest.raises(SearchError, match="'noguess' rule is not modelled: its layouts are those that certain"):
        dealt_layouts(Rules(3, 3, 2, "noguess"), 0)
