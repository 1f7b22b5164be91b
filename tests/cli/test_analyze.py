"""``sweeplab analyze`` and ``consistency-report``: huge layout counts, and the output place checked before the work."""

import json

from click.testing import CliRunner

from sweeplab.cli import main
from sweeplab.core.numbers import parse_count


def hidden_board(tmp_path, width, height, mines):
    path = tmp_path / "p.txt"
    path.write_text(f"{width}x{height}x{mines}\n" + ("H" * width + "\n") * height)
    return str(path)


def test_a_layout_count_past_python_s_digit_limit_is_printed_in_scientific_notation(tmp_path):
    position = hidden_board(tmp_path, 256, 256, 20000)  # C(65536, 20000): 17,507 digits
    text = CliRunner().invoke(main, ["analyze", position])
    assert text.exit_code == 0, text.output
    assert "layouts consistent with the position: 8.1383e+17506" in text.output
    as_json = CliRunner().invoke(main, ["analyze", position, "--json"])
    assert as_json.exit_code == 0, as_json.output
    layouts = json.loads(as_json.output)["layouts"]
    assert layouts == "8.1383e+17506" and parse_count(layouts).bit_length() > 58_000


def test_a_short_layout_count_keeps_every_digit(tmp_path):
    position = hidden_board(tmp_path, 9, 9, 10)  # C(81, 10) = 1,878,392,407,320
    text = CliRunner().invoke(main, ["analyze", position])
    assert "layouts consistent with the position: 1878392407320" in text.output
    as_json = CliRunner().invoke(main, ["analyze", position, "--json"])
    assert json.loads(as_json.output)["layouts"] == "1878392407320"


def test_consistency_report_refuses_an_unwritable_out_before_any_work(monkeypatch):
    def no_work(**kwargs):
        raise AssertionError("the report was computed before --out was checked")

    monkeypatch.setattr("sweeplab.studies.papers.consistency.comparison_report", no_work)
    result = CliRunner().invoke(main, ["consistency-report", "--out", "/proc/x"])
    assert result.exit_code == 2, result.output
    assert "--out /proc/x: cannot write it" in result.output


def test_consistency_report_creates_the_folder_of_out(tmp_path, monkeypatch):
    monkeypatch.setattr("sweeplab.studies.papers.consistency.comparison_report", lambda **kwargs: "| table |")
    out = tmp_path / "new" / "report.md"
    result = CliRunner().invoke(main, ["consistency-report", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text().endswith("| table |\n")


def test_an_estimate_says_how_more_time_helps(tmp_path, monkeypatch):
    """An estimate whose error is above 0.02 says that more --seconds narrow it; a narrow one does not; counts or
    weights in floating point (error ROUNDING) say so, and that more --seconds may give exact fractions."""
    import sweeplab.analysis as exact
    from sweeplab.analysis.exact.probabilities import ROUNDING

    position = hidden_board(tmp_path, 9, 9, 10)
    real = exact.analyze
    for error, says in (
        (0.3, "±0.3000 (two standard errors; more --seconds narrow it: four times as many roughly halve it)"),
        (0.01, "±0.0100 (two standard errors)\n"),
        (ROUNDING, "counted or weighed in floating point (exact: false): probabilities within about ±1e-12 (rounding)"),
    ):

        def estimated(observation, budget, error=error):
            result = real(observation, budget)
            result.exact, result.error = False, error
            return result

        monkeypatch.setattr(exact, "analyze", estimated)
        text = CliRunner().invoke(main, ["analyze", position])
        assert text.exit_code == 0, text.output
        assert says in text.output


def test_exact_fractions_refused_for_counts_weighed_in_floating_point(tmp_path, monkeypatch):
    import sweeplab.analysis as exact
    from sweeplab.analysis.exact.probabilities import ROUNDING

    position = hidden_board(tmp_path, 9, 9, 10)
    real = exact.analyze

    def rounded(observation, budget):
        result = real(observation, budget)
        result.exact, result.error = False, ROUNDING
        return result

    monkeypatch.setattr(exact, "analyze", rounded)
    text = CliRunner().invoke(main, ["analyze", position, "--exact"])
    assert text.exit_code == 4
    assert "only an answer in floating point, exact up to rounding" in text.output and "give more --seconds" in text.output


def test_a_solved_position_recommends_nothing(tmp_path):
    """Every covered cell a certain mine (all hidden and all mines, or the one cell left): no move to recommend."""
    for text in ("3x3x9\nHHH\nHHH\nHHH\n", "1x1x1\nH\n", "3x1x1\n1H1\n"):
        path = tmp_path / "solved.txt"
        path.write_text(text)
        shown = CliRunner().invoke(main, ["analyze", str(path)])
        assert shown.exit_code == 0, shown.output
        assert "recommended: none (every covered cell is a mine: the position is solved)" in shown.output
        answer = json.loads(CliRunner().invoke(main, ["analyze", str(path), "--json"]).output)
        assert answer["recommended"] is None and len(answer["mines"]) == text.count("H")
    path.write_text("3x1x1\n1HH\n")  # a mine and a safe cell left: the safe one is still to reveal
    answer = json.loads(CliRunner().invoke(main, ["analyze", str(path), "--json"]).output)
    assert answer["recommended"] == {"cell": [2, 0], "safety": 1.0, "kind": "certain"}
