"""Before the API: signed browser ids, requests from other sites' pages refused, bodies capped before parsing, and
each browser's benchmark its own."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from sweeplab.web.app import COOKIE, create_app
from sweeplab.web.guards import MAX_BODY_BYTES, ClientIds, foreign_origin


def scope(**headers: str) -> dict:
    return {"headers": [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()]}


def test_ids_verify_only_with_the_key_that_signed_them():
    ids, other = ClientIds(), ClientIds()
    issued = ids.issue()
    assert ids.verify(issued) and not other.verify(issued)
    token, _, mac = issued.partition(".")
    for forged in (token, f"{token}.", f"{token}.{mac[::-1]}", f"{'A' * 22}.{mac}", "", "." * 50, issued + "x"):
        assert not ids.verify(forged), forged


def test_a_foreign_origin_or_referer_is_named_and_the_own_one_is_not():
    assert foreign_origin(scope(host="127.0.0.1:8000", origin="http://127.0.0.1:8000")) is None
    assert foreign_origin(scope(host="127.0.0.1:8000")) is None  # a script or curl: no site named
    assert foreign_origin(scope(host="127.0.0.1:8000", referer="http://127.0.0.1:8000/")) is None
    assert foreign_origin(scope(host="127.0.0.1:8000", origin="http://evil.com")) == "http://evil.com"
    assert foreign_origin(scope(host="127.0.0.1:8000", origin="null")) == "null"
    assert foreign_origin(scope(host="127.0.0.1:8000", origin="http://127.0.0.1:8001")) is not None
    assert foreign_origin(scope(host="127.0.0.1:8000", referer="http://evil.com/page")) is not None


@pytest.fixture
def app(solvers):
    return create_app(solvers=solvers)


def test_state_changing_requests_from_another_site_are_refused(app):
    client = TestClient(app, base_url="http://127.0.0.1:8000")
    game = client.post("/api/games", json={"seed": 1}).json()
    evil = {"Origin": "http://evil.com"}
    for method, path in (("POST", "/api/games"), ("POST", f"/api/games/{game['id']}/restart"), ("POST", "/api/bench/cancel")):
        refused = client.request(method, path, headers=evil, json={})
        assert refused.status_code == 403 and "from another site (http://evil.com)" in refused.json()["detail"]
    refused = client.post("/api/bench/cancel", headers={"Referer": "http://evil.com/a"})
    assert refused.status_code == 403
    assert client.get("/api/meta", headers=evil).status_code == 200  # reading is not changing (and SameSite keeps the cookie)
    own = client.post("/api/games", json={"seed": 2}, headers={"Origin": "http://127.0.0.1:8000"})
    assert own.status_code == 201


def test_bodies_past_the_cap_are_refused_before_parsing(app):
    client = TestClient(app)
    too_big = client.post(
        "/api/analyze", content=b"{" + b" " * MAX_BODY_BYTES + b"}", headers={"Content-Type": "application/json"}
    )
    assert too_big.status_code == 413 and f"{MAX_BODY_BYTES:,} bytes" in too_big.json()["detail"]

    def chunks():
        for _ in range(64):
            yield b" " * 16384

    streamed = client.post("/api/analyze", content=chunks(), headers={"Content-Type": "application/json"})
    assert streamed.status_code == 413  # no Content-Length: counted as it arrives
    assert client.post("/api/games", json={"seed": 1}).status_code == 201


def test_each_browser_has_its_own_benchmark_and_cancels_only_its_own(app):
    mine, theirs = TestClient(app), TestClient(app)
    body = {"strategies": ["cspstrategy"], "board": "expert", "games": 500}
    assert mine.post("/api/bench", json=body).status_code == 202
    assert theirs.get("/api/bench").json() == {"run": None, "state": "idle"}
    assert theirs.post("/api/bench/cancel").status_code == 404
    assert theirs.get("/api/bench/report.json").status_code == 404
    started = theirs.post("/api/bench", json={"strategies": ["random"], "board": "beginner", "games": 5})
    assert started.status_code == 202  # a second browser's run alongside
    deadline = time.monotonic() + 60
    while theirs.get("/api/bench").json()["state"] == "running" and time.monotonic() < deadline:
        time.sleep(0.1)
    assert theirs.get("/api/bench").json()["state"] == "done"
    assert mine.get("/api/bench").json()["state"] == "running"
    third = TestClient(app)
    third.post("/api/bench", json=body)
    fourth = TestClient(app).post("/api/bench", json=body)
    assert fourth.status_code == 409 and "as many as it runs at once" in fourth.json()["detail"]
    assert mine.post("/api/bench/cancel").json()["state"] == "cancelled"
    assert third.post("/api/bench/cancel").json()["state"] == "cancelled"
    assert mine.cookies[COOKIE] != theirs.cookies[COOKIE]
