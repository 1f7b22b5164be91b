"""Games belong to the browser that started them (a cookie the server sets): another browser, however busy, cannot
end them, and a game that has expired says so."""

from __future__ import annotations

from fastapi.testclient import TestClient

from sweeplab.web.app import COOKIE, create_app
from sweeplab.web.games import GameStore


def test_the_first_answer_sets_an_http_only_same_site_cookie(solvers):
    client = TestClient(create_app(solvers=solvers))
    first = client.get("/api/meta")
    header = first.headers["set-cookie"].lower()
    assert header.startswith(f"{COOKIE}=") and "httponly" in header and "samesite=strict" in header
    assert "set-cookie" not in client.get("/api/meta").headers  # sent back, so kept


def test_another_browsers_games_cannot_push_out_mine(solvers):
    app = create_app(store=GameStore(per_client=20), solvers=solvers)
    mine, theirs = TestClient(app), TestClient(app)
    game = mine.post("/api/games", json={"seed": 1}).json()
    for seed in range(200):
        assert theirs.post("/api/games", json={"seed": seed}).status_code == 201
    assert mine.get(f"/api/games/{game['id']}").status_code == 200
    refused = theirs.get(f"/api/games/{game['id']}")
    assert refused.status_code == 404 and "another browser" in refused.json()["detail"]


def test_a_scripts_requests_without_a_cookie_each_count_as_a_new_browser(solvers):
    app = create_app(store=GameStore(max_clients=5), solvers=solvers)
    page, script = TestClient(app), TestClient(app)
    page.get("/")  # the page loads first, so its cookie comes back with its first game
    game = page.post("/api/games", json={"seed": 1}).json()
    for seed in range(50):
        script.cookies.clear()
        assert script.post("/api/games", json={"seed": seed}).status_code == 201
    assert page.get(f"/api/games/{game['id']}").status_code == 200


def test_my_own_oldest_game_expires_and_says_so(solvers):
    client = TestClient(create_app(store=GameStore(per_client=3), solvers=solvers))
    first = client.post("/api/games", json={"seed": 1}).json()
    for seed in range(2, 5):
        client.post("/api/games", json={"seed": seed})
    for method, path in (("GET", ""), ("POST", "/restart"), ("GET", "/hint"), ("GET", "/probabilities")):
        response = client.request(method, f"/api/games/{first['id']}{path}")
        assert response.status_code == 410, (path, response.text)
        assert response.json()["detail"].startswith("this game has expired: this browser started newer games")
    response = client.post(f"/api/games/{first['id']}/move", json={"kind": "reveal", "x": 0, "y": 0})
    assert response.status_code == 410
