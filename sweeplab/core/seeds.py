"""Root seeds: any Python integer, mapped one to one onto the non-negative integers numpy's SeedSequence takes."""

from __future__ import annotations

import functools
from collections.abc import Callable

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


# numpy's SeedSequence (numpy/random/bit_generator.pyx), written out so that dealing a game needs no numpy: the
# same words for the same entropy and spawn key (a test holds it to numpy's on many seeds).
_MASK = 0xFFFFFFFF
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715
_POOL = 4


def _words(n: int) -> list[int]:
    """A non-negative integer as 32-bit words, least significant first (0 is one word)."""
    out = [n & _MASK]
    n >>= 32
    while n:
        out.append(n & _MASK)
        n >>= 32
    return out


def _hashmix(value: int, hash_const: int) -> tuple[int, int]:
    value ^= hash_const
    hash_const = (hash_const * _MULT_A) & _MASK
    value = (value * hash_const) & _MASK
    return value ^ (value >> 16), hash_const


def _mix(x: int, y: int) -> int:
    result = (_MIX_L * x - _MIX_R * y) & _MASK
    return result ^ (result >> 16)


@functools.lru_cache(maxsize=64)
def _entropy_pool(entropy: int, spawned: bool) -> tuple[tuple[int, ...], int]:
    """The pool and the hash constant once ``entropy`` is mixed in, before any spawn key: the same for every game of
    a run, so worked out once per root seed."""
    run = _words(entropy)
    if spawned and len(run) < _POOL:
        run += [0] * (_POOL - len(run))
    hash_const = _INIT_A
    pool = []
    for i in range(_POOL):
        value, hash_const = _hashmix(run[i] if i < len(run) else 0, hash_const)
        pool.append(value)
    for src in range(_POOL):
        for dst in range(_POOL):
            if src != dst:
                value, hash_const = _hashmix(pool[src], hash_const)
                pool[dst] = _mix(pool[dst], value)
    for word in run[_POOL:]:
        for dst in range(_POOL):
            value, hash_const = _hashmix(word, hash_const)
            pool[dst] = _mix(pool[dst], value)
    return tuple(pool), hash_const


#: The spawn step and the words in C, ``(pool, hash_const, key, words) -> list`` for a spawn key of one integer below
#: 2**64: lent by the players' C module when it loads (:mod:`sweeplab.strategies.loops`), else None.
_SPAWN: Callable[[tuple[int, ...], int, int, int], list[int]] | None = None


def lend(fn: Callable[[tuple[int, ...], int, int, int], list[int]] | None) -> None:
    """Spawn one-integer keys with ``fn`` (None: in Python again)."""
    global _SPAWN
    _SPAWN = fn


def seed_sequence_state(entropy: int, spawn_key: tuple[int, ...], words: int) -> list[int]:
    """``numpy.random.SeedSequence(entropy, spawn_key=spawn_key).generate_state(words)`` as Python integers (the
    spawn of a key of one integer below 2**64 in C, when lent)."""
    start, hash_const = _entropy_pool(entropy, bool(spawn_key))
    if _SPAWN is not None and len(spawn_key) == 1 and 0 <= spawn_key[0] < 1 << 64:
        return _SPAWN(start, hash_const, spawn_key[0], words)
    pool = list(start)
    for key in spawn_key:
        for word in _words(key):
            for dst in range(_POOL):
                value, hash_const = _hashmix(word, hash_const)
                pool[dst] = _mix(pool[dst], value)
    out = []
    b = _INIT_B
    for i in range(words):
        value = pool[i % _POOL] ^ b
        b = (b * _MULT_B) & _MASK
        value = (value * b) & _MASK
        out.append(value ^ (value >> 16))
    return out
