"""Learning curves from a model card: the loss and accuracy on the training and held-out rows as training went on,
and the win rate on the evaluation games.

The trainers record them in the card (``curve`` for xgboost, per boosting round; ``episodes[i]["curve"]`` for the
network and the Q-network, per pass over the episode's rows, from pass 0, the model before that episode's training).
:func:`curve_points` flattens them into one series. The win rates (see :mod:`sweeplab.learn.seed003.winrates`) are in
``episodes[i]["evaluation"]`` (nn, dqn: the model after episode i's training) or ``evaluation["rounds"]`` (xgboost),
with the reference player's in ``evaluation["reference"]``; :func:`win_rate_points` lists them. :func:`plot_curves`
draws both when matplotlib is installed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: (loss, accuracy) keys of the scores in each kind's card
METRICS = {"xgboost": ("log_loss", "accuracy"), "nn": ("log_loss", "accuracy"), "dqn": ("mse", "sign_accuracy")}
LABELS = {"log_loss": "log loss", "accuracy": "accuracy", "mse": "mean squared error", "sign_accuracy": "sign accuracy"}


def curve_points(card: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per measured point: ``step`` (boosting round, or passes so far over all episodes), ``episode``, and
    the loss and accuracy on the training and held-out rows (None where not measured). Empty for a card without curves.

    >>> card = {"kind": "dqn", "episodes": [{"episode": 0, "curve": [
    ...     {"epoch": 0, "train": {"mse": 1.0, "sign_accuracy": 0.5}, "validation": {"mse": 0.9, "sign_accuracy": 0.6}},
    ...     {"epoch": 1, "train": {"mse": 0.5, "sign_accuracy": 0.7}, "validation": {"mse": 0.6, "sign_accuracy": 0.7}}]}]}
    >>> [(p["step"], p["validation_loss"]) for p in curve_points(card)]
    [(0, 0.9), (1, 0.6)]
    """
    kind = card.get("kind")
    if kind not in METRICS:
        raise ValueError(f"a card of kind {kind!r} has no learning curve: expected one of {', '.join(METRICS)}")
    loss, accuracy = METRICS[kind]

    def point(step: int, episode: int, entry: dict[str, Any]) -> dict[str, Any]:
        return {
            "step": step,
            "episode": episode,
            "train_loss": entry["train"][loss],
            "validation_loss": entry["validation"][loss],
            "train_accuracy": entry["train"][accuracy],
            "validation_accuracy": entry["validation"][accuracy],
        }

    if kind == "xgboost":
        return [point(p["round"], 0, p) for p in card.get("curve", [])]
    out: list[dict[str, Any]] = []
    done = 0
    for episode in card.get("episodes", []):
        curve = episode.get("curve", [])
        out.extend(point(done + p["epoch"], episode["episode"], p) for p in curve)
        done += max((p["epoch"] for p in curve), default=0)
    return out


