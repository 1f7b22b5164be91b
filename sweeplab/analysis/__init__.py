"""sweeplab.analysis: constraints from a position, and the exact probability engine over them."""
