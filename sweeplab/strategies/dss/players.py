"""Seed 003's CSP family: DSS backbones on the coefficient matrix, DSScsp and backtracking enumeration, limited
traversal and the Manhattan-distance tie-break.

Source: ``003_f5c1155f4ddfa843.txt`` ("Fast constraint satisfaction problem and learning-based algorithm for solving
Minesweeper"), sections 3.1 (the CSP ``A x = b``, equations (1)-(2)), 4 (DSS, Algorithms 1-2), 4.1 (backtracking,
DSScsp Algorithm 3, limited traversal, equation (3)), 4.2.1 (Manhattan distance), 5.1 and Table 3 (the versions).

The matrix. Rows are the revealed numbers that touch a covered cell, with flagged neighbours subtracted
(:func:`sweeplab.analysis.exact.constraints.constraints_from`); columns are the frontier cells. A row is kept as a pair
``(support, b)`` where ``support`` is a bitmask over column indices (bit ``j`` set when ``A[i][j] == 1``).

Reconstructions (the extraction lost every formula and the text of Algorithms 1-3):

* DSS (Algorithm 2 with its helper Algorithm 1) "evaluates solutions for the backbone variables" directly from the
  matrix. Paper's algorithm text is lost; we do row-level reasoning on the matrix, iterated to a fixed point, with
  every forced column substituted out of the matrix after each round (:func:`dss`):
  a row with ``b == 0`` forces its columns to 0; a row with ``b == |support|`` forces them to 1; for two rows i, j
  sharing a column, ``x(i-only) - x(j-only) = b_i - b_j``, so ``b_i - b_j == |i-only|`` forces the i-only columns
  to 1 and the j-only columns to 0 (this covers the subset case too); and a row whose support strictly contains
  another's is replaced by their difference (``(S_i - S_j, b_i - b_j)``). This finds a subset of the backbones
  (every value it fixes holds in every solution; a property test checks that against brute force), in polynomial
  time, as the paper promises; it does not claim to find them all.
* DSScsp (Algorithm 3): pick a column, set it to 1 and to 0, substitute, run DSS at the node, recurse until the
  matrix is empty (a solution); a node is pruned when a row has ``b < 0`` or ``b > |support|`` (or DSS finds a
  contradiction). The paper implements it iteratively "to avoid stack overflow"; so do we (an explicit stack).
  The column picked is the lowest-numbered column still in the matrix (paper silent). Both values are tried in a
  random order drawn from the strategy's seeded generator, as the paper says DSScsp "assign[s] values 0 or 1
  randomly"; with a complete enumeration the order changes nothing.
* Backtracking (the paper's baseline, version "Backtracking"): the same tree without DSS at the nodes, columns in
  index order, 1 tried before 0.
* Equation (3): a cell's mine probability is the mean of its column over the solution matrix; every solution counts
  the same, as in the paper (this is not the exact probability, which weights layouts by how the remaining mines
  fit outside the frontier).
* Cells no number touches: the paper gives them no probability (it keeps the total mine count for its learned
  heuristics). We give each the same probability ``(mines_left - E[frontier mines]) / #unconstrained`` clamped to
  [0, 1], where ``E[frontier mines]`` is the sum of the frontier probabilities of equation (3).
* The total mine count is not a row of ``A x = b`` (paper: "used as heuristics"), so solutions needing more mines
  than are left are not pruned; we keep that, so endgames that the count would settle are guessed.

Departures, each because the paper is silent or a guard is needed:

* Independent sub-matrices. The paper enumerates the whole matrix; we split it into connected components (rows
  linked by shared columns) and enumerate each alone. With complete enumerations this gives exactly the paper's
  equation (3): the full solution set is the Cartesian product of the components' sets, and a column's mean over a
  product equals its mean over its own factor. It costs the sum, not the product, of the components' trees.
* Guards. Every enumeration is capped: ``max_nodes`` nodes per component (all versions) and, for the limited
  versions, ``max_solutions`` solutions and ``max_depth`` branching edges per component. When a guard trips we use
  the solutions found so far (a node at the depth cap is dropped: its sub-tree is not explored). Cells of a
  component whose search was cut short are never treated as certain; a component cut short before any solution
  gives its cells the board's density ``mines_left / #covered``. Defaults: full versions ``max_nodes = 50_000``;
  limited versions ``max_solutions = 1000`` (the paper's number was lost; 1000 independent samples would give a
  probability a standard error under 0.016, though depth-first samples share prefixes and are not independent),
  ``max_depth = 300`` (the paper's number) and ``max_nodes = 20_000``. On beginner and intermediate boards these
  caps almost never bind once the matrix is split into components, so the limited versions play like the full ones.
* Certain moves from an enumeration: a cell at probability 0 (1) in a component whose enumeration was complete is a
  backbone, so it is revealed (flagged) as a certain move, not a guess. The paper would pick it as "the least
  probability" anyway; queuing all of them only saves re-analysis.
* Guess ties: among cells at the minimum probability we pick one with the seeded generator (paper silent).
* Manhattan distance (4.2.1, after Legendre et al.): the tolerance was lost; we take cells within an absolute
  ``tolerance = 0.05`` of the minimum probability, then the smallest :meth:`Board.edge_distance`, then the lower
  probability, then the seeded generator.
* First move: the paper does not say. We open a corner (picked with the seeded generator): under the safe-first-click
  rule a corner has the fewest neighbours and so the best chance to open a zero, and the related literature
  (Legendre et al., seed 000) favours corners; the paper's own location score (equation (4)) ranks corners highest.
  It is recorded as a guess of kind "first" with unknown safety (the strategy does not know the first-click rule).

* Location score (4.2.2, equation (4)): the formula was lost; the text says it is "the probability of a block to have
  no neighboring mine", varying with "corner/edge/middle", from F (flags used) and U (blocks left), the corner
  scoring highest. We read it as seed 000's zero-probability analysis: with d = (mines - F) / U, the score is
  (1 - d) ** 4 in a corner, (1 - d) ** 6 on an edge and (1 - d) ** 9 in the middle (the cell and its 3, 5 or 8
  neighbours all clear). The paper feeds it to its learned players only; its non-learned use here
  (``heuristic="location"``) follows 4.2.1's pattern with the score in place of the distance: among cells within
  ``tolerance`` of the least probability, the highest score (a corner, then an edge, then the middle), then the
  lower probability, then the seeded generator.

Versions (Table 3) and names: ``backtracking`` = backtracking for certain moves and probabilities; ``dss`` = DSS for
certain moves, else backtracking probabilities ("+DSS"); ``dss[limited=True]`` = DSS, else limited plain
backtracking ("limited + DSS"); ``dsscsp`` = DSS, else DSScsp ("DSScsp + DSS"); ``dsscsp-limited`` = DSS, else
limited DSScsp ("DSScsp limited + DSS"); ``dsscsp-manhattan`` and ``dsscsp-limited-manhattan`` add 4.2.1; the option
``heuristic`` ("none", "manhattan", "location") sets the guess rule of any version (e.g. ``dsscsp[heuristic=location]``)
and ``limited`` (True/False) its traversal. The matrix algorithms live in :mod:`sweeplab.strategies.dss.matrix`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from sweeplab.analysis.exact.constraints import Problem, constraints_from
from sweeplab.core.errors import InconsistentPositionError
from sweeplab.core.game import Move
from sweeplab.core.geometry import Board
from sweeplab.core.observation import Observation
from sweeplab.strategies.base import Strategy, StrategyError
from sweeplab.strategies.dss.matrix import (
    FULL_MAX_NODES,
    Row,
    bits,
    column_means,
    components,
    dss,
    enumerate_solutions,
    matrix_from,
)

LIMITED_MAX_SOLUTIONS = 1000
LIMITED_MAX_DEPTH = 300
LIMITED_MAX_NODES = 20_000
MANHATTAN_TOLERANCE = 0.05
#: Guess rules (option ``heuristic``): the least probability, section 4.2.1's Manhattan distance, 4.2.2's location score.
HEURISTICS = ("none", "manhattan", "location")
#: Equation (4)'s exponents as we read it: the cell and its neighbours in a corner, on an edge, in the middle.
LOCATION_EXPONENTS = {"corner": 4, "edge": 6, "middle": 9}
_EPSILON = 1e-12


def location_score(board: Board, cell: int, density: float) -> float:
    """Equation (4) as we read it: the chance that ``cell`` shows a 0 if every square is a mine with probability
    ``density``: (1 - density) ** 4 in a corner, ** 6 on an edge, ** 9 in the middle.

    >>> round(location_score(Board(30, 16), 0, 0.2), 3), round(location_score(Board(30, 16), 1, 0.2), 3)
    (0.41, 0.262)
    """
    place = "corner" if board.is_corner(cell) else "edge" if board.is_edge(cell) else "middle"
    return float((1 - density) ** LOCATION_EXPONENTS[place])


def pick_guess(
    probabilities: dict[int, float],
    rng: random.Random,
    edge_distance: dict[int, int] | None = None,
    tolerance: float = MANHATTAN_TOLERANCE,
    score: dict[int, float] | None = None,
) -> int:
    """The cell to reveal: the least probable (ties by ``rng``); with ``edge_distance`` the Manhattan rule of
    section 4.2.1: among cells within ``tolerance`` of the least probability, the nearest the border, then the
    least probable, then ``rng``; with ``score`` (higher is better, section 4.2.2's location score) the same with
    the highest score in place of the smallest distance.

    >>> pick_guess({1: 0.2, 2: 0.22, 3: 0.5}, random.Random(0), edge_distance={1: 3, 2: 0, 3: 0})
    2
    >>> pick_guess({1: 0.2, 2: 0.22, 3: 0.5}, random.Random(0))
    1
    >>> pick_guess({1: 0.2, 2: 0.22, 3: 0.24}, random.Random(0), score={1: 0.13, 2: 0.26, 3: 0.41})
    3
    """
    least = min(probabilities.values())
    if edge_distance is None and score is None:
        best = [c for c, p in probabilities.items() if p <= least + _EPSILON]
    else:
        near = [c for c, p in probabilities.items() if p <= least + tolerance + _EPSILON]
        if score is not None:
            top = max(score[c] for c in near)
            near = [c for c in near if score[c] >= top - _EPSILON]
        else:
            assert edge_distance is not None
            nearest = min(edge_distance[c] for c in near)
            near = [c for c in near if edge_distance[c] == nearest]
        low = min(probabilities[c] for c in near)
        best = [c for c in near if probabilities[c] <= low + _EPSILON]
    return best[0] if len(best) == 1 else rng.choice(best)


class DSSFamilyStrategy(Strategy):
    """Shared play of seed 003's CSP versions (see the module docstring): certain moves first (queued), then the
    least-probable guess from an enumeration of the solutions of ``A x = b``.

    Options: ``max_nodes``, ``max_solutions``, ``max_depth`` (per-component guards of the enumeration),
    ``tolerance`` (Manhattan and location rules), ``limited`` (True: the limited traversal's default guards) and
    ``heuristic`` (:data:`HEURISTICS`); the last two default to the version's own. ``searches``, ``truncated`` and
    ``nodes`` count this game's enumerations, how many a guard cut short, and the nodes they visited.
    """

    source = "seed 003 (003_f5c1155f4ddfa843.txt), sections 4, 4.1, 5.1, Table 3"
    dss_moves: ClassVar[bool] = True
    dss_nodes: ClassVar[bool] = True
    limited: ClassVar[bool] = False
    manhattan: ClassVar[bool] = False

    def __init__(
        self,
        seed: int | None = None,
        *,
        max_nodes: int | None = None,
        max_solutions: int | None = None,
        max_depth: int | None = None,
        tolerance: float = MANHATTAN_TOLERANCE,
        limited: bool | None = None,
        heuristic: str | None = None,
    ) -> None:
        super().__init__(seed)
        self.is_limited = self.limited if limited is None else limited
        if heuristic is None:
            heuristic = "manhattan" if self.manhattan else "none"
        if heuristic not in HEURISTICS:
            raise StrategyError(f"strategy {self.name!r}: heuristic must be one of {', '.join(HEURISTICS)}, not {heuristic!r}")
        self.heuristic = heuristic
        if self.is_limited:
            self.max_solutions: int | None = max_solutions if max_solutions is not None else LIMITED_MAX_SOLUTIONS
            self.max_depth: int | None = max_depth if max_depth is not None else LIMITED_MAX_DEPTH
            self.max_nodes = max_nodes if max_nodes is not None else LIMITED_MAX_NODES
        else:
            self.max_solutions, self.max_depth = max_solutions, max_depth
            self.max_nodes = max_nodes if max_nodes is not None else FULL_MAX_NODES
        for label, value in (("max_nodes", self.max_nodes), ("max_solutions", self.max_solutions), ("max_depth", self.max_depth)):
            if value is not None and value < 1:
                raise StrategyError(f"strategy {self.name!r}: {label} must be at least 1, not {value}")
        if not 0 <= tolerance <= 1:
            raise StrategyError(f"strategy {self.name!r}: tolerance must be between 0 and 1, not {tolerance}")
        self.tolerance = tolerance
        self.searches = 0
        self.truncated = 0
        self.nodes = 0

    def choose(self, observation: Observation) -> Move:
        move = self.next_queued(observation)
        if move is not None:
            return move
        if observation.is_start():
            return self.guess(observation, self.rng.choice(observation.board.corners()), "first")
        problem = constraints_from(observation)
        columns, rows = matrix_from(problem)
        if self.dss_moves:
            red = dss(rows)
            if red is None:
                raise InconsistentPositionError("no mine layout satisfies the numbers of this position")
            if red.ones | red.zeros:
                return self._certain(observation, columns, red.zeros, red.ones)
        probabilities, safe, mines = self._probabilities(problem, columns, rows)
        if safe | mines:
            return self._certain(observation, columns, safe, mines)
        return self.choose_guess(observation, problem, probabilities)

    def choose_guess(self, observation: Observation, problem: Problem, probabilities: dict[int, float]) -> Move:
        """The guess once no move is certain: ``probabilities`` holds equation (3) for every covered cell.

        Subclasses (the learned players of ``sweeplab.learn``) override this step only.
        """
        board = observation.board
        score = None
        if self.heuristic == "location":
            density = problem.mines_left / max(1, len(problem.frontier) + len(problem.unconstrained))
            score = {c: location_score(board, c, density) for c in probabilities}
        cell = pick_guess(
            probabilities,
            self.rng,
            {c: board.edge_distance(c) for c in probabilities} if self.heuristic == "manhattan" else None,
            self.tolerance,
            score,
        )
        kind = "unconstrained" if cell in problem.unconstrained else "educated"
        return self.guess(observation, cell, kind, 1.0 - probabilities[cell])

    def probabilities(self, observation: Observation) -> dict[int, float]:
        """Equation (3) for every covered cell of a position (unconstrained cells included), as this version
        computes it when it must guess."""
        problem = constraints_from(observation)
        columns, rows = matrix_from(problem)
        return self._probabilities(problem, columns, rows)[0]

    def _certain(self, observation: Observation, columns: Sequence[int], safe: int, mines: int) -> Move:
        self.queue(Move.reveal(columns[j]) for j in bits(safe))
        self.queue(Move.flag(columns[j]) for j in bits(mines))
        return self.choose(observation)

    def _probabilities(self, problem: Problem, columns: Sequence[int], rows: Sequence[Row]) -> tuple[dict[int, float], int, int]:
        """Equation (3) per cell (unconstrained cells included), and the backbones of the completely enumerated
        components as (safe columns, mine columns) masks."""
        means: dict[int, float] = {}
        safe = mines = 0
        unknown: list[int] = []
        for part in components(rows):
            found = enumerate_solutions(
                part,
                use_dss=self.dss_nodes,
                rng=self.rng if self.dss_nodes else None,
                max_solutions=self.max_solutions,
                max_depth=self.max_depth,
                max_nodes=self.max_nodes,
            )
            support = 0
            for row_support, _ in part:
                support |= row_support
            self.searches += 1
            self.nodes += found.nodes
            self.truncated += not found.complete
            if not found.solutions:
                if found.complete:
                    raise InconsistentPositionError("no mine layout satisfies the numbers of this position")
                unknown.extend(bits(support))
                continue
            part_means = column_means(found.solutions, support)
            means.update(part_means)
            if found.complete:
                for j, p in part_means.items():
                    if p == 0.0:
                        safe |= 1 << j
                    elif p == 1.0:
                        mines |= 1 << j
        covered = len(problem.frontier) + len(problem.unconstrained)
        density = problem.mines_left / covered if covered else 0.0
        for j in unknown:
            means[j] = density
        probabilities = {columns[j]: p for j, p in sorted(means.items())}
        if problem.unconstrained:
            expected = sum(means.values())
            rest = (problem.mines_left - expected) / len(problem.unconstrained)
            rest = min(1.0, max(0.0, rest))
            probabilities.update(dict.fromkeys(problem.unconstrained, rest))
        return probabilities, safe, mines


class BacktrackingStrategy(DSSFamilyStrategy):
    """Seed 003's version "Backtracking": plain backtracking enumeration for certain moves and probabilities."""

    name = "backtracking"
    summary = "enumerate the solutions of A x = b by plain backtracking; reveal the least probable cell (seed 003 baseline)"
    dss_moves = False
    dss_nodes = False


class DSSStrategy(DSSFamilyStrategy):
    """Seed 003's version "+DSS": DSS for certain moves, else plain backtracking probabilities."""

    name = "dss"
    summary = "DSS backbones on A x = b for certain moves, else backtracking probabilities (seed 003)"
    dss_nodes = False


class DSScspStrategy(DSSFamilyStrategy):
    """Seed 003's version "DSScsp + DSS": DSS for certain moves, else the full DSScsp enumeration."""

    name = "dsscsp"
    summary = "DSS for certain moves, else probabilities from the DSScsp enumeration (seed 003 Algorithm 3)"


class DSScspLimitedStrategy(DSSFamilyStrategy):
    """Seed 003's version "DSScsp limited + DSS": DSScsp with at most 1000 solutions and depth 300 per component."""

    name = "dsscsp-limited"
    summary = "DSS, else DSScsp limited to 1000 solutions and depth 300, randomly ordered (seed 003 5.1)"
    limited = True


class DSScspManhattanStrategy(DSSFamilyStrategy):
    """Seed 003's DSScsp version "+ Manhattan Distance": near-least-probable cells, the one nearest the border."""

    name = "dsscsp-manhattan"
    summary = "dsscsp, guessing the cell nearest the border among those within 0.05 of the least probability (seed 003 4.2.1)"
    manhattan = True


class DSScspLimitedManhattanStrategy(DSSFamilyStrategy):
    """Seed 003's limited DSScsp version "+ Manhattan Distance"."""

    name = "dsscsp-limited-manhattan"
    summary = "dsscsp-limited with the Manhattan-distance tie-break of seed 003 section 4.2.1"
    limited = True
    manhattan = True


__all__ = [
    "BacktrackingStrategy",
    "DSSFamilyStrategy",
    "DSSStrategy",
    "DSScspLimitedManhattanStrategy",
    "DSScspLimitedStrategy",
    "DSScspManhattanStrategy",
    "DSScspStrategy",
    "location_score",
    "pick_guess",
]
