"""Markers for tests of the optional C extensions: skipped where no C compiler built them, but never under CI
(``CI=true``), where ``make test`` builds them and a missing extension must fail."""

from __future__ import annotations

import os

import pytest

from sweeplab.analysis.estimate.kernel import CHAIN
from sweeplab.analysis.exact.kernel import KERNEL
from sweeplab.analysis.optimal.gametree import KERNEL as GAMETREE_KERNEL
from sweeplab.strategies.loops import LOOPS

UNDER_CI = os.environ.get("CI", "").lower() == "true"

needs_kernel = pytest.mark.skipif(
    KERNEL is None and not UNDER_CI, reason="the C kernel is not built (no C compiler at install time)"
)
needs_gametree_kernel = pytest.mark.skipif(GAMETREE_KERNEL is None and not UNDER_CI, reason="the C game-tree search is not built")
needs_loops = pytest.mark.skipif(LOOPS is None and not UNDER_CI, reason="the players' C game loops are not built")
needs_chain = pytest.mark.skipif(CHAIN is None and not UNDER_CI, reason="the C chain move is not built")
