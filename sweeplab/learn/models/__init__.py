"""The trained models shipped with sweeplab, one folder each: the model file and ``card.json`` (what made it: the
command, seed, data, parameters, time and scores; rerun, they rebuild it), and the cards' I/O.
May import core only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sweeplab.core.errors import SweeplabError

SHIPPED = Path(__file__).parent
CARD = "card.json"


class ModelError(SweeplabError):
    """A model folder that cannot be used: missing, unreadable or of the wrong kind; the message names the path."""


def shipped(name: str) -> Path:
    """The folder of a shipped model (``xgboost``, ``nn``, ``dqn``, ``dqn-single``)."""
    return SHIPPED / name


def write_card(folder: Path, card: dict[str, Any]) -> Path:
    """Write ``card.json`` in ``folder`` (keys sorted, so a rebuilt card diffs cleanly)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / CARD
    path.write_text(json.dumps(card, indent=2, sort_keys=True) + "\n")
    return path


def read_card(folder: Path) -> dict[str, Any]:
    """The card of a model folder; :class:`ModelError` names the folder when there is none or it is not JSON."""
    path = Path(folder) / CARD
    try:
        card: Any = json.loads(path.read_text())
    except (FileNotFoundError, NotADirectoryError):
        raise ModelError(f"{folder}: not a model folder (no {CARD}); train one with `sweeplab learn train`") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ModelError(f"{path}: not valid JSON ({error})") from None
    except OSError as error:
        raise ModelError(f"{path}: cannot be read ({error.strerror or error})") from None
    if not isinstance(card, dict):
        raise ModelError(f"{path}: not a model card (a JSON object)")
    return card


__all__ = ["CARD", "SHIPPED", "ModelError", "read_card", "shipped", "write_card"]
