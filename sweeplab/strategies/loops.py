"""The players' game loops in C (``_players.c``: ``exact``'s whole game loop in ``_exact_play.c`` and ``best``'s hot
paths in ``best/_best.c``, on the exact engine's count; built by setup.py when a C compiler is present): ``LOOPS`` is
the compiled module, or None when it is not built or ``SWEEPLAB_PURE_PYTHON`` is set; each of its functions has a
pure-Python twin."""

from __future__ import annotations

import os

from sweeplab.core import game, seeds

try:  # the optional C module (setup.py builds it when a C compiler is present)
    import sweeplab.strategies._players as _built_loops  # a C extension without a stub: mypy sees Any
except ImportError:  # pragma: no cover - depends on the build
    _built_loops = None
LOOPS = None if os.environ.get("SWEEPLAB_PURE_PYTHON") else _built_loops

if LOOPS is not None:  # the harness's hot paths outside the players (3BV, dealing, game seeds): in C too
    game.lend(LOOPS)
    seeds.lend(getattr(LOOPS, "spawn_state", None))
