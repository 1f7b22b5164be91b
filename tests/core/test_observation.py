import pytest

from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, FLAGGED, Observation


def test_counts():
    o = Observation(Board(3, 1), 2, (FLAGGED, 2, COVERED))
    assert o.covered() == (2,)
    assert o.flagged() == (0,)
    assert o.revealed() == (1,)
    assert o.mines_left == 1 and o.flag_count == 1
    assert not o.is_start()
    assert Observation(Board(2, 1), 1, (COVERED, COVERED)).is_start()
    assert o.at(1, 0) == 2


def test_with_cells_changes_only_the_given_cells_and_checks_them():
    from sweeplab.core.errors import SweeplabError

    o = Observation(Board(3, 1), 1, (1, COVERED, COVERED), moves=4)
    changed = o.with_cells({1: FLAGGED, 2: 0}, moves=5)
    assert changed.view == (1, FLAGGED, 0) and changed.moves == 5 and changed.mines == 1
    assert o.view == (1, COVERED, COVERED) and o.with_cells({}).moves == 4
    with pytest.raises(SweeplabError, match="off the 3x1 board"):
        o.with_cells({3: 0})
    with pytest.raises(SweeplabError, match="given 9"):
        o.with_cells({1: 9})
