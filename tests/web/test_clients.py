"""Games belong to the browser that started them (a cookie the server issues and signs): another browser, however
busy, cannot end them, a made-up cookie names a new browser, and a game that has expired says so."""

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


def test_a_flood_of_new_browsers_and_made_up_cookies_leaves_a_players_game(solvers):
    app = create_app(store=GameStore(max_clients=8), solvers=solvers)
    page, script = TestClient(app), TestClient(app)
    game = page.post("/api/games", json={"seed": 1}).json()
    assert page.post(f"/api/games/{game['id']}/move", json={"kind": "flag", "x": 0, "y": 0}).status_code == 200
    mine = page.cookies[COOKIE]
    for seed in range(100):
        script.cookies.clear()
        ident, _, signature = mine.partition(".")  # the signature's first letter changed: six bits of it, never kept
        changed = f"{ident}.{'B' if signature[0] == 'A' else 'A'}{signature[1:]}"
        forged = [f"{'A' * 22}{seed:04d}", f"{mine.partition('.')[0]}.{'x' * 24}", changed, ""][seed % 4]
        if forged:
            script.cookies.set(COOKIE, forged)
        answer = script.post("/api/games", json={"seed": seed})
        assert answer.status_code == 201 and answer.cookies[COOKIE] not in (forged, mine)  # each a new browser
    assert page.get(f"/api/games/{game['id']}").status_code == 200


def test_an_id_the_server_did_not_sign_is_a_new_browser(solvers):
    app = create_app(solvers=solvers)
    page = TestClient(app)
    game = page.post("/api/games", json={"seed": 1}).json()
    token, _, mac = page.cookies[COOKIE].partition(".")
    assert len(token) >= 20 and len(mac) >= 20
    other = TestClient(create_app(solvers=solvers))  # another process: another key
    issued_elsewhere = other.get("/api/meta").cookies[COOKIE]
    for cookie in (token, f"{token}.{mac[:-2]}AA", issued_elsewhere, "x" * 5000):
        thief = TestClient(app, cookies={COOKIE: cookie})
        answer = thief.get(f"/api/games/{game['id']}")
        assert answer.status_code == 404 and answer.cookies[COOKIE] != cookie, cookie


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
