from sweeplab.bench.engine import collect_positions, games_per_second, time_positions
from sweeplab.core.rules import Rules
from tests.analysis.compiled import needs_kernel


def test_engine_benchmark_pieces_run_on_a_small_sample():
    rules = Rules(16, 16, 40, "safe")
    positions, games = collect_positions(rules, 30, seed=1)
    assert len(positions) == 30 and games >= 1
    times = time_positions(positions)
    assert times.positions == 30 and times.exact == 30
    assert 0 < times.median_ms <= times.p99_ms <= times.worst_ms
    rate, wins = games_per_second(rules, 3, seed=1)
    assert rate > 0 and 0 <= wins <= 3


@needs_kernel
def test_bench_engine_command():
    from click.testing import CliRunner

    from sweeplab.cli import main

    result = CliRunner().invoke(main, ["bench-engine", "--positions", "20", "--games", "2", "--engine", "both"])
    assert result.exit_code == 0, result.output
    assert result.output.count("exact 20/20") == 2 and "exact strategy (pure Python)" in result.output
