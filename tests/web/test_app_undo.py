"""The undo endpoint and a finished game's statistics through the API (the rest of the API: test_app.py)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from sweeplab.web.app import create_app
from tests.web.test_app import move, new_game, winning_seed


@pytest.fixture
def client(solvers) -> TestClient:
    return TestClient(create_app(solvers=solvers))


def test_undo_a_losing_move_and_play_on(client):
    game = new_game(client, board="beginner", rule="safe", seed=5)
    refused = client.post(f"/api/games/{game['id']}/undo")
    assert refused.status_code == 409 and "nothing to undo" in refused.json()["detail"]
    first = move(client, game, "reveal", 0, 0).json()["game"]
    covered = [i for i, v in enumerate(first["view"]) if v == -1]
    state = first
    for cell in covered:  # reveal blindly until a mine goes off
        state = move(client, game, "reveal", cell % 9, cell // 9).json()["game"]
        if state["state"] == "lost":
            break
    assert state["state"] == "lost" and state["stats"]["assisted"] is False
    exploded = state["exploded"]
    answer = client.post(f"/api/games/{game['id']}/undo")
    assert answer.status_code == 200, answer.text
    undone = answer.json()
    assert undone["undone"] == {"kind": "reveal", "cell": exploded}
    back = undone["game"]
    assert back["state"] == "playing" and back["undos"] == 1 and back["assisted"] is True
    assert "layout" not in back and "stats" not in back
    assert back["view"][exploded[1] * 9 + exploded[0]] == -1


def test_undo_of_an_unknown_game_is_a_404(client):
    response = client.post("/api/games/nosuchgame/undo")
    assert response.status_code == 404 and "no game 'nosuchgame'" in response.json()["detail"]
    assert client.get("/api/games/x/undo").status_code == 405


def test_a_solved_game_reports_its_statistics_as_assisted(client):
    game = new_game(client, board="beginner", rule="safe", seed=winning_seed())
    state = game
    while not state["over"]:
        state = client.post(f"/api/games/{game['id']}/step", json={"strategy": "exact"}).json()["game"]
    stats = state["stats"]
    assert state["state"] == "won" and stats["three_bv"] == stats["three_bv_solved"] > 0
    assert stats["solver_moves"] == state["moves"] == stats["clicks"] and stats["assisted"] is True
    assert stats["efficiency"] == round(stats["three_bv"] / stats["clicks"], 3) <= 1  # the auto-solver's moves count


def test_undo_of_an_expired_game_says_why(solvers):
    from sweeplab.web.games import GameStore

    client = TestClient(create_app(store=GameStore(per_client=1), solvers=solvers))
    old = new_game(client, seed=1)
    new_game(client, seed=2)  # this browser keeps one game: the first goes
    response = client.post(f"/api/games/{old['id']}/undo")
    assert response.status_code == 410 and "this game has expired" in response.json()["detail"]