def win_rate_points(card: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per evaluated model: ``step`` (episode, or boosting round for xgboost), ``games``, ``won``,
    ``win_rate`` and ``sem``; empty for a card trained without evaluation games.

    >>> card = {"kind": "nn", "episodes": [{"episode": 1, "evaluation": {"games": 10, "won": 6, "win_rate": 0.6,
    ...     "sem": 0.15}}, {"episode": 2}]}
    >>> [(p["step"], p["win_rate"]) for p in win_rate_points(card)]
    [(1, 0.6)]
    """
    keys = ("games", "won", "win_rate", "sem")
    if card.get("kind") == "neural":
        return [{"step": p["epoch"], **{k: p["win_rate"][k] for k in keys}} for p in card.get("curve", []) if p.get("win_rate")]
    if card.get("kind") == "xgboost":
        return [{"step": p["round"], **{k: p[k] for k in keys}} for p in (card.get("evaluation") or {}).get("rounds", [])]
    return [
        {"step": e["episode"], **{k: e["evaluation"][k] for k in keys}} for e in card.get("episodes", []) if "evaluation" in e
    ]


def _plot_win_rates(axis: Any, card: dict[str, Any], points: list[dict[str, Any]]) -> None:
    """The third panel: the win rate of each evaluated model ± its SE, the reference's as a line with its SE band."""
    evaluation = card.get("evaluation") or {}
    x = [p["step"] for p in points]
    axis.errorbar(x, [p["win_rate"] for p in points], yerr=[p["sem"] for p in points], fmt="o-", capsize=3, label=card["kind"])
    reference = evaluation.get("reference")
    if reference:
        rate, se = reference["win_rate"], reference["sem"]
        axis.axhline(rate, color="C3", linestyle=":", label=f"{reference.get('player', 'reference')} (reference)")
        axis.axhspan(rate - se, rate + se, color="C3", alpha=0.12)
    axis.set_xlabel(
        {"xgboost": "boosting round", "neural": "epoch (0: before this training)"}.get(
            card["kind"], "episode (the model after its training)"
        )
    )
    if card["kind"] != "xgboost":
        axis.set_xticks(x)
    where = f"{evaluation.get('games', points[0]['games'])} games"
    if "board" in evaluation:
        where += f" of {evaluation['board']} ({evaluation.get('rule', '')}), seed {evaluation.get('seed', 0)}"
    axis.set_ylabel(f"win rate ± SE ({where})", fontsize=8)
    axis.legend(fontsize=8)


def plot_curves(card: dict[str, Any], path: Path) -> Path | None:
    """Draw the card's learning curves (loss and accuracy, training dashed, held-out solid) and, when the card has
    them, the win rates on the evaluation games (± SE, the reference player's as a horizontal line) as a PNG at
    ``path``; None, writing nothing, when matplotlib is not installed or the card has no curve."""
    if card.get("kind") == "neural":
        return plot_neural_curves(card, path)
    points = curve_points(card)
    wins = win_rate_points(card)
    if not points and not wins:
        return None
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    loss, accuracy = METRICS[card["kind"]]
    x = [p["step"] for p in points]
    figure, axes = plt.subplots(1, 3 if wins else 2, figsize=(15 if wins else 10, 3.8))
    if wins:
        _plot_win_rates(axes[2], card, wins)
    for axis, metric, label in ((axes[0], "loss", LABELS[loss]), (axes[1], "accuracy", LABELS[accuracy])):
        for split, style in (("train", "--"), ("validation", "-")):
            axis.plot(x, [p[f"{split}_{metric}"] for p in points], style, label=split if split == "train" else "held out")
        starts = [p["step"] for p, q in zip(points[1:], points, strict=False) if p["episode"] != q["episode"]]
        for step in starts:
            axis.axvline(step, color="0.8", linewidth=0.8)
        axis.set_xlabel("boosting round" if card["kind"] == "xgboost" else "passes over the rows (grey: a new episode)")
        axis.set_ylabel(label)
        axis.legend()
    return _save(figure, f"{card['kind']}: learning curve ({card.get('version', '')})", path)


def plot_neural_curves(card: dict[str, Any], path: Path) -> Path | None:
    """A neural card's curves as a PNG at ``path``: the loss (training dashed, held-out solid), the held-out share of
    positions where the lowest prediction is a safest cell, and the win rates when the card has them; None, writing
    nothing, without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    curve = card.get("curve", [])
    wins = win_rate_points(card)
    figure, axes = plt.subplots(1, 3 if wins else 2, figsize=(15 if wins else 10, 3.8))
    trained = [p for p in curve if "train" in p]
    epochs = [p["epoch"] for p in curve]
    axes[0].plot([p["epoch"] for p in trained], [p["train"]["log_loss"] for p in trained], "s--", label="train")
    axes[0].plot(epochs, [p["validation"]["log_loss"] for p in curve], "o-", label="held out")
    axes[0].set_ylabel("cross-entropy against exact")
    axes[1].plot(epochs, [100 * p["validation"]["picks_safest"] for p in curve], "o-", label="held out")
    axes[1].set_ylabel("lowest prediction is a safest cell (%)")
    start = "0: the model it started from" if card.get("init") else "0: untrained"
    for axis in axes:
        axis.set_xticks(epochs)
    for axis in axes[:2]:
        axis.set_xlabel(f"epoch ({start})")
        axis.legend()
    if wins:
        _plot_win_rates(axes[2], card, wins)
    return _save(figure, f"neural: learning curve ({card.get('architecture', '')})", path)


def _save(figure: Any, title: str, path: Path) -> Path:
    """Title, lay out and write ``figure`` as a PNG at ``path``, then close it."""
    import matplotlib.pyplot as plt

    figure.suptitle(title, fontsize=9)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path


__all__ = ["METRICS", "curve_points", "plot_curves", "plot_neural_curves", "win_rate_points"]
