"""Exact optimal play on small boards: the exhaustive game-tree search over layouts (in C and in Python; also
best's endgame), the layouts each first-click rule deals, and the optimal search over them.
May import core only."""
