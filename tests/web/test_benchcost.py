"""A benchmark's estimated cost: per strategy and board, scaled by the options that count work."""

from sweeplab.web.benchcost import EXPERT_SECONDS, game_seconds, run_seconds


def test_cost_grows_with_the_board_and_the_work_options():
    assert game_seconds("exact", 9, 9) < game_seconds("exact", 30, 16) < game_seconds("exact", 100, 100)
    assert game_seconds("exact", 30, 16) == 0.002 + EXPERT_SECONDS["exact"]
    assert game_seconds("oh[sims=2000]", 30, 16) > 9 * game_seconds("oh", 30, 16)
    assert game_seconds("oh[sims=20]", 30, 16) == game_seconds("oh", 30, 16)  # less work is not counted as cheaper
    assert game_seconds("sa[runs=16]", 30, 16) > 1.9 * game_seconds("sa", 30, 16)
    assert run_seconds(["exact", "random"], 30, 16, 10) == 10 * (game_seconds("exact", 30, 16) + game_seconds("random", 30, 16))
