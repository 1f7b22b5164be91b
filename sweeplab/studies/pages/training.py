"""The learned players' training on their page: rows made, trained on and held out, from the model cards, against the
million rows asked; and the deep Q models' sign accuracy on fresh rows beside the trivial baselines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sweeplab.studies.pages.page import Doc, _table

#: The rows each of seed 003's models was asked to train on (seed 003's scale).
ROWS_ASKED = 1_000_000


def _score(validation: dict[str, Any]) -> str:
    if "accuracy" in validation:
        return f"accuracy {100 * validation['accuracy']:.1f}%, log loss {validation['log_loss']:.3f}"
    mse, sign = validation.get("mse", float("nan")), validation.get("sign_accuracy", float("nan"))
    return f"MSE {mse:.3f}, sign accuracy {100 * sign:.1f}%"


def _rows(card: dict[str, Any]) -> tuple[int, int, int]:
    """Rows made, trained on and held out, from a card's fields (``rows``, ``train_rows``, ``validation_rows``)."""
    return int(card["rows"]), int(card["train_rows"]), int(card["validation_rows"])


def training_section(doc: Doc, root: Path) -> None:
    """The table of the seed 003 models' cards (``results/learn/cards/``), the million rows asked, and the deep Q
    baselines (``results/learn/baselines/dqn.json``)."""
    cards = sorted((root / "cards").glob("*.json")) if (root / "cards").exists() else []
    table, short = [], []
    for path in cards:
        card = json.loads(path.read_text())
        if card.get("kind") == "neural":  # sweeplab's own player: its section follows the page
            continue
        v = card.get("validation", {})
        data = card.get("data") or {}
        games = data.get("games") or sum(e.get("games", 0) for e in card.get("episodes", []))
        made, trained, held = _rows(card)
        episodes = card.get("episodes") or []
        last = (
            f"the last episode's {v.get('rows', 0):,} held-out rows"
            if len(episodes) > 1
            else f"{v.get('rows', 0):,} held-out rows"
        )
        table.append(
            [
                path.stem,
                f"{games:,}",
                f"{made:,}",
                f"{trained:,}",
                f"{held:,}",
                f"{last}: {_score(v)}",
                f"{card['training_seconds']['cpu'] + data.get('play_cpu_seconds', 0):.0f} / "
                f"{card['training_seconds']['wall']:.0f}",
                f"`{card.get('command', '')}`",
            ]
        )
        if trained < ROWS_ASKED:
            short.append(f"{path.stem} {trained:,}")
    if table:
        million = f"Trained on at least {ROWS_ASKED:,} rows, as asked of each model: " + (
            f"not met by {len(short)} of {len(table)} ({', '.join(short)} rows trained on; the held-out rows "
            "of each episode are not trained on)."
            if short
            else "met by every model."
        )
        doc.add(
            "### Training cost\n\nFrom the model cards (copies in `results/learn/cards/`; the models ship in "
            "`sweeplab/learn/models/`): the rows each training made, those it trained on and those it held out (the "
            "last 10% of each episode's games). CPU seconds include playing the training games; wall seconds are on "
            f"the shared, busy machine. {million}\n\n"
            + _table(
                [
                    "model",
                    "games played",
                    "rows made",
                    "trained on",
                    "held out",
                    "validation",
                    "CPU / wall s",
                    "command",
                ],
                table,
            )
        )
    baselines = _baselines(root / "baselines" / "dqn.json")
    if baselines:
        doc.add(baselines)


def _baselines(path: Path) -> str:
    """The deep Q models' sign accuracy on fresh rows beside the majority sign, a linear regression and a coin."""
    if not path.exists():
        return ""
    data = json.loads(path.read_text())
    by = {row["name"]: row for row in data["scores"]}
    fit, fresh = data["fit"], data["fresh"]

    def cell(row: dict[str, Any]) -> str:
        return f"{100 * row['sign_accuracy']:.1f} ± {100 * row['se']:.1f}%"

    rows = []
    for name, row in by.items():
        versus = row.get("minus_linear")
        rows.append(
            [
                name,
                cell(row),
                "-" if row.get("mse") is None else f"{row['mse']:.3f}",
                "-" if versus is None else f"{100 * versus['difference']:+.1f} ± {100 * versus['se']:.1f}",
            ]
        )
    rows.append(["a coin", f"{100 * data['coin']:.1f}%", "-", "-"])
    above = [
        n for n in ("dqn", "dqn-single") if n in by and by[n]["minus_linear"]["difference"] - 2 * by[n]["minus_linear"]["se"] > 0
    ]
    verdict = "Better than the linear regression by more than 2 SE: " + (" and ".join(above) if above else "neither model")
    return (
        "How much the deep Q models learned, against the baselines that matter rather than a coin "
        f"(`{data['command']}`, `results/learn/baselines/dqn.json`): the Manhattan player's guesses on the training "
        f"boards, {fresh['rows']:,} fresh sub-state rows from {fresh['games']:,} games of seed {fresh['seed']} (no "
        f"model trained on that seed), scored for calling the return's sign; the majority sign "
        f"({data['majority_sign']}) and a linear regression on the same 25 inputs are fitted on {fit['rows']:,} rows "
        f"of {fit['games']:,} games of seed {fit['seed']}. ± SE over games; the last column is paired on the same "
        f"rows. {verdict}.\n\n"
        + _table(["predictor", "sign accuracy", "mean squared error", "minus linear regression (pts)"], rows)
    )
