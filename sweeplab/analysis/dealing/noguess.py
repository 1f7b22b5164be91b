"""No-guess dealing: layouts for the ``noguess`` first-click rule, which open at the first click and are then
cleared by certain deductions alone, never a guess (as JSMinesweeper's and minesweeper.online's no-guess modes).

"Certain" means what the exact engine proves (the helper's level 3): the single-point pass
(:func:`~sweeplab.analysis.exact.single_point.obvious`), then the cells :class:`~sweeplab.analysis.analyzer.Analyzer` finds
safe or mined in every layout consistent with the position, the global mine count included, applied until the
board is cleared (:func:`solve_certain`). Importing ``sweeplab.analysis`` registers :func:`deal_noguess` as the
rule's dealer (:func:`sweeplab.core.rules.register_dealer`, loading this module when a game first deals), and
``sweeplab.strategies`` imports that, so the players, the harness (in any worker process), the learners and the web
helper deal ``noguess`` games with it. Core alone refuses such a game, naming the package to import.

How a layout is dealt (:func:`deal_noguess`), and what that does to the distribution:

1. Draw a layout as ``zero`` does (the mines uniformly among the cells outside the click's neighbourhood) and play
   it from the click with certain cells only. Keep it if that clears the board; else draw again, up to
   :data:`UNIFORM_CELLS` cells' worth of layouts (a hundred on expert, four on 100x100). A layout kept here is a
   uniform draw among the ``zero`` layouts that clear without a guess (rejection sampling: the distribution is
   exact). On the presets the repairs below practically never run: about one expert layout in ten clears from a
   corner, one in five from (3, 3), more on the smaller boards (``docs/performance.md``), and each try takes
   milliseconds.
2. Only when all of those got stuck (a board too dense or too large for a uniform draw to clear) are layouts
   repaired, JSMinesweeper-style, rather than thrown away: when the play gets stuck, take the stuck frontier cell a
   player would guess (the lowest mine probability; ties by the generator) and one of its revealed neighbours (the
   one with the fewest mines around it). If the guessed cell is a mine, move that mine; else move a mine from
   around that neighbour. A mine goes to a random covered cell that no revealed cell touches (far from the revealed
   area, so no shown number changes there), only when none is left to a covered cell away from that neighbour.
   Then play on from the same revealed cells, their numbers updated. Each repair ends in at most eight moves (once
   the neighbour has no mine around it, it shows the guessed cell safe), and each reveals at least one cell.
3. A repaired layout is played again from the click alone (the numbers shown earlier changed, so the play that
   led to it proves nothing); if it gets stuck, the repairs go on from there. Only a layout that this play from
   scratch clears is returned: every returned layout, drawn or repaired, is verified.
4. A layout that cannot be repaired (more than :data:`MOVES_PER_ATTEMPT` moves, or no cell to move a mine to, as in
   a 50/50 between the last two covered cells) is rejected and a fresh one repaired, at most
   :data:`REPAIR_ATTEMPTS` times; then the dealer gives up and says so (the game's ``rule_kept`` is False).

Repaired layouts are sensible no-guess boards but not a uniform draw among them: the moves shift mines from where
the play got stuck to the cells seen last. The report says which kind a layout is (``repaired``).

Every random choice uses the generator passed in, and an analysis is bounded by partial states, never by the
clock (:data:`NOGUESS_BUDGET`), so a seed deals the same layout on every machine.
"""

from __future__ import annotations

import random
import time
from dataclasses import asdict, dataclass
from typing import Any

from sweeplab.analysis.analyzer import Analyzer
from sweeplab.analysis.exact.budget import Budget
from sweeplab.analysis.exact.probabilities import Probabilities
from sweeplab.analysis.exact.single_point import obvious
from sweeplab.core.errors import ArgumentError, UndecidedError, shown
from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, Observation
from sweeplab.core.rules import Rules

