"""Root seeds: any Python integer, mapped one to one onto the non-negative integers numpy's SeedSequence takes."""

from __future__ import annotations

#: Root seeds from 0 to ``SEED_SPAN - 1`` are used by numpy's SeedSequence as they are; see :func:`seed_entropy`.
SEED_SPAN = 2**256


def seed_entropy(root: int) -> int:
    """The non-negative integer that numpy's SeedSequence gets for the root seed ``root`` (any Python integer).

    Seeds from 0 to 2**256 - 1 are used as they are (so every earlier run keeps its games). The rest of the
    integers are folded, one to one, above 2**256: a seed s >= 2**256 becomes 2**256 + 2 (s - 2**256) and a
    negative seed s becomes 2**256 + 2 |s| - 1. Different seeds therefore always give different games.

    >>> seed_entropy(5), seed_entropy(-1) - SEED_SPAN, seed_entropy(SEED_SPAN) - SEED_SPAN
    (5, 1, 0)
    """
    if not isinstance(root, int) or isinstance(root, bool):
        raise TypeError(f"a root seed is an integer, not {root!r}")
    if 0 <= root < SEED_SPAN:
        return root
    if root >= SEED_SPAN:
        return SEED_SPAN + 2 * (root - SEED_SPAN)
    return SEED_SPAN + 2 * -root - 1
