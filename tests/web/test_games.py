"""Live games: random ids, a bounded count per browser and of browsers, an idle age, the timer, restart, and the
layout only at the end."""

import pytest

from sweeplab.core.errors import IllegalMoveError
from sweeplab.core.rules import make_rules
from sweeplab.web.games import ExpiredGameError, GameStore, UnknownGameError


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_ids_are_random_and_long():
    store = GameStore()
    ids = {store.new(make_rules("beginner"), seed).id for seed in range(50)}
    assert len(ids) == 50 and all(len(i) >= 20 for i in ids)


def test_each_browser_keeps_its_own_games_least_recently_used_goes_first():
    store = GameStore(per_client=3)
    games = [store.new(make_rules("beginner"), seed, client="a") for seed in range(3)]
    theirs = store.new(make_rules("beginner"), 9, client="b")
    store.get(games[0].id, client="a")  # used again: now a's most recent
    for seed in range(3, 203):  # a starts 200 more: only a's own games go
        fourth = store.new(make_rules("beginner"), seed, client="a")
    assert len(store) == 4 and store.get(theirs.id, client="b") is theirs and store.get(fourth.id, client="a")
    with pytest.raises(
        ExpiredGameError, match="this game has expired: this browser started newer games, and the server keeps the 3"
    ):
        store.get(games[1].id, client="a")
    with pytest.raises(UnknownGameError, match=r"no game .* started in another browser") as refused:
        store.get(theirs.id, client="a")  # another browser's game: not even said to exist
    assert not isinstance(refused.value, ExpiredGameError)


def test_the_number_of_browsers_is_bounded_those_whose_cookie_never_came_back_first():
    store = GameStore(max_clients=2)
    kept = store.new(make_rules("beginner"), 1, client="page", returned=True)
    first = store.new(make_rules("beginner"), 2, client="script-1", returned=False)
    store.new(make_rules("beginner"), 3, client="script-2", returned=False)
    with pytest.raises(ExpiredGameError, match="keeps games for 2 browsers and this one had been idle longest"):
        store.get(first.id, client="script-1")
    assert store.get(kept.id, client="page") is kept


def test_idle_games_are_forgotten():
    clock = Clock()
    store = GameStore(max_idle=60, clock=clock)
    old = store.new(make_rules("beginner"), 1)
    clock.now += 30
    kept = store.new(make_rules("beginner"), 2)
    clock.now += 45  # old: 75 s idle, kept: 45 s
    assert store.get(kept.id) is kept
    with pytest.raises(ExpiredGameError, match=r"this game has expired: it was left untouched for 0\.0166667 hours"):
        store.get(old.id)
    idle = store.new(make_rules("beginner"), 3, client="gone")
    clock.now += 61  # a browser idle that long goes with all its games
    store.new(make_rules("beginner"), 4)
    with pytest.raises(ExpiredGameError, match="left untouched"):
        store.get(idle.id, client="gone")


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


def test_undo_takes_back_a_losing_move_and_marks_the_game_assisted():
    clock = Clock()
    live = GameStore(clock=clock).new(make_rules("intermediate", "safe"), 3)
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        live.undo()
    live.move("reveal", 0)
    clock.now += 4
    before = live.game.observation().view
    mine = min(live.game.mine_cells())
    live.move("reveal", mine)
    assert live.game.state.value == "lost" and live.payload()["stats"]["assisted"] is False
    layout = live.game.mine_cells()
    undone = live.undo()
    assert (undone.kind, undone.cell) == ("reveal", mine)
    assert live.game.observation().view == before and not live.game.over and live.game.mine_cells() == layout
    payload = live.payload()
    assert payload["undos"] == 1 and payload["assisted"] is True and "layout" not in payload
    clock.now += 1
    assert live.elapsed() == 5, "the clock runs on from the first move"
    live.move("flag", mine)
    live.undo()
    live.undo()
    assert live.game.moves == 0 and live.started is None and live.undos == 3 and live.clicks == 3
    live.restart()
    assert live.undos == live.clicks == 0 and live.payload()["assisted"] is False


def test_undo_replays_a_hint_and_an_mbf_game_on_the_same_layout():
    for live in (
        GameStore().new(make_rules("beginner", "hint"), 8),
        GameStore().new(make_rules("4x1x1", "unsafe"), None, (3,)),
    ):
        first = live.game.observation().view
        covered = first.index(-1)
        live.move("flag", covered)
        live.undo()
        assert live.game.observation().view == first and live.game.moves == 0


def test_a_game_over_carries_its_statistics():
    clock = Clock()
    live = GameStore(clock=clock).new(make_rules("6x1x2", "unsafe"), None, (0, 3))
    live.move("reveal", 1)
    clock.now += 2
    live.move("flag", 0)
    live.move("reveal", 5)
    live.move("reveal", 2)
    stats = live.payload()["stats"]
    assert stats["three_bv"] == 3 and stats["clicks"] == 4 and stats["time"] == 2.0
    assert stats["three_bv_per_second"] == 1.5 and stats["efficiency"] == 0.75 and stats["assisted"] is False
