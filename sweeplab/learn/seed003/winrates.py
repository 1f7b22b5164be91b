"""The win rate of a model as it trains, on a fixed evaluation set of layouts.

After each episode (nn, dqn) or at a few boosting rounds (xgboost, :func:`eval_rounds`) the model, as its player
plays it (DSScsp's certain moves, else the candidate the model prefers; the Q-network without exploration), plays
games 0 to N-1 of root seed 0 (:data:`sweeplab.core.heldout.EVALUATION_SEED`, a development seed: the pages'
verdicts are measured on held-out seeds) on one board and rule: the games ``sweeplab bench --board B --rule R
--seed 0 --games N`` deals, so every number pairs game by game with a bench run and with every other point. The games go
through the bench runner (:func:`~sweeplab.bench.runner.run_many`, on the training's executor) and are summarised
as bench summarises them (:func:`~sweeplab.bench.summary.summarize`: ``sem`` is seed 000's standard error over 10
equal sets, or the binomial one when the games do not split). The base player ``dsscsp-manhattan``, whose games
the training starts from, plays the same layouts once: the reference line.

Each point records ``games``, ``won``, ``win_rate``, ``sem``, ``outcomes`` (one character per game, ``1`` won,
``0`` lost, in game order: any two points can be paired) and ``vs_reference``, the paired difference from the
reference over the same games with its standard error.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sweeplab.bench.executors import Executor
from sweeplab.bench.runner import BenchSpec, Stopped, run_many
from sweeplab.bench.signals import Interrupted
from sweeplab.bench.stats import paired_difference
from sweeplab.bench.summary import summarize
from sweeplab.core.errors import SweeplabError
from sweeplab.core.heldout import EVALUATION_SEED, development_seed
from sweeplab.core.rules import Rules
from sweeplab.learn.seed003.scorers import Scorer

EVAL_SEED = EVALUATION_SEED
REFERENCE = "dsscsp-manhattan"

#: What a trainer calls with the model as a player uses it and the episode (or boosting round) it stands for;
#: it returns the point to record.
Evaluate = Callable[[Scorer, int], dict[str, Any]]


def eval_rounds(rounds: int, first: int = 25) -> list[int]:
    """The boosting rounds at which an XGBoost model's win rate is measured: ``first``, doubling, and the last.

    >>> eval_rounds(200), eval_rounds(60), eval_rounds(3)
    ([25, 50, 100, 200], [25, 50, 60], [3])
    """
    out = []
    k = first
    while k < rounds:
        out.append(k)
        k *= 2
    return [*out, rounds]


def _rounded(value: float | None) -> float | None:
    return None if value is None or value != value else round(value, 6)  # NaN (one game) is not measured: None


@dataclass
class EvalSet:
    """Games 0 to ``games - 1`` of root seed ``seed`` under ``rules``, played by any player on ``executor``
    (this process when None); ``progress(games)`` is called as batches finish. Calling it with a scorer plays the
    model (the :data:`Evaluate` a trainer takes)."""

    rules: Rules
    games: int
    executor: Executor | None = None
    progress: Callable[[int], None] | None = None
    seed: int = EVAL_SEED
    reference: dict[str, Any] | None = field(default=None, init=False)
    seconds: float = field(default=0.0, init=False)

    def __post_init__(self) -> None:
        development_seed(self.seed, "a model's evaluation games")

    def play(self, strategy: str, options: Sequence[tuple[str, object]] = ()) -> dict[str, Any]:
        """Play the evaluation games with ``strategy`` (a registered name) and ``options``; the point to record."""
        spec = BenchSpec(strategy, self.rules, self.seed, options=tuple(options), keep_guesses=False)
        start = time.perf_counter()
        try:
            results = run_many([(spec, self.games)], self.executor, self.progress)[0]
        except Stopped as stop:
            if isinstance(stop.cause, Interrupted):
                raise KeyboardInterrupt from None
            if isinstance(stop.cause, SweeplabError):
                raise stop.cause from None
            raise
        self.seconds += time.perf_counter() - start
        summary = summarize(results, strategy, self.rules, self.seed)
        point: dict[str, Any] = {
            "games": summary.games,
            "won": summary.wins,
            "win_rate": round(summary.win_rate, 6),
            "sem": round(summary.sem, 6),
            "outcomes": "".join("1" if r.won else "0" for r in results),
        }
        if self.reference is not None:
            mine = [c == "1" for c in point["outcomes"]]
            theirs = [c == "1" for c in self.reference["outcomes"]]
            difference, se = paired_difference(mine, theirs)
            point["vs_reference"] = {"difference": _rounded(difference), "se": _rounded(se)}
        return point

    def play_reference(self) -> dict[str, Any]:
        """The base player ``dsscsp-manhattan`` on the evaluation games (played once, then kept)."""
        if self.reference is None:
            self.reference = {"player": REFERENCE, **self.play(REFERENCE)}
        return self.reference

    def __call__(self, scorer: Scorer, step: int) -> dict[str, Any]:
        """The model ``scorer`` as its player (``scorer.kind``: xgboost, nn or dqn) on the evaluation games."""
        self.play_reference()
        return self.play(scorer.kind, [("scorer", scorer)])

    def manifest(self) -> dict[str, Any]:
        """What the evaluation set is, for the card: board, rule, seed, games, the reference's point, and the bench
        command that plays the same games with any player."""
        board = self.rules.spec()
        return {
            "board": board,
            "rule": self.rules.first_click,
            "seed": self.seed,
            "games": self.games,
            "layouts": f"games 0 to {self.games - 1} of root seed {self.seed}, as sweeplab bench deals them",
            "bench": f"sweeplab bench --board {board} --rule {self.rules.first_click} --seed {self.seed} "
            f"--games {self.games} --strategy PLAYER",
            "player": "the model as its player after each episode or at the listed boosting rounds (no exploration)",
            "reference": self.reference,
            "wall_seconds": round(self.seconds, 2),
        }


def summary_line(point: dict[str, Any]) -> str:
    """``win rate 61.2% ± 1.5 (+2.1 ± 0.9 on the reference)`` for a log line."""
    text = f"win rate {100 * point['win_rate']:.1f}% ± {100 * point['sem']:.1f}"
    paired = point.get("vs_reference") or {}
    if paired.get("difference") is not None and paired.get("se") is not None:
        text += f" ({100 * paired['difference']:+.1f} ± {100 * paired['se']:.1f} on {REFERENCE})"
    return text


__all__ = ["EVAL_SEED", "REFERENCE", "EvalSet", "Evaluate", "eval_rounds", "summary_line"]
