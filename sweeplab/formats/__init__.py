"""sweeplab.formats: JSMinesweeper position text, MBF layouts and terminal rendering."""

from sweeplab.formats.mbf import Layout, load_mbf, read_mbf, save_mbf, write_mbf
from sweeplab.formats.position import format_position, parse_position, read_position
from sweeplab.formats.render import LEGEND, render_game, render_observation

__all__ = [
    "LEGEND",
    "Layout",
    "format_position",
    "load_mbf",
    "parse_position",
    "read_mbf",
    "read_position",
    "render_game",
    "render_observation",
    "save_mbf",
    "write_mbf",
]
