import json

import pytest

from sweeplab.bench.executors import LocalExecutor
from sweeplab.bench.session import bench
from sweeplab.core.rules import make_rules
from sweeplab.learn.models import shipped
from sweeplab.learn.seed003.data import BoardRange
from sweeplab.learn.seed003.dqn import train_dqn
from sweeplab.learn.seed003.scorers import load_scorer
from sweeplab.learn.seed003.winrates import REFERENCE, EvalSet, eval_rounds, summary_line

BEGINNER = make_rules("beginner")


def bench_outcomes(strategy, rules, games):
    """Game by game, what `sweeplab bench --strategy STRATEGY --seed 0 --games GAMES` records: "1" won, "0" lost."""
    report = bench([strategy], rules, games, 0)
    return "".join("1" if r.won else "0" for r in report.results[strategy])


def test_points_are_bench_games_0_to_n_of_seed_0_paired_with_the_reference():
    evals = EvalSet(BEGINNER, 20)
    point = evals(load_scorer("nn", shipped("nn")), 1)
    reference = evals.reference
    assert reference["player"] == REFERENCE and reference["outcomes"] == bench_outcomes(REFERENCE, BEGINNER, 20)
    assert point["outcomes"] == bench_outcomes(f"nn[model={shipped('nn')}]", BEGINNER, 20)
    assert point["games"] == 20 and point["won"] == point["outcomes"].count("1")
    assert point["win_rate"] == point["won"] / 20 and point["sem"] > 0
    mine, theirs = point["outcomes"], reference["outcomes"]
    assert point["vs_reference"]["difference"] == pytest.approx((mine.count("1") - theirs.count("1")) / 20)
    assert "on dsscsp-manhattan" in summary_line(point)
    manifest = evals.manifest()
    assert (manifest["board"], manifest["rule"], manifest["seed"], manifest["games"]) == ("9x9x10", "safe", 0, 20)
    assert manifest["reference"] is reference and "--seed 0 --games 20" in manifest["bench"]


def test_the_workers_give_the_same_points():
    with LocalExecutor(2) as ex:
        spread = EvalSet(BEGINNER, 12, executor=ex)
        assert spread.play(REFERENCE) == EvalSet(BEGINNER, 12).play(REFERENCE)


def test_xgboost_is_evaluated_at_doubling_rounds_and_the_last():
    assert eval_rounds(200) == [25, 50, 100, 200] and eval_rounds(25) == [25] and eval_rounds(1) == [1]


def test_each_q_learning_episode_has_its_point_and_no_nan():
    boards = BoardRange.fixed(BEGINNER)
    evals = EvalSet(BEGINNER, 10)
    _, card = train_dqn(1, episodes=1, seed=0, boards=boards, coefficients=(0.1, 0, 0, 0), epochs=1, evaluate=evals)
    points = [e["evaluation"] for e in card["episodes"]]
    assert [p["games"] for p in points] == [10, 10] and all(len(p["outcomes"]) == 10 for p in points)
    assert evals.reference is not None and evals.reference["outcomes"] == bench_outcomes(REFERENCE, BEGINNER, 10)
    one = EvalSet(BEGINNER, 1)
    one.play_reference()
    assert one.play(REFERENCE)["vs_reference"] == {"difference": 0.0, "se": None}  # one game: no SE, and no NaN
    assert "NaN" not in json.dumps(card)


def test_evaluating_does_not_change_the_trained_network():
    from sweeplab.learn.seed003.classifiers import train_nn

    boards = BoardRange.fixed(BEGINNER)
    plain, _ = train_nn(2, 20, seed=0, boards=boards, epochs=1)
    evaluated, card = train_nn(2, 20, seed=0, boards=boards, epochs=1, evaluate=EvalSet(BEGINNER, 8))
    assert all((a[0] == b[0]).all() and (a[1] == b[1]).all() for a, b in zip(plain.layers, evaluated.layers, strict=True))
    assert [e["evaluation"]["games"] for e in card["episodes"]] == [8, 8]
