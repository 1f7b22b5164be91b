"""PSEQ [pseq]: the published rule of b1f6c1c4's MineSweeperProb (Tu et al., AAAI workshop 2017) on sweeplab's
exact engine: the lowest mine probability (P), then three tie-breaks (S, E, Q), then a uniformly random cell.

Where each part comes from, in that repository (``MineSweeperSolver/``):

- **P** (``HeuristicMethod::MinMineProb``, ``GameMgr::Solve``): the covered cells not known to be mines, the lowest
  mine probability kept. Ties are PSEQ's ``Largest`` (``GameMgr.h``) on doubles, replayed exactly: cells are visited
  in PSEQ's block order (column by column: ``x * height + y``), a strictly better value starts the list again, and a
  value within ``1e-8`` of the best so far (relative) joins it. So which near-equal cells survive depends on that
  order, as in PSEQ.
- **S** (``MaxZerosProb``: ``Solver::ZerosCondQ`` times the cell's safety): the probability that the cell is safe
  and that the number it shows makes at least one other covered cell certainly safe (``Solver::UCondQ``'s
  ``m_Probability``: the outcomes with ``totalBlanks != 0``).
- **E** (``MaxZerosExp``: ``Solver::ZerosECondQ`` times the safety): the expected number of covered cells the
  revealed number makes certainly safe, counted as zero when the cell is a mine (``UCondQ``'s ``m_Expectation``).
- **Q** (``MaxQuantityExp``: ``Solver::QuantityCondQ``): the entropy in bits of the number the cell shows, given
  that it is safe (not weighted by the safety).
- Then one of the cells left at random (``GameMgr::OpenOptimalBlocks``), drawn from this player's seed.

The tie-breaks' ``Largest`` differs in one point, a choice made here: S, E and Q are sums of doubles whose last bits
depend on how they were summed, so a figure starts the list again only when it is above the best so far by more
than :data:`NOISE` (1e-12, relative), and figures equal in exact arithmetic tie. The figures are worked out in C
(``_figures.c``, the counts summed in long double) where the kernel is built, else here with exact integers; the two
agree to about 1e-14 and, by that rule, choose alike. The C game loop plays the whole game where the kernel is built:
the certain moves as ``exact``'s, each guess by this rule (``pseq_choose`` in ``_figures.c``: the same cells, its
random draw made with the strategy's own generator), so its games are those :meth:`PseqStrategy.pick_guess` plays; a
guess whose figures it cannot count within the budget is left to ``pick_guess``.

S and E count the cells a number makes safe as PSEQ's ``UCondQ`` means to, not as its code does in two places (a
choice made here; ``benchmarks/peers/pseq_paired.py`` holds both corrections and measures them): where the
candidate's own block set is not split by its neighbourhood, the code counts the candidate among the cells made
safe; and it sizes the far half of the i-th split set by the i-th block set, not by the set split
(``m_BlockSets[j - Sets1.size()]`` where ``m_Halves[j - Sets1.size()]`` is meant). Against PSEQ with both
corrected, this rule leaves the same cells to chance at every guess but where two equal figures tied differently.

PSEQ counts a cell as made safe at the level of its block sets (cells alike to every constraint, split by the
candidate's neighbourhood); sweeplab's engine gives the certainly safe cells of the position after each number
directly, which are the same cells, since cells alike to every constraint are safe together or not at all. The
figures of two cells alike to every constraint and with the same kinds of neighbours are the same, so they are
worked out once per kind (PSEQ caches them the same way, by the intersection counts of its ``DistCondQParameters``).

Certain cells are played first, as :class:`~sweeplab.strategies.exact.ExactStrategy` plays them (PSEQ's full logic,
``FL``, opens every cell it proves safe before any guess; the order of certain reveals changes no guess). The first
click on an untouched board is the top-left corner: PSEQ's published rates are for ``FL@[1,1]`` (1-based). The
optional exhaustive endgame (``PSEQ-D256``) is not part of this rule.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Sequence

from sweeplab.analysis import Analyzer, Budget, Probabilities
from sweeplab.analysis.exact.kernel import _PACK
from sweeplab.core.game import Move
from sweeplab.core.observation import COVERED, FLAGGED, Observation
from sweeplab.strategies.base import Explanation
from sweeplab.strategies.exact import ExactStrategy, guess_kind
from sweeplab.strategies.loops import LOOPS

_BRIEF = getattr(LOOPS, "brief", None)  # the position after a reveal, counted in C (None without the kernel)
_FIGURES = getattr(LOOPS, "pseq_figures", None)  # every candidate's figures at once, in C (_figures.c)

#: PSEQ's relative tolerance for equal doubles in ``Largest``.
TOLERANCE = 1e-8
#: The relative rounding error allowed the S, E and Q figures, sums of doubles (in C, of ``expl`` of long double
#: log counts: about 1e-15 in practice): a figure above the best so far by no more than this does not start
#: ``Largest``'s list again, so figures equal in exact arithmetic tie whichever way their last bits fell (PSEQ's own
#: doubles carry such noise too; the choice here makes the C and the Python figures choose alike).
NOISE = 1e-12

#: The tie-breaks after P, in PSEQ's order: name, and what it says in an explanation.
CRITERIA = (
    ("S", "the chance it is safe and its number proves another cell safe"),
    ("E", "the expected number of cells its number proves safe"),
    ("Q", "the entropy of its number"),
)


def largest_of(cells: Sequence[int], values: Sequence[float], noise: float = 0.0) -> list[int]:
    """PSEQ's ``Largest`` on doubles: the cells whose score (``values[i]`` that of ``cells[i]``) is the largest,
    within ``TOLERANCE`` of the best so far (relative) as they are visited in order; a score starts the list
    again only when it is above the best so far by more than ``noise`` (relative), the rounding error of scores
    worked out in floating point: two cells whose scores are equal in exact arithmetic then tie as they would there,
    whatever their last bits. When no score lies within the tolerance below the top one but the top score itself
    (the usual case: the tied cells share one double), the answer is the cells with the top score, which is what the
    visit in order keeps: it starts again at the first of them and takes each later one."""
    if len(cells) <= 1:
        return list(cells)
    top = max(values)
    floor = top - abs(top) * TOLERANCE
    if all(v == top for v in values if v >= floor):
        return [c for c, v in zip(cells, values, strict=True) if v == top]
    best = values[0]
    kept = [cells[0]]
    for cell, value in zip(cells[1:], values[1:], strict=True):
        if best + abs(best) * noise < value:
            best = value
            kept = []
        if best - abs(best) * TOLERANCE <= value:
            kept.append(cell)
    return kept


#: Each board's cells in PSEQ's block order (column by column: ``x * height + y``), by (width, height).
_BLOCK_ORDER: dict[tuple[int, int], tuple[int, ...]] = {}


def block_order(width: int, height: int) -> tuple[int, ...]:
    """The cells of a ``width`` x ``height`` board in PSEQ's block order."""
    found = _BLOCK_ORDER.get((width, height))
    if found is None:
        found = _BLOCK_ORDER[width, height] = tuple(x + y * width for x in range(width) for y in range(height))
    return found


