"""An outside program's CPU time: read from its process CPU-time clock while it runs, handed out once per game, and
counted the same by ``bench`` (its games.csv column and summary), ``arena`` (the leaderboard) and ``evaluate``."""

import csv
import json
import sys
import time

from click.testing import CliRunner

from sweeplab.bench.evaluate import evaluate
from sweeplab.bench.runner import play_one
from sweeplab.cli import main
from sweeplab.core.rules import Rules
from sweeplab.strategies.external.process import Program

from .conftest import PYTHON_CLIENT, hostile
from .hostile import BURN

BURNER = hostile("burn")  # the Python client's moves, after BURN seconds of CPU before every answer


def test_a_programs_cpu_is_read_precisely_and_handed_out_once(tmp_path):
    script = tmp_path / "spin.py"
    script.write_text(
        "import sys, time\nfor line in sys.stdin:\n    t = time.process_time()\n"
        "    while time.process_time() - t < 0.05:\n        pass\n    print('done', flush=True)\n"
    )
    program = Program([sys.executable, str(script)], tmp_path / "stderr.log")
    try:
        program.take_cpu()  # its start-up
        shares = []
        for _ in range(3):
            program.send(b"go\n", time.monotonic() + 10)
            assert program.receive(time.monotonic() + 10, 10) == b"done"
            shares.append(program.take_cpu())
        assert all(0.05 <= share < 0.5 for share in shares), shares  # not clock ticks: 50 ms each, measured
        before = program.cpu()
    finally:
        program.stop()
    assert program.cpu() >= before and program.take_cpu() >= 0.0  # wait4's usage after the stop: nothing lost


def test_bench_counts_the_programs_cpu_in_each_game():
    rules = Rules(9, 9, 10, "safe")
    burner = [play_one(BURNER, rules, 0, i) for i in range(4)]
    plain = [play_one(PYTHON_CLIENT, rules, 0, i) for i in range(4)]
    assert [r.moves for r in burner] == [r.moves for r in plain]
    for burnt, quick in zip(burner, plain, strict=True):
        assert burnt.cpu_seconds >= quick.cpu_seconds + BURN  # at least one answer's burn more: the program's CPU


def test_games_csv_the_summary_and_the_leaderboard_say_the_same(tmp_path):
    spec = f"reference,{BURNER}"
    result = CliRunner().invoke(main, ["arena", "-s", spec, "-n", "6", "-j", "1", "--out", str(tmp_path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    with (tmp_path / "games.csv").open(newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if r["strategy"] == BURNER]
    per_game = [float(r["cpu_seconds"]) for r in rows]
    assert len(per_game) == 6 and min(per_game) >= BURN  # every game has at least one answer
    standing = next(s for s in json.loads((tmp_path / "leaderboard.json").read_text())["standings"] if s["player"] == BURNER)
    assert abs(standing["cpu_per_game"] - sum(per_game) / 6) < 1e-5
    summary = next(s for s in json.loads((tmp_path / "bench.json").read_text())["summaries"] if s["strategy"] == BURNER)
    assert abs(summary["cpu_mean"] - sum(per_game) / 6) < 1e-5


def test_evaluate_counts_the_programs_cpu():
    rules = Rules(3, 3, 1, "unsafe")  # 9 layouts: 8 games past the harness's click, each at least one answer
    burnt = evaluate(BURNER, rules, first_click=0)
    assert burnt.games == 9 and burnt.cpu_seconds >= 8 * BURN
    assert evaluate(PYTHON_CLIENT, rules, first_click=0).cpu_seconds < burnt.cpu_seconds
