"""The pure-probability baseline [exact]: play every certain-safe cell, else the covered cell least likely to be a mine.

It stands on sweeplab's exact engine (``sweeplab.analysis``), the fix that seed 000's conclusion asks
for: frontier solutions weighted by the ways to place the remaining mines off the frontier.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import ClassVar

from sweeplab.analysis import DEFAULT_BUDGET, Analyzer, Budget, Probabilities
from sweeplab.analysis.exact.single_point import obvious
from sweeplab.core.game import Move
from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, Observation
from sweeplab.strategies.base import Explanation, Guess, LazyExplanation, Strategy

TIE = 1e-12  # probabilities closer than this are treated as equal (the kernel's play_exact uses the same)
_OPENING: dict[Board, int] = {}  # the opening cell of an untouched board, by board


def preferred_cell(observation: Observation, candidates: list[int]) -> int:
    """Among equally good cells: a corner, then an edge, then the cell with most covered neighbours; then the lowest index."""
    board, view = observation.board, observation.view
    border = board.border
    place = min(map(border.__getitem__, candidates))  # corners first, then edges: rank the covered neighbours of those
    pool = [c for c in candidates if border[c] == place]
    if len(pool) == 1:
        return pool[0]
    neighbours = board.neighbours
    look = view.__getitem__

    def rank(cell: int) -> tuple[int, int]:
        return (-list(map(look, neighbours[cell])).count(COVERED), cell)

    return min(pool, key=rank)


def guess_kind(observation: Observation, result: Probabilities, cell: int) -> str:
    """How a guess is logged: "first", "unconstrained" (no number touches it) or "educated" (a frontier cell)."""
    if observation.is_start():
        return "first"
    return "unconstrained" if cell in result.unconstrained else "educated"


def best_guess(observation: Observation, result: Probabilities) -> int:
    """The covered cell with the lowest mine probability, ties (within ``TIE``) broken by :func:`preferred_cell`."""
    _, candidates = result.lowest(TIE)
    return preferred_cell(observation, candidates)


def tie_break(observation: Observation, candidates: list[int], cell: int) -> str:
    """Which rule of :func:`preferred_cell` picked ``cell`` among equally safe ``candidates``, in words."""
    if len(candidates) == 1:
        return "none needed: no other cell is as safe"
    board, view = observation.board, observation.view
    border = board.border
    place = border[cell]
    pool = [c for c in candidates if border[c] == place]
    where = ("corner", "edge cell", "inside cell")[place]
    article = "a" if place == 0 else "an"
    if len(pool) == 1:
        return f"corners first, then edges: the only {where} among them"

    def covered(c: int) -> int:
        return sum(1 for n in board.neighbours[c] if view[n] == COVERED)

    most = covered(cell)
    if sum(1 for c in pool if covered(c) == most) == 1:
        return f"{article} {where}, then the most covered neighbours: {most}"
    return f"{article} {where} with {most} covered neighbours, as are others: the lowest cell index"


def explain_guess(observation: Observation, result: Probabilities, cell: int) -> Explanation:
    """Why the exact strategy guesses ``cell``: the safest covered cell, its chance to be safe, how many cells
    were as safe, the tie-break that decided among them, and the runner-up (the safest other cell)."""
    name = observation.board.name
    p, candidates = result.lowest(TIE)
    safety = 1.0 - result.probability(cell)
    rest = [(q, cells) for q, cells in result.supercells() if cell not in cells and q > p + TIE]
    shared = result.unconstrained_probability
    if shared is not None and result.unconstrained and shared > p + TIE:
        rest.append((shared, result.unconstrained))
    others = [c for c in candidates if c != cell]
    if others:  # another cell as safe: the runner-up is the one the tie-break would have taken next
        runner = preferred_cell(observation, others)
    elif rest:
        runner = min(rest, key=lambda t: t[0])[1][0]
        runner = preferred_cell(observation, [c for q, cs in rest if q <= result.probability(runner) + TIE for c in cs])
    else:
        runner = None
    broke = tie_break(observation, candidates, cell)
    text = f"the safest covered cell: {name(cell)}, {safety:.2%} safe"
    if len(candidates) > 1:
        tied = len(candidates) - 1
        text += f" (as {'is 1 other' if tied == 1 else f'are {tied} others'}; tie-break: {broke})"
    if runner is not None:
        text += f"; runner-up {name(runner)}, {1.0 - result.probability(runner):.2%} safe"
    figures = {
        "cell": observation.board.xy(cell),
        "safety": safety,
        "tied": len(candidates),
        "tie_break": broke,
        "runner_up": None
        if runner is None
        else {"cell": observation.board.xy(runner), "safety": 1.0 - result.probability(runner)},
        "exact": result.exact,
    }
    return Explanation(text, figures)


def recommend(observation: Observation, result: Probabilities) -> tuple[int, float, str]:
    """The exact strategy's next move for a position and its analysis: (cell, chance it is safe, kind), where
    kind is "certain" for a cell no layout mines (the first such, as the strategy plays them in order), else the
    guess kind of :func:`guess_kind`."""
    if result.safe:
        return result.safe[0], 1.0, "certain"
    cell = best_guess(observation, result)
    return cell, 1 - result.probability(cell), guess_kind(observation, result, cell)


class Proved:
    """The mines proved so far in one game, and the single-point pass over them: what a player can reveal without
    a full analysis (:func:`sweeplab.analysis.exact.single_point.obvious`). One per game, like the player that keeps it."""

    def __init__(self) -> None:
        self.mines = bytearray()  # one byte per cell, non-zero for a proved mine (sized at the first position)
        self.seen = bytearray()  # what the last pass saw, so that the next starts from what changed (obvious's seen)

    def sized(self, cells: int) -> bytearray:
        """The proved mines, sized for a board of ``cells`` cells (new and empty the first time)."""
        if len(self.mines) != cells:
            self.mines = bytearray(cells)
            self.seen = bytearray(2 * cells + 1)
        return self.mines

    def freed(self, observation: Observation, use_kernel: bool = True) -> tuple[int, ...] | None:
        """The covered cells the pass proves safe now (sorted; empty when it proves none; None when a number cannot
        hold locally, a position for the full analysis to judge); the mines it finds are kept."""
        return obvious(observation, self.sized(observation.board.cells), use_kernel, self.seen)

    def keep(self, observation: Observation, mines: Iterable[int]) -> None:
        """Keep mines that another sound pass proved in this position."""
        known = self.sized(observation.board.cells)
        for cell in mines:
            known[cell] = 1

    def learn(self, result: Probabilities) -> None:
        """Keep the mines a full analysis proved (an exact one: an estimate proves nothing)."""
        if result.exact:
            mines = self.sized(result.observation.board.cells)
            for cell in result.mines:
                mines[cell] = 1


class ExactStrategy(Strategy):
    """Reveal every certainly safe cell; otherwise the covered cell with the lowest exact mine probability.

    Ties go to corners, then edges, then the cell with most covered neighbours (so the opening move is the
    top-left corner). Certain mines are not flagged: the engine counts them without flags, and a flag is a
    wasted move. Guesses are logged as "first", "educated" (a frontier cell) or "unconstrained", with the
    exact probability of success and an explanation (:func:`explain_guess`: the safety, the tie-break, the runner-up).

    Before each full analysis it runs the single-point pass (:func:`sweeplab.analysis.exact.single_point.obvious`) with
    the mines proved earlier in the game, and plays what that frees without analysing: a speed-up that changes
    only the order of the certain reveals. Every certainly safe cell is still revealed before any guess, and which
    cells those are does not depend on the order, so the guesses fall on the same positions as without the pass.

    When nothing watches the moves, :func:`~sweeplab.strategies.base.play` lets the kernel's C game loop make these
    same moves and guess records (:meth:`ahead`), about twice as fast; it hands positions it cannot vouch for back to
    :meth:`choose`.
    """

    single_point: ClassVar[bool] = True  # the pass before each analysis (False: analyse every time, as before it)
    queue_first = True  # choose plays the queue first: play() drains it without asking

    name = "exact"
    source = "sweeplab's exact engine (the fix seed 000's conclusion asks for); the baseline"
    summary = "certain safes first, else the lowest exact mine probability (corner, edge, most covered neighbours)"

    def __init__(self, seed: int | None = None, budget: Budget = DEFAULT_BUDGET) -> None:
        super().__init__(seed)
        self.analyzer = Analyzer(budget)
        self.proved = Proved()

    def choose(self, observation: Observation) -> Move:
        queue = self._queue
        if queue:  # next_queued, inline: the next queued cell still covered (a certain move stays certain)
            view = observation.view
            while queue:
                move = queue.popleft()
                if view[move.cell] == COVERED:
                    return move
        if observation.moves == 0 and type(self).pick_guess is ExactStrategy.pick_guess and type(self.analyzer) is Analyzer:
            opening = self._opening(observation)
            if opening is not None:
                return opening
        if self.single_point:
            freed = self.proved.freed(observation, self.analyzer.use_kernel)
            if freed:
                self._queue.extend(map(Move.reveal, freed))
                return self._queue.popleft()
        result = self.analyzer.analyze_patiently(observation)
        self.proved.learn(result)
        if result.safe:
            self._queue.extend(map(Move.reveal, result.safe))
            return self._queue.popleft()
        return self.pick_guess(observation, result)

    def _opening(self, observation: Observation) -> Move | None:
        """The guess on a board with nothing revealed or flagged where some but not all cells hold a mine, without
        the analysis: every cell's probability is then mines / cells, so the guess is the preferred of them all (the
        top-left corner) with that safety, as :meth:`pick_guess` makes it. None on any other position. (Only with
        an :class:`Analyzer` of its own: one that watches the analyses, as the position recorder's does, sees it.)"""
        board, mines, view = observation.board, observation.mines, observation.view
        if not 0 < mines < board.cells or view.count(COVERED) != len(view):
            return None
        cell = _OPENING.get(board)
        if cell is None:  # the corners: the preferred of all cells is the preferred of them (the same on every game)
            last = board.cells - 1
            cell = _OPENING[board] = preferred_cell(observation, sorted({0, board.width - 1, last - board.width + 1, last}))
        explanation = LazyExplanation(lambda: explain_guess(observation, self.analyzer.analyze_patiently(observation), cell))
        return self.guess(observation, cell, "first", 1 - mines / board.cells, explanation)

    def ahead(self, cells: int) -> tuple[bytearray, Budget] | None:
        """The C game loop (the kernel's ``play_exact``) makes this player's moves: the same moves and guess records
        as :meth:`choose`, without an observation per move. Only this class, with the single-point pass and the
        kernel and an :class:`Analyzer` of its own (one that watches every analysis, as the position recorder's does,
        must see them); it plays with the mines proved so far (kept in place) and the analyzer's budget."""
        analyzer = self.analyzer
        if type(self) is not ExactStrategy or type(analyzer) is not Analyzer or not analyzer.use_kernel or not self.single_point:
            return None
        return self.proved.sized(cells), analyzer.budget

    def took(self, guesses: list[Guess], position: Callable[[int], Observation]) -> None:
        """The C loop's guesses join :attr:`guesses`, each explained when read (from ``position``, the observation
        before a move). The single-point pass needs no word of the loop's reveals: it starts from every cell whose
        view changed since it last looked, whoever changed it."""
        for record in guesses:
            record.explanation = LazyExplanation(self._explainer(position, record.move, record.cell))
            self.guesses.append(record)

    def _explainer(self, position: Callable[[int], Observation], move: int, cell: int) -> Callable[[], Explanation]:
        """What explains a guess at ``cell`` made at move ``move``, from the position replayed to it."""

        def explain() -> Explanation:
            observation = position(move)
            return explain_guess(observation, self.analyzer.analyze_patiently(observation), cell)

        return explain

    def pick_guess(self, observation: Observation, result: Probabilities) -> Move:
        cell = best_guess(observation, result)
        explanation = LazyExplanation(lambda: explain_guess(observation, result, cell))  # free unless read
        return self.guess(observation, cell, guess_kind(observation, result, cell), 1 - result.probability(cell), explanation)
