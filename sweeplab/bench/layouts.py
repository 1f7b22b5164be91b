"""Directories of MBF layouts: deal the harness's games to files, and read them back to play the same boards.

``deal`` writes ``game-000000.mbf``, ``game-000001.mbf``, ... (game i is the harness's game i of the seed, dealt
with the first click revealed so the layout already obeys the first-click rule) and ``deal.json``, a manifest with
the board, rule, seed, the click each layout was dealt around (for ``hint``, the hint cell of every game) and the
files it covers. Reading a directory back checks the manifest against :data:`MANIFEST_SCHEMA` and the files.
Another program can play the same files and compare game by game.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sweeplab.bench.journal import check_writable, write_text
from sweeplab.bench.runner import deal
from sweeplab.core.errors import LayoutFormatError
from sweeplab.core.game import Game
from sweeplab.core.observation import Observation
from sweeplab.core.rules import FIRST_CLICK_RULES, Rules
from sweeplab.formats.mbf import Layout, load_mbf, save_mbf

MANIFEST = "deal.json"

#: With ``--first-click auto``, rules that deal around the first click (or move a mine from under it) are dealt
#: around this cell, the top-left corner, and the manifest says so.
DEFAULT_DEAL_CLICK = (0, 0)


@dataclass(frozen=True)
class LayoutSet:
    """Layouts read from a directory (sorted by file name) and what its manifest says, if it has one."""

    directory: Path
    files: tuple[Path, ...]
    layouts: tuple[Layout, ...]
    rule: str | None = None
    first_click: int | None = None
    openings: tuple[int | None, ...] | None = None
    seed: int | None = None
    rule_unmet: tuple[int, ...] = ()

    @property
    def board(self) -> tuple[int, int, int]:
        first = self.layouts[0]
        return first.width, first.height, len(first.mines)


#: The most layouts one deal writes: file names have six digits (game-000000.mbf to game-999999.mbf).
MAX_DEAL = 1_000_000

_LAYOUT_NAME = re.compile(r"^game-\d{6}\.mbf$")
_FILE_NAME = re.compile(r"^[^/\\]+\.mbf$", re.IGNORECASE)


def _cell_text(cell: int, width: int) -> str:
    return f"({cell % width}, {cell // width})"


def clear_deal(out: Path, force: bool) -> None:
    """Make ``out`` ready for a new deal: it must be empty, or (``force``) hold only an earlier deal, whose files
    (those its manifest lists, else ``game-NNNNNN.mbf``) and manifest are removed. Other ``.mbf`` files are never
    removed and refuse the deal, since ``bench --layouts`` would play them too."""
    if not out.exists():
        return
    entries = sorted(p.name for p in out.iterdir())
    entries = [e for e in entries if not e.startswith(".sweeplab-probe-")]
    if not entries:
        return
    if not force:
        shown = ", ".join(entries[:3]) + (f" and {len(entries) - 3} more" if len(entries) > 3 else "")
        raise LayoutFormatError(
            f"{out} is not empty ({shown}): deal into an empty directory, or add --force to replace the deal there"
        )
    owned: set[str] = set()
    manifest_path = out / MANIFEST
    if manifest_path.exists():
        owned.add(MANIFEST)
        try:
            listed = json.loads(manifest_path.read_text()).get("files")
            if isinstance(listed, list):
                owned.update(f for f in listed if isinstance(f, str) and _FILE_NAME.match(f))
        except (OSError, ValueError, AttributeError):
            pass
    owned.update(e for e in entries if _LAYOUT_NAME.match(e))
    foreign = [e for e in entries if e not in owned and e.lower().endswith(".mbf")]
    if foreign:
        raise LayoutFormatError(
            f"{out} holds layout files that are not an earlier deal's ({', '.join(foreign[:3])}"
            f"{' ...' if len(foreign) > 3 else ''}): `bench --layouts` would play them too; choose another --out"
        )
    for name in owned:
        with contextlib.suppress(FileNotFoundError):
            (out / name).unlink()


def deal_layouts(
    rules: Rules, count: int, seed: int, out: Path, first_click: int | None, command: str = "", force: bool = False
) -> list[Path]:
    """Write ``count`` layouts (games 0..count-1 of ``seed``) and the manifest into ``out``; returns the files.

    ``first_click`` None means: no click for ``unsafe`` (the deal does not depend on it) and ``hint`` (the game
    chooses its hint), and :data:`DEFAULT_DEAL_CLICK` for ``safe``, ``xp``, ``zero`` and ``noguess``. ``out`` must be empty
    unless ``force`` (see :func:`clear_deal`). The manifest, written last and whole, lists the files it covers and
    the games whose first-click rule could not be met (``zero`` on a board too dense for an opening).
    """
    if not 1 <= count <= MAX_DEAL:
        raise LayoutFormatError(f"a deal writes 1 to {MAX_DEAL:,} layouts, not {count:,}")
    check_writable(out)
    clear_deal(out, force)
    board = rules.board
    click = first_click
    if click is None and rules.first_click in ("safe", "xp", "zero", "noguess"):
        click = board.index(*DEFAULT_DEAL_CLICK)
    files = []
    openings: list[list[int] | None] = []
    unmet: list[int] = []
    for i in range(count):
        game = deal(rules, seed, i, click)
        path = out / f"game-{i:06d}.mbf"
        save_mbf(Layout.of(game), path)
        files.append(path)
        openings.append(None if game.hint is None else [game.hint % board.width, game.hint // board.width])
        if not game.rule_kept:
            unmet.append(i)
    manifest: dict[str, Any] = {
        "board": rules.spec(),
        "rule": rules.first_click,
        "seed": seed,
        "count": count,
        "first_click": None if click is None else [click % board.width, click // board.width],
        "openings": openings if rules.first_click == "hint" else None,
        "files": [f.name for f in files],
        "rule_unmet": unmet,
        "command": command,
        "note": "game i is sweeplab's game i of this seed; reveal first_click (or openings[i]) before playing; "
        "rule_unmet lists the games whose first-click rule could not be met",
    }
    manifest_path = write_text(out / MANIFEST, json.dumps(manifest, indent=1) + "\n")
    return [*files, manifest_path]


class _Manifest:
    """Checks a parsed ``deal.json`` against :data:`MANIFEST_SCHEMA`; every error names the file and the field."""

    def __init__(self, path: Path, data: object) -> None:
        self.path = path
        if not isinstance(data, dict):
            raise self.error("", f"the manifest is a JSON object, not {type(data).__name__}")
        unknown = sorted(set(data) - set(MANIFEST_SCHEMA))
        if unknown:
            raise self.error(unknown[0], f"unknown field (the manifest's fields are {', '.join(MANIFEST_SCHEMA)})")
        for name, (required, _) in MANIFEST_SCHEMA.items():
            if required and data.get(name) is None:
                raise self.error(name, f"{'missing' if name not in data else 'null'} ({MANIFEST_SCHEMA[name][1]})")
        self.data: dict[str, Any] = data

    def error(self, name: str, reason: str) -> LayoutFormatError:
        where = f"field {name!r}: " if name else ""
        return LayoutFormatError(f"{self.path}: {where}{reason}")

    def integer(self, name: str, low: int | None = None) -> int | None:
        value = self.data.get(name)
        if value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(name, f"expected an integer, got {json.dumps(value)}")
        if low is not None and value < low:
            raise self.error(name, f"expected an integer of at least {low}, got {value}")
        return value

    def text(self, name: str) -> str | None:
        value = self.data.get(name)
        if value is not None and not isinstance(value, str):
            raise self.error(name, f"expected a string, got {json.dumps(value)}")
        return value

    def cell(self, name: str, value: object, width: int, height: int) -> int | None:
        if value is None:
            return None
        if (
            not isinstance(value, list)
            or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        ):
            raise self.error(name, f"expected a cell [x, y] of two integers, got {json.dumps(value)}")
        x, y = value
        if not (0 <= x < width and 0 <= y < height):
            raise self.error(name, f"the cell ({x}, {y}) is off the {width}x{height} board")
        return y * width + x


#: The fields of ``deal.json``: name -> (required, what it holds). Unknown fields are refused.
MANIFEST_SCHEMA: dict[str, tuple[bool, str]] = {
    "board": (True, "the board as WxHxM, the same as every layout file's"),
    "rule": (True, f"the first-click rule the layouts were dealt under: one of {', '.join(FIRST_CLICK_RULES)}"),
    "seed": (True, "the root seed the layouts were dealt from: an integer"),
    "count": (False, "how many layouts the deal wrote: an integer of at least 1"),
    "first_click": (False, "null or [x, y]: the cell each layout was dealt around, revealed before playing"),
    "openings": (False, "null or one [x, y] (or null) per layout: the hint cells, revealed before playing"),
    "files": (False, "the layout files the manifest covers, by name (deals before this field had none)"),
    "rule_unmet": (False, "the game numbers whose first-click rule could not be met"),
    "command": (False, "the command that made the deal"),
    "note": (False, "a sentence for people"),
}


def _read_manifest(path: Path, files: tuple[Path, ...], layouts: tuple[Layout, ...]) -> dict[str, Any]:
    """The manifest's values checked against :data:`MANIFEST_SCHEMA` and the layouts it sits beside."""
    try:
        raw = path.read_bytes()
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        raise LayoutFormatError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    except json.JSONDecodeError as error:
        raise LayoutFormatError(f"{path}: not valid JSON ({error.msg} at line {error.lineno}, column {error.colno})") from None
    except (OSError, RecursionError) as error:
        raise LayoutFormatError(f"{path}: cannot be read ({type(error).__name__}: {error})") from None
    m = _Manifest(path, data)
    first = layouts[0]
    width, height = first.width, first.height
    board = m.text("board")
    actual = f"{width}x{height}x{len(first.mines)}"
    if board != actual:
        raise m.error("board", f"says {json.dumps(board)} but the layout files are {actual}")
    rule = m.text("rule")
    if rule not in FIRST_CLICK_RULES:
        raise m.error("rule", f"unknown rule {json.dumps(rule)}: one of {', '.join(FIRST_CLICK_RULES)}")
    seed = m.integer("seed")
    count = m.integer("count", low=1)
    listed = m.data.get("files")
    if listed is not None:
        if not isinstance(listed, list) or not all(isinstance(f, str) and _FILE_NAME.match(f) for f in listed):
            raise m.error("files", "expected a list of layout file names (NAME.mbf, no directories)")
        present = [p.name for p in files]
        extra = sorted(set(present) - set(listed))
        missing = sorted(set(listed) - set(present))
        if extra or missing:
            parts = []
            if missing:
                parts.append(f"{len(missing)} listed file(s) are missing ({', '.join(missing[:3])})")
            if extra:
                parts.append(f"{len(extra)} layout file(s) are not the deal's ({', '.join(extra[:3])})")
            raise m.error("files", "; ".join(parts) + ": the directory does not hold exactly this deal")
    if count is not None and count != len(files):
        raise m.error("count", f"says {count} layouts but the directory holds {len(files)}")
    click = m.cell("first_click", m.data.get("first_click"), width, height)
    openings_raw = m.data.get("openings")
    openings = None
    if openings_raw is not None:
        if not isinstance(openings_raw, list):
            raise m.error("openings", f"expected a list of cells, got {json.dumps(openings_raw)[:40]}")
        if len(openings_raw) < len(files):
            raise m.error("openings", f"lists {len(openings_raw)} openings for {len(files)} layouts")
        openings = tuple(m.cell(f"openings[{i}]", o, width, height) for i, o in enumerate(openings_raw))
    unmet = m.data.get("rule_unmet")
    if unmet is not None and not (
        isinstance(unmet, list) and all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in unmet)
    ):
        raise m.error("rule_unmet", "expected a list of game numbers")
    m.text("command")
    m.text("note")
    for i, (file, layout) in enumerate(zip(files, layouts, strict=True)):
        cell = click if click is not None else (openings[i] if openings is not None else None)
        if cell is not None and cell in layout.mines:
            what = "first_click" if click is not None else f"openings[{i}]"
            raise m.error(
                what, f"{file.name} has a mine under {_cell_text(cell, width)}: the layout was not dealt around that cell"
            )
    return {"rule": rule, "first_click": click, "openings": openings, "seed": seed, "rule_unmet": tuple(unmet or ())}


