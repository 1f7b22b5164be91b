from sweeplab.core.game import Game
from sweeplab.core.rules import Rules, make_rules
from sweeplab.web.gamestats import game_statistics, solved_three_bv

# 5x1, mines at 0 and 4: numbers 1 0 1 in between -> one opening (the middle three cells): 3BV 1
# 6x1, mines at 0 and 3: cells 1 (1), 2 (1), 4 (1), 5 (0): the opening {4, 5} and the isolated numbers 1, 2: 3BV 3


def test_three_bv_counts_openings_and_isolated_numbers():
    game = Game(Rules(6, 1, 2, "unsafe"), layout=[0, 3])
    assert game.three_bv() == 3
    assert solved_three_bv(game) == 0
    game.reveal(1)
    assert solved_three_bv(game) == 1
    game.reveal(5)  # the opening {4, 5}
    assert solved_three_bv(game) == 2
    game.reveal(2)
    assert game.state.value == "won" and solved_three_bv(game) == game.three_bv() == 3


def test_statistics_of_a_won_and_a_lost_game():
    game = Game(Rules(6, 1, 2, "unsafe"), layout=[0, 3])
    for cell in (1, 5, 2):
        game.reveal(cell)
    stats = game_statistics(game, 2.0, clicks=4, undos=0, solver_moves=0)
    assert stats == {
        "time": 2.0,
        "three_bv": 3,
        "three_bv_solved": 3,
        "three_bv_per_second": 1.5,
        "clicks": 4,
        "efficiency": 0.75,
        "undos": 0,
        "solver_moves": 0,
        "assisted": False,
    }
    lost = Game(Rules(6, 1, 2, "unsafe"), layout=[0, 3])
    lost.reveal(5)
    lost.reveal(3)
    stats = game_statistics(lost, 0.0, clicks=2, undos=1, solver_moves=0)
    assert stats["three_bv_solved"] == 1 and stats["three_bv_per_second"] is None and stats["efficiency"] == 0.5
    assert stats["assisted"] is True


def test_solved_equals_the_total_on_every_won_beginner_game():
    from sweeplab.strategies.base import play
    from sweeplab.strategies.registry import make

    for seed in range(8):
        game = play(make("exact", seed=seed), Game(make_rules("beginner", "safe"), seed))
        total = game.three_bv()
        solved = solved_three_bv(game)
        assert solved == total if game.state.value == "won" else solved <= total
