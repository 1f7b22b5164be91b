"""An idea for `exact`'s speed, measured and not adopted (stop 20): before each full analysis, a single-point pass over
the numbers near the cells revealed since the last one (a number whose known mines equal it frees its other covered
neighbours; one whose covered neighbours are exactly its missing mines makes them known mines), with the known mines of
the earlier analyses. It plays the same game: the guesses fall on the same positions (every certainly safe cell is
revealed before any guess, and which cells those are does not depend on the order), only the order of the certain
reveals changes.

Run from a checkout with sweeplab installed (C kernel built): ``python benchmarks/engine/performance_single_point_pass.py
[GAMES]``. Plays GAMES expert games (30x16/99, safe, root seed 0; 1,000 by default) with `exact` and with the variant,
twice each, alternately, and prints games per CPU second, wins, analyses per game, and whether every game's guesses
(cell, safety, outcome) were the same.
"""

from __future__ import annotations

import sys
import time

from sweeplab.bench.runner import game_seeds
from sweeplab.core.game import Game, Move
from sweeplab.core.observation import COVERED, Observation
from sweeplab.core.rules import make_rules
from sweeplab.strategies.base import play
from sweeplab.strategies.exact import ExactStrategy


class Counting(ExactStrategy):
    """`exact`, counting its analyses."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.analyses = 0
        analyze = self.analyzer.analyze_patiently

        def counted(observation: Observation):  # type: ignore[no-untyped-def]
            self.analyses += 1
            return analyze(observation)

        self.analyzer.analyze_patiently = counted  # type: ignore[method-assign]


class SinglePointFirst(Counting):
    """`exact` with the single-point pass before each full analysis."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.mines: set[int] = set()
        self.view: tuple[int, ...] | None = None

    def choose(self, observation: Observation) -> Move:
        move = self.next_queued(observation)
        if move is not None:
            return move
        view = observation.view
        if self.view is not None:
            safe = self.single_point(observation, self.view)
            if safe:
                self.view = view
                self.queue(map(Move.reveal, safe))
                return self._queue.popleft()
        self.view = view
        result = self.analyzer.analyze_patiently(observation)
        self.mines.update(result.mines)
        if result.safe:
            self.queue(map(Move.reveal, result.safe))
            return self._queue.popleft()
        return self.pick_guess(observation, result)

    def single_point(self, observation: Observation, before: tuple[int, ...]) -> list[int]:
        view, neighbours, mines = observation.view, observation.board.neighbours, self.mines
        check: set[int] = set()
        for cell, (a, b) in enumerate(zip(before, view, strict=True)):
            if a != b:
                check.add(cell)
                check.update(neighbours[cell])
        safe: dict[int, None] = {}
        grew = True
        while grew:
            grew = False
            for cell in list(check):
                value = view[cell]
                if value <= 0:
                    continue
                covered = [n for n in neighbours[cell] if view[n] == COVERED]
                known = sum(1 for n in covered if n in mines)
                unknown = [n for n in covered if n not in mines]
                if not unknown:
                    continue
                if known == value:
                    safe.update(dict.fromkeys(unknown))
                elif known + len(unknown) == value:
                    mines.update(unknown)
                    grew = True
                    for n in unknown:
                        check.update(neighbours[n])
        return list(safe)


def run(cls: type[Counting], games: int) -> tuple[float, int, float, list[tuple]]:
    rules = make_rules("expert", "safe")
    wins = analyses = 0
    guesses = []
    start = time.process_time()
    for i in range(games):
        game_seed, strategy_seed = game_seeds(0, i)
        player = cls(strategy_seed)
        game = play(player, Game(rules, game_seed))
        wins += game.state.value == "won"
        analyses += player.analyses
        guesses.append(tuple((g.cell, g.safety, g.outcome) for g in player.guesses))
    return games / (time.process_time() - start), wins, analyses / games, guesses


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    seen = {}
    for cls in (Counting, SinglePointFirst, Counting, SinglePointFirst):
        speed, wins, analyses, guesses = run(cls, games)
        seen[cls.__name__] = guesses
        print(f"{cls.__name__}: {speed:.1f} expert games per CPU second, {wins}/{games} won, {analyses:.2f} analyses per game")
    print("the same guesses in every game:", seen["Counting"] == seen["SinglePointFirst"])


if __name__ == "__main__":
    main()
