import pytest

from sweeplab.core.errors import BoardSpecError
from sweeplab.core.geometry import Board


def test_neighbours_of_corner_edge_and_interior():
    b = Board(4, 3)
    assert b.neighbours[0] == (1, 4, 5)
    assert len(b.neighbours[1]) == 5
    assert len(b.neighbours[b.index(1, 1)]) == 8
    assert b.neighbours[b.index(3, 2)] == (b.index(2, 1), b.index(3, 1), b.index(2, 2))


def test_neighbours_are_symmetric():
    b = Board(7, 5)
    for c in range(b.cells):
        for n in b.neighbours[c]:
            assert c in b.neighbours[n]


def test_one_by_one_has_no_neighbours():
    assert Board(1, 1).neighbours == ((),)


@pytest.mark.parametrize("w,h", [(0, 5), (5, 0), (1025, 1), (1, 1025)])
def test_size_limits(w, h):
    with pytest.raises(BoardSpecError, match="out of range"):
        Board(w, h)


def test_largest_boards():
    assert Board(255, 255).cells == 65025  # MBF's limit
    assert Board(900, 1).cells == 900  # seed 000's Figure 10 plays 1x900
    with pytest.raises(BoardSpecError, match="more than 65536 cells"):
        Board(1000, 1000)


def test_index_off_board_names_the_cell():
    with pytest.raises(BoardSpecError, match=r"\(9, 0\) is off the 3x3 board"):
        Board(3, 3).index(9, 0)


def test_corners_edges_and_distance():
    b = Board(5, 4)
    assert b.corners() == (0, 4, 15, 19)
    assert Board(1, 1).corners() == (0,)
    assert b.is_corner(4) and not b.is_corner(1)
    assert b.is_edge(1) and not b.is_edge(b.index(2, 1))
    assert b.edge_distance(b.index(2, 1)) == 1
    assert b.edge_distance(b.index(2, 2)) == 1
