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
    assert lines[0].split() == ["0", "1", "2", "3", "4"]  # column labels (x)
    assert lines[1].split() == ["0", "1", "2", "1", "0%", "14%"]  # row label (y), then the cells
    assert lines[2] == "1 100%   0% 100%   0%  14%"  # cells never run together
    assert "recommended: reveal (3, 0) (certainly safe)" in result.output
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
    assert "recommended: reveal (2, 0) (educated guess, safe with p = 0.5000)" in result.output


def test_exact_in_text_lists_fractions_by_probability(tmp_path):
    result = run("analyze", write(tmp_path, "5x3x3\n121HH\nHHHHH\nHHHHH\n"), "--exact")
    assert result.exit_code == 0, result.output
    text = result.output
    assert "exact mine probabilities:" in text
    assert "  0: (3, 0), (1, 1), (3, 1)" in text
    assert "  1/7: (4, 0), (4, 1), (0, 2)" in text and "  1: (0, 1), (2, 1)" in text


def test_nearly_certain_cells_are_not_shown_as_certain(tmp_path):
    # one mine among 200 unconstrained cells: 0.5%, shown as <1%, not as a certain 0%
    text = "20x11x1\n" + "0" * 20 + "\n" + "\n".join(["H" * 20] * 10) + "\n"
    result = run("analyze", write(tmp_path, text))
    assert result.exit_code == 0, result.output
    assert "<1%" in result.output and "  0%" not in result.output.splitlines()[3]


def test_json_recommends_the_exact_strategys_move(tmp_path):
    result = run("analyze", write(tmp_path, "3x2x1\n01H\n01H\n"), "--json")
    move = json.loads(result.output)["recommended"]
    assert move == {"cell": [2, 0], "safety": 0.5, "kind": "educated"}


def test_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes("\ufeff5x3x3\n121HH\nHHHHH\nHHHHH\n".encode())
    result = run("analyze", str(path))
    assert result.exit_code == 0, result.output
    assert "layouts consistent with the position: 7" in result.output


def test_seconds_must_be_finite(tmp_path):
    path = write(tmp_path, "3x2x1\n01H\n01H\n")
    for bad in ("nan", "inf"):
        result = run("analyze", path, "--seconds", bad)
        assert result.exit_code == 2 and "--seconds" in result.output


def test_inconsistent_exits_3_naming_the_number(tmp_path):
    result = run("analyze", write(tmp_path, "4x2x2\n2111\nHHHH\n"))
    assert result.exit_code == 3
    assert "the 2 at (0, 0) cannot hold" in result.output


def test_bad_file_exits_2(tmp_path):
    result = run("analyze", write(tmp_path, "3x2x1\nHHH\nHH\n"))
    assert result.exit_code == 2 and "line 3" in result.output
    result = run("analyze", str(tmp_path / "missing.txt"))
    assert result.exit_code == 2 and "cannot read" in result.output
