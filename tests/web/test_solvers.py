"""The solver processes: results and errors come back, a task past its time or memory is ended and named, and a
game's auto-solver plays through the API exactly as `sweeplab play` plays it."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from sweeplab.bench.runner import game_seeds
from sweeplab.core.game import Game
from sweeplab.core.rules import make_rules
from sweeplab.strategies import registry
from sweeplab.strategies.base import play
from sweeplab.web.app import create_app
from sweeplab.web.solvers import SolverLimitError, SolverPool


@pytest.fixture(scope="module")
def short() -> SolverPool:
    pool = SolverPool(workers=1, seconds=1.0, memory=256 << 20)
    yield pool
    pool.close()


def test_results_and_errors_come_back(short):
    assert short.run(sum, [1, 2, 3]) == (6, 0)
    with pytest.raises(ValueError, match="invalid literal"):
        short.run(int, "x")


def test_a_task_past_the_time_limit_is_ended_and_its_process_replaced(short):
    short.run(abs, -1)
    generation = short.generation(0)
    began = time.monotonic()
    with pytest.raises(SolverLimitError, match=r"the nap ran past the server's limit of 1 s for one request"):
        short.run(time.sleep, 30, what="the nap")
    assert time.monotonic() - began < 5
    assert short.run(abs, -2) == (2, 0) and short.generation(0) == generation + 1


def test_a_task_past_the_memory_cap_is_ended(short):
    with pytest.raises(SolverLimitError, match=r"the hog needed more than the server's memory cap of 0\.25 GiB"):
        short.run(bytearray, 1 << 30, what="the hog")
    assert short.run(abs, -3) == (3, 0)


def test_a_closed_pool_refuses_work():
    pool = SolverPool(workers=1)
    pool.close()
    with pytest.raises(SolverLimitError, match="the server is shutting down"):
        pool.run(abs, -1)


@pytest.mark.parametrize(("strategy", "board", "seed"), [("best", "expert", 3), ("sa", "intermediate", 5)])
def test_the_auto_solver_plays_the_moves_of_sweeplab_play(solvers, strategy, board, seed):
    """Stepped through the API (each step in a solver process that keeps the strategy), a game plays the moves
    `strategies.play` plays with the same seeds, `begin` included."""
    client = TestClient(create_app(solvers=solvers))
    game = client.post("/api/games", json={"board": board, "rule": "safe", "seed": seed}).json()
    layout_seed, strategy_seed = game_seeds(seed, 0)
    reference = play(registry.make(strategy, seed=strategy_seed), Game(make_rules(board, "safe"), layout_seed))
    moves = []
    while not game["over"]:
        response = client.post(f"/api/games/{game['id']}/step", json={"strategy": strategy})
        assert response.status_code == 200, response.text
        game = response.json()["game"]
        moves.append(tuple(response.json()["move"]["cell"]))
    assert moves == [reference.board.xy(m.cell) for m in reference.history]
    assert game["state"] == reference.state.value
