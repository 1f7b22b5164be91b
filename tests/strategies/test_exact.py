"""The exact strategy's single-point pass changes only the order of its certain reveals, never a guess."""

import pytest

import sweeplab.strategies.exact as exact
from sweeplab.bench.runner import game_seeds
from sweeplab.core.game import Game
from sweeplab.core.rules import make_rules
from sweeplab.strategies.base import play


@pytest.mark.parametrize("preset,rule", [("expert", "safe"), ("intermediate", "zero")])
def test_the_pass_leaves_every_guess_and_outcome_as_it_was(monkeypatch, preset, rule):
    rules = make_rules(preset, rule)
    analyses = [0]
    real_analysis = exact.Analyzer.analyze_patiently

    def counting(self, observation):
        analyses[0] += 1
        return real_analysis(self, observation)

    monkeypatch.setattr(exact.Analyzer, "analyze_patiently", counting)
    runs, counts = {}, {}
    for with_pass in (False, True):
        monkeypatch.setattr(exact.ExactStrategy, "single_point", with_pass)
        analyses[0] = 0
        seen = []
        for i in range(40):
            game_seed, strategy_seed = game_seeds(3, i)
            player = exact.ExactStrategy(strategy_seed)
            game = play(player, Game(rules, game_seed))
            seen.append((game.state, [(g.cell, g.kind, g.safety, g.outcome) for g in player.guesses]))
        runs[with_pass], counts[with_pass] = seen, analyses[0]
    assert runs[True] == runs[False]
    assert sum(len(guesses) for _, guesses in runs[True]) > 40
    assert counts[True] < 0.7 * counts[False]  # and it saves analyses: more than half of them on expert