#: The analyses' budget: generous seconds so that only ``max_states`` ever stops a count (a count cut short by the
#: clock would make a seed's layout depend on the machine). A position past it counts as stuck, and is repaired.
NOGUESS_BUDGET = Budget(seconds=600.0)

#: Cells of the layouts drawn uniformly (as ``zero`` deals them, kept only if they clear) before repairs start: a
#: hundred expert boards (480 cells each), more small boards, fewer large ones (a play costs about its cells, and a
#: large board seldom clears as drawn). On the presets from a corner at least one drawn layout in ten clears
#: (``docs/performance.md``), so a hundred failures in a row (odds about 3e-5 on expert) leave only boards too dense
#: for a uniform draw to the repairs.
UNIFORM_CELLS = 48_000

#: Layouts repaired at most, after the uniform draws, before the dealer gives up.
REPAIR_ATTEMPTS = 50

#: Mine moves one layout may take before it is rejected.
MOVES_PER_ATTEMPT = 400

TIE = 1e-12  # mine probabilities closer than this are equal when the guessed cell is chosen


@dataclass(frozen=True)
class NoGuessReport:
    """What one no-guess deal did: whether it ``kept`` the promise (a verified layout), ``seconds`` of work,
    ``attempts`` (layouts dealt; ``rejected`` of them thrown away), ``moves`` (mines moved in all), ``analyses``
    (full exact analyses run), whether the layout returned was ``repaired`` (False: a uniform draw, unchanged) and,
    when not kept, the ``failure`` in words."""

    kept: bool
    seconds: float
    attempts: int
    rejected: int
    moves: int
    analyses: int
    repaired: bool = False
    failure: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def describe(self) -> str:
        """One line for a person: how long the deal took and what it threw away or moved."""
        kind = "repaired" if self.repaired else "drawn"
        text = (
            f"no-guess deal: {self.seconds * 1000:.1f} ms, {self.attempts} layout{'s' if self.attempts != 1 else ''} "
            f"dealt, {self.rejected} rejected, {self.moves} mine{'s' if self.moves != 1 else ''} moved"
        )
        return text + (f"; the layout was {kind} and verified" if self.kept else f"; {self.failure}")


class _Play:
    """A layout played with certain cells only: the mines, their numbers, what is revealed, the mines proved."""

    def __init__(self, rules: Rules, mines: list[int], click: int) -> None:
        self.rules = rules
        self.board = Board(rules.width, rules.height)
        self.neighbours = self.board.neighbours
        cells = self.board.cells
        self.mine = bytearray(cells)
        self.number = [0] * cells
        for c in mines:
            self.place(c)
        self.view = [COVERED] * cells
        self.safe_left = cells - rules.mines
        self.proved = bytearray(cells)
        self.analyses = 0
        self.open(click)

    def place(self, cell: int) -> None:
        self.mine[cell] = 1
        for n in self.neighbours[cell]:
            self.number[n] += 1

    def move(self, source: int, target: int) -> None:
        """Move the mine on ``source`` to ``target`` (both covered); the revealed numbers around them follow."""
        self.mine[source] = 0
        for n in self.neighbours[source]:
            self.number[n] -= 1
        self.place(target)
        view, number = self.view, self.number
        for n in (*self.neighbours[source], *self.neighbours[target]):
            if view[n] >= 0:
                view[n] = number[n]
        self.proved = bytearray(self.board.cells)  # proofs from the old numbers no longer hold

    def open(self, cell: int) -> None:
        """Reveal a safe covered cell, flood-filling zeros as the game does."""
        view, number, neighbours = self.view, self.number, self.neighbours
        view[cell] = number[cell]
        self.safe_left -= 1
        stack = [cell] if number[cell] == 0 else []
        while stack:
            for n in neighbours[stack.pop()]:
                if view[n] == COVERED:
                    view[n] = number[n]
                    self.safe_left -= 1
                    if number[n] == 0:
                        stack.append(n)

    def observation(self) -> Observation:
        return Observation._unchecked(self.board, self.rules.mines, tuple(self.view), 0)

    def run(self, analyzer: Analyzer) -> tuple[bool, Probabilities | None]:
        """Reveal certain cells until the board is cleared, (True, None), or none is left: (False, the analysis of
        the stuck position, None when it could not be had within the budget)."""
        while self.safe_left:
            observation = self.observation()
            freed = obvious(observation, self.proved, analyzer.use_kernel)
            if not freed:
                self.analyses += 1
                try:
                    result = analyzer.analyze(observation)
                except UndecidedError:
                    return False, None
                if result.exact:
                    for cell in result.mines:
                        self.proved[cell] = 1
                freed = result.safe
                if not freed:
                    return False, result
            for cell in freed:
                if self.view[cell] == COVERED:
                    self.open(cell)
        return True, None


