"""The web API through FastAPI's test client: every endpoint with good and bad input, and the rule that the page
never receives a mine position before the game is over."""

from __future__ import annotations

import base64
import json
import random
import time

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sweeplab.analysis import analyze
from sweeplab.bench.runner import game_seeds
from sweeplab.core.game import Game, GameState
from sweeplab.core.rules import Rules, make_rules
from sweeplab.formats.mbf import Layout, write_mbf
from sweeplab.formats.position import parse_position
from sweeplab.strategies import registry
from sweeplab.strategies.base import play
from sweeplab.web.app import COOKIE, create_app
from sweeplab.web.games import GameStore

LAYOUT_KEYS = {"layout", "exploded", "wrong_flags"}


@pytest.fixture
def client(solvers) -> TestClient:
    return TestClient(create_app(solvers=solvers))


def new_game(client: TestClient, **body) -> dict:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def move(client: TestClient, game: dict, kind: str, x: int, y: int):
    return client.post(f"/api/games/{game['id']}/move", json={"kind": kind, "x": x, "y": y})


def winning_seed(board: str = "beginner", strategy: str = "exact") -> int:
    """A seed whose game the strategy wins when seeded as `sweeplab play` and the page seed it."""
    rules = make_rules(board, "safe")
    for seed in range(100):
        layout_seed, strategy_seed = game_seeds(seed, 0)
        game = play(registry.make(strategy, seed=strategy_seed), Game(rules, layout_seed))
        if game.state is GameState.WON:
            return seed
    raise AssertionError("no winning seed in 100")


def assert_no_layout(payload: dict) -> None:
    assert not LAYOUT_KEYS & set(payload), f"layout sent before the end: {sorted(LAYOUT_KEYS & set(payload))}"
    text = json.dumps(payload)
    assert '"layout"' not in text and '"exploded"' not in text


# ----- the page and its metadata -----
def test_index_and_static_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "<title>sweeplab</title>" in page.text
    for name, kind in (("app.js", "javascript"), ("app.css", "css")):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200 and kind in response.headers["content-type"]
    assert "http" not in page.text.replace("http://www.w3.org", ""), "the page must load nothing from the network"
    assert client.get("/static/nothing.js").status_code == 404


def test_meta_lists_presets_rules_strategies_and_limits(client):
    meta = client.get("/api/meta").json()
    assert meta["presets"]["expert"] == [30, 16, 99]
    assert set(meta["rules"]) == {"unsafe", "safe", "xp", "zero", "hint", "noguess"}
    names = [s["name"] for s in meta["strategies"]]
    assert names == registry.names()
    equation = next(s for s in meta["strategies"] if s["name"] == "equation")
    assert equation["options"] == {name: parameter.default for name, parameter in registry.options("equation").items()}
    exact = next(s for s in meta["strategies"] if s["name"] == "exact")
    assert exact["options"] == {}, "a Budget cannot be set from a spec, so it is not offered"
    assert meta["limits"]["page_max_cells"] == 10_000 and set(meta["levels"]) == {"1", "2", "3"}


def test_interactive_docs_are_off_because_they_load_from_a_cdn(client):
    assert client.get("/docs").status_code == 404
    assert client.get("/openapi.json").status_code == 200


# ----- new games -----
def test_new_game_shows_its_seed_and_no_layout(client):
    game = new_game(client, board="expert", rule="unsafe", seed=12345678901234567890)
    assert (game["width"], game["height"], game["mines"], game["rule"]) == (30, 16, 99, "unsafe")
    assert game["seed"] == "12345678901234567890" and game["state"] == "playing" and game["view"] == [-1] * 480
    assert_no_layout(game)
    random_seed = new_game(client)
    assert random_seed["seed"] is not None and random_seed["board"] == "9x9x10"


