import json

from click.testing import CliRunner

from sweeplab.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def write(tmp_path, text, name="p.txt"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_grid_and_summary(tmp_path):
    result = run("analyze", write(tmp_path, "5x3x3\n121HH\nHHHHH\nHHHHH\n"))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1] == "100%  0%100%  0% 14%"
    assert "certain safe: (3, 0), (1, 1), (3, 1)" in result.output
    assert "certain mines: (0, 1), (2, 1)" in result.output
    assert "layouts consistent with the position: 7" in result.output


def test_json_and_exact_fractions(tmp_path):
    result = run("analyze", write(tmp_path, "5x3x3\n121HH\nHHHHH\nHHHHH\n"), "--json", "--exact")
    data = json.loads(result.output)
    assert (data["width"], data["height"], data["total_mines"], data["exact"], data["layouts"]) == (5, 3, 3, True, "7")
    assert data["probabilities"][0][:3] == [None, None, None]
    assert data["probabilities"][0][4] == "1/7" and data["probabilities"][1][0] == "1"
    assert data["safe"] == [[3, 0], [1, 1], [3, 1]] and data["mines"] == [[0, 1], [2, 1]]
    result = run("analyze", write(tmp_path, "5x3x3\n121HH\nHHHHH\nHHHHH\n"), "--json")
    assert json.loads(result.output)["probabilities"][0][4] == 1 / 7


def test_craps_shoot_is_reported(tmp_path):
    result = run("analyze", write(tmp_path, "3x2x1\n01H\n01H\n"))
    assert "craps shoot" in result.output and "best (2, 0)" in result.output


def test_inconsistent_exits_2_naming_the_number(tmp_path):
    result = run("analyze", write(tmp_path, "4x2x2\n2111\nHHHH\n"))
    assert result.exit_code == 2
    assert "the 2 at (0, 0) cannot hold" in result.output


def test_bad_file_exits_2(tmp_path):
    result = run("analyze", write(tmp_path, "3x2x1\nHHH\nHH\n"))
    assert result.exit_code == 2 and "line 3" in result.output
    result = run("analyze", str(tmp_path / "missing.txt"))
    assert result.exit_code == 2 and "cannot read" in result.output
