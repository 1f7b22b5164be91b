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