def solve_certain(rules: Rules, mines: list[int], click: int, analyzer: Analyzer | None = None) -> tuple[int, ...]:
    """Play the layout ``mines`` from ``click`` with certain cells only; the safe cells left covered when no certain
    cell is left (empty: the layout is cleared without a guess). The click must be safe."""
    play = _play(rules, mines, click)
    play.run(analyzer or Analyzer(NOGUESS_BUDGET))
    return tuple(c for c, v in enumerate(play.view) if v == COVERED and not play.mine[c])


def _play(rules: Rules, mines: list[int], click: int) -> _Play:
    if not isinstance(rules, Rules):
        raise ArgumentError(f"expected a Rules such as Rules(9, 9, 10, 'noguess'), not {shown(rules)}")
    click = rules.board.check(click, "first click")
    mines = [rules.board.check(c, "mine") for c in mines]
    if len(set(mines)) != rules.mines or click in mines:
        raise ArgumentError(f"the layout must hold {rules.mines} distinct mines, none under the click")
    return _Play(rules, sorted(set(mines)), click)


class _Repairer:
    """The repair of step 2 (see the module docstring) for one play: a guessed cell and its neighbour, kept until
    the guessed cell is revealed."""

    def __init__(self, play: _Play, rng: random.Random) -> None:
        self.play = play
        self.rng = rng
        self.guessed: int | None = None
        self.around = -1

    def choose(self, result: Probabilities | None) -> None:
        play = self.play
        view, neighbours = play.view, play.neighbours
        frontier = [c for c, v in enumerate(view) if v == COVERED and any(view[n] >= 0 for n in neighbours[c])]
        open_cells = [c for c in frontier if not play.proved[c]] or frontier
        if result is not None:
            chances = {c: result.probability(c) for c in open_cells}
            best = min(chances.values())
            open_cells = [c for c in open_cells if chances[c] <= best + TIE]
        self.guessed = guessed = self.rng.choice(open_cells)
        mine = play.mine

        def weight(n: int) -> tuple[int, int, int]:
            covered = [m for m in neighbours[n] if view[m] == COVERED and m != guessed]
            return sum(mine[m] for m in covered), len(covered), n

        self.around = min((n for n in neighbours[guessed] if view[n] >= 0), key=weight)

    def move_one(self, result: Probabilities | None) -> bool:
        """Move one mine to make progress on the guessed cell; False when there is nowhere to move it."""
        play = self.play
        if self.guessed is None or play.view[self.guessed] != COVERED:
            self.choose(result)
        guessed, around = self.guessed, self.around
        assert guessed is not None
        view, neighbours, mine = play.view, play.neighbours, play.mine
        if mine[guessed]:
            source = guessed
        else:
            sources = [m for m in neighbours[around] if view[m] == COVERED and mine[m] and m != guessed]
            if not sources:  # cannot happen: the neighbour would show 0 mines left, so the guessed cell is safe
                return False
            source = self.rng.choice(sources)
        free = [c for c, v in enumerate(view) if v == COVERED and not mine[c] and c != guessed]
        far = [c for c in free if all(view[n] < 0 for n in neighbours[c])]
        if not far:
            near = set(neighbours[around])
            far = [c for c in free if c not in near]
        if not far:
            return False
        play.move(source, self.rng.choice(far))
        return True


