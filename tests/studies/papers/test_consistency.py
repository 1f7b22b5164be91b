from sweeplab.core.rules import Rules
from sweeplab.formats.position import parse_position
from sweeplab.strategies import make
from sweeplab.studies.papers.consistency import compare_methods, comparison_report, stuck_positions

EASY = "5x3x3\n1H1HH\n2HHHH\nHHHHH\n"
IMPOSSIBLE = "3x2x1\n2HH\nHH2\n"  # each 2 needs two mines, the board has one


def test_compare_methods_counts():
    positions = [parse_position(EASY), parse_position(IMPOSSIBLE)]
    rows = compare_methods(positions, budget=300, seconds=1.0, methods=("hc", "sa"))
    assert [(r.method, r.positions, r.found) for r in rows] == [("hc", 2, 1), ("sa", 2, 1)]


def test_stuck_positions_are_real_guesses():
    positions = stuck_positions(4, Rules(9, 9, 10, "safe"), seed=0)
    assert len(positions) == 4
    for obs in positions:
        assert len(obs.revealed()) >= 10
        player = make("single-point", seed=0)
        player.choose(obs)
        assert player.pending_guess is not None  # single-point has no certain move there
    assert positions == stuck_positions(4, Rules(9, 9, 10, "safe"), seed=0)


def test_comparison_report_rows():
    report = comparison_report(count=2, boards=("beginner",), budget=2000, seconds=1.0)
    rows = report.splitlines()[2:]
    assert [r.split(" | ")[1] for r in rows][:4] == ["rs", "hc", "sa", "ga"]
    assert all(r.startswith("| beginner (2) |") for r in rows)


def test_exact_row_decides_every_position():
    positions = [parse_position(EASY), parse_position(IMPOSSIBLE)]
    (row,) = compare_methods(positions, methods=("exact",))
    assert (row.method, row.positions, row.found, row.median_iterations) == ("exact", 2, 1, None)


def test_consistency_report_command(tmp_path):
    from click.testing import CliRunner

    from sweeplab.cli import main

    out = tmp_path / "report.md"
    result = CliRunner().invoke(
        main, ["consistency-report", "--count", "1", "--budget", "500", "--seconds", "0.5", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert text.startswith("<!-- produced by: sweeplab consistency-report --count 1") and "| expert (1) | exact | 1/1 |" in text
