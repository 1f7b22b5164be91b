"""The reasons kept in ``results/explanations.json`` for the differences between a paper and sweeplab.

Each entry is keyed by the row's label as the results pages print it, and is one of two kinds:

- ``{"text": ..., "evidence": ["results/<dir>/<file>", ...]}``: the cause is shown by a run; ``evidence`` names the
  committed data that supports the text (each file must exist). The scoreboard says "differs (cause shown by a test)".
- ``{"text": ..., "unexplained": true}``: no run supports a cause; the text says what was tried and what the data
  shows. The scoreboard says "differs, unexplained" and the page prints the text after "Unexplained.".

A bare string is refused: an explanation without the run behind it is what this format exists to prevent.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Explanation:
    """A difference's reason: ``text``, and the committed files that show it (none when it is unexplained)."""

    text: str
    evidence: tuple[str, ...] = ()

    @property
    def shown(self) -> bool:
        return bool(self.evidence)

    @property
    def printed(self) -> str:
        """The text as a page prints it."""
        return self.text if self.shown else f"**Unexplained.** {self.text}"


def explanation(value: str | Explanation) -> Explanation:
    """``value`` as an :class:`Explanation` (a string, as tests and callers write one, counts as shown in code)."""
    return value if isinstance(value, Explanation) else Explanation(value, ("(given in code)",))


def load(path: Path, root: Path | None = None) -> dict[str, Explanation]:
    """The explanations in ``path`` (empty when the file is missing); each ``evidence`` path is checked to exist
    under ``root`` (default: the folder above ``path``'s folder, the repository). Raises ValueError naming the
    entry and what is wrong."""
    if not path.exists():
        return {}
    try:
        raw = json.loads(path.read_text())
    except ValueError as error:
        raise ValueError(f"{path}: not JSON ({error})") from None
    if not isinstance(raw, dict):
        raise ValueError(f"{path}: expected an object of label -> explanation")
    base = root if root is not None else path.resolve().parent.parent
    found: dict[str, Explanation] = {}
    for label, entry in raw.items():
        where = f"{path}: {label!r}"
        if not isinstance(entry, dict) or not isinstance(entry.get("text"), str) or not entry["text"].strip():
            raise ValueError(f"{where}: expected {{'text': ..., 'evidence': [files]}} or {{'text': ..., 'unexplained': true}}")
        evidence = entry.get("evidence", [])
        unexplained = entry.get("unexplained", False)
        if not isinstance(evidence, list) or not all(isinstance(e, str) for e in evidence):
            raise ValueError(f"{where}: 'evidence' must be a list of file paths")
        if bool(evidence) == (unexplained is True):
            raise ValueError(f"{where}: give either the evidence files of the run that shows the cause, or unexplained: true")
        for name in evidence:
            if not (base / name).is_file():
                raise ValueError(f"{where}: the evidence file {name} does not exist")
        found[label] = Explanation(entry["text"].strip(), tuple(evidence))
    return found
