import pytest

from sweeplab.learn.seed003.curves import curve_points, plot_curves, win_rate_points


def _entry(epoch, loss, accuracy):
    scores = {"rows": 10, "log_loss": loss, "accuracy": accuracy, "mine_rate": 0.2}
    return {"epoch": epoch, "train": scores, "validation": dict(scores, log_loss=loss + 0.1)}


NN = {
    "kind": "nn",
    "version": "test",
    "episodes": [
        {"episode": 1, "curve": [_entry(0, 0.7, 0.5), _entry(1, 0.6, 0.6), _entry(2, 0.5, 0.7)]},
        {"episode": 2, "curve": [_entry(0, 0.55, 0.7), _entry(1, 0.45, 0.8)]},
    ],
}


def test_episodes_follow_each_other_on_one_axis():
    points = curve_points(NN)
    assert [(p["step"], p["episode"]) for p in points] == [(0, 1), (1, 1), (2, 1), (2, 2), (3, 2)]
    assert points[-1]["validation_loss"] == pytest.approx(0.55) and points[-1]["train_accuracy"] == 0.8


def test_xgboost_curve_is_per_round_and_old_cards_have_none():
    card = {"kind": "xgboost", "curve": [{"round": 1, **_entry(0, 0.6, 0.7)}, {"round": 10, **_entry(0, 0.4, 0.8)}]}
    assert [p["step"] for p in curve_points(card)] == [1, 10]
    assert curve_points({"kind": "dqn", "episodes": [{"episode": 0}]}) == []
    with pytest.raises(ValueError, match="no learning curve"):
        curve_points({"kind": "random"})


def test_plot_writes_a_png(tmp_path):
    path = plot_curves(NN, tmp_path / "c" / "curve.png")
    assert path is not None and path.read_bytes()[:4] == b"\x89PNG"
    assert plot_curves({"kind": "nn", "episodes": []}, tmp_path / "none.png") is None
    assert not (tmp_path / "none.png").exists()


def _point(won, games=20):
    return {"games": games, "won": won, "win_rate": won / games, "sem": 0.1, "outcomes": "1" * won + "0" * (games - won)}


def test_win_rates_per_episode_or_round_are_listed_and_drawn(tmp_path):
    evaluated = dict(NN, episodes=[dict(e, evaluation=_point(10 + i)) for i, e in enumerate(NN["episodes"])])
    evaluated["evaluation"] = {
        "board": "16x16x40",
        "rule": "safe",
        "seed": 0,
        "games": 20,
        "reference": dict(_point(13), player="x"),
    }
    assert [(p["step"], p["won"]) for p in win_rate_points(evaluated)] == [(1, 10), (2, 11)]
    xgb = {"kind": "xgboost", "evaluation": {"rounds": [{"round": 25, **_point(9)}, {"round": 50, **_point(12)}]}}
    assert [(p["step"], p["win_rate"]) for p in win_rate_points(xgb)] == [(25, 0.45), (50, 0.6)]
    assert win_rate_points(NN) == [] and win_rate_points({"kind": "xgboost", "curve": []}) == []
    import matplotlib.image

    wide = matplotlib.image.imread(plot_curves(evaluated, tmp_path / "three.png"))
    narrow = matplotlib.image.imread(plot_curves(NN, tmp_path / "two.png"))
    assert wide.shape[1] > narrow.shape[1] * 1.4  # a third panel: the win rates
