"""sweeplab: Minesweeper as a constraint satisfaction problem."""

__version__ = "0.1.0"
