import pickle
import threading

import pytest

from sweeplab.bench.executors import LocalExecutor
from sweeplab.bench.runner import BenchError, BenchSpec, GameResult, deal, game_seeds, play_one, run, run_many
from sweeplab.core.rules import Rules
from sweeplab.formats.mbf import Layout


def key(results: list[GameResult]) -> list[tuple]:
    return [(r.index, r.won, r.moves, r.three_bv, r.revealed, r.guesses, r.timed_out) for r in results]


def test_seeds_are_stable_and_distinct():
    assert game_seeds(0, 0) == game_seeds(0, 0)
    assert game_seeds(0, 0) != game_seeds(0, 1) != game_seeds(1, 0)
    # the derivation defines reproducibility: pin one value so that any change to it is noticed
    assert game_seeds(0, 0) == (16138565776831281964, 6255376014661480831)
    assert all(0 <= s < 2**64 for s in game_seeds(12345, 678))


def test_same_results_for_any_job_count_and_batch_size():
    rules = Rules(9, 9, 10, "safe")
    one = run("single-point", rules, 60, seed=4, jobs=1, batch=7)
    two = run("single-point", rules, 60, seed=4, jobs=2, batch=7)
    three = run("single-point", rules, 60, seed=4, jobs=2)
    assert key(one) == key(two) == key(three)
    assert [r.index for r in one] == list(range(60))
    assert any(r.guesses for r in two)  # guesses travel back from the workers


def test_fixed_first_click_is_shared_by_strategies():
    rules = Rules(9, 9, 10, "safe")
    a = run("random", rules, 10, seed=2, first_click=0)
    b = run("single-point", rules, 10, seed=2, first_click=0)
    assert [r.three_bv for r in a] == [r.three_bv for r in b]


def test_unsafe_layouts_are_the_same_for_every_strategy_without_a_click():
    rules = Rules(8, 8, 10, "unsafe")
    a = run("random", rules, 15, seed=9)
    b = run("single-point", rules, 15, seed=9)
    assert [r.three_bv for r in a] == [r.three_bv for r in b]


def test_results_pickle_compactly():
    result = play_one("random", Rules(9, 9, 10, "safe"), 1, 0)
    assert pickle.loads(pickle.dumps(result)) == result
    assert len(pickle.dumps(result)) < 2000


def test_a_protected_first_guess_does_not_count_as_guessing():
    safe = play_one("random", Rules(9, 9, 10, "safe"), 1, 0)
    assert safe.protected_first and safe.guesses[0].move == 0
    assert safe.guesses[0] not in safe.counted_guesses()
    unsafe = play_one("random", Rules(9, 9, 10, "unsafe"), 1, 0)
    assert not unsafe.protected_first and unsafe.counted_guesses() == unsafe.guesses
    clicked = play_one("random", Rules(9, 9, 10, "safe"), 1, 0, first_click=40)
    assert not clicked.protected_first  # the harness's click was the protected one


def test_layout_replay_equals_the_dealt_game():
    rules = Rules(9, 9, 10, "zero")
    for index in range(8):
        game = deal(rules, 5, index, first_click=40)
        layout = Layout.of(game)
        direct = play_one("single-point", rules, 5, index, first_click=40)
        replay = play_one("single-point", rules, 5, index, first_click=40, layout=layout.mines)
        assert (direct.won, direct.moves, direct.three_bv, direct.guesses) == (
            replay.won,
            replay.moves,
            replay.three_bv,
            replay.guesses,
        )


def test_run_many_keeps_each_spec_in_index_order():
    rules = Rules(8, 8, 10, "safe")
    specs = [(BenchSpec("random", rules, 3), 7), (BenchSpec("single-point", rules, 3), 5)]
    with LocalExecutor(2) as ex:
        parts = run_many(specs, ex, batch=2)
    assert [[r.index for r in p] for p in parts] == [list(range(7)), list(range(5))]
    assert key(parts[1]) == key(run("single-point", rules, 5, seed=3))


def test_time_limit_counts_timeouts_and_interrupts_a_long_move(test_strategies, monkeypatch):
    from tests.bench.strategies_for_tests import SlowStrategy

    monkeypatch.setattr(SlowStrategy, "burn", 2.0)  # one move would take 2 CPU seconds
    rules = Rules(9, 9, 10, "safe")
    results = run("test-slow", rules, 3, seed=0, time_limit=0.05)
    assert all(r.timed_out and not r.won for r in results)
    assert all(r.cpu_seconds < 1.0 for r in results)  # the timer cut the move short (process CPU time, not wall clock)
    unlimited = run("single-point", rules, 5, seed=0, time_limit=10)
    assert not any(r.timed_out for r in unlimited)


def test_time_limit_outside_the_main_thread_is_checked_after_each_move(test_strategies):
    out: list[GameResult] = []
    thread = threading.Thread(target=lambda: out.append(play_one("test-slow", Rules(9, 9, 10, "safe"), 0, 0, time_limit=0.03)))
    thread.start()
    thread.join()
    assert out[0].timed_out and out[0].moves <= 3


def test_a_crashing_strategy_names_the_game(test_strategies):
    with pytest.raises(BenchError, match=r"test-crash crashed in game 0 of seed 7 on 9x9x10 \(safe\): ZeroDivisionError: a bug"):
        run("test-crash", Rules(9, 9, 10, "safe"), 3, seed=7)


def test_dask_local_cluster_gives_the_local_results():
    pytest.importorskip("distributed")
    from sweeplab.bench.executors import DaskExecutor

    rules = Rules(9, 9, 10, "safe")
    local = run("single-point", rules, 40, seed=11, jobs=1)
    with DaskExecutor(workers=2) as ex:
        remote = run("single-point", rules, 40, seed=11, executor=ex, batch=6)
    assert key(remote) == key(local)


def test_a_time_limit_stops_the_c_game_loop_with_its_moves_recorded():
    """exact plays in the C game loop under a time limit too: a game past the limit is timed out at a move's end,
    with fewer moves and less CPU than unlimited. (In a thread, where no timer signal can come: the limit alone.)"""
    rules = Rules(256, 256, 10000, "safe")
    play_one("exact", rules, 0, 1)  # the board's tables built, so that the timing is the game's
    # the quickest of three (about 0.1 s: a busy machine can make one take several times that), and a tenth of it
    full = min((play_one("exact", rules, 0, 1) for _ in range(3)), key=lambda result: result.cpu_seconds)
    out: list[GameResult] = []
    thread = threading.Thread(target=lambda: out.append(play_one("exact", rules, 0, 1, time_limit=full.cpu_seconds / 10)))
    thread.start()
    thread.join()
    limited = out[0]
    assert full.moves > 10_000 and not full.timed_out
    assert limited.timed_out and not limited.won and 0 < limited.moves < full.moves
    assert limited.cpu_seconds < full.cpu_seconds


@pytest.mark.parametrize(("strategy", "board"), [("cspstrategy", (9, 9, 10)), ("exact", (16, 16, 40)), ("random", (5, 5, 5))])
def test_a_result_without_guess_records_keeps_their_count_and_outcome(strategy, board):
    rules = Rules(*board, "safe")
    for index in range(40):
        kept = play_one(strategy, rules, 3, index, 0)
        bare = play_one(strategy, rules, 3, index, 0, keep_guesses=False)
        assert bare.guesses == () and (bare.won, bare.moves, bare.revealed) == (kept.won, kept.moves, kept.revealed)
        assert (bare.guess_count, bare.outcome) == (kept.guess_count, kept.outcome)
