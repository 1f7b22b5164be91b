"""``sweeplab optimal``: the --policy file's place is checked before the search."""

from click.testing import CliRunner

from sweeplab.cli import main


def test_a_policy_file_that_cannot_be_written_is_refused_before_the_search():
    result = CliRunner().invoke(main, ["optimal", "-b", "3x3x2", "--policy", "/proc/x/y"])
    assert result.exit_code == 2, result.output
    assert "--policy /proc/x/y: cannot create the folder /proc/x" in result.output
    assert "states searched" not in result.output


def test_a_policy_file_in_a_new_folder_is_written(tmp_path):
    policy = tmp_path / "new" / "policy.json"
    result = CliRunner().invoke(main, ["optimal", "-b", "3x3x2", "--policy", str(policy)])
    assert result.exit_code == 0, result.output
    assert policy.read_text().startswith("{")
