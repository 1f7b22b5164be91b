from sweeplab.bench.runner import game_seeds, run
from sweeplab.core.rules import Rules


def test_seeds_are_stable_and_distinct():
    assert game_seeds(0, 0) == game_seeds(0, 0)
    assert game_seeds(0, 0) != game_seeds(0, 1) != game_seeds(1, 0)


def test_same_results_for_any_job_count():
    rules = Rules(9, 9, 10, "safe")
    one = run("single-point", rules, 60, seed=4, jobs=1, batch=7)
    two = run("single-point", rules, 60, seed=4, jobs=2, batch=7)
    assert [(r.index, r.won, r.moves, r.three_bv) for r in one] == [(r.index, r.won, r.moves, r.three_bv) for r in two]
    assert [r.index for r in one] == list(range(60))


def test_fixed_first_click_is_shared_by_strategies():
    rules = Rules(9, 9, 10, "safe")
    a = run("random", rules, 10, seed=2, first_click=0)
    b = run("single-point", rules, 10, seed=2, first_click=0)
    assert [r.three_bv for r in a] == [r.three_bv for r in b]
