"""Live games: random ids, a bounded count, an idle age, the timer, restart, and the layout only at the end."""

import pytest

from sweeplab.core.errors import IllegalMoveError
from sweeplab.core.rules import make_rules
from sweeplab.web.games import GameStore, UnknownGameError


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_ids_are_random_and_long():
    store = GameStore()
    ids = {store.new(make_rules("beginner"), seed).id for seed in range(50)}
    assert len(ids) == 50 and all(len(i) >= 20 for i in ids)


def test_the_count_is_bounded_least_recently_used_goes_first():
    store = GameStore(max_games=3)
    games = [store.new(make_rules("beginner"), seed) for seed in range(3)]
    store.get(games[0].id)  # used again: now the most recent
    fourth = store.new(make_rules("beginner"), 3)
    assert len(store) == 3
    with pytest.raises(UnknownGameError, match="no game"):
        store.get(games[1].id)
    assert store.get(games[0].id) and store.get(fourth.id)


def test_idle_games_are_forgotten():
    clock = Clock()
    store = GameStore(max_idle=60, clock=clock)
    old = store.new(make_rules("beginner"), 1)
    clock.now += 30
    kept = store.new(make_rules("beginner"), 2)
    clock.now += 45  # old: 75 s idle, kept: 45 s
    assert store.get(kept.id) is kept
    with pytest.raises(UnknownGameError, match=r"0\.0166667 hours idle"):
        store.get(old.id)


def test_timer_runs_from_the_first_move_to_the_end():
    clock = Clock()
    live = GameStore(clock=clock).new(make_rules("3x1x1", "unsafe"), 0)
    assert live.elapsed() == 0.0
    clock.now += 5
    mine = next(iter(live.game.mine_cells()))
    safe = [c for c in range(3) if c != mine]
    live.move("flag", mine)
    clock.now += 2.5
    assert live.elapsed() == 2.5 and not live.payload()["over"]
    for cell in safe:
        if not live.game.over and live.game.observation().view[cell] < 0:
            live.move("reveal", cell)
    clock.now += 10
    assert live.game.state.value == "won" and live.elapsed() == 2.5
    with pytest.raises(IllegalMoveError, match="the game is over"):
        live.move("reveal", safe[0])


def test_payload_carries_the_layout_only_when_over():
    live = GameStore().new(make_rules("4x1x1", "unsafe"), 7)
    assert "layout" not in live.payload()
    mine = next(iter(live.game.mine_cells()))
    live.move("flag", (mine + 1) % 4)  # a wrong flag
    live.move("reveal", mine)
    payload = live.payload()
    assert payload["state"] == "lost" and payload["layout"] == [[mine, 0]] and payload["exploded"] == [mine, 0]
    assert payload["wrong_flags"] == [[(mine + 1) % 4, 0]]


def test_restart_deals_the_same_layout_and_resets_the_solver(solvers):
    live = GameStore().new(make_rules("expert", "safe"), 11)
    live.step("exact", solvers)
    first = live.game.mine_cells()
    assert live.player_spec == "exact" and live.player_worker is not None
    live.restart()
    assert live.game.moves == 0 and live.player_spec is None and live.started is None
    live.step("exact", solvers)
    assert live.game.mine_cells() == first
