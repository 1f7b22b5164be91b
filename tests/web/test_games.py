"""Live games: random ids, a bounded count per browser, of browsers by class and of memory, an idle age, the timer,
restart, and the layout only at the end."""

import pytest

from sweeplab.core.errors import IllegalMoveError
from sweeplab.core.rules import make_rules
from sweeplab.web.games import ExpiredGameError, GameStore, UnknownGameError, game_bytes


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


def test_new_browsers_push_out_only_new_browsers_least_recently_active_first():
    store = GameStore(max_clients=8)  # browsers that have played: 8; new ones: 2
    kept = store.new(make_rules("beginner"), 1, client="page")
    store.played("page")
    first = store.new(make_rules("beginner"), 2, client="script-1")
    second = store.new(make_rules("beginner"), 3, client="script-2")
    for n in range(3, 500):  # a flood of new browsers
        store.new(make_rules("beginner"), n, client=f"script-{n}")
    with pytest.raises(ExpiredGameError, match=r"holds games for 2 new browsers within .* had been idle longest"):
        store.get(first.id, client="script-1")
    with pytest.raises(ExpiredGameError):
        store.get(second.id, client="script-2")
    assert store.get(kept.id, client="page") is kept and store.is_player("page") and not store.is_player("script-499")
    assert len(store) == 3


def test_browsers_that_have_played_are_pushed_out_by_other_players_only_least_recently_active_first():
    store = GameStore(max_clients=2)
    games = {}
    for name in ("a", "b", "c"):
        games[name] = store.new(make_rules("beginner"), 1, client=name)
        store.played(name)
    with pytest.raises(ExpiredGameError, match="2 browsers that have played"):
        store.get(games["a"].id, client="a")
    assert store.get(games["b"].id, client="b") and store.get(games["c"].id, client="c")


def test_held_games_are_bounded_by_their_estimated_memory():
    big = make_rules("100x100x1500", "safe")
    each = game_bytes(big)
    assert 400_000 < each < 600_000  # about 48 bytes a cell (measured: 43 after a first reveal)
    store = GameStore(per_client=20, max_clients=500, max_bytes=10 * each)
    for client in range(30):
        for seed in range(20):
            store.new(big, seed, client=f"p{client}")
        store.played(f"p{client}")
    assert store.bytes <= 10 * each + 10 * each // 4 and len(store) <= 12
    small = GameStore(max_bytes=20 * each)
    for client in range(30):  # beginner games take a fortieth as much: all of them fit
        for seed in range(20):
            small.new(make_rules("beginner"), seed, client=f"p{client}")
        small.played(f"p{client}")
    assert len(small) == 600


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
