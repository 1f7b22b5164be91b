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