def _deal_zero(rules: Rules, click: int, rng: random.Random) -> list[int]:
    """The ``zero`` rule's deal: mines uniformly outside the click and its neighbours."""
    keep = {click, *rules.board.neighbours[click]}
    return rng.sample([c for c in range(rules.width * rules.height) if c not in keep], rules.mines)


def deal_noguess(
    rules: Rules,
    click: int,
    rng: random.Random,
    *,
    uniform_attempts: int | None = None,
    repair_attempts: int = REPAIR_ATTEMPTS,
) -> tuple[list[int], NoGuessReport]:
    """A layout for ``rules`` that opens at ``click`` and is cleared from there by certain cells alone, and a
    :class:`NoGuessReport`: first up to ``uniform_attempts`` layouts drawn as ``zero`` deals them, each kept only
    if it clears (a uniform draw among the no-guess layouts; None: as many as make :data:`UNIFORM_CELLS` cells, at
    least one), then up to ``repair_attempts`` layouts repaired (see the module docstring). When none clears, the
    last one comes back with ``kept`` False.

    >>> mines, report = deal_noguess(Rules(9, 9, 10, "noguess"), 40, random.Random(1))
    >>> len(mines), report.kept, report.repaired, solve_certain(Rules(9, 9, 10, "noguess"), mines, 40)
    (10, True, False, ())
    """
    start = time.perf_counter()
    if uniform_attempts is None:
        uniform_attempts = max(1, UNIFORM_CELLS // (rules.width * rules.height))
    if uniform_attempts < 0 or repair_attempts < 0 or uniform_attempts + repair_attempts < 1:
        raise ArgumentError(
            f"deal_noguess needs at least one attempt, not uniform_attempts={uniform_attempts!r}, "
            f"repair_attempts={repair_attempts!r}"
        )
    board = rules.board
    click = board.check(click, "first click")
    analyzer = Analyzer(NOGUESS_BUDGET)
    if board.cells - len(board.neighbours[click]) - 1 < rules.mines:
        crowded = rng.sample([c for c in range(board.cells) if c != click], rules.mines)
        failure = (
            f"{rules.mines} mines leave no room to keep {board.name(click)} and its neighbours mine-free on a "
            f"{rules.width}x{rules.height} board, so only the click was kept safe"
        )
        return crowded, NoGuessReport(False, time.perf_counter() - start, 1, 1, 0, 0, False, failure)
    moves = analyses = rejected = 0
    mines: list[int] = []
    for attempt in range(uniform_attempts + repair_attempts):
        repair = attempt >= uniform_attempts
        mines = _deal_zero(rules, click, rng)
        play = _Play(rules, mines, click)
        repairer = _Repairer(play, rng)
        fresh = True  # the play started from the click with the current layout and no move since
        moved = 0
        while True:
            cleared, result = play.run(analyzer)
            analyses += play.analyses
            play.analyses = 0
            if cleared:
                mines = [c for c in range(board.cells) if play.mine[c]]
                if fresh:
                    seconds = time.perf_counter() - start
                    return mines, NoGuessReport(True, seconds, rejected + 1, rejected, moves, analyses, moved > 0)
                play = _Play(rules, mines, click)  # verify from scratch
                repairer = _Repairer(play, rng)
                fresh = True
                continue
            if not repair or moved >= MOVES_PER_ATTEMPT or not repairer.move_one(result):
                break
            moved += 1
            moves += 1
            fresh = False
        mines = [c for c in range(board.cells) if play.mine[c]]
        rejected += 1
    attempts = uniform_attempts + repair_attempts
    failure = f"no layout that clears without guessing was found in {attempts} attempts ({moves} mines moved)"
    seconds = time.perf_counter() - start
    return mines, NoGuessReport(False, seconds, attempts, rejected, moves, analyses, False, failure)