def test_custom_board_and_hint_rule(client):
    game = new_game(client, board="12x7x20", rule="hint", seed=3)
    assert game["board"] == "12x7x20" and game["hint_cell"] is not None
    x, y = game["hint_cell"]
    assert game["view"][y * 12 + x] >= 0, "the hinted game opens its hint cell"
    assert_no_layout(game)


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"board": "huge"}, "board", "unknown board 'huge'"),
        ({"board": "2000x2x1"}, "board", "board width 2000 is out of range"),
        ({"board": "150x150x10"}, "board", "too large for the page"),
        ({"board": "3x3x9", "rule": "safe"}, "request", "needs a mine-free cell"),
        ({"rule": "lucky"}, "rule", "Input should be"),
        ({"seed": -1}, "seed", "greater than or equal to 0"),
        ({"seed": 2**64}, "seed", "less than or equal to"),
        ({"seed": "abc"}, "seed", "valid integer"),
        ({"colour": "red"}, "colour", "Extra inputs are not permitted"),
        ({"mbf": "***"}, "mbf", "not valid base64"),
    ],
)
def test_new_game_refuses_bad_input_with_a_message(client, body, field, words):
    response = client.post("/api/games", json=body)
    assert response.status_code == 422, response.text
    data = response.json()
    assert words in data["detail"] and data["errors"][0]["field"] == field


def test_body_that_is_not_json_is_a_422_not_a_500(client):
    response = client.post("/api/games", content=b"{not json", headers={"content-type": "application/json"})
    assert response.status_code == 422 and "JSON" in response.json()["detail"]


def test_mbf_layout_is_played_as_it_is(client):
    layout = Layout(4, 3, (0, 11))
    game = new_game(client, mbf=base64.b64encode(write_mbf(layout)).decode())
    assert (game["board"], game["source"], game["seed"], game["rule"]) == ("4x3x2", "mbf", None, None)
    assert_no_layout(game)
    done = move(client, game, "reveal", 0, 0).json()["game"]
    assert done["state"] == "lost" and done["layout"] == [[0, 0], [3, 2]] and done["exploded"] == [0, 0]
    again = client.post(f"/api/games/{game['id']}/restart").json()
    assert again["state"] == "playing" and again["view"] == [-1] * 12
    won = move(client, again, "reveal", 2, 0).json()["game"]
    assert won["view"][2] == 0 and won["state"] == "playing"


def test_malformed_or_oversized_mbf_is_refused(client):
    truncated = client.post("/api/games", json={"mbf": base64.b64encode(bytes([4, 3, 0, 5, 0, 0])).decode()})
    assert truncated.status_code == 400 and "truncated" in truncated.json()["detail"]
    big = client.post("/api/games", json={"mbf": base64.b64encode(write_mbf(Layout(200, 200, (0,)))).decode()})
    assert big.status_code == 400 and "too large for the page" in big.json()["detail"]


