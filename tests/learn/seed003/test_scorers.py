"""The trained models as players use them, and their loading (sweeplab.learn.seed003.scorers)."""

import json
import subprocess
import sys

import pytest

from sweeplab.core.game import Game
from sweeplab.core.rules import Rules
from sweeplab.learn.models import ModelError, shipped
from sweeplab.learn.seed003.scorers import ClassifierScorer, DQNScorer, load_scorer


@pytest.mark.parametrize(("kind", "name", "type_"), [("nn", "nn", ClassifierScorer), ("dqn", "dqn", DQNScorer)])
def test_a_shipped_model_loads_once_per_process_and_scores_every_candidate(kind, name, type_):
    scorer = load_scorer(kind, shipped(name))
    assert isinstance(scorer, type_) and scorer.kind == kind
    assert load_scorer(kind, shipped(name)) is scorer  # cached
    game = Game(Rules(9, 9, 10, "safe"), 1)
    game.reveal(40)
    observation = game.observation()
    cells = observation.covered()
    probabilities = dict.fromkeys(cells, 0.1)
    values = scorer.values(observation, cells, probabilities)
    assert values.shape == (len(cells),)
    assert scorer.safety(observation, cells, probabilities, values).shape == (len(cells),)


def test_a_folder_of_another_kind_or_none_is_refused(tmp_path):
    with pytest.raises(ModelError, match="not a model folder"):
        load_scorer("nn", tmp_path)
    with pytest.raises(ModelError, match="holds a 'dqn' model, not 'nn'"):
        load_scorer("nn", shipped("dqn"))
    (tmp_path / "card.json").write_text(json.dumps({"kind": "forest"}))
    with pytest.raises(ModelError, match="unknown model kind 'forest'"):
        load_scorer("forest", tmp_path)


def test_players_load_without_the_trainers():
    """A learned player and its model load without the training modules (and so without PyTorch)."""
    code = (
        "import sys; from sweeplab.strategies import make; make('nn', seed=1); make('dqn', seed=1); "
        "trainers = ('sweeplab.learn.seed003.classifiers', 'sweeplab.learn.seed003.dqn', 'sweeplab.learn.seed003.data', "
        "'torch'); "
        "print(sorted(m for m in trainers if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