class Outcomes:
    """For one position: per covered cell, each number it can show with the number of layouts where it is safe and
    shows it, and how many covered cells that number proves safe. Cells of the same kind share one computation."""

    def __init__(self, strategy: PseqStrategy, observation: Observation, result: Probabilities) -> None:
        self.strategy = strategy
        self.observation = observation
        self.result = result
        self.total = result.layouts
        group: dict[int, int] = {}
        for k, (_, cells) in enumerate(result.supercells()):
            for cell in cells:
                group[cell] = k
        self.group = group  # the super-cell of each frontier cell (cells no number touches: none, one kind)
        self.mines = frozenset(result.mines)
        self._raw: bytearray | None = None
        self._cache: dict[tuple[object, ...], tuple[float, float, float]] = {}

    def kind(self, cell: int) -> tuple[object, ...]:
        """What the figures of ``cell`` depend on: its super-cell and its neighbours' (flags counted apart)."""
        view, group = self.observation.view, self.group
        around = []
        flags = 0
        for n in self.observation.board.neighbours[cell]:
            v = view[n]
            if v == FLAGGED:
                flags += 1
            elif v == COVERED:
                around.append(-2 if n in self.mines else group.get(n, -1))  # a certain mine is a kind of its own
        around.sort()
        return group.get(cell, -1), flags, tuple(around)

    def figures(self, cells: Sequence[int]) -> dict[int, tuple[float, float, float]]:
        """Each cell's (S, E, Q), worked out once per kind of cell: in C (``_figures.c``, the layouts summed in long
        double rather than as exact integers, so a figure may differ from this method's in its last bits) when the
        kernel is built and every position after a reveal counts there, else here."""
        analyzer = self.strategy.analyzer
        if _FIGURES is not None and _PACK is not None and analyzer.use_kernel and self.total:
            in_c = self._in_c(cells)
            if in_c is not None:
                return in_c
        cache, out = self._cache, {}
        for cell in cells:
            key = self.kind(cell)
            found = cache.get(key)
            if found is None:
                numbers = self.of(cell)
                found = cache[key] = (zeros_probability(numbers), zeros_expectation(numbers), quantity(numbers))
            out[cell] = found
        return out

    def _in_c(self, cells: Sequence[int]) -> dict[int, tuple[float, float, float]] | None:
        """:meth:`figures` in C, or None when some position after a reveal cannot be counted there."""
        observation, board = self.observation, self.observation.board
        labels = array("i", [-1]) * board.cells
        for cell, k in self.group.items():
            labels[cell] = k
        for cell in self.mines:
            labels[cell] = -2
        assert _FIGURES is not None and _PACK is not None
        if self._raw is None:
            self._raw = bytearray(_PACK(observation.view)[0])
        budget = self.strategy.analyzer.budget
        found = _FIGURES(
            bytes(self._raw), board.width, board.height, observation.mines, list(cells), labels.tobytes(),
            math.log(self.total), budget.max_states, budget.max_bytes, budget.seconds,
        )  # fmt: skip
        return None if found is None else dict(zip(cells, found, strict=True))

    def of(self, cell: int) -> list[tuple[float, int]]:
        """(P(the cell is safe and shows the number), cells proved safe then) for each number it can show."""
        observation = self.observation
        board = observation.board
        analyzer = self.strategy.analyzer
        budget = analyzer.budget
        known = sum(1 for n in board.neighbours[cell] if observation.view[n] == FLAGGED or n in self.mines)
        open_ = sum(1 for n in board.neighbours[cell] if observation.view[n] == COVERED and n not in self.mines)
        out = []
        for value in range(known, known + open_ + 1):
            counted = None
            if _BRIEF is not None and _PACK is not None and analyzer.use_kernel:
                if self._raw is None:
                    self._raw = bytearray(_PACK(observation.view)[0])
                raw = self._raw
                before, raw[cell] = raw[cell], value
                brief = _BRIEF(
                    raw, board.width, board.height, observation.mines, budget.max_states, budget.max_bytes, budget.seconds
                )
                raw[cell] = before
                if brief is not None:
                    counted = (brief[0], len(brief[1]))
            if counted is None:
                after = analyzer.try_analyze(observation.with_cells({cell: value}, observation.moves + 1))
                if after is None:  # not answered within the budget: this number is left out of the figures
                    continue
                counted = (after.layouts, len(after.safe)) if after.layouts else (0, 0)
            layouts, safe = counted
            if layouts:
                out.append((layouts / self.total, safe))
        return out


