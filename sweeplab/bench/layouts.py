"""Directories of MBF layouts: deal the harness's games to files, and read them back to play the same boards.

``deal`` writes ``game-000000.mbf``, ``game-000001.mbf``, ... (game i is the harness's game i of the seed, dealt
with the first click revealed so the layout already obeys the first-click rule) and ``deal.json``, a manifest with
the board, rule, seed and the click each layout was dealt around (for ``hint``, the hint cell of every game).
Another program can play the same files and compare game by game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sweeplab.bench.runner import deal
from sweeplab.core.errors import LayoutFormatError
from sweeplab.core.rules import Rules
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

    @property
    def board(self) -> tuple[int, int, int]:
        first = self.layouts[0]
        return first.width, first.height, len(first.mines)


def deal_layouts(rules: Rules, count: int, seed: int, out: Path, first_click: int | None, command: str = "") -> list[Path]:
    """Write ``count`` layouts (games 0..count-1 of ``seed``) and the manifest into ``out``; returns the files.

    ``first_click`` None means: no click for ``unsafe`` (the deal does not depend on it) and ``hint`` (the game
    chooses its hint), and :data:`DEFAULT_DEAL_CLICK` for ``safe``, ``xp`` and ``zero``.
    """
    out.mkdir(parents=True, exist_ok=True)
    board = rules.board
    click = first_click
    if click is None and rules.first_click in ("safe", "xp", "zero"):
        click = board.index(*DEFAULT_DEAL_CLICK)
    files = []
    openings: list[list[int] | None] = []
    for i in range(count):
        game = deal(rules, seed, i, click)
        path = out / f"game-{i:06d}.mbf"
        save_mbf(Layout.of(game), path)
        files.append(path)
        openings.append(None if game.hint is None else [game.hint % board.width, game.hint // board.width])
    manifest: dict[str, Any] = {
        "board": rules.spec(),
        "rule": rules.first_click,
        "seed": seed,
        "count": count,
        "first_click": None if click is None else [click % board.width, click // board.width],
        "openings": openings if rules.first_click == "hint" else None,
        "command": command,
        "note": "game i is sweeplab's game i of this seed; reveal first_click (or openings[i]) before playing",
    }
    manifest_path = out / MANIFEST
    manifest_path.write_text(json.dumps(manifest, indent=1) + "\n")
    return [*files, manifest_path]


def load_layouts(directory: Path) -> LayoutSet:
    """Every ``*.mbf`` file of ``directory`` sorted by name (game i is the i-th) and the manifest if present.

    A corrupt file, an empty directory or files of different boards raise ``LayoutFormatError`` naming the file.
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
    try:
        manifest = json.loads(manifest_path.read_text())
        rule = manifest.get("rule")
        click = manifest.get("first_click")
        openings = manifest.get("openings")
        seed = manifest.get("seed")
        cell = None if click is None else int(click[1]) * first.width + int(click[0])
        cells = None
        if openings is not None:
            cells = tuple(None if o is None else int(o[1]) * first.width + int(o[0]) for o in openings)
            if len(cells) < len(files):
                raise ValueError(f"it lists {len(cells)} openings for {len(files)} layouts")
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as error:
        raise LayoutFormatError(f"{manifest_path}: not a valid deal manifest ({error})") from None
    return LayoutSet(directory, files, layouts, rule, cell, cells, seed)


__all__ = ["DEFAULT_DEAL_CLICK", "MANIFEST", "LayoutSet", "deal_layouts", "load_layouts"]
