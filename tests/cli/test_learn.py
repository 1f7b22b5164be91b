"""``sweeplab learn train``: bad arguments and bad data files are the user's mistake (exit 2), never a bug."""

from click.testing import CliRunner

from sweeplab.cli import main


def test_nn_with_no_episodes_is_refused_naming_the_option(tmp_path):
    result = CliRunner().invoke(main, ["learn", "train", "nn", "--episodes", "0", "--out", str(tmp_path / "m")])
    assert result.exit_code == 2, result.output
    assert "--episodes 0" in result.output and "internal error" not in result.output


def test_a_data_file_that_is_a_broken_zip_is_refused_naming_it(tmp_path):
    data = tmp_path / "bad.npz"
    data.write_bytes(b"PK\x03\x04 not a zip archive")
    result = CliRunner().invoke(main, ["learn", "train", "xgboost", "--data", str(data), "--out", str(tmp_path / "m")])
    assert result.exit_code == 2, result.output
    assert f"{data}" in result.output and "internal error" not in result.output


def test_a_data_folder_resumes_and_trains_xgboost(tmp_path):
    import json

    import numpy as np

    from sweeplab.learn.data import Dataset

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
    trained = runner.invoke(main, ["learn", "train", "xgboost", "--data", str(out), "--rounds", "2", "-o", str(model)])
    assert trained.exit_code == 0, trained.output
    assert json.loads((model / "card.json").read_text())["data"]["rows"] == len(whole)
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
    args = ["learn", "train", "dqn", "--data", str(out), "--episodes", "0", "--epochs", "1", "-o", str(model)]
    trained = runner.invoke(main, args)
    assert trained.exit_code == 0, trained.output
    card = json.loads((model / "card.json").read_text())
    assert card["parameters"]["alpha_coefficients"] == [0.1, 0.0, 0.0, 0.5] and card["parameters"]["single_pass_games"] == 20
    bad = runner.invoke(main, ["learn", "data", "-n", "2", "--rows", "substates", "--alpha", "1,2", "-o", str(tmp_path / "z")])
    assert bad.exit_code == 2 and "--alpha" in bad.output