def zeros_probability(outcomes: list[tuple[float, int]]) -> float:
    """S: P(safe and the number proves some cell safe)."""
    return sum(p for p, safe in outcomes if safe)


def zeros_expectation(outcomes: list[tuple[float, int]]) -> float:
    """E: the expected number of cells proved safe (none when the cell is a mine)."""
    return sum(p * safe for p, safe in outcomes)


def quantity(outcomes: list[tuple[float, int]]) -> float:
    """Q: the entropy in bits of the number shown, given that the cell is safe."""
    safe = sum(p for p, _ in outcomes)
    return -sum(p / safe * math.log2(p / safe) for p, _ in outcomes if p > 0) if safe > 0 else 0.0


class PseqStrategy(ExactStrategy):
    """PSEQ's rule (see the module): certain cells first; else the lowest mine probability, then the S, E and Q
    tie-breaks, then a random cell of those left. On the exact engine, so its probabilities are ``exact``'s; only
    the choice among equally safe cells differs."""

    loop_rule = "pseq"  # the C game loop plays its guesses too (pseq_choose in _figures.c), as pick_guess would

    name = "pseq"
    source = "Tu et al. 2017, b1f6c1c4/MineSweeperProb's PSEQ (MineSweeperSolver/GameMgr.cpp, Solver.cpp)"
    summary = "certain safes first, else the lowest mine probability; ties by PSEQ's S, E, Q, then at random"

    def ahead(self, cells: int) -> tuple[bytearray, Budget] | None:
        """The C game loop makes the certain moves (as ``exact``'s, whose they are) and the guesses by this rule
        (:attr:`loop_rule`: the same cells, ties drawn from :attr:`rng` as :meth:`pick_guess` draws them), on the
        conditions of :meth:`ExactStrategy.ahead`; it leaves to :meth:`pick_guess` a guess whose figures it cannot
        count within the budget."""
        analyzer = self.analyzer
        if type(analyzer) is not Analyzer or not analyzer.use_kernel or not self.single_point:
            return None
        return self.proved.sized(cells), analyzer.budget

    def candidates(self, observation: Observation, result: Probabilities) -> tuple[list[int], list[int]]:
        """The cells PSEQ's rule leaves to its random choice in a position with no certain move (its
        ``m_Preferred`` after P, S, E and Q), in block order, and how many were left after each criterion applied."""
        board = observation.board
        mine_probability = {c: p for c, p in result.covered() if p < 1.0}
        cells = [c for c in block_order(board.width, board.height) if c in mine_probability]
        chosen = largest_of(cells, [-mine_probability[c] for c in cells])
        tied = [len(chosen)]
        if len(chosen) > 1:
            scores = Outcomes(self, observation, result).figures(chosen)
            for k in range(len(CRITERIA)):
                chosen = largest_of(chosen, [scores[c][k] for c in chosen], NOISE)
                tied.append(len(chosen))
                if len(chosen) == 1:
                    break
        return chosen, tied

    def pick_guess(self, observation: Observation, result: Probabilities) -> Move:
        board = observation.board
        if observation.is_start():
            safety = 1 - observation.mines / board.cells
            why = Explanation("PSEQ's first click: the top-left corner (FL@[1,1])", {"cell": (0, 0)})
            return self.guess(observation, 0, "first", safety, why)
        chosen, tied = self.candidates(observation, result)
        cell = chosen[0] if len(chosen) == 1 else chosen[self.rng.randrange(len(chosen))]
        why = self.explain_pick(observation, result, cell, chosen, tied)
        return self.guess(observation, cell, guess_kind(observation, result, cell), why.figures["safety"], why)

    def explain_pick(
        self, observation: Observation, result: Probabilities, cell: int, chosen: list[int], tied: list[int]
    ) -> Explanation:
        """Why the rule guessed ``cell``: its safety and how many cells were left after P and each tie-break
        (``chosen`` and ``tied`` as :meth:`candidates` gives them)."""
        board = observation.board
        safety = 1.0 - result.probability(cell)
        steps = ", ".join(f"{n} after {name}" for n, (name, _) in zip(tied[1:], CRITERIA, strict=False))
        text = f"the lowest mine probability: {board.name(cell)}, {safety:.2%} safe ({tied[0]} as safe"
        text += f"; {steps})" if steps else ")"
        return Explanation(text, {"cell": board.xy(cell), "safety": safety, "tied": tied, "random": len(chosen) > 1})

    def _explainer(self, position: Callable[[int], Observation], move: int, cell: int) -> Callable[[], Explanation]:
        """What explains a guess the C game loop made at ``cell`` at move ``move``: the rule's figures in the
        position replayed to it (no draw from :attr:`rng`: the cell is known)."""

        def explain() -> Explanation:
            observation = position(move)
            result = self.analyzer.analyze_patiently(observation)
            chosen, tied = self.candidates(observation, result)
            return self.explain_pick(observation, result, cell, chosen, tied)

        return explain