# ----- moves -----
def test_reveal_flag_unflag_and_chord(client):
    game = new_game(client, board="beginner", rule="zero", seed=4)
    opened = move(client, game, "reveal", 4, 4).json()
    view = opened["game"]["view"]
    assert view[4 * 9 + 4] == 0 and opened["opened"] > 1 and opened["game"]["elapsed"] >= 0
    assert_no_layout(opened["game"])
    covered = view.index(-1)
    flagged = move(client, game, "flag", covered % 9, covered // 9).json()["game"]
    assert flagged["view"][covered] == -2 and flagged["mines_left"] == 9 and flagged["flags"] == 1
    assert move(client, game, "unflag", covered % 9, covered // 9).json()["game"]["view"][covered] == -1
    # chord: flag a number's certain mines, then chord it to open its other covered neighbours
    result = analyze(parse_position(client.get(f"/api/games/{game['id']}/position").text))
    board = Game(make_rules("beginner"), 0).board
    for cell, value in enumerate(view):
        covered_around = [n for n in board.neighbours[cell] if view[n] == -1]
        mines_around = [n for n in covered_around if n in result.mines]
        if value > 0 and len(mines_around) == value and len(covered_around) > value:
            break
    else:
        raise AssertionError("no number to chord in this position")
    for mine in mines_around:
        move(client, game, "flag", mine % 9, mine // 9)
    chorded = move(client, game, "chord", cell % 9, cell // 9)
    assert chorded.status_code == 200, chorded.text
    assert chorded.json()["opened"] >= 1 and chorded.json()["game"]["state"] != "lost"
    refused = move(client, game, "chord", cell % 9, cell // 9)
    assert refused.status_code == 409 and "no covered unflagged neighbours" in refused.json()["detail"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"kind": "reveal", "x": 9, "y": 0}, "cell (9, 0) is off the 9x9 board"),
        ({"kind": "reveal", "x": -1, "y": 0}, "x: Input should be greater than or equal to 0"),
        ({"kind": "dig", "x": 0, "y": 0}, "kind: Input should be"),
        ({"kind": "reveal", "x": 0}, "y: Field required"),
        ({"kind": "reveal", "x": 0.5, "y": 0}, "x: Input should be a valid integer"),
    ],
)
def test_bad_moves_get_a_message(client, body, words):
    game = new_game(client, seed=1)
    response = client.post(f"/api/games/{game['id']}/move", json=body)
    assert response.status_code in (400, 422) and words in response.json()["detail"], response.text


def test_illegal_moves_are_conflicts(client):
    game = new_game(client, board="beginner", rule="zero", seed=4)
    move(client, game, "reveal", 4, 4)
    again = move(client, game, "reveal", 4, 4)
    assert again.status_code == 409 and "already revealed" in again.json()["detail"]
    assert move(client, game, "unflag", 0, 0).status_code == 409
    lost = new_game(client, board="3x1x2", rule="unsafe", seed=1)
    state = lost
    for x in range(3):
        response = move(client, lost, "reveal", x, 0)
        if response.status_code == 200:
            state = response.json()["game"]
        if state["over"]:
            break
    assert state["state"] == "lost"
    after = move(client, lost, "reveal", 0, 0)
    assert after.status_code == 409 and "the game is over" in after.json()["detail"]


def test_unknown_or_malformed_game_ids(client):
    response = client.get("/api/games/abcdef")
    assert response.status_code == 404 and "no game 'abcdef'" in response.json()["detail"]
    assert client.get("/api/games/bad id!").status_code in (404, 422)
    assert client.post("/api/games/x%20y/move", json={"kind": "reveal", "x": 0, "y": 0}).status_code == 422


def test_restart_deals_the_same_game(client):
    game = new_game(client, board="intermediate", rule="safe", seed=99)
    first = move(client, game, "reveal", 3, 3).json()["game"]["view"]
    again = client.post(f"/api/games/{game['id']}/restart").json()
    assert again["id"] == game["id"] and again["moves"] == 0 and again["view"] == [-1] * 256
    assert move(client, again, "reveal", 3, 3).json()["game"]["view"] == first


# ----- the rule: no mine position before the end -----
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    rule=st.sampled_from(["unsafe", "safe", "xp", "zero", "hint"]),
    seed=st.integers(0, 2**32),
    picks=st.lists(st.tuples(st.sampled_from(["reveal", "flag", "step"]), st.integers(0, 10**6)), max_size=40),
)
def test_no_mine_position_reaches_the_page_before_the_game_ends(client, rule, seed, picks):
    game = new_game(client, board="8x8x12", rule=rule, seed=seed)
    assert_no_layout(game)
    gid = game["id"]
    for kind, pick in picks:
        if game["over"]:
            break
        covered = [i for i, v in enumerate(game["view"]) if v == -1]
        if not covered:
            break
        cell = covered[pick % len(covered)]
        if kind == "step":
            response = client.post(f"/api/games/{gid}/step", json={"strategy": "single-point"})
            game = response.json()["game"]
        else:
            game = move(client, game, kind, cell % 8, cell // 8).json()["game"]
        for payload in (
            game,
            client.get(f"/api/games/{gid}").json(),
            client.get(f"/api/games/{gid}/hint?level=3").json(),
            client.get(f"/api/games/{gid}/probabilities").json(),
        ):
            if not game["over"]:
                assert_no_layout(payload)
    if game["over"]:
        assert game["layout"] and len(game["layout"]) == 12


def test_overlay_and_hints_depend_only_on_what_the_player_sees(client, solvers):
    """Two games with different layouts but the same visible position get the same overlay and hints."""
    wall = [2, 10, 18, 24, 25, 26]  # mines fencing in the top-left corner; the seventh lies out of sight
    rules = Rules(8, 8, 7, "unsafe")
    a = Game(rules, layout=[*wall, 63])
    b = Game(rules, layout=[*wall, 60])
    a.reveal(0), b.reveal(0)
    assert a.observation().view == b.observation().view
    store = GameStore()
    app = create_app(store=store, solvers=solvers)
    test = TestClient(app)
    browser = test.get("/api/meta").cookies[COOKIE]
    answers = []
    for game in (a, b):
        live = store.new(game.rules, 0, client=browser)
        live.game = game
        paths = ("probabilities", "hint?level=1", "hint?level=2", "hint?level=3")
        answers.append([test.get(f"/api/games/{live.id}/{path}").json() for path in paths])
    assert answers[0] == answers[1]


# ----- the auto-solver -----
def test_step_plays_the_strategy_as_sweeplab_play_does(client):
    seed = winning_seed()
    game = new_game(client, board="beginner", rule="safe", seed=seed)
    layout_seed, strategy_seed = game_seeds(seed, 0)  # the game `sweeplab play --seed SEED` plays
    reference = play(registry.make("exact", seed=strategy_seed), Game(make_rules("beginner", "safe"), layout_seed))
    moves = []
    while not game["over"]:
        response = client.post(f"/api/games/{game['id']}/step", json={"strategy": "exact"})
        assert response.status_code == 200, response.text
        data = response.json()
        game = data["game"]
        moves.append((data["move"]["kind"], data["move"]["cell"]))
        if data["guess"] is not None:
            assert data["certain"] is False and 0 <= data["guess"]["safety"] <= 1 and data["guess"]["outcome"] is True
    assert game["state"] == "won" and game["strategy"] == "exact"
    assert [(m.kind, list(Game(reference.rules).board.xy(m.cell))) for m in reference.history] == moves
    over = client.post(f"/api/games/{game['id']}/step", json={"strategy": "exact"})
    assert over.status_code == 409


def test_step_with_options_and_bad_specs(client):
    game = new_game(client, seed=2)
    ok = client.post(f"/api/games/{game['id']}/step", json={"strategy": "equation[guess=pgms]"})
    assert ok.status_code == 200 and ok.json()["game"]["strategy"] == "equation[guess=pgms]"
    for spec, words in (
        ("nobody", "unknown strategy 'nobody'"),
        ("gac[colour=1]", "has no option 'colour'"),
        ("gac[pairs=3]", "should be a bool"),
        ("exact[budget=1]", "cannot be set from a spec"),
        ("best[tolerance=2]", "tolerance must be at least 0 and below 1"),
    ):
        response = client.post(f"/api/games/{game['id']}/step", json={"strategy": spec})
        assert response.status_code == 422 and words in response.json()["detail"], (spec, response.text)


def test_step_shows_a_strategys_explanation(client, monkeypatch):
    monkeypatch.setitem(registry._BUILTIN, "test-explainer", "tests.web.strategies_for_tests:ExplainingStrategy")
    game = new_game(client, board="5x5x1", rule="unsafe", seed=1)  # under zero the first reveal is certain
    data = client.post(f"/api/games/{game['id']}/step", json={"strategy": "test-explainer"}).json()
    assert data["guess"]["kind"] == "educated" and data["guess"]["safety"] == 0.5
    assert data["guess"]["explanation"] == {"text": "the first covered cell", "figures": {"cell": 0, "p": 0.5}}


def test_a_crashing_strategy_is_named_and_the_server_keeps_going(client, monkeypatch):
    monkeypatch.setitem(registry._BUILTIN, "test-crasher", "tests.web.strategies_for_tests:CrashingStrategy")
    game = new_game(client, seed=1)
    response = client.post(f"/api/games/{game['id']}/step", json={"strategy": "test-crasher"})
    assert response.status_code == 500
    assert response.json()["detail"] == "strategy 'test-crasher' crashed: ZeroDivisionError: boom"
    assert client.get(f"/api/games/{game['id']}").status_code == 200


def test_a_board_past_a_strategys_limit_is_refused_with_the_limit(client):
    game = new_game(client, board="expert", seed=1)
    response = client.post(f"/api/games/{game['id']}/step", json={"strategy": "optimal"})
    assert response.status_code == 400, response.text
    detail = response.json()["detail"]
    assert detail.startswith("optimal: 30x16 with 99 mines has 5.6022e+104 layouts")
    assert "more than the 1,000,000 this search keeps" in detail
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == 0


def test_a_player_move_restarts_the_solver_from_the_new_position(client):
    game = new_game(client, board="beginner", rule="zero", seed=8)
    client.post(f"/api/games/{game['id']}/step", json={"strategy": "exact"})
    flagged = next(i for i, v in enumerate(client.get(f"/api/games/{game['id']}").json()["view"]) if v == -1)
    after = move(client, game, "flag", flagged % 9, flagged // 9).json()["game"]
    assert after["strategy"] is None
    response = client.post(f"/api/games/{game['id']}/step", json={"strategy": "exact"})
    assert response.status_code == 200 and response.json()["move"]["cell"] != [flagged % 9, flagged // 9]


# ----- the helper and the overlay -----
def test_hint_levels(client):
    game = new_game(client, board="beginner", rule="zero", seed=4)
    start = client.get(f"/api/games/{game['id']}/hint?level=1").json()
    assert start["safe"] == [] and "Nothing is revealed yet" in start["text"]
    move(client, game, "reveal", 4, 4)
    observation = parse_position(client.get(f"/api/games/{game['id']}/position").text)
    result = analyze(observation)
    three = client.get(f"/api/games/{game['id']}/hint?level=3").json()
    assert three["safe"] == [list(observation.board.xy(c)) for c in result.safe]
    assert three["mines"] == [list(observation.board.xy(c)) for c in result.mines]
    one = client.get(f"/api/games/{game['id']}/hint?level=1").json()
    assert {tuple(c) for c in one["safe"]} <= {tuple(c) for c in three["safe"]}
    assert {tuple(c) for c in one["mines"]} <= {tuple(c) for c in three["mines"]}
    two = client.get(f"/api/games/{game['id']}/hint?level=2").json()
    assert two["values"] and all(0 <= v["p"] <= 1 for v in two["values"])
    assert client.get(f"/api/games/{game['id']}/hint").json()["level"] == 3


@pytest.mark.parametrize("level", ["0", "4", "two"])
def test_hint_level_is_checked(client, level):
    game = new_game(client, seed=1)
    response = client.get(f"/api/games/{game['id']}/hint?level={level}")
    assert response.status_code == 422 and response.json()["detail"].startswith("level: ")


def test_wrong_flags_that_contradict_a_number_are_named(client):
    game = new_game(client, board="beginner", rule="zero", seed=4)
    view = move(client, game, "reveal", 4, 4).json()["game"]["view"]
    board = Game(make_rules("beginner"), 0).board
    zero_neighbour_of_one = next(c for c in range(81) if view[c] == -1 and any(view[n] == 1 for n in board.neighbours[c]))
    ones = [n for n in board.neighbours[zero_neighbour_of_one] if view[n] == 1]
    # flag every covered neighbour of a 1 (at least two when the 1 is not already satisfied)
    target = ones[0]
    for n in board.neighbours[target]:
        if view[n] == -1:
            move(client, game, "flag", n % 9, n // 9)
    covered = [n for n in board.neighbours[target] if view[n] == -1]
    response = client.get(f"/api/games/{game['id']}/probabilities")
    if len(covered) >= 2:
        assert response.status_code == 422
        data = response.json()
        assert data["inconsistent"] is True and data["cells"] and "cannot hold" in data["detail"]
        assert client.get(f"/api/games/{game['id']}/hint?level=1").status_code == 422


def test_probabilities_equal_the_exact_engine_on_the_visible_position(client):
    game = new_game(client, board="intermediate", rule="zero", seed=21)
    move(client, game, "reveal", 8, 8)
    overlay = client.get(f"/api/games/{game['id']}/probabilities").json()
    observation = parse_position(overlay["position"])
    result = analyze(observation)
    for cell, p in enumerate(overlay["probabilities"]):
        if observation.view[cell] >= 0:
            assert p is None
        else:
            assert p == pytest.approx(result.probability(cell), abs=1e-12)
    assert overlay["exact"] is True and overlay["layouts"] == str(result.layouts)
    assert overlay["best"] is not None


def test_position_download(client):
    game = new_game(client, board="4x3x2", rule="safe", seed=5)
    response = client.get(f"/api/games/{game['id']}/position")
    assert response.status_code == 200 and response.text == "4x3x2\nHHHH\nHHHH\nHHHH\n"
    assert "attachment" in response.headers["content-disposition"]


# ----- the analyser -----
def test_analyze_a_grid(client):
    observation = parse_position("5x3x3\n121HH\nHHHHH\nHHHHH\n")
    body = {"width": 5, "height": 3, "mines": 3, "view": list(observation.view)}
    data = client.post("/api/analyze", json=body).json()
    assert data["safe"] == [[3, 0], [1, 1], [3, 1]] and data["mines"] == [[0, 1], [2, 1]] and data["layouts"] == "7"
    assert data["probabilities"][4] == pytest.approx(1 / 7) and data["probabilities"][0] is None
    assert data["best"] == {"cell": [3, 0], "probability": 0.0, "certain": True, "kind": "safe", "ties": 3}
    assert data["position"] == "5x3x3\n121HH\nHHHHH\nHHHHH\n"


def test_analyze_a_guess_and_a_craps_shoot(client):
    observation = parse_position("3x2x1\n01H\n01H\n")
    data = client.post("/api/analyze", json={"width": 3, "height": 2, "mines": 1, "view": list(observation.view)}).json()
    assert data["best"]["certain"] is False and data["best"]["probability"] == pytest.approx(0.5) and data["best"]["ties"] == 2
    assert data["craps_shoots"] == [{"cells": [[2, 0], [2, 1]], "best": [2, 0], "safety": pytest.approx(0.5)}]


@pytest.mark.parametrize(
    ("text", "cells", "words"),
    [
        ("3x1x1\n2HH\n", [[0, 0]], "the 2 at (0, 0) cannot hold"),
        ("3x2x2\n1F1\nFHH\n", [[0, 0]], "the 1 at (0, 0) cannot hold"),
        ("2x3x5\n3H\nHH\nH0\n", [[0, 0], [1, 2]], "the 3 at (0, 0) cannot hold together with the numbers at (1, 2)"),
        ("3x1x0\nH1H\n", [], "the numbers need between"),
    ],
)
def test_an_impossible_position_names_the_number(client, text, cells, words):
    view = []
    for row in text.splitlines()[1:]:
        view += [-1 if ch == "H" else -2 if ch == "F" else int(ch) for ch in row]
    width, height, mines = (int(v) for v in text.splitlines()[0].split("x"))
    response = client.post("/api/analyze", json={"width": width, "height": height, "mines": mines, "view": view})
    assert response.status_code == 422, response.text
    data = response.json()
    assert data["inconsistent"] is True and words in data["detail"]
    assert data["cells"][: len(cells)] == cells


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"width": 2, "height": 2, "mines": 1, "view": [-1, -1, -1]}, "view has 3 cells but a 2x2 board has 4"),
        ({"width": 2, "height": 1, "mines": 1, "view": [9, -1]}, "view.0: Input should be less than or equal to 8"),
        ({"width": 2, "height": 1, "mines": 3, "view": [-1, -1]}, "3 mines do not fit"),
        ({"width": 101, "height": 100, "mines": 1, "view": [-1] * 10100}, "too large for the page"),
        ({"width": 0, "height": 1, "mines": 0, "view": []}, "width: Input should be greater than or equal to 1"),
    ],
)
def test_analyze_refuses_bad_grids(client, body, words):
    response = client.post("/api/analyze", json=body)
    assert response.status_code == 422 and words in response.json()["detail"], response.text


def test_parse_position_text(client):
    data = client.post("/api/position/parse", json={"text": "3x2x1\n1F1\nhhh\n"}).json()
    assert data == {"width": 3, "height": 2, "mines": 1, "view": [1, -2, 1, -1, -1, -1], "text": "3x2x1\n1F1\nHHH\n"}
    bad = client.post("/api/position/parse", json={"text": "3x2x1\n1X1\nHHH\n"})
    assert bad.status_code == 400 and "line 2, cell (1, 0): unexpected 'X'" in bad.json()["detail"]
    big = client.post("/api/position/parse", json={"text": "120x100x5\n" + ("H" * 120 + "\n") * 100})
    assert big.status_code == 400 and "too large for the page" in big.json()["detail"]
    huge = client.post("/api/position/parse", json={"text": "H" * 100_000})
    assert huge.status_code == 422 and "text: String should have at most" in huge.json()["detail"]


# ----- the benchmark panel -----
def wait_for(client: TestClient, state: str, seconds: float = 60) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status = client.get("/api/bench").json()
        if status["state"] == state:
            return status
        time.sleep(0.1)
    raise AssertionError(f"benchmark did not reach {state!r}: {status}")


def test_bench_runs_in_the_server_with_progress_and_a_report(client):
    assert client.get("/api/bench").json() == {"run": None, "state": "idle"}
    assert client.get("/api/bench/report.json").status_code == 404
    assert client.post("/api/bench/cancel").status_code == 404
    started = client.post(
        "/api/bench", json={"strategies": ["exact", "single-point"], "board": "beginner", "games": 20, "seed": 3}
    )
    assert started.status_code == 202 and started.json()["games_total"] == 40
    status = wait_for(client, "done")
    assert status["games_done"] == 40
    summaries = status["report"]["summaries"]
    assert [s["strategy"] for s in summaries] == ["exact", "single-point"]
    assert all(s["games"] == 20 and 0 <= s["win_rate"] <= 1 and s["sem"] >= 0 for s in summaries)
    assert status["report"]["paired"][0]["a"] == "exact"
    report = client.get("/api/bench/report.json")
    assert report.status_code == 200 and "attachment" in report.headers["content-disposition"]
    assert report.json()["settings"]["strategies"] == ["exact", "single-point"]


def test_bench_is_one_at_a_time_and_cancellable(client):
    body = {"strategies": ["cspstrategy"], "board": "expert", "games": 2000}
    assert client.post("/api/bench", json=body).status_code == 202
    busy = client.post("/api/bench", json=body)
    assert busy.status_code == 409 and "still running" in busy.json()["detail"]
    cancelled = client.post("/api/bench/cancel")
    assert cancelled.status_code == 200 and cancelled.json()["state"] == "cancelled"
    assert client.get("/api/bench").json()["state"] == "cancelled"
    runner = client.app.state.bench
    assert not runner._job.process.is_alive()


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"strategies": []}, "strategies: List should have at least 1 item"),
        ({"strategies": ["nobody"]}, "unknown strategy 'nobody'"),
        ({"strategies": ["exact", "exact"]}, "named twice"),
        ({"strategies": ["exact"], "games": 0}, "games: Input should be greater than or equal to 1"),
        ({"strategies": ["exact"], "games": 100000}, "games: Input should be less than or equal to 2000"),
        ({"strategies": ["exact"], "board": "300x200x1"}, "too large for the page"),
        ({"strategies": ["a,b,c,d,e,f,g"]}, "unknown strategy 'a'"),
    ],
)
def test_bench_refuses_bad_requests(client, body, words):
    response = client.post("/api/bench", json=body)
    assert response.status_code == 422 and words in response.json()["detail"], response.text


