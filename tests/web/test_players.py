"""`sweeplab serve --player NAME=cmd:PROGRAM ARGS`: the page lists the outside program under NAME and its
auto-solver and benchmark panel play it like a built-in player (in the spawned solver and benchmark processes); a
request can name no other program and set none of its options; a bad --player is a usage error naming it."""

from __future__ import annotations

import http.cookiejar
import json
import shlex
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from sweeplab.bench.runner import game_seeds
from sweeplab.cli import main
from sweeplab.core.game import Game
from sweeplab.core.rules import make_rules
from sweeplab.strategies import registry
from sweeplab.strategies.base import play
from sweeplab.web.app import create_app
from sweeplab.web.solvers import SolverPool
from tests.web.servers import serving

CLIENT = Path(__file__).resolve().parents[2] / "examples" / "python" / "client.py"
SPEC = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(CLIENT))}"
PROGRAMS = {"pyref": SPEC}


@pytest.fixture(scope="module")
def pool():
    made = SolverPool(workers=1, programs=PROGRAMS)  # one worker: every game's program is the same copy
    yield made
    made.close()


@pytest.fixture
def client(pool, monkeypatch):
    monkeypatch.setattr(registry, "_PROGRAMS", {})  # what the application names here goes when the test ends
    return TestClient(create_app(solvers=pool, programs=PROGRAMS))


def reference_moves(board: str, seed: int) -> list[tuple[int, int]]:
    """The cells `sweeplab play -s reference` (the client's built-in twin) plays in the page's game of ``seed``."""
    layout_seed, strategy_seed = game_seeds(seed, 0)
    game = play(registry.make("reference", seed=strategy_seed), Game(make_rules(board, "safe"), layout_seed))
    return [game.board.xy(m.cell) for m in game.history]


def test_the_page_lists_the_program_under_its_name_with_no_options(client):
    listed = {s["name"]: s for s in client.get("/api/meta").json()["strategies"]}
    assert "pyref" in listed and listed["pyref"]["options"] == {}
    assert "client.py" in listed["pyref"]["summary"] and not any(name.startswith("cmd:") for name in listed)


def test_the_auto_solver_plays_the_program_like_a_built_in_even_with_games_taking_turns(client):
    """Two games stepped in turn in the one solver process share its copy of the program: each plays the moves of
    the client's built-in twin."""
    games = [client.post("/api/games", json={"board": "beginner", "rule": "safe", "seed": s}).json() for s in (3, 4)]
    played: dict[str, list[tuple[int, int]]] = {g["id"]: [] for g in games}
    while not all(g["over"] for g in games):
        for index, game in enumerate(games):
            if game["over"]:
                continue
            response = client.post(f"/api/games/{game['id']}/step", json={"strategy": "pyref"})
            assert response.status_code == 200, response.text
            games[index] = response.json()["game"]
            played[game["id"]].append(tuple(response.json()["move"]["cell"]))
    for game, seed in zip(games, (3, 4), strict=True):
        assert played[game["id"]] == reference_moves("beginner", seed) and game["strategy"] == "pyref"


@pytest.mark.parametrize(
    ("strategy", "says"),
    [
        (SPEC, "an outside program (cmd:) can be given only on the command line"),
        ("cmd:/bin/sh -c 'touch /tmp/x'", "an outside program (cmd:) can be given only on the command line"),
        ("pyref[log_dir=/tmp]", "pyref has no option 'log_dir' (its options: none)"),
        ("pyref[move_time_limit=1000]", "pyref has no option 'move_time_limit'"),
        ("other", "unknown strategy 'other'"),
    ],
)
def test_a_request_cannot_name_a_program_or_set_its_options(client, strategy, says):
    game = client.post("/api/games", json={"board": "beginner", "seed": 1}).json()
    response = client.post(f"/api/games/{game['id']}/step", json={"strategy": strategy})
    assert response.status_code == 422 and says in response.json()["detail"]
    bench = client.post("/api/bench", json={"strategies": ["reference", strategy], "board": "beginner", "games": 5})
    assert bench.status_code == 422 and says in bench.json()["detail"]


def test_the_benchmark_panel_plays_the_program_beside_its_twin(client):
    body = {"strategies": ["reference", "pyref"], "board": "beginner", "games": 20, "seed": 2}
    assert client.post("/api/bench", json=body).status_code == 202
    deadline = time.monotonic() + 120
    while (status := client.get("/api/bench").json())["state"] == "running" and time.monotonic() < deadline:
        time.sleep(0.2)
    assert status["state"] == "done", status
    summaries = {s["strategy"]: s for s in status["report"]["summaries"]}
    assert summaries["pyref"]["wins"] == summaries["reference"]["wins"] and summaries["pyref"]["forfeits"] == 0


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("pyref", "'pyref' is not NAME=cmd:PROGRAM ARGS"),
        ("=" + SPEC, "is not NAME=cmd:PROGRAM ARGS"),
        ("best=" + SPEC, "player name 'best' is a built-in player's"),
        ("Py Ref=" + SPEC, "player name 'Py Ref': use 1-40 lowercase letters"),
        ("pyref=exact", "'exact' is not an outside program: give cmd:PROGRAM ARGS"),
        ("pyref=cmd:/no/such/program", "/no/such/program is not an executable file"),
        ("pyref=cmd:no-such-program-here", "no program 'no-such-program-here' on PATH"),
        ("pyref=cmd:python3 'open", "No closing quotation"),
    ],
)
def test_a_bad_player_is_a_usage_error_naming_it(monkeypatch, value, says):
    monkeypatch.setattr(registry, "_PROGRAMS", {})
    result = CliRunner().invoke(main, ["serve", "--port", "0", "--player", value])
    assert result.exit_code == 2 and "Invalid value for '--player'" in result.output and says in result.output


def test_a_name_given_twice_is_refused(monkeypatch):
    monkeypatch.setattr(registry, "_PROGRAMS", {})
    result = CliRunner().invoke(main, ["serve", "--port", "0", "--player", f"a={SPEC}", "--player", f"a={SPEC}"])
    assert result.exit_code == 2 and "the name 'a' is given twice" in result.output


def test_sweeplab_serve_with_a_player_steps_it():
    """The real command: its solver processes are spawned, so the name reaches them only as the server passes it."""
    with serving("--player", f"pyref={SPEC}") as (_, url):
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

        def call(path: str, body: dict | None = None) -> dict:
            data = None if body is None else json.dumps(body).encode()
            request = urllib.request.Request(url + path.lstrip("/"), data, {"Content-Type": "application/json"})
            request.add_header("Origin", url.rstrip("/"))
            with opener.open(request, timeout=30) as response:
                return json.loads(response.read())

        assert "pyref" in [s["name"] for s in call("/api/meta")["strategies"]]
        game = call("/api/games", {"board": "beginner", "rule": "safe", "seed": 5})
        moves = []
        while not game["over"]:
            step = call(f"/api/games/{game['id']}/step", {"strategy": "pyref"})
            game = step["game"]
            moves.append(tuple(step["move"]["cell"]))
        assert moves == reference_moves("beginner", 5)
