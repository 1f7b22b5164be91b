import pytest

from sweeplab.core.game import Game, GameState
from sweeplab.core.rules import Rules
from sweeplab.learn.models import ModelError, shipped
from sweeplab.strategies import make, names
from sweeplab.strategies.base import StrategyError, play
from sweeplab.strategies.registry import make_spec, options

LEARNED = ["xgboost", "nn", "dqn", "dqn-single"]


@pytest.mark.parametrize("name", LEARNED)
def test_shipped_model_plays_deterministically(name):
    assert name in names() and (shipped(name) / "card.json").exists()
    histories = []
    for _ in range(2):
        game = play(make(name, seed=11), Game(Rules(16, 16, 40, "safe"), 11))
        histories.append((game.state, tuple(game.history)))
    assert histories[0] == histories[1]
    other = play(make(name, seed=12), Game(Rules(16, 16, 40, "safe"), 12))
    assert tuple(other.history) != histories[0][1]


@pytest.mark.parametrize("name", LEARNED)
def test_guesses_carry_the_model_and_an_explanation(name):
    for seed in range(30):
        player = make(name, seed=seed)
        play(player, Game(Rules(30, 16, 99, "safe"), seed))
        guesses = [g for g in player.guesses if g.kind != "first"]
        if guesses:
            g = guesses[0]
            assert g.explanation is not None and g.explanation.figures["candidates"] >= 1
            assert 0.0 <= g.safety <= 1.0
            return
    raise AssertionError("no guess beyond the first in 30 expert games")


def test_model_option_and_clear_errors(tmp_path):
    assert set(options("xgboost")) >= {"model", "explore"}
    same = make_spec(f"nn[model={shipped('nn')}]", seed=3)
    game = play(same, Game(Rules(9, 9, 10), 3))
    assert game.state in (GameState.WON, GameState.LOST)
    with pytest.raises(ModelError, match="not a model folder"):
        make("nn", seed=0, model=str(tmp_path))
    with pytest.raises(ModelError, match="holds a 'dqn' model, not 'nn'"):
        make("nn", seed=0, model=str(shipped("dqn")))
    with pytest.raises(StrategyError, match="explore must be between 0 and 1"):
        make("dqn", seed=0, explore=2.0)


@pytest.mark.parametrize("name", LEARNED)
def test_noise_replaces_the_model_and_nothing_else(name):
    """noise=1: the same certain moves and candidates, the guess from the seeded generator (every learned player
    then plays the same game); the model's own choice differs somewhere."""
    rules = Rules(16, 16, 40, "safe")
    noisy = [make_spec(f"{n}[noise=1]", seed=3) for n in (name, "xgboost")]
    games = [play(p, Game(rules, 3)) for p in noisy]
    assert games[0].history == games[1].history
    assert all("noise" in g.explanation.text for g in noisy[0].guesses if g.kind != "first")
    differs = False
    for seed in range(10):
        a = play(make_spec(f"{name}[noise=1]", seed=seed), Game(rules, seed)).history
        b = play(make(name, seed=seed), Game(rules, seed)).history
        differs |= a != b
    assert differs
    with pytest.raises(StrategyError, match="noise must be 0"):
        make(name, seed=0, noise=2)


@pytest.mark.parametrize("name", ["xgboost", "dqn"])
def test_manhattan_heuristic_takes_the_near_best_cell_nearest_the_border(name):
    """heuristic=manhattan: every guess is within the tolerance of the model's best value and no candidate that close
    lies nearer the border; without it, the guess is the model's best."""
    rules = Rules(16, 16, 40, "safe")
    seen = 0
    for seed in range(6):
        game = Game(rules, seed)
        player = make_spec(f"{name}[heuristic=manhattan]", seed=seed)
        checked: list[tuple[int, int, float]] = []

        def watch(observation, probabilities, checked=checked, player=player):
            cells = sorted(probabilities)
            values = player.scorer.values(observation, cells, probabilities)
            best = float(values.max())
            near = [c for c, v in zip(cells, values, strict=True) if v >= best - player.tolerance - 1e-9]
            checked.append((observation.moves, min(observation.board.edge_distance(c) for c in near), best))

        player.watcher = watch
        play(player, game)
        for guess in player.guesses:
            match = [c for c in checked if c[0] == guess.move]
            if guess.kind == "first" or guess.kind == "random" or not match:
                continue
            _, nearest, _ = match[0]
            assert game.board.edge_distance(guess.cell) == nearest
            seen += 1
    assert seen > 0
    with pytest.raises(StrategyError, match="heuristic must be none or manhattan"):
        make(name, seed=0, heuristic="location")