def load_layouts(directory: Path) -> LayoutSet:
    """Every ``*.mbf`` file of ``directory`` sorted by name (game i is the i-th) and the manifest if present.

    A corrupt file, an empty directory or files of different boards raise ``LayoutFormatError`` naming the file; a
    manifest that breaks :data:`MANIFEST_SCHEMA` (or lists other files than the directory holds, or names a click
    off the board or on a mine) raises one naming the file and the field.
    """
    directory = Path(directory)
    files = tuple(sorted(p for p in directory.iterdir() if p.suffix.lower() == ".mbf" and p.is_file()))
    if not files:
        raise LayoutFormatError(f"{directory}: no .mbf layout files in this directory")
    layouts = tuple(load_mbf(p) for p in files)
    first = layouts[0]
    for path, layout in zip(files, layouts, strict=True):
        if (layout.width, layout.height, len(layout.mines)) != (first.width, first.height, len(first.mines)):
            raise LayoutFormatError(
                f"{path}: a {layout.width}x{layout.height} board with {len(layout.mines)} mines, but {files[0].name} is "
                f"{first.width}x{first.height} with {len(first.mines)}: a layouts directory holds one board"
            )
    manifest_path = directory / MANIFEST
    if not manifest_path.exists():
        return LayoutSet(directory, files, layouts)
    m = _read_manifest(manifest_path, files, layouts)
    return LayoutSet(directory, files, layouts, m["rule"], m["first_click"], m["openings"], m["seed"], m["rule_unmet"])


__all__ = [
    "DEFAULT_DEAL_CLICK",
    "MANIFEST",
    "MANIFEST_SCHEMA",
    "MAX_DEAL",
    "LayoutSet",
    "clear_deal",
    "deal_layouts",
    "load_layouts",
]


def strewn_position(width: int, height: int, mines: int, share: float, seed: int) -> tuple[Observation, frozenset[int]]:
    """A true position with numbers strewn over the whole board, and its layout: game ``seed``'s layout (first click
    ``unsafe``) with ``share`` of its safe cells revealed, each by one click in a seeded random order (zeros flood as
    in play). Its frontier is one wide component of thousands of cells: the positions that need the estimator."""
    game = Game(Rules(width, height, mines, "unsafe"), seed)
    layout = game.mine_cells()
    safe = [c for c in range(width * height) if c not in layout]
    random.Random(seed).shuffle(safe)
    opened: set[int] = set()
    for cell in safe[: int(len(safe) * share)]:
        if cell not in opened:
            opened.update(game.reveal(cell))
    return game.observation(), frozenset(layout)
