"""The C kernel and the pure-Python engine must give the same exact answers."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sweeplab.analysis import Analyzer
from sweeplab.core.game import Game
from sweeplab.core.rules import Rules
from sweeplab.strategies.base import play
from sweeplab.strategies.exact import ExactStrategy
from tests.analysis.compiled import needs_kernel

pytestmark = needs_kernel


def _same(obs):
    a = Analyzer(use_kernel=True).analyze(obs)
    b = Analyzer(use_kernel=False).analyze(obs)
    assert a.exact and b.exact
    assert a.layouts == b.layouts
    assert a.safe == b.safe and a.mines == b.mines
    assert a.unconstrained == b.unconstrained
    assert [s.cells for s in a.craps] == [s.cells for s in b.craps]
    for cell, _ in a.covered():
        assert a.fraction(cell) == b.fraction(cell)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["beginner", "intermediate", "expert"]), st.integers(0, 2**32), st.integers(0, 400))
def test_kernel_equals_python_along_real_games(preset, seed, stop):
    sizes = {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (30, 16, 99)}
    w, h, m = sizes[preset]
    game = Game(Rules(w, h, m, "safe"), seed)
    positions = []

    def keep(g, move):
        if len(positions) < 60 and g.moves <= stop:
            positions.append(g.observation())

    play(ExactStrategy(seed), game, on_move=keep)
    for obs in positions[-3:]:
        _same(obs)


def test_kernel_reports_local_inconsistency_like_python():
    from sweeplab.core.errors import InconsistentPositionError
    from sweeplab.formats.position import parse_position

    obs = parse_position("4x2x2\n2111\nHHHH\n")
    with pytest.raises(InconsistentPositionError, match=r"the 2 at \(0, 0\)"):
        Analyzer(use_kernel=True).analyze(obs)


@needs_kernel
def test_pack_and_obvious_read_any_int_as_its_value_and_refuse_others():
    from sweeplab.analysis.exact.kernel import KERNEL

    assert KERNEL.pack((8, -2, True, int("7"), -1, 0)) == (bytes([8, 254, 1, 7, 255, 0]), 1)
    with pytest.raises(ValueError, match="cell 1 holds 9"):
        KERNEL.pack((0, 9))
    with pytest.raises(ValueError, match="cell 0 holds -3"):
        KERNEL.obvious((-3, 1), 2, 1, bytearray(2))
    with pytest.raises(TypeError):
        KERNEL.pack((0, 1.0))
    mines = bytearray(4)
    assert KERNEL.obvious((1, -1, True, -1), 4, 1, mines) == (3,) and mines == bytearray([0, 1, 0, 0])
    assert KERNEL.obvious((1, -1, 0, -1), 2, 2, bytearray([0, 1, 0, 0])) is None  # the 0 touches a known mine
