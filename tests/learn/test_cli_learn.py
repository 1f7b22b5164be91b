import json

from click.testing import CliRunner

from sweeplab.bench.session import bench
from sweeplab.cli import main
from sweeplab.core.rules import make_rules
from sweeplab.learn.seed003.data import Dataset
from sweeplab.learn.seed003.features import FEATURE_NAMES

EVAL = ["--eval-games", "12", "--eval-board", "beginner", "-j", "1"]


def test_data_then_train_xgboost(tmp_path):
    runner = CliRunner()
    out = tmp_path / "d.npz"
    result = runner.invoke(main, ["learn", "data", "--games", "30", "--out", str(out), "--seed", "4", "--board", "beginner"])
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "d.npz.json").read_text())
    data = Dataset.load(out)
    assert manifest["rows"] == len(data) > 0 and manifest["seed"] == 4 and manifest["player"] == "dsscsp-manhattan"
    assert manifest["boards"]["widths"] == [9, 9] and data.x.shape[1] == len(FEATURE_NAMES)
    model = tmp_path / "m"
    result = runner.invoke(main, ["learn", "train", "xgboost", "--data", str(out), "--rounds", "5", "--out", str(model), *EVAL])
    assert result.exit_code == 0, result.output
    card = json.loads((model / "card.json").read_text())
    assert card["kind"] == "xgboost" and card["data"]["rows"] == len(data)
    assert {"accuracy", "log_loss"} <= set(card["validation"]) and "cpu" in card["training_seconds"]
    assert card["command"].startswith("sweeplab learn train xgboost")
    assert [p["round"] for p in card["curve"]] == [1, 2, 3, 4, 5] and (model / "curve.png").stat().st_size > 0
    # the win rate at round 5 (the whole model) on bench's games 0..11 of seed 0, and the reference's on them
    (point,) = card["evaluation"]["rounds"]
    assert point["round"] == 5 and point["games"] == 12 and len(card["evaluation"]["reference"]["outcomes"]) == 12
    report = bench([f"xgboost[model={model}]"], make_rules("beginner"), 12, 0)
    assert point["outcomes"] == "".join("1" if r.won else "0" for r in report.results[f"xgboost[model={model}]"])
    play = runner.invoke(main, ["play", "--strategy", f"xgboost[model={model}]", "--board", "beginner", "--seed", "1"])
    assert play.exit_code == 0, play.output


def test_bad_input_exits_2_with_a_reason(tmp_path):
    runner = CliRunner()
    bad = runner.invoke(main, ["learn", "data", "--games", "3", "--out", str(tmp_path / "x.npz"), "--densities", "0.3-0.1"])
    assert bad.exit_code == 2 and "high end is below the low end" in bad.output
    missing = runner.invoke(
        main, ["learn", "train", "xgboost", "--data", str(tmp_path / "none.npz"), "--out", str(tmp_path / "m")]
    )
    assert missing.exit_code == 2 and "no such data file" in missing.output
    (tmp_path / "junk.npz").write_text("not a data file")
    junk = runner.invoke(main, ["learn", "train", "xgboost", "--data", str(tmp_path / "junk.npz"), "--out", str(tmp_path / "m")])
    assert junk.exit_code == 2 and "not a sweeplab data file" in junk.output
    dqn = runner.invoke(main, ["learn", "train", "dqn", "--data", str(tmp_path / "junk.npz"), "--out", str(tmp_path / "m")])
    assert dqn.exit_code == 2 and "not a sweeplab data file" in dqn.output


def test_strategies_lists_the_learned_players():
    result = CliRunner().invoke(main, ["strategies"])
    assert result.exit_code == 0
    for name in ("xgboost", "nn", "dqn"):
        assert any(line.startswith(name + " ") for line in result.output.splitlines())


def test_any_integer_is_a_seed_and_outputs_are_checked_first(tmp_path):
    """A negative or huge --seed works as everywhere else; an --out that cannot hold the data is refused
    before a game is played; games that never guessed leave no rows, said in words."""
    runner = CliRunner()
    for seed in ["-1", "-" + "1" * 23, "1" * 23]:
        out = tmp_path / f"d{len(seed)}{seed[0]}.npz"
        result = runner.invoke(main, ["learn", "data", "--games", "3", "--out", str(out), "--seed", seed, "-b", "beginner"])
        assert result.exit_code == 0, result.output
        assert json.loads((tmp_path / f"{out.name}.json").read_text())["seed"] == int(seed)
    plus = runner.invoke(
        main, ["learn", "data", "--games", "3", "--out", str(tmp_path / "e.npz"), "--seed", "1", "-b", "beginner"]
    )
    assert plus.exit_code == 0, plus.output
    minus, one = Dataset.load(tmp_path / "d2-.npz").x, Dataset.load(tmp_path / "e.npz").x
    assert minus.shape != one.shape or not (minus == one).all()  # -1 and 1 are different seeds
    device = runner.invoke(main, ["learn", "data", "--games", "3", "--out", "/dev/null"])
    assert device.exit_code == 2 and "not a regular file" in device.output
    empty = runner.invoke(
        main,
        ["learn", "train", "nn", "--games", "1", "--episodes", "1", "--epochs", "1", "-b", "3x3x0", "--out", str(tmp_path / "m")],
    )
    assert empty.exit_code == 2 and "no candidate cells were recorded" in empty.output
