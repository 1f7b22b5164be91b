"""``cmd:PROGRAM ARGS``: a player that is an outside program, spoken to over the arena's protocol (``protocol.py``).

One copy of the program per worker (process or thread) plays game after game; a game it loses by forfeit (it exited,
hung past the move or game time limit, wrote something that is not the protocol, made an illegal move) stops that
copy, and the next game starts a fresh one. Moves of one answer are played in order; a reveal, flag or chord that
an earlier move of the same answer made pointless (its cell, or a chord's covered neighbours, opened by a flood
fill) is skipped; any other move the game would refuse is an illegal move.
"""

from __future__ import annotations

import math
import os
import shlex
import shutil
import struct
import time
from collections import deque
from pathlib import Path
from typing import Any, ClassVar

from sweeplab.core.errors import SweeplabError
from sweeplab.core.game import Move
from sweeplab.core.observation import COVERED, FLAGGED, Observation
from sweeplab.core.rules import Rules
from sweeplab.strategies.base import Explanation, LazyExplanation, Strategy
from sweeplab.strategies.external.process import Program, program
from sweeplab.strategies.external.protocol import (
    ENDLESS,
    GAME_TIME,
    GARBLED,
    ILLEGAL,
    MOVE_TIME,
    Answer,
    Forfeit,
    game_message,
    parse_answer,
    turn_line,
)

PREFIX = "cmd:"
MOVE_TIME_LIMIT = 5.0  #: seconds a program may take over one answer, by default
START_UP = 10.0  #: seconds a copy's first answer may take on top (its start-up), not counted in the game's time

#: a cell's value as a byte (0-8; -1 covered, -2 flagged, as signed bytes 255 and 254) -> its letter in the position
_LETTERS = bytes(48 + v if v <= 8 else 72 if v == 255 else 70 if v == 254 else 63 for v in range(256))
_PACKERS: dict[int, struct.Struct] = {}  # cells -> the Struct that packs a view of that many values as signed bytes


def _letters(view: tuple[int, ...]) -> bytes:
    """The position's letters, one per cell (row-major), from an observation's view."""
    packer = _PACKERS.get(len(view))
    if packer is None:
        packer = _PACKERS[len(view)] = struct.Struct(f"{len(view)}b")
    return packer.pack(*view).translate(_LETTERS)


class ExternalSpecError(SweeplabError):
    """A ``cmd:`` strategy that cannot be run: no command, quotes that do not close, a program that is not there."""


def _xy(cell: int, width: int) -> str:
    return f"({cell % width}, {cell // width})"


