"""The reasons kept in ``results/explanations.json`` for the differences between a paper and sweeplab.

Each entry is keyed by the row's label as the results pages print it, and is one of two kinds:

- ``{"text": ..., "evidence": ["results/<dir>/<file>", ...]}``: the cause is shown by a run; ``evidence`` names the
  committed data that supports the text (each file must exist). The scoreboard says "differs (cause shown by a test)".
- ``{"text": ..., "unexplained": true}``: no run supports a cause; the text says what was tried and what the data
  shows. The scoreboard says "differs, unexplained" and the page prints the text after "Unexplained.".

A bare string is refused: an explanation without the run behind it is what this format exists to prevent.

Every number an explanation quotes from a run is written as a placeholder that :func:`fill` replaces with the value
in the committed file, so the text cannot drift from its data: ``{{results/seed003/data.json#claims[key=K].measured}}``
is the ``measured`` field of the claim whose ``key`` is K; ``[field=value,...]`` picks the one list item whose fields
equal the values (in double quotes when they hold ``]``, ``,`` or ``:``), ``.name`` a field, ``.3`` a list
item. A CSV file reads as a list of its rows, each a dict of strings keyed by the header, so
``{{results/calibration/bins.csv#[strategy=exact,kind=educated,low=0.8].rate:%.1f}}`` is one row's ``rate``; a cell
that reads as a number compares and formats as one. A format after a colon applies to a number: ``:.2f``,
``:+.1f``, ``:,``; ``%`` before it scales a rate to percent (``:%.1f``), ``ms`` seconds to milliseconds (``:ms.2f``),
``us`` seconds to microseconds (``:us.0f``).
"""

from __future__ import annotations

import csv
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any


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
        found[label] = Explanation(fill(entry["text"].strip(), base, where), tuple(evidence))
    return found


_SELECT = r'\[((?:"[^"]*"|[^\]"])*)\]'
_PLACEHOLDER = re.compile(r"\{\{([^#{}]+)#((?:[^\[\]{}:\"]|" + _SELECT.replace("(", "(?:", 1) + r")+)(?::([^{}]*))?\}\}")
_STEP = re.compile(r"\.?([\w-]+)|" + _SELECT)
_PAIR = re.compile(r'\s*([\w-]+)=(?:"([^"]*)"|([^,]*))\s*(?:,|$)')


def fill(text: str, base: Path, where: str = "") -> str:
    """``text`` with every ``{{FILE#PATH:FORMAT}}`` replaced by the value at PATH in the JSON or CSV file FILE
    (under ``base``, the repository), formatted. Raises ValueError naming ``where``, the placeholder and what is wrong.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> _ = (root / "d.json").write_text('{"points": [{"board": "9x9x10", "win_rate": 0.8693}]}')
    >>> fill("wins {{d.json#points[board=9x9x10].win_rate:%.1f}}%", root)
    'wins 86.9%'
    >>> _ = (root / "b.csv").write_text("kind,low,rate\\nexact,0.80,0.8224\\nexact,0.85,0.861\\n")
    >>> fill("{{b.csv#[kind=exact,low=0.8].rate:%.1f}}% over {{b.csv#[low=0.85].kind}}", root)
    '82.2% over exact'
    """
    cache: dict[str, Any] = {}

    def value(match: re.Match[str]) -> str:
        name, path, spec = match.group(1).strip(), match.group(2).strip(), match.group(3)
        at = f"{where}: {match.group(0)}"
        if name not in cache:
            try:
                raw = (base / name).read_text()  # not ``text``, the text being filled
                cache[name] = list(csv.DictReader(raw.splitlines())) if name.endswith(".csv") else json.loads(raw)
            except (OSError, ValueError) as error:
                raise ValueError(f"{at}: cannot read {name} as {'CSV' if name.endswith('.csv') else 'JSON'} ({error})") from None
        return _format(_lookup(cache[name], path, at), spec, at)

    filled = _PLACEHOLDER.sub(value, text)
    if "{{" in filled or "}}" in filled:
        raise ValueError(f"{where}: a placeholder that cannot be read: {filled[filled.find('{{') :][:120]!r}")
    return filled


def _lookup(data: Any, path: str, at: str) -> Any:
    """The value at ``path`` in ``data`` (see the module's docstring for the steps)."""
    position = 0
    for step in _STEP.finditer(path):
        if step.start() != position:
            raise ValueError(f"{at}: cannot read the path at {path[position:]!r}")
        position = step.end()
        name, select = step.group(1), step.group(2)
        if select is not None:
            pairs = list(_PAIR.finditer(select))
            if sum(len(m.group(0)) for m in pairs) != len(select):
                raise ValueError(f"{at}: [{select}] is not field=value pairs (quote a value with ] or , in it)")
            want = {m.group(1): m.group(2) if m.group(2) is not None else m.group(3).strip() for m in pairs}
            if not isinstance(data, list) or not want:
                raise ValueError(f"{at}: [{select}] needs a list and field=value pairs")
            for field in want:
                if not any(isinstance(item, dict) and field in item for item in data):
                    raise ValueError(f"{at}: [{select}]: no item has a field {field!r}")
            hits = [item for item in data if isinstance(item, dict) and all(_same(item.get(k), v) for k, v in want.items())]
            if len(hits) != 1:
                raise ValueError(f"{at}: [{select}] matches {len(hits)} items, not one")
            data = hits[0]
        elif isinstance(data, list) and name.isdigit() and int(name) < len(data):
            data = data[int(name)]
        elif isinstance(data, dict) and name in data:
            data = data[name]
        else:
            raise ValueError(f"{at}: no {name!r} there")
    if position != len(path):
        raise ValueError(f"{at}: cannot read the path at {path[position:]!r}")
    return data


def _number(value: Any) -> int | float | None:
    """``value`` as a number: itself when it is one, a string that reads as one (a CSV cell), else None."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        for kind in (int, float):
            try:
                return kind(value.strip())
            except ValueError:
                pass
    return None


def _same(found: Any, wanted: str) -> bool:
    if str(found) == wanted:
        return True
    number = _number(found)
    return number is not None and _number(wanted) == number


def _format(found: Any, spec: str | None, at: str) -> str:
    if spec is None or spec == "":
        return str(found)
    number = _number(found)
    if number is None:
        raise ValueError(f"{at}: the format {spec!r} needs a number, found {found!r}")
    found = number
    scale = 1.0
    if spec.startswith("%"):
        spec, scale = spec[1:], 100.0
    elif spec.startswith("ms"):
        spec, scale = spec[2:], 1000.0
    elif spec.startswith("us"):
        spec, scale = spec[2:], 1e6
    try:
        return format(found * scale if scale != 1.0 else found, spec)
    except ValueError:
        raise ValueError(f"{at}: {spec!r} is not a number format") from None
