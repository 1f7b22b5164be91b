"""Local search for the consistency problem: a full mine layout that the revealed numbers, the flags and the mine total allow.

Seed 004 (/work/shared/seeds/004_a8e7fd761db7071b.txt, "Minesweeper", American University of Armenia), section 3
"Literature Review", which retells [FM] (Warsaw, "Lecture 11: Solving hard problems"): random search (RS), hill
climbing (HC), simulated annealing (SA) and a genetic algorithm (GA) all minimise the penalty

    sum over revealed numbers i of (i - mines among the neighbours of i)^2

and a layout of penalty 0 is consistent. These are solvers only; the strategies that use them are in
``sweeplab.strategies.local_search``.

Choices where the paper is silent or loose (paper says X; we do Y because Z):

- Mine total. The paper's HC "removes or adds a mine"; we keep the total fixed instead: a state always holds
  exactly the mines left (total minus flags) on covered unflagged cells, flags are always mines, revealed cells
  never are, and every move *moves* one mine (removes one and adds one elsewhere). Because adding or removing
  alone would need another penalty term for the total, and a state with the wrong total is no layout at all.
- RS: every iteration draws a fresh uniform layout and the best is kept (as in the paper).
- HC: a move is a uniformly random mine moved to a uniformly random free covered cell, kept only if the penalty
  strictly falls (the paper's "if the change minimizes the penalty function, we keep it"). The paper's HC stops at a
  local optimum; we detect one by ``10 * cells + 100`` rejected proposals in a row and restart from a fresh random
  layout, so that the budget is spent searching rather than idling (random-restart hill climbing).
- SA: the same move; a worse one (penalty rise c > 0) is accepted with probability exp(-c/t). Cooling schedule
  (the paper gives none): geometric from ``SA_T0`` = 2.0 to ``SA_T_END`` = 0.05 over a cycle of
  ``min(budget, 2000 + 20 * cells)`` iterations (cells = covered unflagged cells), then the temperature is raised
  back to ``SA_T0`` (a reheat, keeping the current layout). At t = 2 a rise of 1 is accepted 61% of the time (close
  to RS), at t = 0.05 practically never (HC).
- GA: a population of ``GA_POPULATION`` = 40 random layouts; fitness = 1 / (1 + penalty) (the inverse penalty,
  shifted so that a consistent layout does not divide by zero); parents are drawn in proportion to fitness
  (roulette), the best ``GA_ELITE`` = 2 survive unchanged. Crossover as in the paper: a random straight line
  (through a uniform point of the board, at a uniform angle) cuts the board, one side comes from each parent; the
  child is repaired to the right mine total by removing or adding random mines; then a mutation moves one random
  mine with probability ``GA_MUTATION`` = 0.5. One GA iteration is one child evaluated; a generation (38
  children) is computed at once with numpy, from a numpy generator seeded with 64 bits drawn from ``rng``.
- Budget: every method stops at the first layout of penalty 0, after ``budget`` iterations or after ``seconds``
  of wall time, whichever comes first. Results are reproducible for a seed whenever the iteration budget (not the
  clock) ends the run.

>>> import random
>>> from sweeplab.formats.position import parse_position
>>> obs = parse_position("3x3x2\\nHHH\\n2H2\\nHHH\\n")
>>> result = search(obs, "sa", random.Random(1), budget=1000)
>>> result.found, result.penalty, penalty(obs, result.layout)
(True, 0, 0)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from sweeplab.core.errors import InconsistentPositionError, SweeplabError
from sweeplab.core.observation import COVERED, FLAGGED, Observation

METHODS = ("rs", "hc", "sa", "ga")  #: the local-search methods of seed 004, section 3
DEFAULT_BUDGET = 100_000  #: iterations
DEFAULT_SECONDS = 30.0  #: wall-clock cap per search

SA_T0 = 2.0
SA_T_END = 0.05
GA_POPULATION = 40
GA_ELITE = 2
GA_MUTATION = 0.5
_CLOCK_EVERY = 256  # look at the clock every this many iterations


@dataclass(frozen=True)
class SearchResult:
    """What a search returns: the best layout found (all mine cells, flags included), its penalty, the
    iterations and seconds spent, and ``found`` (penalty 0: the layout is consistent)."""

    method: str
    layout: frozenset[int]
    penalty: int
    iterations: int
    seconds: float
    found: bool


def penalty(observation: Observation, layout: Iterable[int]) -> int:
    """The squared-error penalty of a full mine layout: sum over revealed numbers of (number - neighbouring mines)^2.

    >>> from sweeplab.formats.position import parse_position
    >>> obs = parse_position("3x1x1\\n1H1\\n")
    >>> penalty(obs, {1}), penalty(obs, set())
    (0, 2)
    """
    mine = set(layout)
    neighbours = observation.board.neighbours
    total = 0
    for cell, value in enumerate(observation.view):
        if value >= 0:
            total += (value - sum(1 for n in neighbours[cell] if n in mine)) ** 2
    return total


@dataclass(frozen=True)
class Landscape:
    """A position compiled for local search: the covered unflagged cells are the variables (by index into ``cells``);
    each number touching one is a term with a ``target`` (number minus flagged neighbours) over its ``members``;
    numbers that touch no covered cell add the fixed ``constant``."""

    observation: Observation
    cells: tuple[int, ...]
    flags: tuple[int, ...]
    mines: int
    targets: tuple[int, ...]
    members: tuple[tuple[int, ...], ...]
    touches: tuple[tuple[int, ...], ...]
    constant: int
    centres: tuple[tuple[float, float], ...]  #: per variable, the (x, y) of its cell's centre (for the GA's line)

    def layout(self, state: Sequence[int]) -> frozenset[int]:
        """The full mine layout of a 0/1 state over the variables."""
        return frozenset(self.flags) | frozenset(c for c, m in zip(self.cells, state, strict=True) if m)

    def penalty(self, state: Sequence[int]) -> int:
        total = self.constant
        for target, members in zip(self.targets, self.members, strict=True):
            k = target
            for v in members:
                k -= state[v]
            total += k * k
        return total

    def counts(self, state: Sequence[int]) -> list[int]:
        return [sum(state[v] for v in members) for members in self.members]


def landscape(observation: Observation) -> Landscape:
    """Compile a position; raises :class:`InconsistentPositionError` when the mines left cannot even be placed."""
    view, neighbours = observation.view, observation.board.neighbours
    cells = tuple(i for i, v in enumerate(view) if v == COVERED)
    flags = tuple(i for i, v in enumerate(view) if v == FLAGGED)
    mines = observation.mines - len(flags)
    if mines < 0:
        raise InconsistentPositionError(f"{len(flags)} cells are flagged but the board has only {observation.mines} mines")
    if mines > len(cells):
        raise InconsistentPositionError(
            f"{mines} mine(s) are left to place but only {len(cells)} covered unflagged cell(s) remain"
        )
    index = {c: i for i, c in enumerate(cells)}
    targets: list[int] = []
    members: list[tuple[int, ...]] = []
    touches: list[list[int]] = [[] for _ in cells]
    constant = 0
    for cell, value in enumerate(view):
        if value < 0:
            continue
        flagged = sum(1 for n in neighbours[cell] if view[n] == FLAGGED)
        vars_ = tuple(index[n] for n in neighbours[cell] if view[n] == COVERED)
        if not vars_:
            constant += (value - flagged) ** 2
            continue
        for v in vars_:
            touches[v].append(len(targets))
        targets.append(value - flagged)
        members.append(vars_)
    width = observation.board.width
    centres = tuple((c % width + 0.5, c // width + 0.5) for c in cells)
    return Landscape(
        observation, cells, flags, mines, tuple(targets), tuple(members), tuple(tuple(t) for t in touches), constant, centres
    )


def _random_state(land: Landscape, rng: random.Random) -> list[int]:
    state = [0] * len(land.cells)
    for v in rng.sample(range(len(land.cells)), land.mines):
        state[v] = 1
    return state


class _Clock:
    def __init__(self, seconds: float) -> None:
        self.start = time.perf_counter()
        self.deadline = self.start + seconds

    def out(self, iteration: int) -> bool:
        return iteration % _CLOCK_EVERY == 0 and time.perf_counter() >= self.deadline

    def elapsed(self) -> float:
        return time.perf_counter() - self.start


class _Walker:
    """A single layout with incremental penalty updates for moving one mine (shared by HC and SA)."""

    def __init__(self, land: Landscape, state: list[int]) -> None:
        self.land = land
        self.state = state
        self.counts = land.counts(state)
        self.penalty = land.penalty(state)
        self.mines = [v for v, m in enumerate(state) if m]
        self.free = [v for v, m in enumerate(state) if not m]

    def move(self, i: int, j: int) -> int:
        """Move the mine ``self.mines[i]`` to the free cell ``self.free[j]``; returns the penalty change."""
        a, b = self.mines[i], self.free[j]
        targets, counts, touches = self.land.targets, self.counts, self.land.touches
        delta = 0
        for c in touches[a]:
            k = counts[c]
            delta += 2 * (targets[c] - k) + 1
            counts[c] = k - 1
        for c in touches[b]:
            k = counts[c]
            delta += 1 - 2 * (targets[c] - k)
            counts[c] = k + 1
        self.state[a], self.state[b] = 0, 1
        self.mines[i], self.free[j] = b, a
        self.penalty += delta
        return delta

    def undo(self, i: int, j: int, delta: int) -> None:
        """Undo ``move(i, j)`` that changed the penalty by ``delta``."""
        b, a = self.mines[i], self.free[j]
        counts, touches = self.counts, self.land.touches
        for c in touches[a]:
            counts[c] += 1
        for c in touches[b]:
            counts[c] -= 1
        self.state[a], self.state[b] = 1, 0
        self.mines[i], self.free[j] = a, b
        self.penalty -= delta


def _trivial(land: Landscape) -> bool:
    """True when no move exists (no mines to move or no free cell): the only layout is the current one."""
    return land.mines == 0 or land.mines == len(land.cells)


def random_search(land: Landscape, rng: random.Random, budget: int, seconds: float) -> SearchResult:
    """RS: a fresh uniform random layout every iteration; the best one is kept."""
    clock = _Clock(seconds)
    best_state = _random_state(land, rng)
    best = land.penalty(best_state)
    iterations = 1
    while best and iterations < budget and not _trivial(land) and not clock.out(iterations):
        state = _random_state(land, rng)
        p = land.penalty(state)
        iterations += 1
        if p < best:
            best, best_state = p, state
    return SearchResult("rs", land.layout(best_state), best, iterations, clock.elapsed(), best == 0)


def hill_climbing(land: Landscape, rng: random.Random, budget: int, seconds: float) -> SearchResult:
    """HC: move one random mine, keep the move only if the penalty falls; restart after a long run of rejections."""
    clock = _Clock(seconds)
    walker = _Walker(land, _random_state(land, rng))
    best, best_state = walker.penalty, list(walker.state)
    stall_limit = 10 * len(land.cells) + 100
    stall = 0
    iterations = 0
    n_mines, n_free = land.mines, len(land.cells) - land.mines
    while best and iterations < budget and not _trivial(land) and not clock.out(iterations):
        iterations += 1
        i, j = rng.randrange(n_mines), rng.randrange(n_free)
        delta = walker.move(i, j)
        if delta < 0:
            stall = 0
            if walker.penalty < best:
                best, best_state = walker.penalty, list(walker.state)
            continue
        walker.undo(i, j, delta)
        stall += 1
        if stall >= stall_limit:
            walker = _Walker(land, _random_state(land, rng))
            stall = 0
            if walker.penalty < best:
                best, best_state = walker.penalty, list(walker.state)
    return SearchResult("hc", land.layout(best_state), best, iterations, clock.elapsed(), best == 0)


def simulated_annealing(land: Landscape, rng: random.Random, budget: int, seconds: float) -> SearchResult:
    """SA: move one random mine; accept a rise c with probability exp(-c/t); geometric cooling in reheated cycles."""
    clock = _Clock(seconds)
    walker = _Walker(land, _random_state(land, rng))
    best, best_state = walker.penalty, list(walker.state)
    cycle = min(budget, 2000 + 20 * len(land.cells))
    ratio = (SA_T_END / SA_T0) ** (1.0 / cycle)
    t = SA_T0
    iterations = 0
    n_mines, n_free = land.mines, len(land.cells) - land.mines
    while best and iterations < budget and not _trivial(land) and not clock.out(iterations):
        iterations += 1
        t = SA_T0 if iterations % cycle == 0 else t * ratio
        i, j = rng.randrange(n_mines), rng.randrange(n_free)
        delta = walker.move(i, j)
        if delta <= 0 or rng.random() < math.exp(-delta / t):
            if walker.penalty < best:
                best, best_state = walker.penalty, list(walker.state)
            continue
        walker.undo(i, j, delta)
    return SearchResult("sa", land.layout(best_state), best, iterations, clock.elapsed(), best == 0)


def genetic_algorithm(land: Landscape, rng: random.Random, budget: int, seconds: float) -> SearchResult:
    """GA: roulette selection on fitness 1/(1+penalty), line crossover, repair, mutation by moving a mine, elitism.

    A generation is computed at once with numpy (a generator seeded from ``rng``), one row per layout."""
    clock = _Clock(seconds)
    n, mines = len(land.cells), land.mines
    gen = np.random.default_rng(rng.getrandbits(64))
    matrix = np.zeros((n, len(land.targets)))
    for k, members in enumerate(land.members):
        matrix[list(members), k] = 1.0
    targets = np.array(land.targets, dtype=np.float64)
    centres = np.array(land.centres, dtype=np.float64).reshape(n, 2)
    xs, ys = centres[:, 0], centres[:, 1]
    width, height = land.observation.board.width, land.observation.board.height

    def score(layouts: np.ndarray) -> np.ndarray:
        errors = targets - layouts @ matrix
        return (errors * errors).sum(axis=1) + land.constant

    def random_layouts(count: int) -> np.ndarray:
        ranks = gen.random((count, n)).argsort(axis=1).argsort(axis=1)
        return (ranks < mines).astype(np.float64)

    population = random_layouts(GA_POPULATION)
    scores = score(population)
    iterations = GA_POPULATION
    best_index = int(scores.argmin())
    best, best_state = int(scores[best_index]), population[best_index]
    rows = np.arange(GA_POPULATION - GA_ELITE)
    while best and iterations < budget and not _trivial(land) and not clock.out(iterations):
        k = min(GA_POPULATION - GA_ELITE, budget - iterations)
        fitness = 1.0 / (1.0 + scores)
        parents = gen.choice(GA_POPULATION, size=(k, 2), p=fitness / fitness.sum())
        # crossover: a random straight line through a uniform point, at a uniform angle; one side from each parent
        px, py = gen.uniform(0, width, k), gen.uniform(0, height, k)
        angle = gen.uniform(0, math.pi, k)
        dx, dy = np.cos(angle), np.sin(angle)
        side = np.outer(dy, xs) - np.outer(dx, ys) >= (px * dy - py * dx)[:, None]
        child = np.where(side, population[parents[:, 0]], population[parents[:, 1]])
        # repair to the mine total: remove (or add) |excess| random mines (free cells)
        excess = child.sum(axis=1) - mines
        keys = gen.random((k, n))
        keys[np.where(excess[:, None] > 0, child == 0, child == 1)] = 2.0
        ranks = keys.argsort(axis=1).argsort(axis=1)
        child = np.where(ranks < np.abs(excess)[:, None], 1.0 - child, child)
        # mutation: move one random mine to a random free cell
        picks = gen.random((k, n))
        mutate = rows[:k][gen.random(k) < GA_MUTATION]
        mine_pick = np.where(child == 1, picks, -1.0).argmax(axis=1)
        free_pick = np.where(child == 0, picks, -1.0).argmax(axis=1)
        child[mutate, mine_pick[mutate]] = 0.0
        child[mutate, free_pick[mutate]] = 1.0
        child_scores = score(child)
        iterations += k
        i = int(child_scores.argmin())
        if child_scores[i] < best:
            best, best_state = int(child_scores[i]), child[i]
        elite = np.argsort(scores, kind="stable")[:GA_ELITE]
        population = np.concatenate([population[elite], child])
        scores = np.concatenate([scores[elite], child_scores])
        if len(population) < GA_POPULATION:  # the budget ended mid-generation
            break
    state = [int(v) for v in best_state]
    return SearchResult("ga", land.layout(state), land.penalty(state), iterations, clock.elapsed(), best == 0)


SOLVERS: dict[str, Callable[[Landscape, random.Random, int, float], SearchResult]] = {
    "rs": random_search,
    "hc": hill_climbing,
    "sa": simulated_annealing,
    "ga": genetic_algorithm,
}


def search(
    observation: Observation,
    method: str,
    rng: random.Random,
    budget: int = DEFAULT_BUDGET,
    seconds: float = DEFAULT_SECONDS,
) -> SearchResult:
    """Look for a consistent layout with ``method`` (rs, hc, sa, ga) within ``budget`` iterations and ``seconds``."""
    if method not in SOLVERS:
        raise SweeplabError(f"unknown local-search method {method!r}: choose one of {', '.join(SOLVERS)}")
    if budget < 1:
        raise SweeplabError(f"the budget must be at least 1 iteration, not {budget}")
    return SOLVERS[method](landscape(observation), rng, budget, seconds)


def format_layout(observation: Observation, layout: Iterable[int]) -> str:
    """A layout drawn on the position: ``*`` mine, ``.`` safe covered cell, revealed numbers as they are.

    >>> from sweeplab.formats.position import parse_position
    >>> print(format_layout(parse_position("3x1x1\\n1H1\\n"), {1}))
    1*1
    """
    mine = set(layout)
    board = observation.board
    chars = []
    for cell, value in enumerate(observation.view):
        chars.append("*" if cell in mine else (str(value) if value >= 0 else "."))
    return "\n".join("".join(chars[y * board.width : (y + 1) * board.width]) for y in range(board.height))
