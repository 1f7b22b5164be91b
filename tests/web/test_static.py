"""The page's files: every script and stylesheet index.html loads is served, with its type."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from sweeplab.web.app import STATIC, create_app


def test_every_file_the_page_loads_is_served(solvers):
    client = TestClient(create_app(solvers=solvers))
    page = client.get("/").text
    scripts = re.findall(r'<script src="/static/([\w.]+)"', page)
    assert {"app.js", "board.js", "stats.js", "chart.js", "keyboard.js", "analyser.js", "bench.js"} <= set(scripts)
    assert scripts.index("board.js") < scripts.index("app.js") < scripts.index("analyser.js"), "BoardView first"
    assert sorted(p.name for p in STATIC.glob("*.js")) == sorted(scripts), "a script on disk the page never loads"
    for name in [*scripts, *re.findall(r'<link rel="stylesheet" href="/static/([\w.]+)"', page)]:
        response = client.get(f"/static/{name}")
        assert response.status_code == 200, name
        kind = "javascript" if name.endswith(".js") else "css"
        assert kind in response.headers["content-type"], (name, response.headers["content-type"])
