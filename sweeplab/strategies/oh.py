"""OH [oh]: exact CSP probabilities with an upper-confidence tree over sampled layouts and an optimistic horizon.

What OH is
----------
"OH" is the player of O. Buffet, C.-S. Lee, W. Lin and O. Teytaud, "Optimistic Heuristics for MineSweeper",
International Computer Symposium (ICS 2012), Hualien, Taiwan, pp. 199-207 (HAL: https://inria.hal.science/hal-00750577),
the row "OH [5]" of seed 003's Table 4. What the sources sweeplab could read say about it:

* Seed 003 (Sinha, Malviya, Nayak, arXiv 2105.04120) describes [5] as the union of two earlier lines: the
  upper-confidence-tree (UCT) player of Sebag and Teytaud and the HCSP heuristics of Legendre et al., which lets
  UCT, until then usable only on small boards, play large ones.
* Sebag and Teytaud, "Upper Confidence Tree-Based Consistent Reactive Planning: Application to MineSweeper" (LION
  2012, https://link.springer.com/chapter/10.1007/978-3-642-34413-8_16; seed 003's [19]): a CSP solver gives a
  consistent estimate of the belief state (layouts that agree with what is seen), and UCT uses it both in its tree
  and in its Monte-Carlo simulator, so the policy tends to the optimal one as the number of simulations grows.
* Couetoux and Teytaud's slides "MineSweeper" (http://www.slideshare.net/teytaud/minesweeper-slides3): the CSP
  player lists the solutions, takes each cell's mine frequency and opens the least likely cell (ties at random); it
  is fast but myopic, while UCT is slow but consistent, hence their combination.
* Legendre, Hollard, Buffet, Dutech, "MineSweeper: Where to Probe?", INRIA RR-8041, 2012 (hal-00723550; a copy at
  https://m.moam.info/minesweeper-where-to-probe_5b7cf9ef097c476e338b46d8.html; seed 003's [14]): the game as a POMDP
  and heuristics over exact CSP probabilities (HCSP) for the choice of the next cell, including the first move; at
  equal probability they prefer the cells nearest the frontier.
* Published win rates of OH, as public solver write-ups tabulate them (the paper's own tables could not be read):
  80.2% beginner, 74.4% intermediate (16x16, 40 mines), 38.7% expert (30x16, 99 mines), under a beginner column of
  8x8 with 10 mines, next to Tu et al.'s PSEQ ("Exploring Efficient Strategies for Minesweeper", 2017,
  https://aitopics.org/doc/conferences:7046D951) and Legendre et al.'s cSimEnuLoClf; the expert 38.7% also in
  https://github.com/leezhongjun/MinesweeperAI. Another write-up attributes 90.5% beginner, 76.4% intermediate and
  38.1% expert to the paper over "105" games (read: 10^5); 90.5% would fit the 9x9 board with 10 mines that seed 003
  uses, but that write-up does not say. The first-move rule and the time per move behind these figures were not in
  any source at hand.

The slides at es.slideshare.net/teytaud/mines-ics2 (the ICS talk) were not in the stored sources, so the exact
combination, the number of simulations and the exploration constant are not known here. The choices below are
sweeplab's, made to follow the parts that are documented; each is an option.

What this player does
---------------------
1. The first move and every certain move are :class:`~sweeplab.strategies.exact.ExactStrategy`'s: the top-left
   corner, then every cell the exact engine proves safe (a CSP-safe cell is played at once, no search), with the
   single-point pass before each analysis.
2. When a guess is needed, the candidates are the covered cells at most ``tolerance`` riskier than the safest one
   (at most ``width`` of them, safest first, ties in exact's order; at most two cells no number touches, since those
   differ only by place).
3. ``sims`` simulations of UCT: each picks a candidate by UCB1 (``value + explore * sqrt(ln n / n_a)``, untried
   candidates first), draws a layout uniformly among those consistent with the position and with that candidate
   safe (the generative model: :class:`LayoutSampler`, exact, from the engine's components, with rejection), opens
   the candidate in the drawn layout, plays every certain-safe cell of the new position in it, and goes on the same
   way (UCB1 at each guess) until ``depth`` guesses were made. There it stops with the optimistic heuristic: the
   position is scored as if the game were won once the next guess survives, ``1 - min p``, the safety of the
   safest covered cell (a won position scores 1). That is an upper bound on the position's win chance, hence
   "optimistic"; it rewards guesses that lead to free moves or to safer next guesses, which the myopic CSP player
   cannot see. A candidate's value is its exact safety (from the engine) times the mean score of the continuations
   simulated after it: the mine risk enters as a known factor rather than as 0/1 noise, which a few hundred
   simulations could not average out (a deeper guess whose cell holds a mine in the drawn layout has no
   continuation to add: the simulation returns that candidate's value so far).
4. The guess played is the candidate of highest value (ties: exact's order).

Positions are nodes keyed by what the player sees, shared between simulations that reach them. When the engine
returns an estimate (a frontier too large to count) or a component has more than ``MAX_COMPONENT_LAYOUTS`` mine
placements to list, no layout can be drawn exactly and the player guesses as ``exact`` does.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

from sweeplab.analysis import DEFAULT_BUDGET, Budget, Probabilities, UndecidedError
from sweeplab.analysis.exact.listing import list_component
from sweeplab.core.game import Move
from sweeplab.core.observation import COVERED, FLAGGED, Observation
from sweeplab.strategies.base import Explanation, LazyExplanation, StrategyError
from sweeplab.strategies.exact import TIE, ExactStrategy, guess_kind

#: A component with more mine placements than this is not listed: the player then guesses as ``exact`` does.
MAX_COMPONENT_LAYOUTS = 200_000
#: Candidates no number touches, at most (they differ only by place; exact's order picks them).
MAX_UNCONSTRAINED = 2


class LayoutSampler:
    """Layouts drawn uniformly among those consistent with an exactly analysed position, as mine masks.

    Each component's mine placements are listed (:func:`sweeplab.analysis.exact.listing.list_component`) and grouped
    by mine count; a draw picks each component's count in proportion to the layouts that count leaves (the product of
    placement counts times the ways to put the remaining mines on the cells no number touches), then one placement
    of that count, then the free cells' mines, all with the caller's generator. ``layouts`` is the total, equal to
    the engine's count. Raises ``ValueError`` for an estimate or a component past ``limit`` placements.
    """

    def __init__(self, result: Probabilities, limit: int = MAX_COMPONENT_LAYOUTS) -> None:
        if not result.exact:
            raise ValueError("only an exact analysis can be sampled exactly")
        observation = result.observation
        self.cells = observation.board.cells
        self.flagged = [c for c, v in enumerate(observation.view) if v == FLAGGED]
        self.unconstrained = list(result.unconstrained)
        mines_left = observation.mines_left
        self.parts: list[list[tuple[int, list[tuple[int, ...]]]]] = []  # per component: (mines, placements)
        for component in result.components:
            listed = list_component(component, limit)
            if listed is None:
                raise ValueError(f"a component has more than {limit:,} mine placements")
            cells, rows = listed
            by_count: dict[int, list[tuple[int, ...]]] = {}
            for row in rows:
                placement = tuple(cells[i] for i in row.nonzero()[0])
                by_count.setdefault(len(placement), []).append(placement)
            self.parts.append(sorted(by_count.items()))
        free = len(self.unconstrained)
        # ways[c][k]: the layouts of components c.. and the free cells when components before c hold k mines
        last = [math.comb(free, mines_left - k) if 0 <= mines_left - k <= free else 0 for k in range(mines_left + 1)]
        self.ways: list[list[int]] = [last]
        for part in reversed(self.parts):
            after = self.ways[0]
            here = [sum(len(p) * after[k + m] for m, p in part if k + m <= mines_left) for k in range(mines_left + 1)]
            self.ways.insert(0, here)
        self.mines_left = mines_left
        self.layouts = self.ways[0][0]
        if not self.layouts:
            raise ValueError("no layout fits the position")

    def draw(self, rng: random.Random) -> bytearray:
        """One layout: a byte per cell, 1 for a mine (flagged cells count as mines)."""
        mask = bytearray(self.cells)
        for c in self.flagged:
            mask[c] = 1
        k = 0
        for index, part in enumerate(self.parts):
            after = self.ways[index + 1]
            point = rng.randrange(self.ways[index][k])
            for m, placements in part:
                if k + m > self.mines_left:
                    continue
                weight = len(placements) * after[k + m]
                if point < weight:
                    for c in placements[point // after[k + m]]:
                        mask[c] = 1
                    k += m
                    break
                point -= weight
        for c in rng.sample(self.unconstrained, self.mines_left - k):
            mask[c] = 1
        return mask


def open_cells(observation: Observation, view: list[int], mines: bytearray, cells: tuple[int, ...] | list[int]) -> None:
    """Reveal ``cells`` (safe in ``mines``) in ``view`` as the game does: numbers from the layout, zeros flood-filled."""
    neighbours = observation.board.neighbours
    for start in cells:
        if view[start] != COVERED:
            continue
        stack = [start]
        view[start] = sum(mines[n] for n in neighbours[start])
        if view[start]:
            continue
        while stack:
            for n in neighbours[stack.pop()]:
                if view[n] == COVERED:
                    view[n] = v = sum(mines[m] for m in neighbours[n])
                    if not v:
                        stack.append(n)


@dataclass
class Node:
    """A position in the search: its analysis (None once won) and, at a guess, the candidates' UCT statistics."""

    result: Probabilities | None
    safe: tuple[int, ...] = ()
    best: float = 1.0  # the safety of the safest covered cell (1 when won or a cell is certain)
    candidates: list[int] = field(default_factory=list)
    risk: list[float] = field(default_factory=list)  # each candidate's exact mine probability
    visits: list[int] = field(default_factory=list)  # continuations simulated (the candidate safe)
    total: list[float] = field(default_factory=list)
    n: int = 0


