"""The play loop's guess records: a first reveal the rule keeps mine-free is certain, not a guess."""

from sweeplab.core.game import Game
from sweeplab.core.rules import Rules
from sweeplab.strategies.base import play_move
from sweeplab.strategies.registry import make


def test_a_protected_first_reveal_is_no_guess_but_keeps_its_record_marked():
    for name in ("exact", "equation", "cspstrategy", "single-point", "best"):
        strategy = make(name, seed=0)
        game = Game(Rules(30, 16, 99, "safe"), seed=5)
        strategy.begin(game.rules)
        _, recorded = play_move(strategy, game)
        assert recorded is None, name
        for guess in strategy.guesses:  # kept for the counts that skip it, marked certain
            assert guess.protected and guess.safety == 1.0 and guess.move == 0, name


def test_an_unsafe_first_reveal_is_still_a_guess():
    strategy = make("exact", seed=0)
    game = Game(Rules(30, 16, 99, "unsafe"), seed=5)
    _, recorded = play_move(strategy, game)
    assert recorded is not None and recorded.kind == "first" and not recorded.protected
    assert abs(recorded.safety - (1 - 99 / 480)) < 1e-12


def test_a_lazy_explanation_is_built_once_when_read_and_pickles_as_a_plain_one():
    import pickle

    from sweeplab.strategies.base import Explanation, LazyExplanation

    built = []

    def build():
        built.append(1)
        return Explanation("why", {"safety": 0.5})

    lazy = LazyExplanation(build)
    assert built == []  # a benchmark that never reads it pays nothing
    assert lazy.to_dict() == {"text": "why", "figures": {"safety": 0.5}} and str(lazy) == "why"
    assert lazy == Explanation("why", {"safety": 0.5}) and built == [1]
    copy = pickle.loads(pickle.dumps(lazy))
    assert type(copy) is Explanation and copy == lazy


def test_play_drains_a_queue_first_strategy_s_queue_with_the_same_moves_and_guesses():
    from sweeplab.strategies.base import play
    from sweeplab.strategies.exact import ExactStrategy

    class Asked(ExactStrategy):  # every move through choose, as before the loop played queued moves itself
        queue_first = False

    seen = []
    for strategy in (ExactStrategy, Asked):
        record = []
        for seed in range(6):
            player = strategy(seed)
            game = play(player, Game(Rules(16, 16, 40, "safe"), seed=seed), on_move=lambda g, m, record=record: record.append(m))
            record.append((tuple(game.history), game.state, [(g.cell, g.kind, g.safety, g.move) for g in player.guesses]))
        seen.append(record)
    assert seen[0] == seen[1]
    assert ExactStrategy.queue_first and make("best", seed=0).queue_first and not make("equation", seed=0).queue_first


def test_a_queue_first_strategy_still_stops_at_the_move_limit():
    import pytest

    from sweeplab.strategies.base import StrategyError, play

    with pytest.raises(StrategyError, match="moves without finishing"):
        play(make("exact", seed=0), Game(Rules(30, 16, 99, "safe"), seed=1), max_moves=3)
