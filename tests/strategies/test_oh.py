"""The OH player (UCT over sampled consistent layouts, optimistic horizon): its contract, its sampler, its options."""

import random

import pytest

from sweeplab.analysis import Analyzer
from sweeplab.core.errors import SweeplabError
from sweeplab.core.game import Game, GameState
from sweeplab.core.observation import COVERED
from sweeplab.core.rules import Rules
from sweeplab.strategies.base import StrategyError, play, play_move
from sweeplab.strategies.oh import LayoutSampler, OHStrategy, open_cells
from sweeplab.strategies.registry import checked_spec, get, make_spec, parse_spec

BEGINNER = Rules(9, 9, 10, "safe")


def guess_positions(games: int = 12):
    """Positions of beginner games (played by exact) where a guess is needed, with their analysis."""
    analyzer = Analyzer()
    found = []
    for seed in range(games):
        game = Game(BEGINNER, seed=seed)
        player = make_spec("exact", seed=seed)
        while game.state is GameState.PLAYING:
            observation = game.observation()
            if not observation.is_start():
                result = analyzer.analyze(observation)
                if not result.safe:
                    found.append((observation, result))
            play_move(player, game)
    return found


def test_registered_with_its_source():
    cls = get("oh")
    assert cls is OHStrategy
    assert "Buffet et al. 2012" in cls.source and "seed 003 reference [5]" in cls.source


def test_never_opens_a_proved_mine_and_plays_certain_safes_without_guessing():
    analyzer = Analyzer()
    for seed in range(6):
        game = Game(BEGINNER, seed=seed)
        player = OHStrategy(seed=seed, sims=40)
        while game.state is GameState.PLAYING:
            observation = game.observation()
            result = None if observation.is_start() else analyzer.analyze(observation)
            move, guess = play_move(player, game)
            if result is None:
                continue
            assert move.kind == "reveal"
            assert move.cell not in result.mines, f"seed {seed}: opened a proved mine"
            if result.safe:
                assert move.cell in result.safe and guess is None, f"seed {seed}: guessed with a certain cell known"
            else:
                assert guess is not None and guess.safety == pytest.approx(1 - result.probability(move.cell))


def test_the_same_seed_plays_the_same_game():
    for seed in (3, 7):
        runs = []
        for _ in range(2):
            player = OHStrategy(seed=seed, sims=60)
            game = play(player, Game(BEGINNER, seed=seed))
            runs.append((game.history, game.state, [(g.cell, g.safety) for g in player.guesses]))
        assert runs[0] == runs[1]


def test_wins_beginner_games():
    wins = sum(play(OHStrategy(seed=s, sims=40), Game(BEGINNER, seed=s)).state is GameState.WON for s in range(12))
    assert wins >= 7  # exact wins about 9 in 10 of these


def test_the_guess_is_one_of_the_safest_cells_and_says_why():
    observation, result = guess_positions(8)[0]
    player = OHStrategy(seed=1, sims=50, tolerance=0.05)
    move = player.choose(observation)
    p0, _ = result.lowest()
    assert result.probability(move.cell) <= p0 + 0.05 + 1e-9
    explanation = player.pending_guess.explanation
    assert explanation is not None
    assert explanation.figures["cell"] == observation.board.xy(move.cell)
    if len(explanation.figures["candidates"]) > 1:
        assert "UCT over 50 sampled layouts" in explanation.text
        assert sum(row["visits"] for row in explanation.figures["candidates"]) == 50


def test_the_sampler_counts_the_engine_s_layouts_and_draws_only_consistent_ones():
    rng = random.Random(0)
    for observation, result in guess_positions(6)[:4]:
        sampler = LayoutSampler(result)
        assert sampler.layouts == result.layouts
        frequency = [0] * observation.board.cells
        draws = 1500
        for _ in range(draws):
            mines = sampler.draw(rng)
            assert sum(mines) == observation.mines
            for cell, value in enumerate(observation.view):
                if value >= 0:
                    assert not mines[cell]
                    assert value == sum(mines[n] for n in observation.board.neighbours[cell])
            for cell in range(observation.board.cells):
                frequency[cell] += mines[cell]
        for cell, p in result.covered():
            assert frequency[cell] / draws == pytest.approx(p, abs=0.06), f"cell {cell}"


def test_open_cells_flood_fills_zeros_as_the_game_does():
    game = Game(BEGINNER, seed=5)
    game.reveal(0)
    mines = bytearray(game.rules.board.cells)
    for cell in game.mine_cells():
        mines[cell] = 1
    view = [COVERED] * BEGINNER.board.cells
    open_cells(game.observation(), view, mines, (0,))
    assert tuple(view) == game.observation().view


@pytest.mark.parametrize(
    "spec",
    ["oh[sims=0]", "oh[depth=5]", "oh[width=0]", "oh[explore=-1]", "oh[tolerance=1.5]", "oh[sims=2.5]", "oh[nope=1]"],
)
def test_bad_options_are_refused_with_a_message_naming_them(spec):
    key = spec[3:].split("=")[0]
    with pytest.raises(SweeplabError, match=key):
        checked_spec(spec)


def test_options_are_read_from_a_spec():
    assert parse_spec("oh[sims=500,depth=1]") == ("oh", {"sims": 500, "depth": 1})
    player = make_spec("oh[sims=500,depth=1,explore=0.2]", seed=0)
    assert (player.sims, player.depth, player.explore) == (500, 1, 0.2)
    with pytest.raises(StrategyError, match="sims"):
        OHStrategy(sims=True)