class OHStrategy(ExactStrategy):
    """Exact's certain moves and opening; at a guess, UCT over layouts drawn from the exact posterior, each
    simulation scored with the optimistic horizon (see the module docstring for the sources and the choices).

    Options: ``sims`` simulations per guess (default 200), ``depth`` guesses searched before the optimistic score
    (1-4, default 2), ``explore`` the UCB1 constant (default 0.3), ``width`` candidates at most (default 8) and
    ``tolerance`` how much riskier than the safest cell a candidate may be (default 0.1). Deterministic for a seed.
    """

    name = "oh"
    source = "Buffet et al. 2012, seed 003 reference [5] (Optimistic Heuristics for MineSweeper, ICS 2012)"
    summary = "certain safes first; else UCT over sampled consistent layouts, leaves scored optimistically (1 - next risk)"

    def __init__(
        self,
        seed: int | None = None,
        sims: int = 200,
        depth: int = 2,
        explore: float = 0.3,
        width: int = 8,
        tolerance: float = 0.1,
        budget: Budget = DEFAULT_BUDGET,
    ) -> None:
        super().__init__(seed, budget)
        for option, value, low, high in (("sims", sims, 1, 10**7), ("depth", depth, 1, 4), ("width", width, 1, 100)):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise StrategyError(f"strategy 'oh': {option} must be a whole number from {low:,} to {high:,}, not {value!r}")
        for option, number, top in (("explore", explore, 100.0), ("tolerance", tolerance, 1.0)):
            if isinstance(number, bool) or not isinstance(number, int | float) or not 0 <= number <= top:
                raise StrategyError(f"strategy 'oh': {option} must be a number from 0 to {top:g}, not {number!r}")
        self.sims = sims
        self.depth = depth
        self.explore = float(explore)
        self.width = width
        self.tolerance = float(tolerance)
        self.fallbacks = 0  # guesses made as exact's: no exact layout sampler for the position
        self._nodes: dict[tuple[int, ...], Node] = {}

    # ----- the guess -----
    def pick_guess(self, observation: Observation, result: Probabilities) -> Move:
        if observation.is_start():
            return super().pick_guess(observation, result)
        try:
            sampler = LayoutSampler(result)
        except ValueError:
            self.fallbacks += 1
            return super().pick_guess(observation, result)
        root = self._node_of(observation, result)
        if len(root.candidates) > 1:
            self._nodes = {observation.view: root}
            start = list(observation.view)
            for _ in range(self.sims):
                i = self._select(root)
                mines = sampler.draw(self.rng)
                while mines[root.candidates[i]]:  # the root's draws are conditioned on its candidate being safe
                    mines = sampler.draw(self.rng)
                self._open(observation, root, i, list(start), mines, self.depth)
            self._nodes = {}
        index = max(range(len(root.candidates)), key=lambda i: (value(root, i), -i))
        cell = root.candidates[index]
        explanation = LazyExplanation(lambda: explain(observation, result, root, cell))
        return self.guess(observation, cell, guess_kind(observation, result, cell), 1 - result.probability(cell), explanation)

    def _simulate(self, observation: Observation, node: Node, view: list[int], mines: bytearray, depth: int) -> float:
        """One simulation from ``node`` in the drawn layout ``mines``: its score (an estimate of the position's
        optimistic value), added to the statistics on its path."""
        while node.safe:  # certain cells are safe in every consistent layout: open them all
            open_cells(observation, view, mines, node.safe)
            node = self._child(observation, view)
        if node.result is None or depth == 0:
            return node.best  # won (1), or the optimistic horizon: won once the next guess survives
        if not node.candidates:
            self._fill(node)
        i = self._select(node)
        if mines[node.candidates[i]]:  # no continuation to sample: the candidate's value so far stands for it
            return value(node, i) if node.visits[i] else 1.0 - node.risk[i]
        return self._open(observation, node, i, view, mines, depth)

    def _open(self, observation: Observation, node: Node, i: int, view: list[int], mines: bytearray, depth: int) -> float:
        """Open candidate ``i`` of ``node`` (safe in ``mines``), simulate on and return its chance-weighted score:
        the exact safety times the continuation, whose mean the candidate's statistics keep."""
        open_cells(observation, view, mines, (node.candidates[i],))
        score = self._simulate(observation, self._child(observation, view), view, mines, depth - 1)
        node.visits[i] += 1
        node.total[i] += score
        node.n += 1
        return (1.0 - node.risk[i]) * score

    def _select(self, node: Node) -> int:
        """UCB1 over the node's candidates: an untried one first (in order), else the highest upper bound on the
        value (exact safety times the mean continuation)."""
        visits = node.visits
        for i, v in enumerate(visits):
            if not v:
                return i
        log_n = math.log(node.n)
        c = self.explore
        return max(range(len(visits)), key=lambda i: (value(node, i) + c * math.sqrt(log_n / visits[i]), -i))

    # ----- positions -----
    def _child(self, observation: Observation, view: list[int]) -> Node:
        key = tuple(view)
        node = self._nodes.get(key)
        if node is None:
            child = observation.with_cells({c: v for c, v in enumerate(key) if v != observation.view[c]})
            if sum(1 for v in key if v < 0) == observation.mines:
                node = Node(None)
            else:
                try:
                    node = self._node_of(child, self.analyzer.analyze(child), fill=False)
                except UndecidedError:  # no analysis in time: score the position by the mine density left
                    covered = sum(1 for v in key if v == COVERED)
                    node = Node(None, best=1.0 - child.mines_left / max(covered, 1))
            self._nodes[key] = node
        return node

    def _node_of(self, observation: Observation, result: Probabilities, fill: bool = True) -> Node:
        if result.safe:
            return Node(result, safe=result.safe)
        p, _ = result.lowest(TIE)
        node = Node(result, best=1.0 - p)
        if fill:
            self._fill(node)
        return node

    def _fill(self, node: Node) -> None:
        """The node's candidates: the safest cells within ``tolerance``, ``width`` at most, in exact's order."""
        result = node.result
        assert result is not None
        observation = result.observation
        board, view = observation.board, observation.view
        border, neighbours = board.border, board.neighbours
        p0, _ = result.lowest(TIE)
        free = set(result.unconstrained)
        ranked = sorted(
            ((p, border[c], -sum(1 for n in neighbours[c] if view[n] == COVERED), c) for c, p in result.covered()),
        )
        chosen: list[int] = []
        risk: list[float] = []
        loose = 0
        for p, _, _, c in ranked:
            if p > p0 + self.tolerance + TIE or p >= 1 - TIE or len(chosen) == self.width:
                break
            if c in free:
                if loose == MAX_UNCONSTRAINED:
                    continue
                loose += 1
            chosen.append(c)
            risk.append(p)
        if not chosen:  # every cell at or past the tolerance: the safest one
            chosen, risk = [ranked[0][3]], [ranked[0][0]]
        node.candidates = chosen
        node.risk = risk
        node.visits = [0] * len(chosen)
        node.total = [0.0] * len(chosen)


def value(node: Node, i: int) -> float:
    """Candidate ``i``'s estimated value: its exact safety times the mean of its simulated continuations (0 untried)."""
    return (1.0 - node.risk[i]) * node.total[i] / node.visits[i] if node.visits[i] else 0.0


def explain(observation: Observation, result: Probabilities, root: Node, cell: int) -> Explanation:
    """Why OH guesses ``cell``: each candidate's safety, simulations and mean score (the optimistic value)."""
    name = observation.board.name
    rows: list[dict[str, Any]] = [
        {
            "cell": observation.board.xy(c),
            "safety": 1.0 - result.probability(c),
            "visits": root.visits[i],
            "value": value(root, i),
        }
        for i, c in enumerate(root.candidates)
    ]
    i = root.candidates.index(cell)
    if root.n:
        text = (
            f"UCT over {root.n} sampled layouts: {name(cell)} ({1.0 - result.probability(cell):.2%} safe) has the highest "
            f"optimistic value, {value(root, i):.3f}, over {root.visits[i]} simulations"
        )
    else:
        text = f"the only candidate: {name(cell)}, {1.0 - result.probability(cell):.2%} safe"
    return Explanation(text, {"cell": observation.board.xy(cell), "simulations": root.n, "candidates": rows})
