import numpy as np
import pytest

from sweeplab.core.rules import make_rules
from sweeplab.learn.models import read_card
from sweeplab.learn.seed003.classifiers import save_xgboost, scores, train_nn, train_xgboost
from sweeplab.learn.seed003.data import BoardRange, collect
from sweeplab.learn.seed003.network import save_network
from sweeplab.learn.seed003.players import ManhattanPlayer, NNStrategy, XGBoostStrategy
from sweeplab.learn.seed003.scorers import load_nn, load_xgboost
from tests.learn.conftest import beginner_wins

BOARDS = BoardRange((9, 16), (9, 16), (0.12, 0.16))


@pytest.fixture(scope="module")
def data():
    return collect(ManhattanPlayer, 150, seed=5, boards=BOARDS).data


def _constant_log_loss(y):
    rate = np.full(len(y), y.mean())
    return scores(rate, y)["log_loss"]


def test_tiny_xgboost_learns_and_beats_random(data, random_wins, tmp_path):
    booster, card = train_xgboost(data, seed=0, rounds=30)
    train, valid = data.split(0.1)
    assert card["validation"]["rows"] == card["validation_rows"] == len(valid) and card["train_rows"] == len(train)
    assert card["validation"]["log_loss"] < _constant_log_loss(valid.y)  # better than knowing only the mine rate
    save_xgboost(booster, card, tmp_path / "xgb")
    scorer = load_xgboost(tmp_path / "xgb", read_card(tmp_path / "xgb"))
    assert beginner_wins(lambda s: XGBoostStrategy(s, scorer=scorer)) >= random_wins + 50
    again, _ = train_xgboost(data, seed=0, rounds=30)
    assert again.save_raw() == booster.save_raw()  # same seed, same data: the same model, byte for byte


def test_tiny_iterative_network_beats_random_and_retrains_identically(random_wins, tmp_path):
    boards = BoardRange.fixed(make_rules("beginner"))
    network, card = train_nn(2, 60, seed=0, boards=boards, epochs=10)
    assert [e["episode"] for e in card["episodes"]] == [1, 2]
    held = sum(e["validation"]["rows"] for e in card["episodes"])
    assert card["rows"] == sum(e["rows"] for e in card["episodes"]) == card["train_rows"] + card["validation_rows"]
    assert card["validation_rows"] == held > 0  # the held-out rows are not counted as trained on
    assert card["parameters"]["layers"][3:] == [5, 5, 1]  # Table 1: sizeof(x), sizeof(x), 5, 5, 1
    save_network(network, card, tmp_path / "nn")
    scorer = load_nn(tmp_path / "nn", read_card(tmp_path / "nn"))
    assert beginner_wins(lambda s: NNStrategy(s, scorer=scorer)) >= random_wins + 50
    again, _ = train_nn(2, 60, seed=0, boards=boards, epochs=10)
    assert all((a[0] == b[0]).all() and (a[1] == b[1]).all() for a, b in zip(again.layers, network.layers, strict=True))


def test_network_accepts_a_first_batch_from_a_data_file(data):
    _, card = train_nn(1, 10, seed=0, first=data, epochs=1)
    assert card["episodes"][0]["rows"] == len(data) and "games" not in card["episodes"][0]


def test_scores_of_no_rows_are_not_measured_rather_than_nan():
    assert scores(np.array([]), np.array([])) == {"rows": 0, "accuracy": None, "log_loss": None, "mine_rate": None}


def test_train_nn_refuses_zero_episodes_naming_them():
    from sweeplab.core.errors import ArgumentError

    with pytest.raises(ArgumentError, match="episodes must be at least 1, not 0"):
        train_nn(0, 1)


def test_without_drops_features_by_name_pattern_or_window():
    from sweeplab.learn.models import ModelError
    from sweeplab.learn.seed003.classifiers import kept_columns
    from sweeplab.learn.seed003.features import FEATURE_NAMES

    columns, names = kept_columns(["probability", "window"])
    assert "probability" not in names and "width" in names and not any(n.startswith("w-") for n in names)
    assert [FEATURE_NAMES[i] for i in columns] == list(names)
    assert len(kept_columns(["*_flagged"])[1]) == len(FEATURE_NAMES) - 24
    with pytest.raises(ModelError, match="no such feature"):
        kept_columns(["nope"])
    with pytest.raises(ModelError, match="every feature"):
        kept_columns(["*"])


def test_models_trained_without_a_feature_record_it_and_play(data, tmp_path):
    from sweeplab.core.game import Game
    from sweeplab.core.rules import Rules
    from sweeplab.strategies.base import play

    booster, card = train_xgboost(data, seed=0, rounds=5, without=["probability"])
    assert card["without"] == ["probability"] and "probability" not in card["features"]
    assert card["top_feature"] == card["importance"]["features"][0][0] and card["top_feature"] != "probability"
    save_xgboost(booster, card, tmp_path / "x")
    scorer = load_xgboost(tmp_path / "x", read_card(tmp_path / "x"))
    assert len(scorer.columns) == len(card["features"])
    network, ncard = train_nn(1, 10, seed=0, boards=BOARDS, epochs=1, first=data, without=["window"])
    assert ncard["parameters"]["layers"][0] == len(ncard["features"]) == 16
    save_network(network, ncard, tmp_path / "n")
    for strategy in (XGBoostStrategy(1, model=str(tmp_path / "x")), NNStrategy(1, model=str(tmp_path / "n"))):
        game = play(strategy, Game(Rules(16, 16, 40, "safe"), 1))
        assert game.state.value in ("won", "lost")