# ----- security and reliability -----
def test_host_header_is_checked_against_dns_rebinding(solvers):
    app = create_app(allowed_hosts=["127.0.0.1", "localhost"], solvers=solvers)
    assert TestClient(app, base_url="http://127.0.0.1:8000").get("/api/meta").status_code == 200
    assert TestClient(app, base_url="http://evil.example:8000").get("/api/meta").status_code == 400


def test_an_internal_error_is_a_message_not_a_traceback(monkeypatch, solvers):
    import sweeplab.web.app as web_app
    from tests.web.strategies_for_tests import broken_hint

    monkeypatch.setattr(web_app, "hint_payload", broken_hint)
    client = TestClient(create_app(solvers=solvers), raise_server_exceptions=False)
    game = new_game(client, seed=1)
    response = client.get(f"/api/games/{game['id']}/hint")
    assert response.status_code == 500
    assert response.json() == {"detail": "internal error: RuntimeError: something broke"}


def test_unknown_routes_and_methods_are_4xx(client):
    assert client.get("/api/nothing").status_code == 404
    assert client.delete("/api/games").status_code == 405


def test_random_requests_never_get_a_500(client):
    """Fuzz the JSON endpoints with random bodies: every answer is below 500."""
    rng = random.Random(5)
    values = [None, -1, 0, 1, 9, 2**70, 0.5, "", "x", "beginner", "9x9x10", [], [1], {}, {"a": 1}, True, "exact"]
    fields = [
        "board",
        "rule",
        "seed",
        "mbf",
        "kind",
        "x",
        "y",
        "strategy",
        "width",
        "height",
        "mines",
        "view",
        "text",
        "strategies",
        "games",
    ]
    game = new_game(client, seed=1)
    paths = [
        "/api/games",
        f"/api/games/{game['id']}/move",
        f"/api/games/{game['id']}/step",
        "/api/analyze",
        "/api/position/parse",
    ]
    for _ in range(300):
        body = {rng.choice(fields): rng.choice(values) for _ in range(rng.randint(0, 4))}
        path = rng.choice(paths)
        response = client.post(path, json=body)
        assert response.status_code < 500, (path, body, response.text)
        assert "detail" in response.json() or response.status_code in (200, 201)