class ExternalStrategy(Strategy):
    """An outside program as a player; each ``cmd:`` spec gets its own subclass (:func:`external`).

    ``move_time_limit`` is the wall-clock seconds the program may take over one answer; ``time_limit`` (0: none)
    the seconds over all of one game's answers; ``log_dir`` the run's folder, whose ``stderr/`` keeps what the
    program writes to stderr (a temporary folder when empty).
    """

    name: ClassVar[str] = PREFIX
    source: ClassVar[str] = "an outside program over sweeplab's JSON-lines protocol (docs/arena.md)"
    summary: ClassVar[str] = "plays the moves an outside program answers with"
    command: ClassVar[str] = ""
    argv: ClassVar[tuple[str, ...]] = ()

    def __init__(
        self, seed: int | None = None, move_time_limit: float = MOVE_TIME_LIMIT, time_limit: float = 0.0, log_dir: str = ""
    ) -> None:
        super().__init__(seed)
        if not (isinstance(move_time_limit, int | float) and 0 < move_time_limit < math.inf):
            raise ExternalSpecError(f"the move time limit must be a finite number of seconds above 0, not {move_time_limit!r}")
        if not (isinstance(time_limit, int | float) and 0 <= time_limit < math.inf):
            raise ExternalSpecError(f"the game time limit must be a finite number of seconds (0: none), not {time_limit!r}")
        self.move_time_limit = float(move_time_limit)
        self.time_limit = float(time_limit)
        self.log_dir = log_dir
        self._program: Program | None = None
        self._rules: Rules | None = None
        self._pending: deque[tuple[str, int]] = deque()
        self._answered: tuple[int, ...] = ()
        self._answer: Answer | None = None
        self._sent: bytes | None = None
        self._waited = 0.0
        self._program_cpu: float | None = None

    @property
    def program_cpu(self) -> float:
        """The program's CPU seconds since the last game of its copy ended (read once, when this game is over): the
        games' shares add up to the program's whole CPU time, its start-up in the first game of each copy."""
        if self._program_cpu is None:
            self._program_cpu = self._program.take_cpu() if self._program is not None else 0.0
        return self._program_cpu

    def begin(self, rules: Rules) -> None:
        self._rules = rules
        self._join()

    def _join(self) -> None:
        """Start this game on this thread's copy of the program (started if there is none): its ``game`` line. Where
        games take turns on one copy (the web page's auto-solvers, each kept between its steps), a game whose copy
        has since started another game, or was stopped by another game's forfeit, joins again before its next turn:
        a new ``game`` line, then a turn naming every revealed cell."""
        rules = self._rules
        assert rules is not None
        self._program = program(list(self.argv), self.command, self.log_dir)
        self._program.games += 1
        self._program.owner = self
        self._sent = None
        message = game_message(rules.width, rules.height, rules.mines, rules.first_click, self._seed)
        self._talk(lambda p, deadline: p.send(message, deadline), self.move_time_limit)

    def choose(self, observation: Observation) -> Move:
        if self._program is None:
            self.begin(Rules(observation.board.width, observation.board.height, observation.mines, "unsafe"))
        if observation.moves >= 10 * observation.board.cells:
            self._lose(Forfeit(ENDLESS, f"{observation.moves} moves without finishing the game"))
        while True:
            while self._pending:
                move = self._move(*self._pending.popleft(), observation)
                if move is not None:
                    return move
            self._ask(observation)

    def _move(self, action: str, cell: int, observation: Observation) -> Move | None:
        """The move ``action`` on ``cell`` now; None to skip it (made pointless by an earlier move of its answer)."""
        view = observation.view
        value, before = view[cell], self._answered[cell]
        width = observation.board.width
        if action == "reveal" or action == "flag":
            if value == COVERED:
                return self._reveal(cell, observation) if action == "reveal" else Move.flag(cell)
            if value >= 0 and before == COVERED:
                return None
            shows = "flagged" if value == FLAGGED else f"already revealed (shows {value})"
            self._lose(Forfeit(ILLEGAL, f"cannot {action} {_xy(cell, width)}: it is {shows}"))
        if action == "unflag":
            if value == FLAGGED:
                return Move.unflag(cell)
            self._lose(Forfeit(ILLEGAL, f"cannot unflag {_xy(cell, width)}: it is not flagged"))
        neighbours = observation.board.neighbours[cell]
        flags = sum(1 for n in neighbours if view[n] == FLAGGED)
        if value < 0 or flags != value:
            why = "it is not revealed" if value < 0 else f"it shows {value} but has {flags} flagged neighbours"
            self._lose(Forfeit(ILLEGAL, f"cannot chord {_xy(cell, width)}: {why}"))
        if any(view[n] == COVERED for n in neighbours):
            return Move.chord(cell)
        if not any(self._answered[n] == COVERED for n in neighbours):  # pointless from the start: no earlier move's doing
            self._lose(Forfeit(ILLEGAL, f"cannot chord {_xy(cell, width)}: it has no covered unflagged neighbours"))
        return None

    def _reveal(self, cell: int, observation: Observation) -> Move:
        answer = self._answer
        p = answer.probabilities.get(cell) if answer is not None else None
        if not p:  # no probability, or 0: a move the program is sure of
            return Move.reveal(cell)
        kind = "first" if all(v == COVERED for v in observation.view) else "educated"
        return self.guess(observation, cell, kind, 1.0 - p, _explanation(answer, observation.board.width))  # type: ignore[arg-type]

    def _ask(self, observation: Observation) -> None:
        """Send the position, read the answer, queue its moves."""
        copy = self._program
        if copy is not None and (copy.owner is not self or copy.stopped):  # another game used the copy meanwhile
            self._join()
        board = observation.board
        width, height = board.width, board.height
        letters = _letters(observation.view)
        revealed = self._revealed(letters, width)
        self._sent = letters
        rows = b"\\n".join([letters[start : start + width] for start in range(0, len(letters), width)])
        position = b"%dx%dx%d\\n%b\\n" % (width, height, observation.mines, rows)
        message = turn_line(position, revealed, observation.moves)
        limit, game_left = self.move_time_limit, math.inf
        if self.time_limit:
            game_left = self.time_limit - self._waited
            if game_left <= 0:
                self._lose(Forfeit(GAME_TIME, f"the program's answers took {self._waited:.3g} s in all"))
        wait = min(limit, game_left)
        fresh = self._program is not None and not self._program.answers  # its first answer: start-up on top
        allowed = wait + START_UP if fresh else wait

        def exchange(p: Program, deadline: float) -> bytes:
            p.send(message, deadline)
            line = p.receive(deadline, allowed)
            if p.pending():
                raise Forfeit(GARBLED, "the program wrote more than one line for a turn")
            return line

        start = time.monotonic()
        try:
            line = self._talk(exchange, allowed)
        except Forfeit as forfeit:
            if forfeit.outcome == MOVE_TIME and wait < limit:
                forfeit = Forfeit(GAME_TIME, f"the program's answers took over {self.time_limit:g} s in all ({forfeit})")
            self._lose(forfeit)
        assert self._program is not None
        self._program.answers += 1
        self._waited += max(0.0, time.monotonic() - start - (allowed - wait))
        try:
            answer = parse_answer(line, width, height)
        except Forfeit as forfeit:
            self._lose(forfeit)
        self._answer = answer
        self._answered = observation.view
        self._pending.extend(answer.moves)

    def _revealed(self, letters: bytes, width: int) -> bytes:
        """``[x,y,number]`` for each cell revealed since the last turn, joined by commas: the cells where ``letters``
        (the view's, one byte per cell) differs from the last turn's, found by the bytes an XOR of the two leaves set."""
        cells = len(letters)
        if self._sent is None:
            changed = [c for c, letter in enumerate(letters) if letter <= 56]
        else:
            bits = int.from_bytes(letters, "big") ^ int.from_bytes(self._sent, "big")
            changed = []
            while bits:
                byte = (bits.bit_length() - 1) >> 3
                bits &= ~(0xFF << (byte * 8))
                changed.append(cells - 1 - byte)  # the first differing cell first: row-major order
        return b",".join([b"[%d,%d,%c]" % (c % width, c // width, letters[c]) for c in changed if letters[c] <= 56])

    def _talk(self, exchange: Any, wait: float) -> Any:
        """``exchange(program, deadline)``; anything that cuts it short (a forfeit, the bench's timer, a signal) leaves
        the program out of step, so it is stopped."""
        assert self._program is not None
        try:
            return exchange(self._program, time.monotonic() + wait)
        except Forfeit as forfeit:
            self._lose(forfeit)
        except BaseException:
            self._program.stop()
            raise

    def _lose(self, forfeit: Forfeit) -> Any:
        """Record the forfeit in the program's stderr file, stop the program (the next game restarts it), raise."""
        prog = self._program
        if prog is not None:
            note = f"--- sweeplab: game of seed {self._seed} lost: {forfeit.outcome}: {forfeit}\n"
            try:
                with prog.stderr_path.open("ab") as handle:
                    handle.write(note.encode("utf-8", "replace"))
            except OSError:
                pass
            prog.stop()
        raise forfeit


def _explanation(answer: Answer, width: int) -> Explanation:
    def build() -> Explanation:
        figures = {"probabilities": [[c % width, c // width, p] for c, p in sorted(answer.probabilities.items())]}
        return Explanation(answer.reason or "the program's guess", figures)

    return LazyExplanation(build)


_CLASSES: dict[str, type[ExternalStrategy]] = {}


def external(spec: str) -> type[ExternalStrategy]:
    """The player class of ``cmd:PROGRAM ARGS`` (made once per spec); the program must exist (a path, or a name on
    ``PATH``). Raises :class:`ExternalSpecError` naming the spec and the reason."""
    found = _CLASSES.get(spec)
    if found is not None:
        return found
    command = spec.strip().removeprefix(PREFIX).strip()
    if not command:
        raise ExternalSpecError(f"strategy {spec!r}: give the program after 'cmd:', e.g. cmd:python3 client.py")
    try:
        argv = shlex.split(command)
    except ValueError as error:
        raise ExternalSpecError(f"strategy {spec!r}: {error}") from None
    if not argv:
        raise ExternalSpecError(f"strategy {spec!r}: give the program after 'cmd:', e.g. cmd:python3 client.py")
    name = argv[0]
    if os.sep in name or (os.altsep and os.altsep in name):
        if not (Path(name).is_file() and os.access(name, os.X_OK)):
            raise ExternalSpecError(f"strategy {spec!r}: {name} is not an executable file")
    elif shutil.which(name) is None:
        raise ExternalSpecError(f"strategy {spec!r}: no program {name!r} on PATH")
    made = type("ExternalStrategy", (ExternalStrategy,), {"name": PREFIX + command, "command": command, "argv": tuple(argv)})
    _CLASSES[spec] = made
    return made


_NAMED: dict[tuple[str, str], type[ExternalStrategy]] = {}


def named(name: str, spec: str) -> type[ExternalStrategy]:
    """The player class of the outside program ``spec`` under the name ``name`` (``sweeplab serve --player
    NAME=cmd:...``): it takes no options, so whoever names it (a web request) can set neither its limits nor where
    its stderr goes; the program gets the default move time limit and its stderr goes to the temporary folder."""
    found = _NAMED.get((name, spec))
    if found is not None:
        return found
    base = external(spec)

    def __init__(self: ExternalStrategy, seed: int | None = None) -> None:
        ExternalStrategy.__init__(self, seed)

    summary = f"the outside program {' '.join(Path(part).name for part in base.argv)!r}, named when the server started"
    made = type("NamedProgram", (base,), {"name": name, "summary": summary, "__init__": __init__})
    _NAMED[(name, spec)] = made
    return made


__all__ = ["MOVE_TIME_LIMIT", "PREFIX", "ExternalSpecError", "ExternalStrategy", "external", "named"]
