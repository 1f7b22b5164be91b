"""A fuzzer over every ``sweeplab`` command and option: random values (negative and huge numbers, nan/inf, empty
text, missing paths, folders, /dev/null, hostile files) must never give a traceback, and every exit status must be
in the scheme (0 ok, 1 a failed run but never an internal error, 2 bad input, 3 proved inconsistent, 4 undecided
within the budget; see ``sweeplab --help``).

Runs go through click's CliRunner (a derandomized, bounded number of examples), plus a few real subprocesses.
Values that make a command do real work (games, positions, counts, budgets) are drawn small when valid, so the
whole fuzzer takes tens of seconds; a run that takes longer than :data:`HANG_SECONDS` counts as a hang.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import click
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sweeplab.cli import main
from sweeplab.cli.app import load_commands

#: Exit statuses a fuzzed run may end with: 0 ok, 1 a failed run (a file that cannot be written, a full disk; never
#: an internal error, which ``friendly_errors`` reports as one), 2 bad input, 3 proved inconsistent, 4 undecided
#: within the budget. 130/143 need a signal the fuzzer never sends.
ALLOWED_EXIT = {0, 1, 2, 3, 4}
HANG_SECONDS = int(os.environ.get("SWEEPLAB_FUZZ_HANG", "60"))
#: Fuzzed CliRunner invocations (derandomized: the same cases every run); SWEEPLAB_FUZZ_EXAMPLES=N runs more by hand.
EXAMPLES = int(os.environ.get("SWEEPLAB_FUZZ_EXAMPLES", "300"))

ROOT = Path(tempfile.mkdtemp(prefix="sweeplab-cli-fuzz-"))
atexit.register(shutil.rmtree, ROOT, ignore_errors=True)


# ----- material: files and folders the fuzzed options point at -----
def _material() -> dict[str, str]:
    made: dict[str, str] = {}

    def text(name: str, content: str | bytes) -> None:
        path = ROOT / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        made[name] = str(path)

    text("position.txt", "5x3x2\n11211\nHHHHH\nHHHHH\n")
    text("position-bom.txt", "\ufeff3x1x1\n1HH\n")
    text("position-inconsistent.txt", "3x3x1\n2HH\nHHH\nHH2\n")  # each 2 needs two of the one mine
    text("position-malformed.txt", "3x1x1\n9HH\n")
    text("position-binary.txt", b"\xff\xfe\x00garbage")
    text("empty.txt", "")
    text("hello.txt", "hello\n")
    text("bad-zip.npz", b"PK\x03\x04 not a zip archive")
    runner = CliRunner()
    log = ROOT / "game.jsonl"
    assert runner.invoke(main, ["play", "-b", "beginner", "--seed", "1", "--log", str(log)]).exit_code == 0
    made["game.jsonl"] = str(log)
    lines = log.read_text().splitlines()
    text("game-malformed.jsonl", "\n".join([lines[0], lines[1].replace('"reveal"', '"explode"'), *lines[2:]]) + "\n")
    text("game-cut.jsonl", log.read_text()[:-20])
    layouts = ROOT / "layouts"
    assert runner.invoke(main, ["deal", "-b", "4x4x3", "-n", "4", "--out", str(layouts)]).exit_code == 0
    made["layouts"] = str(layouts)
    manifest = json.loads((layouts / "deal.json").read_text())
    hostile = {
        "seed-negative": {"seed": -1},
        "seed-float": {"seed": 1.5},
        "seed-text": {"seed": "abc"},
        "click-off-board": {"first_click": [10, 0]},
        "rule-unknown": {"rule": "lucky"},
        "board-huge": {"width": 10**30},
        "not-an-object": None,
    }
    for name, change in hostile.items():
        folder = ROOT / f"layouts-{name}"
        shutil.copytree(layouts, folder)
        bad = "[1, 2]" if change is None else json.dumps({**manifest, **change})
        (folder / "deal.json").write_text(bad)
        made[f"layouts-{name}"] = str(folder)
    folder = ROOT / "layouts-garbage-file"
    shutil.copytree(layouts, folder)
    next(folder.glob("*.mbf")).write_bytes(b"\x01")
    made["layouts-garbage-file"] = str(folder)
    (ROOT / "empty-dir").mkdir()
    made["empty-dir"] = str(ROOT / "empty-dir")
    return made


MATERIAL = _material()


def _case_id(args: list[str], width: int) -> str:
    """A test id without the temporary folder's random name (pytest-xdist's workers must collect the same ids)."""
    return " ".join(args).replace(str(ROOT), "TMP")[:width]


def fresh_dir() -> str:
    return tempfile.mkdtemp(dir=ROOT)


def fresh_path() -> str:
    return str(Path(fresh_dir()) / "out")


def nonempty_dir() -> str:
    folder = Path(fresh_dir())
    (folder / "old.txt").write_text("someone's file\n")
    return str(folder)


# ----- values -----
BAD_INT = ["-1", "0", "-7", "1" * 23, "-" + "1" * 23, "abc", "", "1.5", "nan", "inf", "0x10", " "]
BAD_FLOAT = ["nan", "inf", "-inf", "-1", "0", "1e309", "abc", "", "1" * 23, "0x1p3"]
JUNK_TEXT = ["", " ", "abc", "é", "-1", "--", "1" * 23, "nan", "[", "a,b"]
SYSTEM_PATHS = ["/dev/null", "/dev/full", "/nonexistent/x", "/proc/self/nope", "", str(ROOT)]


def one_of_values(*groups: Any) -> st.SearchStrategy[str]:
    parts = [st.sampled_from(list(g)) if isinstance(g, list | tuple) else g for g in groups]
    return st.one_of(*parts)


def sizes(valid: list[str]) -> st.SearchStrategy[str]:
    return one_of_values(valid, valid, BAD_INT)  # valid values twice as likely


SEED = one_of_values(["0", "1", "-1", "7", "4294967296", "1" * 23, "-" + "1" * 23], BAD_INT)
BOARD = one_of_values(
    ["3x3x2", "4x4x3", "beginner", "5x5x0", "1x1x0", "2x1x1", "expert", "8x8x10"],
    ["huge", "0x0x0", "1025x1x1", "3x3x9", "4x4x17", "1x1x1", "9" * 30 + "x1x1", ""],
)
RULE = one_of_values(["unsafe", "safe", "xp", "zero", "hint"], ["lucky", ""])
STRATEGY = one_of_values(
    ["single-point", "random", "exact", "single-point,random", "gac[pairs=False]", "equation[guess=pgms]"],
    ["nope", "", "exact,exact", "gac[nope=1]", "exact[", "]", ","],
)
#: Boards for the commands whose work grows with every layout of the board (optimal, evaluate, learning).
SMALL_BOARD = one_of_values(["3x3x2", "4x3x2", "2x2x1", "3x3x0"], ["huge", "0x0x0", "3x3x9", "1025x1x1", "", "8x8x10"])
CELL = one_of_values(["0,0", "1,1", "auto"], ["9,9", "-1,0", "a,b", "", "0", "0,0,0", "1" * 23 + ",0", "1,1 "])
POSITION_FILE = one_of_values([MATERIAL[k] for k in MATERIAL if k.startswith(("position", "empty", "hello"))], SYSTEM_PATHS)
LOG_FILE = one_of_values(
    [MATERIAL[k] for k in ("game.jsonl", "game-malformed.jsonl", "game-cut.jsonl", "hello.txt")], SYSTEM_PATHS
)
OUT_DIR = one_of_values(
    st.builds(fresh_path), st.builds(fresh_dir), st.builds(nonempty_dir), [MATERIAL["hello.txt"]], SYSTEM_PATHS
)
OUT_FILE = one_of_values(st.builds(lambda: str(Path(fresh_dir()) / "out.txt")), SYSTEM_PATHS, [MATERIAL["empty-dir"]])
LAYOUTS = one_of_values([MATERIAL[k] for k in MATERIAL if k.startswith(("layouts", "empty-dir"))], SYSTEM_PATHS)
SECONDS = one_of_values(["0.05", "0.3"], BAD_FLOAT)
TIME_LIMIT = one_of_values(["0.5", "5"], BAD_FLOAT)
FLAG = st.booleans()


def choice(*valid: str) -> st.SearchStrategy[str]:
    return one_of_values(list(valid), ["nope", ""])


#: For every command, each option (by its name in the command) and the values to draw. ``"!"`` marks an option
#: that is always given (those that set how much work a run does, so a valid draw stays small).
OPTIONS: dict[str, dict[str, Any]] = {
    "strategies": {"options_of": one_of_values(["exact", "gac", "single-point"], JUNK_TEXT)},
    "play": {
        "strategy": STRATEGY,
        "board": BOARD,
        "rule": RULE,
        "seed": SEED,
        "first_click": CELL,
        "steps": FLAG,
        "explain": FLAG,
        "log_path": OUT_FILE,
        "save_position": one_of_values(st.builds(lambda: str(Path(fresh_dir()) / "p-{move}.txt")), OUT_FILE),
        "time_limit": TIME_LIMIT,
    },
    "replay": {"file": LOG_FILE, "steps": FLAG, "explain": FLAG},
    "analyze": {"file": POSITION_FILE, "as_json": FLAG, "as_fraction": FLAG, "seconds": SECONDS},
    "consistent": {
        "file": POSITION_FILE,
        "method": choice("rs", "hc", "sa", "ga", "exact"),
        "budget": ("!", sizes(["1", "50", "500"])),
        "seconds": ("!", SECONDS),
        "seed": SEED,
    },
    "consistency-report": {
        "count": ("!", sizes(["1"])),
        "budget": ("!", sizes(["1", "50"])),
        "seconds": ("!", SECONDS),
        "seed": SEED,
        "out": OUT_FILE,
    },
    "bench": {
        "strategy": STRATEGY,
        "board": BOARD,
        "rule": RULE,
        "games": ("!", sizes(["1", "2", "4"])),
        "sets": sizes(["2", "3"]),
        "first_click": CELL,
        "seed": SEED,
        "jobs": ("!", sizes(["1", "2", "500"])),
        "as_json": FLAG,
        "out": OUT_DIR,
        "resume": FLAG,
        "force": FLAG,
        "layouts": LAYOUTS,
        "executor": choice("local"),
        "scheduler": one_of_values(["garbage", "", "tcp://", "http://x:1"]),
        "time_limit": TIME_LIMIT,
        "move_time_limit": SECONDS,
        "batch": sizes(["1", "2"]),
    },
    "arena": {
        "strategy": ("!", STRATEGY),
        "board": BOARD,
        "rule": RULE,
        "games": ("!", sizes(["1", "2", "4"])),
        "seed": SEED,
        "jobs": ("!", sizes(["1", "2"])),
        "executor": choice("local"),
        "scheduler": one_of_values(["garbage", "", "tcp://"]),
        "time_limit": TIME_LIMIT,
        "move_time_limit": SECONDS,
        "out": ("!", OUT_DIR),
        "resume": FLAG,
        "force": FLAG,
    },
    "bench-engine": {
        "positions": ("!", sizes(["1", "2"])),
        "games": ("!", sizes(["1"])),
        "seed": SEED,
        "engine": choice("kernel", "python", "both"),
    },
    "deal": {
        "board": BOARD,
        "rule": RULE,
        "first_click": CELL,
        "count": ("!", sizes(["1", "3"])),
        "seed": SEED,
        "out": ("!", OUT_DIR),
        "force": FLAG,
    },
    "experiment": {
        "name": one_of_values(["levels", "density", "size", "aspect", "outcomes", "calibration", "frontier"], ["nope", ""]),
        "out": ("!", OUT_DIR),
        "resume": FLAG,
        "force": FLAG,
        "quick": ("!", st.just(True)),
        "strategy": ("!", one_of_values(["single-point", "random"], ["nope", "", "exact,exact"])),
        "games": ("!", sizes(["1", "2"])),
        "skip": one_of_values(["exact", "gac"], JUNK_TEXT),
        "groups": one_of_values(["ratio", "seed 000"], JUNK_TEXT, [",", "ratio,"]),
        "seed": SEED,
        "board": BOARD,
        "rule": RULE,
        "jobs": ("!", sizes(["1", "2"])),
        "executor": choice("local"),
        "scheduler": one_of_values(["garbage", "", "tcp://"]),
        "time_limit": TIME_LIMIT,
    },
    "learn data": {
        "games": ("!", sizes(["1", "2"])),
        "out": ("!", OUT_FILE),
        "seed": SEED,
        "probability": choice("dsscsp", "exact"),
        "extra": sizes(["0", "8"]),
        "widths": one_of_values(["8-9", "8"], JUNK_TEXT, ["9-8", "0-1", "8-100000"]),
        "heights": one_of_values(["8-9", "8"], JUNK_TEXT, ["9-8", "0-1"]),
        "densities": one_of_values(["0.10-0.21", "0.15"], JUNK_TEXT, ["0.5-0.1", "1.5", "nan"]),
        "board": SMALL_BOARD,
        "rule": RULE,
        "rows": choice("features", "substates"),
        "alpha": one_of_values(["0.1,0,0,0", "0,0,0,0"], JUNK_TEXT, ["1,2,3", "a,b,c,d", "nan,0,0,0"]),
        "alpha_games": ("!", sizes(["1"])),
        "shard_games": sizes(["1", "2"]),
        "jobs": ("!", sizes(["1", "2"])),
        "executor": choice("local"),
        "scheduler": one_of_values(["garbage", "", "tcp://", "http://x:1"]),
        "resume": FLAG,
        "force": FLAG,
    },
    "learn train": {
        "kind": choice("xgboost", "nn", "dqn"),
        "out": ("!", OUT_DIR),
        "seed": SEED,
        "data": one_of_values([MATERIAL["hello.txt"], MATERIAL["empty.txt"], MATERIAL["bad-zip.npz"]], SYSTEM_PATHS),
        "games": ("!", sizes(["1", "2"])),
        "episodes": ("!", sizes(["0", "1"])),
        "epochs": ("!", sizes(["1"])),
        "rounds": ("!", sizes(["1", "2"])),
        "alpha_games": ("!", sizes(["1"])),
        "replay": FLAG,
        "widths": one_of_values(["8-9", "8"], JUNK_TEXT),
        "heights": one_of_values(["8-9", "8"], JUNK_TEXT),
        "densities": one_of_values(["0.10-0.21"], JUNK_TEXT),
        "board": ("!", SMALL_BOARD),
        "rule": RULE,
        "without": one_of_values(["probability", "window", "w*_flagged"], JUNK_TEXT, ["nope", "*", "probability,nope"]),
        "jobs": ("!", sizes(["1", "2"])),
        "executor": choice("local"),
        "scheduler": one_of_values(["garbage", "", "tcp://", "http://x:1"]),
        "eval_games": ("!", sizes(["0", "1"])),
        "eval_board": ("!", SMALL_BOARD),
        "eval_rule": RULE,
    },
    "learn neural data": {
        "games": ("!", sizes(["1", "2"])),
        "out": ("!", OUT_DIR),
        "seed": SEED,
        "boards": ("!", SMALL_BOARD),
        "rule": RULE,
        "model": one_of_values([MATERIAL["hello.txt"]], SYSTEM_PATHS),
        "certain": choice("subset", "difference", "single-point"),
        "shard_games": sizes(["1", "2"]),
        "jobs": ("!", sizes(["1", "2"])),
        "executor": choice("local"),
        "scheduler": one_of_values(["garbage", "", "tcp://", "http://x:1"]),
        "resume": FLAG,
        "force": FLAG,
    },
    "learn neural train": {
        "data": one_of_values([MATERIAL["hello.txt"], MATERIAL["empty-dir"]], SYSTEM_PATHS),
        "out": ("!", OUT_DIR),
        "seed": SEED,
        "init": one_of_values([MATERIAL["hello.txt"], MATERIAL["empty-dir"]], SYSTEM_PATHS),
        "channels": ("!", sizes(["1", "2"])),
        "blocks": ("!", sizes(["0", "1"])),
        "epochs": ("!", sizes(["1"])),
        "batch": ("!", sizes(["1", "8"])),
        "learning_rate": one_of_values(["0.001", "0.5"], JUNK_TEXT, ["0", "2", "-1"]),
        "device": choice("cpu", "auto", "cuda"),
        "jobs": ("!", sizes(["1", "2"])),
        "executor": choice("local"),
        "scheduler": one_of_values(["garbage", "", "tcp://", "http://x:1"]),
        "eval_games": ("!", sizes(["0", "1"])),
        "eval_board": ("!", SMALL_BOARD),
        "eval_rule": RULE,
    },
    "learn compare": {
        "positions": ("!", sizes(["1", "2"])),
        "boards": ("!", SMALL_BOARD),
        "rule": RULE,
        "seed": SEED,
        "out": ("!", OUT_DIR),
    },
    "evaluate": {
        "strategy": STRATEGY,
        "board": ("!", SMALL_BOARD),
        "rule": RULE,
        "seed": SEED,
        "first_click": CELL,
        "max_layouts": ("!", sizes(["50", "500"])),
        "jobs": sizes(["1", "2", "500"]),
        "executor": choice("local"),
        "scheduler": one_of_values(["garbage", "", "tcp://"]),
        "as_json": FLAG,
    },
    "optimal": {
        "board": ("!", SMALL_BOARD),
        "rule": RULE,
        "policy": OUT_FILE,
        "depth": sizes(["1", "2", "4"]),
        "no_symmetry": FLAG,
        "time_limit": ("!", TIME_LIMIT),
        "max_layouts": ("!", sizes(["50", "500"])),
        "as_json": FLAG,
    },
    "optimal-table": {
        "out": ("!", OUT_DIR),
        "boards": (
            "!",
            one_of_values(["3x3x1-2", "2x2x1", "3x3x2,2x2x1-3"], ["huge", "3x3x10", "", "9x9x2", "3x3x2-1", "1" * 23 + "x1x1"]),
        ),
        "strategies": STRATEGY,
        "rule_list": one_of_values(["unsafe", "safe,zero"], ["xp", "hint", "", ","]),
        "time_limit": ("!", TIME_LIMIT),
        "max_layouts": ("!", sizes(["50", "500"])),
        "caps": one_of_values(["exact=10", "best=1"], ["exact", "x=0", "=", "", "a=-1"]),
        "seed": SEED,
        "jobs": sizes(["1", "2"]),
        "resume": FLAG,
    },
    "serve": {  # the server is not run (see quiet_server): only the arguments and the bind are checked
        "host": one_of_values(["127.0.0.1", "::1", "localhost", "0.0.0.0"], ["garbage", "", "999.1.1.1", "[", "1" * 23]),
        "port": one_of_values(["0", "0", "8000"], ["65536", "-1", "abc", "", "1" * 23, "nan"]),
        "open_page": FLAG,
        "quiet": FLAG,
        "players": one_of_values(
            ["mine=cmd:python3 client.py", "a.b-c_1=cmd:python3 -c pass"],
            ["x", "", "=cmd:ls", "best=cmd:ls", "a=exact", "a=cmd:", "A=cmd:ls", "a=cmd:'", "a=cmd:/no/such", "é=cmd:ls"],
        ),
    },
}


@contextmanager
def scratch_cwd() -> Iterator[None]:
    """Run in a fresh scratch folder, so that a relative path (even an empty one) never writes into the tree."""
    before = os.getcwd()
    os.chdir(fresh_dir())
    try:
        yield
    finally:
        os.chdir(before)


@contextmanager
def quiet_server() -> Iterator[None]:
    """``sweeplab serve`` with valid arguments binds its port, then returns at once instead of serving forever,
    opens no browser, and leaves no program it was given named in this process."""
    with ExitStack() as stack:
        try:
            import uvicorn
        except ImportError:  # serve then refuses with a message; nothing to stop
            yield
            return
        stack.enter_context(mock.patch.object(uvicorn.Server, "run", lambda self, sockets=None: None))
        stack.enter_context(mock.patch("sweeplab.cli.serve.open_browser", lambda url: True))
        from sweeplab.strategies import registry

        stack.enter_context(mock.patch.dict(registry._PROGRAMS, clear=True))  # --player names programs only for the run
        yield


def _param_name(param: click.Parameter) -> str:
    assert param.name is not None
    return param.name


def _commands(group: click.Group = main, prefix: str = "") -> dict[str, click.Command]:
    """Every command a user can run, by its words ("learn train" for a command in a group)."""
    found: dict[str, click.Command] = {}
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            found.update(_commands(command, f"{prefix}{name} "))
        else:
            found[prefix + name] = command
    return found


load_commands()  # the lazy table: every command's module, so that all of them are fuzzed
COMMANDS = _commands()


def test_the_fuzzer_knows_every_command_and_option():
    """A new command or option must be added to OPTIONS, so that the fuzzer covers it."""
    for name, command in COMMANDS.items():
        assert name in OPTIONS, f"add the command {name!r} to tests/test_cli_fuzz.py OPTIONS"
        params = {_param_name(p) for p in command.params if p.name != "help"}
        assert params == set(OPTIONS[name]), f"{name}: fuzzer options differ from the command's: {params ^ set(OPTIONS[name])}"


@st.composite
def invocations(draw: st.DrawFn) -> list[str]:
    """A command line: a command, then each of its options given (or not) with a drawn value."""
    name = draw(st.sampled_from(sorted(OPTIONS)))
    command = COMMANDS[name]
    args = name.split()
    for param in command.params:
        key = _param_name(param)
        if key == "help":
            continue
        spec = OPTIONS[name][key]
        forced, values = (True, spec[1]) if isinstance(spec, tuple) else (False, spec)
        if isinstance(param, click.Argument):
            if draw(st.integers(0, 19)) == 0:
                continue  # a missing argument now and then
            args.append(draw(values))
            continue
        assert isinstance(param, click.Option)
        if not forced and not draw(st.booleans()):
            continue
        flag = param.opts[-1] if param.opts[-1].startswith("--") else param.opts[0]
        if param.is_flag:
            if draw(values):
                args.append(flag)
            continue
        args += [flag, draw(values)]
    if name in ("bench", "experiment", "evaluate") and "--executor" in args and "dask" in args:
        args += ["--scheduler", "garbage"]  # never start a real LocalCluster from the fuzzer
    return args


class Hang(BaseException):  # not an Exception: friendly_errors must not turn it into an exit status
    pass


@contextmanager
def hang_guard(seconds: float) -> Iterator[None]:
    def alarm(signum: int, frame: object) -> None:
        raise Hang(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def check(result: Any, args: list[str]) -> None:
    shown = " ".join(repr(a) if (not a or " " in a) else a for a in args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        import traceback

        trace = "".join(traceback.format_exception(result.exception))
        pytest.fail(f"sweeplab {shown}\nraised {result.exception!r}\n{trace}\noutput:\n{result.output}")
    assert "Traceback" not in result.output, f"sweeplab {shown}\nprinted a traceback:\n{result.output}"
    assert result.exit_code in ALLOWED_EXIT, f"sweeplab {shown}\nexit status {result.exit_code}\noutput:\n{result.output}"
    if result.exit_code == 1:
        assert "internal error" not in result.output, f"sweeplab {shown}\nhit a bug:\n{result.output}"
        assert "failed" in result.output or "error" in result.output, f"sweeplab {shown}\nexit 1 without a reason"


@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)
@given(invocations())
def test_fuzzed_command_lines_never_trace_back(args):
    runner = CliRunner()
    with hang_guard(HANG_SECONDS), quiet_server(), scratch_cwd():
        result = runner.invoke(main, args, catch_exceptions=True)  # a relative path (even "") lands in a scratch folder
    check(result, args)


#: What the fuzzer found, kept as plain cases (each ran into a traceback, a hang or an exit status outside the
#: scheme on the day it was found; the owner's fix is noted).
FOUND_BY_FUZZING = [
    ["bench", "-n", "1", "-j", "1", "--layouts", MATERIAL["layouts-seed-text"]],  # TypeError (bench: manifest schema)
    ["bench", "-n", "1", "-j", "1", "--layouts", MATERIAL["layouts-click-off-board"]],
    ["bench", "-n", "1", "-j", "1", "--layouts", MATERIAL["layouts-not-an-object"]],
    ["deal", "-n", "1", "--out", "/dev/full"],  # FileExistsError (bench)
    ["deal", "-n", "1", "--out", "/proc/self/nope"],  # FileNotFoundError (bench)
    ["deal", "-n", "1" * 23, "--out", "new-deal"],  # wrote layouts until the disk filled (bench: -n capped)
    ["experiment", "frontier", "--quick", "-n", "1", "-s", "random", "-j", "1" * 23, "--out", "new-exp"],  # ValueError
    ["consistency-report", "--count", "1", "--budget", "1", "--seconds", "0.05", "--out", "/dev/full"],  # OSError
    ["consistency-report", "--count", "1", "--budget", "1", "--seconds", "0.05", "--out", "/proc/self/nope"],
    ["consistency-report", "--count", "1" * 23, "--budget", "1", "--seconds", "0.05"],  # ran forever: count capped
    ["learn", "compare", "--positions", "1" * 23, "--board", "3x3x2", "--out", str(ROOT / "lc")],  # ran forever: capped
    ["learn", "data", "--games", "1" * 23, "--out", str(ROOT / "ld.npz")],  # would play forever: games capped
    ["optimal-table", "--out", str(ROOT / "ot"), "--boards", "", "--time-limit", "inf"],  # ran the whole default table
    ["consistency-report", "--count", "1", "--seconds", "nan"],  # silently no time cap: finite seconds only
    ["consistent", MATERIAL["position-inconsistent.txt"], "--budget", "5", "--seconds", "0.05"],  # exit 1, now 3 or 4
    ["consistent", MATERIAL["position.txt"], "--budget", "1", "--seconds", "0.05"],  # exit 1 (not found), now 4
]


#: User mistakes that once ended as an internal error (exit 1), or were taken quietly: each must be refused with
#: exit status 2 and a message naming what was wrong (``expected`` is a piece of that message).
MUST_BE_REFUSED = [
    (["play", "-s", "equation[guess=nope]"], "unknown guess rule 'nope'"),
    (["play", "-s", "equation[rules=nope]"], "unknown rule set 'nope'"),
    (["play", "-s", "xgboost[model=/etc/passwd]"], "/etc/passwd: not a model folder"),
    (["play", "-s", f"nn[model={MATERIAL['bad-zip.npz']}]"], "not a model folder"),
    (["learn", "train", "nn", "--episodes", "0", "--out", str(ROOT / "lt-nn")], "--episodes 0"),
    (["learn", "train", "xgboost", "--data", MATERIAL["bad-zip.npz"], "--out", str(ROOT / "lt-xgb")], "not a sweeplab data file"),
    (["optimal", "-b", "3x3x2", "--policy", "/proc/x/y"], "--policy /proc/x/y"),
    (["consistency-report", "--count", "1", "--budget", "1", "--out", "/proc/x"], "--out /proc/x"),
    (["bench", "-b", "", "-n", "1"], "unknown board ''"),
    (["optimal", "-b", "256x256x20000"], "has 8.1383e+17506 layouts"),
]


@pytest.mark.parametrize(("args", "expected"), MUST_BE_REFUSED, ids=lambda a: _case_id(a, 70) if isinstance(a, list) else "")
def test_user_mistakes_are_refused_with_exit_2_and_the_reason(args, expected):
    runner = CliRunner()
    with hang_guard(HANG_SECONDS), scratch_cwd():
        result = runner.invoke(main, args, catch_exceptions=True)
    check(result, args)
    assert result.exit_code == 2, result.output
    assert expected in result.output


@pytest.mark.parametrize("args", FOUND_BY_FUZZING, ids=lambda a: _case_id(a, 70))
def test_cases_the_fuzzer_found(args):
    runner = CliRunner()
    with hang_guard(HANG_SECONDS), scratch_cwd():
        result = runner.invoke(main, args, catch_exceptions=True)
    check(result, args)


#: Real processes (the installed entry point, as a user runs it) for the reported cases and a few more.
SUBPROCESS_CASES = [
    ["bench", "-n", "1" * 23, "-b", "4x4x3"],
    ["bench", "-n", "2", "-b", "4x4x3", "-j", "1", "--seed", "-5", "--time-limit", "nan"],
    ["bench", "-n", "2", "-b", "4x4x3", "-j", "1", "--out", "/dev/null"],
    ["play", "-b", "3x3x2", "--seed", "nan"],
    ["play", "-b", "beginner", "--log", "/dev/full"],
    ["analyze", "/dev/null"],
    ["analyze", str(ROOT)],
    ["analyze", MATERIAL["position-binary.txt"]],
    ["consistent", MATERIAL["position-inconsistent.txt"], "--seconds", "inf"],
    ["replay", MATERIAL["game-malformed.jsonl"]],
    ["deal", "-n", "2", "--out", "/proc/self/nope"],
    ["serve", "--port", "70000"],
]


@pytest.mark.parametrize("args", SUBPROCESS_CASES, ids=lambda a: _case_id(a, 60))
def test_real_processes_exit_cleanly(args):
    sweeplab = Path(sys.executable).with_name("sweeplab")
    command = [str(sweeplab)] if sweeplab.exists() else [sys.executable, "-m", "sweeplab.cli"]
    done = subprocess.run(
        command + args, capture_output=True, text=True, timeout=HANG_SECONDS, env={**os.environ, "COLUMNS": "80"}, check=False
    )
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    assert done.returncode in ALLOWED_EXIT, f"exit {done.returncode}: {done.stderr}"
    assert "internal error" not in done.stderr, done.stderr
    if done.returncode != 0:
        assert done.stderr.strip(), "a refusal must say why on stderr"
