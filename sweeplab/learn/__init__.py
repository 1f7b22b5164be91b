"""Learning players of seed 003 (classifiers on CSP features, deep Q-learning on sub-states) and a Gymnasium environment.

Importing this package registers the environment id ``sweeplab/Minesweeper-v0`` with Gymnasium when Gymnasium is
installed (the ``learn`` extra), so ``gymnasium.make("sweeplab/Minesweeper-v0")`` and ``gymnasium.make_vec(...)``
work after ``import sweeplab.learn``. Registration stores an entry-point string only: the environment module
(:mod:`sweeplab.learn.env`) and its imports load on the first ``make``. Without Gymnasium the package imports as before.
"""

from __future__ import annotations

ENV_ID = "sweeplab/Minesweeper-v0"
ENV_ENTRY_POINT = "sweeplab.learn.env:MinesweeperEnv"


def register_env() -> bool:
    """Register :data:`ENV_ID` with Gymnasium (once); False when Gymnasium is not installed."""
    try:
        import gymnasium
    except ImportError:
        return False
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point=ENV_ENTRY_POINT)
    return True


register_env()
