"""The one split of root seeds: development seeds for training and every choice, held-out seeds for the pages' verdicts.

Every seed a learned player's training touches (its data, its weights, the games it is evaluated on while it trains,
the games a setting is tuned on) is a development seed: any root seed outside :data:`HELD_OUT_SEEDS`. The held-out
seeds are played only by the runs whose verdicts the pages state (``sweeplab bench --seed VERDICT_SEED``), so no
model and no choice has seen those layouts. Training code asks :func:`development_seed` for each seed it is given,
and a held-out seed is refused there with :class:`HeldOutSeedError`.

Seed 0 is a development seed: it is the seed every training run evaluated on (``EVALUATION_SEED``) and the seed of
the earlier runs on the pages, so its layouts have been seen by the choices made in development.

>>> VERDICT_SEED in HELD_OUT_SEEDS, EVALUATION_SEED in HELD_OUT_SEEDS
(True, False)
>>> development_seed(3, "training data")
3
>>> development_seed(VERDICT_SEED, "training data")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
sweeplab.core.heldout.HeldOutSeedError: root seed 1000000 is held out for the pages' verdicts, and training data may...
"""

from __future__ import annotations

from sweeplab.core.errors import SweeplabError

#: The held-out root seeds: only the runs behind the pages' verdicts play them.
HELD_OUT_SEEDS = range(1_000_000, 1_001_000)
#: The held-out seed the pages' verdicts are measured on; a later check of them takes another held-out seed.
VERDICT_SEED = HELD_OUT_SEEDS[0]
#: The seed of the games a model plays while it trains (``--eval-games``), a development seed.
EVALUATION_SEED = 0


class HeldOutSeedError(SweeplabError):
    """A held-out seed given to code that trains, evaluates during training, or tunes."""


def is_held_out(seed: int) -> bool:
    """Whether root seed ``seed`` is held out for the pages' verdicts.

    >>> is_held_out(0), is_held_out(1_000_999), is_held_out(1_001_000)
    (False, True, False)
    """
    return seed in HELD_OUT_SEEDS


def verdict_seed(seed: object, where: str, hint: str = "") -> int:
    """``seed`` itself when it is a held-out seed, the only seeds a page's verdict may stand on; else ValueError
    naming ``where`` (the run's file), since a verdict measured on development layouts could have been chosen on
    them (``hint``, if given, ends the message)."""
    if not isinstance(seed, int) or not is_held_out(seed):
        raise ValueError(
            f"{where}: seed {seed} is not held out ({HELD_OUT_SEEDS[0]}-{HELD_OUT_SEEDS[-1]}), so its games cannot carry "
            f"a verdict{hint}"
        )
    return seed


def development_seed(seed: int, use: str) -> int:
    """``seed`` itself when it is a development seed; a held-out seed raises :class:`HeldOutSeedError` naming ``use``
    (what wanted it: "training data", "evaluation games", ...)."""
    if is_held_out(seed):
        raise HeldOutSeedError(
            f"root seed {seed} is held out for the pages' verdicts, and {use} may not use it: choose a seed outside "
            f"{HELD_OUT_SEEDS[0]}-{HELD_OUT_SEEDS[-1]}"
        )
    return seed
