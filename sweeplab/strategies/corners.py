"""Seed 004's CSP agent: corner openings, zero and flag rules, superset reduction, then counting "universes".

Seed 004 (/work/shared/seeds/004_a8e7fd761db7071b.txt, "Minesweeper", American University of Armenia), section 4.2
"Algorithm" (results in section 5: 104 of 130 games won on 10x10 with 10 mines, first click able to hit a mine,
which is our ``unsafe`` rule). Each move, in this order:

1. Certain moves already found are played first (queued, as the paper's agent opens or flags them one per iteration).
2. Inference: a revealed number whose flags equal it (the paper's "indicator 0" after its decrements) makes its
   covered neighbours safe; a number equal to its covered neighbours plus flags makes them mines, which are flagged
   (the paper "decrements the adjacent indicators"; our constraints subtract flags, which is the same).
3. Superset reduction: for two numbers at Manhattan distance 2 or less whose covered-neighbour sets nest (A a proper
   subset of B), B becomes (B - A, mines of B - mines of A); repeated until nothing changes, and the zero / all-mines
   rules are applied to the reduced constraints.
4. Corner openings: (0, 0) first (the paper's 1-based (1, 1)), then the opposite corner (w-1, h-1), then (w-1, 0),
   then (0, h-1), but only while no certainly safe cell is known and fewer than ``CORNER_MOVES`` = 12 moves have been
   played. Paper says the next corner is opened "if the indicator ... is not 0"; we stop the corner openings as soon
   as any corner shows a 0, because our game floods a 0 at once (the paper's agent opened a 0's neighbours itself,
   one per iteration, which kept it busy past the corner phase). The paper says the third and "sometimes" the fourth
   corner follow without naming them; we take top-right, then bottom-left. "Certainly safe" includes cells that the
   universe count of step 5 proves safe (no mine in any universe), so that count is made before a corner is opened.
5. Universes: every mine placement over the covered cells that satisfies all the numbers and the mine total; the
   agent reveals the cell that holds a mine in the fewest universes (ties: the first such cell in row-major order, as
   a scan of the board meets them; the paper does not say). A count of 0 is certain; otherwise it is a guess with
   safety 1 - mines/universes.

Departures, and the guard. The paper enumerates placements over *all* covered cells, O(2^r), which is why it stalled
on 16x16 with 44 mines. We enumerate only the frontier (covered cells next to a number) by backtracking and count the
placements of the remaining mines on the U unconstrained cells with binomials: a frontier solution with m mines
stands for C(U, M - m) universes, in each of C(U - 1, M - m - 1) of which a given unconstrained cell holds a mine. The
counts, hence the choice, are exactly the paper's. The frontier backtracking is still exponential, so it stops after
``max_nodes`` (default 100,000) assignments; beyond that the agent does not count universes at all and falls back to
a local estimate: a frontier cell's risk is the largest mines/cells ratio among the (unreduced) constraints on it, an
unconstrained cell's is mines left / covered cells, and the lowest risk is revealed (ties in row-major order). The
paper's agent would keep searching there; ours guesses on, so it always answers within a bounded time. ``fallbacks``
counts how often the guard fired.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from math import comb

from sweeplab.core.game import Move
from sweeplab.core.observation import COVERED, FLAGGED, Observation
from sweeplab.strategies.base import Strategy, StrategyError

CORNER_MOVES = 12  #: the corner openings stop once this many moves have been played
MAX_NODES = 100_000  #: the guard: frontier assignments tried before the universe count gives up
_MANHATTAN_2 = tuple((dx, dy) for dx in range(-2, 3) for dy in range(-2, 3) if 0 < abs(dx) + abs(dy) <= 2)


def corner_order(width: int, height: int) -> tuple[int, ...]:
    """The corners in the order the agent opens them: (0,0), (w-1,h-1), (w-1,0), (0,h-1), without repeats.

    >>> corner_order(10, 10)
    (0, 99, 9, 90)
    """
    seen: dict[int, None] = {}
    for x, y in ((0, 0), (width - 1, height - 1), (width - 1, 0), (0, height - 1)):
        seen[y * width + x] = None
    return tuple(seen)


def _constraints(observation: Observation) -> dict[int, tuple[frozenset[int], int]]:
    """Per revealed number with covered neighbours: (its covered unflagged neighbours, mines among them)."""
    view, neighbours = observation.view, observation.board.neighbours
    found: dict[int, tuple[frozenset[int], int]] = {}
    for cell, value in enumerate(view):
        if value < 0:
            continue
        covered = frozenset(n for n in neighbours[cell] if view[n] == COVERED)
        if covered:
            flags = sum(1 for n in neighbours[cell] if view[n] == FLAGGED)
            found[cell] = (covered, value - flags)
    return found


def infer(observation: Observation) -> tuple[set[int], set[int]]:
    """The paper's inference steps (zero rule, all-mines rule, then superset reduction within Manhattan distance 2):
    the cells found safe and the cells found to be mines.

    >>> from sweeplab.formats.position import parse_position
    >>> infer(parse_position("3x2x1\\n11H\\nHHH\\n"))  # the 1 at (0,0) sees {3,4}, a subset of the 1 at (1,0)
    ({2, 5}, set())
    """
    constraints = _constraints(observation)
    safe: set[int] = set()
    mines: set[int] = set()
    for cells, need in constraints.values():
        if need == 0:
            safe |= cells
        elif need == len(cells):
            mines |= cells
    if safe or mines:
        return safe, mines - safe
    width, height = observation.board.width, observation.board.height
    near: dict[int, list[int]] = {}
    for cell in constraints:
        x, y = cell % width, cell // width
        near[cell] = [
            (y + dy) * width + x + dx
            for dx, dy in _MANHATTAN_2
            if 0 <= x + dx < width and 0 <= y + dy < height and (y + dy) * width + x + dx in constraints
        ]
    current = dict(constraints)
    changed = True
    while changed:
        changed = False
        for a in constraints:
            cells_a, need_a = current[a]
            if not cells_a:
                continue
            for b in near[a]:
                cells_b, need_b = current[b]
                if len(cells_a) < len(cells_b) and cells_a < cells_b:
                    rest, need = cells_b - cells_a, need_b - need_a
                    current[b] = (rest, need)
                    changed = True
                    if need == 0:
                        safe |= rest
                    elif need == len(rest):
                        mines |= rest
        if safe or mines:
            break
    return safe, mines - safe


@dataclass(frozen=True)
class Universes:
    """The universe count: ``total`` universes, and per covered cell the number in which it holds a mine."""

    total: int
    mines: dict[int, int]
    frontier: frozenset[int]


def count_universes(observation: Observation, max_nodes: int = MAX_NODES) -> Universes | None:
    """Count the placements of the mines left over the covered cells that satisfy every number (None when the
    frontier backtracking needs more than ``max_nodes`` assignments).

    >>> from sweeplab.formats.position import parse_position
    >>> u = count_universes(parse_position("3x1x1\\n1HH\\n"))
    >>> u.total, u.mines
    (1, {1: 1, 2: 0})
    """
    view = observation.view
    constraints = list(dict.fromkeys((tuple(sorted(c)), n) for c, n in _constraints(observation).values()))
    covered = [i for i, v in enumerate(view) if v == COVERED]
    mines_left = observation.mines - view.count(FLAGGED)
    on: dict[int, list[int]] = {}
    for k, (cells, _) in enumerate(constraints):
        for c in cells:
            on.setdefault(c, []).append(k)
    # frontier order: breadth first through shared constraints, so that constraints close early and prune
    order: list[int] = []
    seen: set[int] = set()
    for start in sorted(on):
        if start in seen:
            continue
        seen.add(start)
        queue = deque([start])
        while queue:
            c = queue.popleft()
            order.append(c)
            for k in on[c]:
                for d in constraints[k][0]:
                    if d not in seen:
                        seen.add(d)
                        queue.append(d)
    unconstrained = [c for c in covered if c not in on]
    u = len(unconstrained)
    need = [n for _, n in constraints]
    left = [len(cells) for cells, _ in constraints]
    cons_of = [on[c] for c in order]
    by_m: dict[int, list[int]] = {}  # mines on the frontier -> [solutions, per-frontier-cell mine counts...]
    n = len(order)
    placed: list[int] = []
    nodes = 0

    def assign(i: int, value: int) -> bool:
        ok = True
        for k in cons_of[i]:
            need[k] -= value
            left[k] -= 1
            if need[k] < 0 or need[k] > left[k]:
                ok = False
        return ok

    def unassign(i: int, value: int) -> None:
        for k in cons_of[i]:
            need[k] += value
            left[k] += 1

    def walk(i: int) -> bool:
        nonlocal nodes
        if i == n:
            m = len(placed)
            if 0 <= mines_left - m <= u:
                row = by_m.get(m)
                if row is None:
                    row = by_m[m] = [0] * (n + 1)
                row[n] += 1
                for j in placed:
                    row[j] += 1
            return True
        for value in (0, 1):
            if value and len(placed) >= mines_left:
                continue
            nodes += 1
            if nodes > max_nodes:
                return False
            if assign(i, value):
                if value:
                    placed.append(i)
                if not walk(i + 1):
                    return False
                if value:
                    placed.pop()
            unassign(i, value)
        return True

    if not walk(0):
        return None
    total = 0
    counts = [0] * n
    unconstrained_mines = 0
    for m, row in by_m.items():
        r = mines_left - m
        weight = comb(u, r)
        total += row[n] * weight
        for j in range(n):
            counts[j] += row[j] * weight
        if u and r:
            unconstrained_mines += row[n] * comb(u - 1, r - 1)
    result = {c: 0 for c in covered}
    for j, c in enumerate(order):
        result[c] = counts[j]
    for c in unconstrained:
        result[c] = unconstrained_mines
    return Universes(total, result, frozenset(order))


def local_risk(observation: Observation) -> dict[int, float]:
    """The guard's fallback: per covered cell, the largest mines/cells ratio of the numbers on it (mines left /
    covered cells for a cell no number touches)."""
    covered = observation.covered()
    density = observation.mines_left / len(covered) if covered else 0.0
    risk = dict.fromkeys(covered, -1.0)
    for cells, need in _constraints(observation).values():
        ratio = need / len(cells)
        for c in cells:
            risk[c] = max(risk[c], ratio)
    return {c: (density if r < 0 else r) for c, r in risk.items()}


class CornersStrategy(Strategy):
    """Seed 004's CSP agent (section 4.2): corners, inference, superset reduction, fewest mines across universes."""

    name = "corners"
    source = "seed 004, section 4.2 (AUA CSP agent)"
    summary = "corner openings, zero/flag rules, superset reduction, then the cell with fewest mines across all universes"

    def __init__(self, seed: int | None = None, max_nodes: int = MAX_NODES) -> None:
        super().__init__(seed)
        if max_nodes < 0:
            raise StrategyError(f"strategy {self.name!r}: max_nodes must be at least 0, not {max_nodes}")
        self.max_nodes = max_nodes
        self.searches = 0  #: universe counts attempted
        self.fallbacks = 0  #: universe counts abandoned by the guard

    def choose(self, observation: Observation) -> Move:
        while True:
            move = self.next_queued(observation)
            if move is not None:
                return move
            safe, mines = infer(observation)
            if not safe and not mines:
                return self._search(observation)
            self.queue(Move.reveal(c) for c in sorted(safe))
            self.queue(Move.flag(c) for c in sorted(mines))

    def next_corner(self, observation: Observation) -> int | None:
        """The corner to open now if the corner phase is still on (fewer than 12 moves, no corner showing 0)."""
        if observation.moves >= CORNER_MOVES:
            return None
        view = observation.view
        corners = corner_order(observation.board.width, observation.board.height)
        if any(view[c] == 0 for c in corners):
            return None
        return next((c for c in corners if view[c] == COVERED), None)

    @staticmethod
    def _corner_kind(observation: Observation, corner: int, frontier: frozenset[int] | None) -> str:
        """A corner opening is the "first" guess on an empty board, later an "unconstrained" one (or "educated" when a
        revealed number touches the corner)."""
        if observation.is_start():
            return "first"
        if frontier is None:
            frontier = frozenset(n for c in observation.revealed() for n in observation.board.neighbours[c])
        return "educated" if corner in frontier else "unconstrained"

    def _search(self, observation: Observation) -> Move:
        self.searches += 1
        universes = count_universes(observation, self.max_nodes)
        corner = self.next_corner(observation)
        if universes is None:
            self.fallbacks += 1
            if corner is not None:
                return self.guess(observation, corner, self._corner_kind(observation, corner, None))
            risk = local_risk(observation)
            cell = min(risk, key=lambda c: (risk[c], c))
            return self.guess(observation, cell, "educated", 1.0 - risk[cell])
        if universes.total == 0:  # no placement fits (cannot happen in a real game)
            return self.guess(observation, self.random_covered(observation), "random")
        counts = universes.mines
        certain = [c for c, k in counts.items() if k == 0]
        if certain:
            self.queue(Move.reveal(c) for c in certain[1:])
            return Move.reveal(certain[0])
        if corner is not None:
            kind = self._corner_kind(observation, corner, universes.frontier)
            return self.guess(observation, corner, kind, 1.0 - counts[corner] / universes.total)
        cell = min(counts, key=lambda c: (counts[c], c))
        kind = "educated" if cell in universes.frontier else "unconstrained"
        return self.guess(observation, cell, kind, 1.0 - counts[cell] / universes.total)
