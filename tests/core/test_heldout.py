"""The split of root seeds: held-out seeds are refused by every path that trains, evaluates during training or tunes."""

import pytest
from click.testing import CliRunner

from sweeplab.core.heldout import EVALUATION_SEED, HELD_OUT_SEEDS, VERDICT_SEED, HeldOutSeedError, development_seed


def test_the_verdict_seed_is_held_out_and_the_evaluation_seed_is_not():
    assert VERDICT_SEED in HELD_OUT_SEEDS
    assert EVALUATION_SEED not in HELD_OUT_SEEDS
    assert development_seed(EVALUATION_SEED, "x") == EVALUATION_SEED
    with pytest.raises(HeldOutSeedError, match="held out"):
        development_seed(HELD_OUT_SEEDS[-1], "x")


def test_training_data_cannot_be_dealt_from_a_held_out_seed():
    pytest.importorskip("numpy")
    from sweeplab.learn.seed003.data import BoardRange, deals

    assert next(deals(EVALUATION_SEED, 1, BoardRange())).index == 0
    with pytest.raises(HeldOutSeedError):
        next(deals(VERDICT_SEED, 1, BoardRange()))


def test_a_model_cannot_be_evaluated_on_held_out_games_while_it_trains():
    pytest.importorskip("numpy")
    from sweeplab.core.rules import make_rules
    from sweeplab.learn.seed003.winrates import EvalSet

    assert EvalSet(make_rules("beginner", "safe"), 1).seed == EVALUATION_SEED
    with pytest.raises(HeldOutSeedError):
        EvalSet(make_rules("beginner", "safe"), 1, seed=VERDICT_SEED)


@pytest.mark.parametrize(
    "args",
    [
        ["learn", "data", "-n", "1"],
        ["learn", "train", "xgboost", "--games", "1"],
        ["learn", "train", "dqn", "--games", "1"],
        ["learn", "compare", "--positions", "1"],
        ["learn", "neural", "data", "-n", "1"],
        ["learn", "neural", "train", "--data", "."],
    ],
)
def test_the_learn_commands_refuse_a_held_out_seed_naming_it(tmp_path, args):
    pytest.importorskip("numpy")
    from sweeplab.cli import main

    result = CliRunner().invoke(main, [*args, "--seed", str(VERDICT_SEED), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert "held out" in result.output and "--seed" in result.output
    assert not (tmp_path / "out").exists()
