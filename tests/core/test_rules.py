import pytest

from sweeplab.core.errors import BoardSpecError, RuleError
from sweeplab.core.rules import PRESETS, Rules, make_rules, parse_board


def test_presets():
    assert parse_board("expert") == (30, 16, 99)
    assert parse_board("Beginner-Classic") == (8, 8, 10)
    assert parse_board("intermediate-classic") == (15, 13, 40)
    assert set(PRESETS) == {"beginner", "beginner-classic", "intermediate", "intermediate-classic", "expert"}


def test_spec_text():
    assert parse_board("10x12x20") == (10, 12, 20)
    assert make_rules("4x4x4", "unsafe").spec() == "4x4x4"


def test_unknown_preset_is_named():
    with pytest.raises(BoardSpecError, match="unknown board 'huge'"):
        parse_board("huge")


def test_too_many_mines_for_the_board():
    with pytest.raises(BoardSpecError, match="17 mines do not fit on a 4x4 board"):
        parse_board("4x4x17")
    with pytest.raises(BoardSpecError, match="do not fit"):
        Rules(4, 4, 17, "unsafe")


def test_unknown_rule_is_named():
    with pytest.raises(RuleError, match="unknown first-click rule 'lucky'"):
        Rules(9, 9, 10, "lucky")


@pytest.mark.parametrize("rule", ["safe", "xp", "hint"])
def test_full_board_needs_a_free_cell(rule):
    Rules(3, 3, 9, "unsafe")
    with pytest.raises(RuleError, match="needs a mine-free cell"):
        Rules(3, 3, 9, rule)


def test_zero_rule_mine_limit():
    Rules(3, 3, 5, "zero")  # a corner keeps 4 cells free
    with pytest.raises(RuleError, match="at most 5 mines"):
        Rules(3, 3, 6, "zero")


def test_negative_mines():
    with pytest.raises(BoardSpecError):
        Rules(3, 3, -1)


def test_only_a_rule_dealt_elsewhere_takes_a_dealer():
    from sweeplab.core.rules import register_dealer

    with pytest.raises(RuleError, match="'zero' rule is dealt by core itself"):
        register_dealer("zero", lambda rules, click, rng: ([], None))


def test_noguess_keeps_the_click_neighbourhood_free_as_zero_does():
    assert Rules(3, 3, 5, "noguess").mines == 5
    with pytest.raises(RuleError, match="the 'noguess' rule keeps the first click and its neighbours"):
        Rules(3, 3, 6, "noguess")
