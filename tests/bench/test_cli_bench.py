import csv
import json
import re

import pytest
from click.testing import CliRunner

from sweeplab.cli import main
from sweeplab.core.rules import Rules


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_bench_prints_the_demo_summary_line():
    result = invoke("bench", "--strategy", "single-point", "--board", "beginner", "--rule", "safe", "--games", "40", "-j", "1")
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert re.match(
        r"single-point on 9x9x10 \(safe\), seed 0: won \d+/40 = [\d.]+% ± [\d.]+% "
        r"\(SE over 10 sets; 95% Wilson [\d.]+%-[\d.]+%\); "
        r"[\d.]+ games/s on 1 process, [\d.]+ ms CPU per game",
        first,
    ), first
    assert "CPU per game: mean" in result.output and "median" in result.output and "p99" in result.output


def test_bench_several_strategies_json_and_out(tmp_path):
    result = invoke(
        "bench", "-s", "single-point,random", "-b", "8x8x10", "-r", "unsafe", "-n", "30", "--sets", "3", "-j", "2",
        "--json", "--out", str(tmp_path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [s["strategy"] for s in data["summaries"]] == ["single-point", "random"]
    assert all(s["games"] == 30 and s["sets"] == 3 and s["board"] == "8x8x10" for s in data["summaries"])
    pair = data["paired"][0]
    assert (pair["a"], pair["b"], pair["games"]) == ("single-point", "random", 30)
    single = data["summaries"][0]["wins"]
    assert pair["difference"] == pytest.approx((single - data["summaries"][1]["wins"]) / 30)
    rows = list(csv.DictReader((tmp_path / "games.csv").open()))
    assert len(rows) == 60 and json.loads((tmp_path / "bench.json").read_text()) == data


def test_bench_is_the_same_for_one_and_two_jobs():
    outputs = []
    for jobs in ("1", "2"):
        result = invoke("bench", "-s", "single-point", "-b", "beginner", "-n", "50", "--seed", "5", "-j", jobs, "--json")
        data = json.loads(result.output)["summaries"][0]
        outputs.append((data["wins"], data["sem"], data["guesses_per_game"]))
    assert outputs[0] == outputs[1]


def test_deal_then_bench_layouts_replays_the_same_games(tmp_path):
    deal = invoke("deal", "--board", "beginner", "--rule", "zero", "--count", "20", "--seed", "3", "--out", str(tmp_path / "d"))
    assert deal.exit_code == 0, deal.output
    files = sorted(p.name for p in (tmp_path / "d").iterdir())
    assert files[0] == "deal.json" and files[1] == "game-000000.mbf" and len(files) == 21
    manifest = json.loads((tmp_path / "d" / "deal.json").read_text())
    assert manifest["first_click"] == [0, 0] and manifest["rule"] == "zero" and manifest["seed"] == 3
    replay = invoke("bench", "-s", "single-point", "--layouts", str(tmp_path / "d"), "-j", "1", "--out", str(tmp_path / "a"))
    direct = invoke(
        "bench", "-s", "single-point", "-b", "beginner", "-r", "zero", "--first-click", "0,0", "--seed", "3",
        "-n", "20", "-j", "1", "--out", str(tmp_path / "b"),
    )  # fmt: skip
    assert replay.exit_code == 0 and direct.exit_code == 0, replay.output + direct.output

    def games(path):
        return [
            (r["game"], r["won"], r["moves"], r["three_bv"], r["guesses"]) for r in csv.DictReader((path / "games.csv").open())
        ]

    assert games(tmp_path / "a") == games(tmp_path / "b")


def test_deal_hint_records_every_opening(tmp_path):
    result = invoke("deal", "-b", "8x8x10", "-r", "hint", "-n", "5", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "deal.json").read_text())
    assert manifest["first_click"] is None and len(manifest["openings"]) == 5
    bench = invoke("bench", "-s", "single-point", "--layouts", str(tmp_path), "-j", "1", "--json")
    assert json.loads(bench.output)["summaries"][0]["games"] == 5


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["bench", "-s", "no-such-strategy", "-n", "10"], "unknown strategy 'no-such-strategy'"),
        (["bench", "-n", "0"], "0 is not in the range"),
        (["bench", "-b", "3x3x10", "-n", "10"], "10 mines do not fit on a 3x3 board"),
        (["bench", "-b", "3x3x9", "-r", "safe", "-n", "10"], "needs a mine-free cell"),
        (["bench", "-b", "beginner", "-n", "10", "--sets", "3"], "do not split into 3 equal sets"),
        (["bench", "-b", "beginner", "-n", "10", "--first-click", "9,9"], "off the 9x9 board"),
        (["bench", "-s", "single-point,single-point"], "names a strategy twice"),
        (["bench", "--scheduler", "tcp://127.0.0.1:1"], "--scheduler needs --executor dask"),
        (["experiment", "nope", "--out", "x"], "Invalid value for '{levels|density"),
        (["experiment", "levels", "--out", "x", "-s", "nope"], "unknown strategy 'nope'"),
        (["deal", "-b", "3x3x9", "-r", "zero", "--out", "x"], "the 'zero' rule"),
    ],
)
def test_bad_arguments_exit_2_with_a_clear_message(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert message in result.output


def test_corrupt_layout_file_is_named(tmp_path):
    invoke("deal", "-b", "beginner", "-n", "3", "--out", str(tmp_path))
    (tmp_path / "game-000001.mbf").write_bytes(b"\x09\x09\x00\x0a\x01")
    result = CliRunner().invoke(main, ["bench", "--layouts", str(tmp_path), "-j", "1"])
    assert result.exit_code == 2
    assert "game-000001.mbf: truncated" in result.output


def test_layouts_errors(tmp_path):
    empty = CliRunner().invoke(main, ["bench", "--layouts", str(tmp_path)])
    assert empty.exit_code == 2 and "no .mbf layout files" in empty.output
    invoke("deal", "-b", "beginner", "-n", "3", "--out", str(tmp_path))
    too_many = CliRunner().invoke(main, ["bench", "--layouts", str(tmp_path), "-n", "4"])
    assert too_many.exit_code == 2 and "holds 3 layouts" in too_many.output
    wrong_board = CliRunner().invoke(main, ["bench", "--layouts", str(tmp_path), "-b", "expert"])
    assert wrong_board.exit_code == 2 and "the layouts are 9x9x10, not expert" in wrong_board.output


def test_time_limit_is_reported(tmp_path):
    result = invoke("bench", "-s", "single-point", "-b", "expert", "-n", "10", "-j", "1", "--time-limit", "0.00001", "--json")
    summary = json.loads(result.output)["summaries"][0]
    assert summary["timeouts"] > 0 and summary["wins"] + summary["timeouts"] <= 10


def test_experiment_command_writes_files_and_its_command(tmp_path):
    result = invoke("experiment", "aspect", "--quick", "-s", "single-point", "-n", "2", "-j", "1", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    table = (tmp_path / "table.md").read_text()
    assert f"Produced by `sweeplab experiment aspect --out {tmp_path} --strategy single-point --games 2 --quick`" in table
    assert (tmp_path / "aspect.png").exists()


# ----------------------------------------------------------------------------------------------- bad input (issue 8)


def test_a_negative_seed_is_a_seed_in_every_command(tmp_path):
    runs = {
        "bench": ["bench", "-b", "beginner", "-n", "5", "-j", "1", "--seed", "-1", "--json"],
        "deal": ["deal", "-b", "beginner", "-n", "2", "--seed", "-1", "--out", str(tmp_path / "d")],
        "experiment": ["experiment", "aspect", "--quick", "-s", "random", "-n", "1", "-j", "1", "--seed", "-1",
                       "--out", str(tmp_path / "e")],
        "bench-engine": ["bench-engine", "--positions", "2", "--games", "1", "--seed", "-1", "--engine", "python"],
        "play": ["play", "-b", "beginner", "--seed", "-1"],
    }  # fmt: skip
    for name, args in runs.items():
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, (name, result.output)
    minus = json.loads(CliRunner().invoke(main, runs["bench"]).output)["summaries"][0]
    plus = json.loads(CliRunner().invoke(main, [*runs["bench"][:-2], "1", "--json"]).output)["summaries"][0]
    assert minus["seed"] == -1 and plus["seed"] == 1
    assert json.loads((tmp_path / "d" / "deal.json").read_text())["seed"] == -1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["bench", "--time-limit", "nan"], "Invalid value for '--time-limit': 'nan' is not a finite number of seconds above 0"),
        (["bench", "--time-limit", "inf"], "Invalid value for '--time-limit': 'inf' is not a finite number of seconds"),
        (["bench", "--time-limit", "0"], "Invalid value for '--time-limit': '0' is not a finite number"),
        (["experiment", "levels", "--out", "x", "--time-limit", "nan"], "'nan' is not a finite number of seconds"),
        (["bench", "-n", "1" + "0" * 22], "is not in the range 1<=x<=1000000000000"),
        (["experiment", "levels", "--out", "x", "-n", "9" * 23], "is not in the range 1<=x<=1000000000000"),
        (["deal", "-n", "9" * 23, "--out", "x"], "is not in the range 1<=x<=1000000"),
        (["bench", "--executor", "dask", "--scheduler", "garbage"], "--scheduler 'garbage' is not a Dask scheduler address"),
        (["bench", "--executor", "dask", "--scheduler", "http://x:1"], "write it as tcp://HOST:PORT"),
        (["bench", "--executor", "dask", "--scheduler", "tcp://h:99999"], "port 99999 is not between 1 and 65535"),
        (["bench", "--resume"], "Invalid value for --resume: needs --out"),
    ],
)
def test_bad_bench_side_input_is_an_argument_error(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_experiment_without_matplotlib_says_which_extra_before_playing(tmp_path, monkeypatch):
    import sweeplab.studies.plots as plots

    monkeypatch.setitem(__import__("sys").modules, "matplotlib", None)  # `import matplotlib` now fails
    assert not plots.available()
    result = CliRunner().invoke(main, ["experiment", "aspect", "--quick", "-s", "random", "--out", str(tmp_path / "e")])
    assert result.exit_code == 2
    assert "pip install 'sweeplab[plot]' (no game was played)" in result.output
    assert not (tmp_path / "e").exists()


def test_many_jobs_for_few_games_start_no_more_processes_than_batches():
    from sweeplab.bench.executors import LocalExecutor
    from sweeplab.bench.runner import run

    with LocalExecutor(500) as ex:
        results = run("random", Rules(9, 9, 10, "safe"), 6, executor=ex, batch=2)
        assert ex._pool is not None and len(ex._pool._processes) <= 3
    assert len(results) == 6
    assert ex.describe() == "3 local processes"
    line = invoke("bench", "-s", "random", "-b", "beginner", "-n", "4", "-j", "500").output
    used = re.search(r"on (\d+) local processes", line)
    assert used and int(used.group(1)) <= 4, line  # 4 games are at most 4 batches: never 500 processes


def test_the_zero_rule_on_a_board_too_dense_for_an_opening_is_reported():
    result = invoke("bench", "-s", "random", "-b", "5x5x17", "-r", "zero", "--first-click", "2,2", "-n", "6", "-j", "1")
    assert "in 6 games the 'zero' rule could not be met (the first click was only kept safe)" in result.output
    data = json.loads(invoke("bench", "-s", "random", "-b", "5x5x17", "-r", "zero", "-n", "6", "-j", "1",
                             "--first-click", "2,2", "--json").output)  # fmt: skip
    assert data["summaries"][0]["rule_unmet"] == 6
    fine = json.loads(invoke("bench", "-s", "random", "-b", "beginner", "-r", "zero", "-n", "6", "-j", "1", "--json").output)
    assert fine["summaries"][0]["rule_unmet"] == 0


def test_plain_progress_lines_when_stderr_is_not_a_terminal(monkeypatch):
    monkeypatch.setenv("SWEEPLAB_PROGRESS_SECONDS", "0.002")  # exact plays an expert game in about a millisecond
    result = CliRunner().invoke(main, ["bench", "-s", "exact", "-b", "expert", "-n", "300", "-j", "1"])
    assert result.exit_code == 0
    lines = [line for line in result.output.splitlines() if line.startswith("bench: ")]
    assert lines and re.match(r"bench: [\d,]+/300 games \([\d.]+%\), [\d,.]+ games/s(, ETA .+)?$", lines[-1]), lines
    quiet = CliRunner().invoke(main, ["bench", "-s", "exact", "-b", "expert", "-n", "30", "-j", "1", "--json"])
    assert "bench: " not in quiet.output


def test_resume_with_other_settings_is_refused_naming_the_difference(tmp_path):
    out = str(tmp_path / "run")
    first = invoke("bench", "-s", "random", "-b", "beginner", "-n", "20", "-j", "1", "--out", out)
    assert first.exit_code == 0
    again = CliRunner().invoke(main, ["bench", "-s", "random", "-b", "beginner", "-n", "20", "-j", "1", "--out", out, "--resume"])
    assert again.exit_code == 0 and "already holds this run, finished" in again.output and "won 0/20" in again.output
    other = CliRunner().invoke(
        main, ["bench", "-s", "random", "-b", "beginner", "-n", "30", "--seed", "2", "--out", out, "--resume"]
    )
    assert other.exit_code == 2
    assert "--resume: " in other.output and "--games was 20, now 30; --seed was 0, now 2" in other.output


def test_bench_noguess_is_won_by_exact_without_a_guess():
    result = invoke("bench", "-s", "exact", "-b", "intermediate", "-r", "noguess", "-n", "12", "--seed", "2", "-j", "1", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)["summaries"][0]
    assert (summary["games"], summary["wins"], summary["guesses_per_game"]) == (12, 12, 0)


def test_deal_noguess_then_bench_layouts_plays_them(tmp_path):
    deal = invoke("deal", "-b", "expert", "-r", "noguess", "--count", "3", "--seed", "4", "--out", str(tmp_path / "d"))
    assert deal.exit_code == 0, deal.output
    manifest = json.loads((tmp_path / "d" / "deal.json").read_text())
    assert (manifest["rule"], manifest["first_click"], manifest["rule_unmet"]) == ("noguess", [0, 0], [])
    bench = invoke("bench", "-s", "exact", "--layouts", str(tmp_path / "d"), "-j", "1", "--json")
    assert bench.exit_code == 0, bench.output
    summary = json.loads(bench.output)["summaries"][0]
    assert (summary["games"], summary["wins"]) == (3, 3)
