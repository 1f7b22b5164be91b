"""``sweeplab learn train``: bad arguments and bad data files are the user's mistake (exit 2), never a bug."""

from click.testing import CliRunner

from sweeplab.cli import main


def test_nn_with_no_episodes_is_refused_naming_the_option(tmp_path):
    result = CliRunner().invoke(main, ["learn", "train", "nn", "--episodes", "0", "--out", str(tmp_path / "m")])
    assert result.exit_code == 2, result.output
    assert "--episodes 0" in result.output and "internal error" not in result.output


def test_replay_is_refused_for_a_model_without_iterative_q_episodes(tmp_path):
    result = CliRunner().invoke(main, ["learn", "train", "nn", "--replay", "--out", str(tmp_path / "m")])
    assert result.exit_code == 2, result.output
    assert "--replay applies to dqn only" in result.output and "internal error" not in result.output


def test_a_data_file_that_is_a_broken_zip_is_refused_naming_it(tmp_path):
    data = tmp_path / "bad.npz"
    data.write_bytes(b"PK\x03\x04 not a zip archive")
    result = CliRunner().invoke(main, ["learn", "train", "xgboost", "--data", str(data), "--out", str(tmp_path / "m")])
    assert result.exit_code == 2, result.output
    assert f"{data}" in result.output and "internal error" not in result.output


def test_a_data_folder_resumes_and_trains_xgboost(tmp_path):
    import json

    import numpy as np

    from sweeplab.learn.seed003.data import Dataset

    runner = CliRunner()
    out = tmp_path / "d"
    args = ["learn", "data", "-n", "6", "--shard-games", "2", "-b", "beginner", "--seed", "3", "-o", str(out)]
    first = runner.invoke(main, [*args, "-j", "2"])
    assert first.exit_code == 0, first.output
    whole = Dataset.load(out)
    again = runner.invoke(main, args)
    assert again.exit_code == 2 and "--resume" in again.output
    # as if the run had been stopped before its last chunk: resume plays only that chunk
    run = json.loads((out / "run.json").read_text())
    (out / "run.json").write_text(json.dumps(dict(run, finished=False)))
    (out / "data.json").unlink()
    (out / "shard-000002.npz").unlink()
    resumed = runner.invoke(main, [*args, "--resume"])
    assert resumed.exit_code == 0, resumed.output
    assert np.array_equal(Dataset.load(out).x, whole.x)
    model = tmp_path / "m"
    trained = runner.invoke(
        main, ["learn", "train", "xgboost", "--data", str(out), "--rounds", "2", "--eval-games", "0", "-o", str(model)]
    )
    assert trained.exit_code == 0, trained.output
    card = json.loads((model / "card.json").read_text())
    assert card["data"]["rows"] == len(whole) and "evaluation" not in card  # --eval-games 0: none
    dqn = runner.invoke(main, ["learn", "train", "dqn", "--data", str(out), "-o", str(tmp_path / "q")])
    assert dqn.exit_code == 2 and "--rows substates" in dqn.output
    npz = runner.invoke(main, [*args[:-2], "-o", str(tmp_path / "x.npz"), "--resume"])
    assert npz.exit_code == 2 and "data folder" in npz.output


def test_substate_rows_train_the_q_network_with_their_alpha(tmp_path):
    import json

    runner = CliRunner()
    out = tmp_path / "q"
    made = runner.invoke(main, ["learn", "data", "-n", "20", "--rows", "substates", "--alpha", "0.1,0,0,0.5", "-o", str(out)])
    assert made.exit_code == 0, made.output
    model = tmp_path / "m"
    args = [
        "learn",
        "train",
        "dqn",
        "--data",
        str(out),
        "--episodes",
        "0",
        "--epochs",
        "1",
        "--eval-games",
        "0",
        "-o",
        str(model),
    ]
    trained = runner.invoke(main, args)
    assert trained.exit_code == 0, trained.output
    card = json.loads((model / "card.json").read_text())
    assert card["parameters"]["alpha_coefficients"] == [0.1, 0.0, 0.0, 0.5] and card["parameters"]["single_pass_games"] == 20
    bad = runner.invoke(main, ["learn", "data", "-n", "2", "--rows", "substates", "--alpha", "1,2", "-o", str(tmp_path / "z")])
    assert bad.exit_code == 2 and "--alpha" in bad.output


def test_a_tiny_training_records_win_rates_on_bench_games_and_draws_them(tmp_path):
    import json

    from sweeplab.bench.session import bench
    from sweeplab.core.rules import make_rules

    model = tmp_path / "m"
    args = ["learn", "train", "nn", "-n", "20", "--episodes", "2", "--epochs", "1", "-b", "beginner", "-j", "1"]
    result = CliRunner().invoke(main, [*args, "--eval-games", "20", "--eval-board", "beginner", "-o", str(model)])
    assert result.exit_code == 0, result.output
    card = json.loads((model / "card.json").read_text())
    evaluation = card["evaluation"]
    assert (evaluation["board"], evaluation["rule"], evaluation["seed"], evaluation["games"]) == ("9x9x10", "safe", 0, 20)
    points = [e["evaluation"] for e in card["episodes"]]
    assert [p["games"] for p in points] == [20, 20] and all(p["won"] == p["outcomes"].count("1") for p in points)
    assert "--eval-games 20 --eval-board beginner" in card["command"]
    # the same games as `sweeplab bench --seed 0 --games 20`: the reference's, and the final model's as its player
    rules = make_rules("beginner")
    for strategy, outcomes in (
        ("dsscsp-manhattan", evaluation["reference"]["outcomes"]),
        (f"nn[model={model}]", points[-1]["outcomes"]),
    ):
        played = bench([strategy], rules, 20, 0).results[strategy]
        assert outcomes == "".join("1" if r.won else "0" for r in played)
    assert "win rate" in result.output and (model / "curve.png").read_bytes()[:4] == b"\x89PNG"


def test_a_bad_evaluation_board_is_refused_naming_the_option(tmp_path):
    result = CliRunner().invoke(main, ["learn", "train", "nn", "--eval-board", "4x4x99", "-o", str(tmp_path / "m")])
    assert result.exit_code == 2 and "--eval-board" in result.output and not (tmp_path / "m").exists()


def test_xgboost_trained_here_is_evaluated_on_worker_processes_without_hanging(tmp_path):
    """The booster is trained in this process (OpenMP threads started) and evaluated on two workers: forked workers
    waited forever in OpenMP's barrier when they loaded it; started by a fork server they finish."""
    import json
    import subprocess
    import sys

    data = tmp_path / "d.npz"
    model = tmp_path / "m"
    cli = [sys.executable, "-m", "sweeplab.cli"]
    made = subprocess.run(
        [*cli, "learn", "data", "-n", "40", "-b", "beginner", "-o", str(data)], capture_output=True, text=True, timeout=120
    )
    assert made.returncode == 0, made.stderr
    train = [
        *cli,
        "learn",
        "train",
        "xgboost",
        "--data",
        str(data),
        "--rounds",
        "3",
        "--eval-games",
        "8",
        "--eval-board",
        "beginner",
    ]
    trained = subprocess.run([*train, "-j", "2", "-o", str(model)], capture_output=True, text=True, timeout=180)
    assert trained.returncode == 0, trained.stderr
    assert json.loads((model / "card.json").read_text())["evaluation"]
