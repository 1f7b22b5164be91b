"""Outside players: ``cmd:PROGRAM ARGS`` over the arena's JSON-lines protocol, its process handling, and
``reference``, the built-in twin of the reference clients in ``examples/``.
May import core, formats, analysis and sweeplab.strategies.base."""
