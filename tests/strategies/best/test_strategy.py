"""The best strategy: each technique chooses the cell it should in a hand-checked position, and can be turned off."""

from __future__ import annotations

import ast
import json
import pathlib
from fractions import Fraction

import pytest

import sweeplab.strategies.best as best_package
from sweeplab.analysis import Analyzer
from sweeplab.analysis.exact.listing import list_layouts
from sweeplab.core.errors import SweeplabError
from sweeplab.core.game import Game, GameState
from sweeplab.core.rules import Rules, make_rules
from sweeplab.formats.position import parse_position
from sweeplab.strategies import make, play
from sweeplab.strategies.best.endgame import Endgame
from sweeplab.strategies.best.lookahead import Candidate, evaluate
from sweeplab.strategies.best.opening import opening_cell
from sweeplab.strategies.registry import make_spec, parse_spec
from tests.strategies.best.brute import consistent_layouts, game_value, move_value

#: Look-ahead: exact opens (3, 5), 69.6% safe; the look-ahead opens (0, 4) or (6, 4), 67.0% safe, each of which always
#: leaves a certainly safe cell.
LOOKAHEAD = "7x7x9\n1100000\nH100000\n1111100\n112H211\nHH3H3HH\nHHHHHHH\nHHHHHHH\n"
#: Dead cells: (7, 3), (6, 4), (7, 4) and (7, 5) are equally safe; all but (7, 3) would show a number already known.
DEAD = "8x8x10\n00000000\n01111110\n02H21H21\n02H223HH\n12112HHH\nH1002H5H\n110012HH\n00000122\n"
#: Endgame: (5, 0) is 80% safe but wins only 2 of 5 layouts; (4, 4) is 60% safe and wins 3 of 5.
ENDGAME = "6x6x7\n001H2H\n0012HH\n0012H2\n002H4H\n002HHH\n0012HH\n"
#: Forced: (0, 0) and (1, 0) hold one mine and no other cell can tell which (a wall of flags); the right-hand cells
#: are 5/6 safe.
FORCED = "5x3x5\nHHFHH\n14FHH\n02FHH\n"
#: Two-ply look-ahead: an expert position (game 568 of results/best/regret, 42 layouts). One ply plays (29, 3), 61.9%
#: safe with a large 50/50 influence, which wins 14 of the 42 layouts; two plies play (0, 2), 81.0% safe, which wins 20.
TWO_PLY = (
    "30x16x99\n1HH1000001HH2H11HH3HHH10001H10\nHHH2100001233323333H5311112220\nHH4H21100001H2H2H222H101H22H21\n"
    "HHH33H21111223232H12231223H3HH\n13H22H21H11H11H11111H3H21H4HHH\n0222111111111111000113H224HHHH\n"
    "01H1001110122100111001233HHH21\n1334211H212HH1002H31101HH44210\nH2HHH212H13H41002H3H21223H2H21\n"
    "2335H411112H201121323H21112H3H\n3H23HH100011212H213H33H200113H\nHH32H42112212H312H4H22H3112H21\n"
    "4H2112H22HH23H3112H3222H33HH10\nH3210112H33H22H10112H112HH3210\n12H100123222221100133312222H10\n"
    "0111001H2H11H100001HH2H1001H10\n"
)


def choose(spec: str, text: str) -> tuple[tuple[int, int], object]:
    observation = parse_position(text)
    player = make_spec(spec, seed=1)
    move = player.choose(observation)
    assert player.pending_guess is not None and player.pending_guess.cell == move.cell
    return observation.board.xy(move.cell), player.pending_guess


def test_lookahead_takes_the_slightly_riskier_cell_that_opens_the_board():
    assert choose("exact", LOOKAHEAD)[0] == (3, 5)
    cell, guess = choose("best[endgame=False]", LOOKAHEAD)
    assert cell in ((0, 4), (6, 4))
    assert guess.safety == pytest.approx(154 / 230)  # 67.0%, below the safest cell's 69.6%
    assert guess.explanation.text.startswith("look-ahead")
    assert choose("best[lookahead=False,endgame=False]", LOOKAHEAD)[0] == (3, 5)


def test_a_look_ahead_position_past_the_budget_is_done_without(monkeypatch):
    """A position after a hypothetical reveal that cannot be analysed in the budget (a huge frontier on a loaded
    machine) leaves that candidate unscored; with none scored, the safest cell is played, as without look-ahead."""
    from sweeplab.core.errors import UndecidedError

    def undecided(self, observation):
        raise UndecidedError("the time budget ran out (test)")

    import sweeplab.strategies.best.lookahead as lookahead

    monkeypatch.setattr(Analyzer, "try_analyze", undecided)
    monkeypatch.setattr(lookahead, "_BRIEF", lambda *args: None)  # the kernel leaves such a position to the analyzer
    for spec in ("best[endgame=False]", "best[endgame=False,lookahead=False]", "best[endgame=False,dead=False]"):
        cell, guess = choose(spec, LOOKAHEAD)
        assert cell == (3, 5) and guess.safety == pytest.approx(choose("exact", LOOKAHEAD)[1].safety), spec


def test_dead_cells_come_after_living_ones():
    observation = parse_position(DEAD)
    board = observation.board
    layouts = consistent_layouts(observation)
    for xy, dead in (((7, 3), False), ((6, 4), True), ((7, 4), True), ((7, 5), True)):
        cell = board.index(*xy)
        numbers = {sum(n in m for n in board.neighbours[cell]) for m in layouts if cell not in m}
        assert (len(numbers) == 1) is dead, xy
    assert choose("exact", DEAD)[0] == (7, 4)
    # the ten covered cells are an isolated set; with ``forced`` it is taken now, and still the living cell is chosen
    for spec in ("best[endgame=False]", "best[endgame=False,forced=False]", "best[endgame=False,lookahead=False]"):
        assert choose(spec, DEAD)[0] == (7, 3), spec
    assert choose("best[endgame=False,lookahead=False,dead=False,forced=False]", DEAD)[0] == (7, 4)


def test_endgame_search_beats_the_lowest_probability():
    observation = parse_position(ENDGAME)
    board = observation.board
    assert choose("exact", ENDGAME)[0] == (5, 0)
    cell, guess = choose("best", ENDGAME)
    assert cell == (4, 4)
    assert move_value(observation, board.index(4, 4)) == game_value(observation) == Fraction(3, 5)
    assert move_value(observation, board.index(5, 0)) == Fraction(2, 5)
    assert guess.explanation.text.startswith("endgame search")
    assert guess.explanation.figures["win_probability"] == pytest.approx(0.6)
    assert choose("best[endgame=False,lookahead=False]", ENDGAME)[0] != (4, 4)
    # the look-ahead alone singles it out only when it counts living safe cells (JSMinesweeper's rule): counting any
    # safe cell, (4, 4) and (5, 4) score the same (which one is played then depends on the order the candidates
    # come in, a tie the engines may order differently)
    analyzer = Analyzer()
    result = analyzer.analyze(observation)

    def score(xy: tuple[int, int], mode: str) -> float:
        cell = board.index(*xy)
        candidate = Candidate(cell, 1 - result.probability(cell))
        return evaluate(analyzer, observation, result, candidate, -1.0, frozenset(result.mines), mode).score

    assert score((4, 4), "any") == pytest.approx(score((5, 4), "any")) == pytest.approx(0.6)
    assert score((4, 4), "living") == pytest.approx(0.56) and score((5, 4), "living") == pytest.approx(0.4)
    assert choose("best[endgame=False,progress=any]", ENDGAME)[0] in ((4, 4), (5, 4))
    assert choose("best[endgame=False]", ENDGAME)[0] == (4, 4)


def test_two_ply_look_ahead_finds_the_guess_that_wins_more():
    observation = parse_position(TWO_PLY)
    board = observation.board
    assert choose("best[endgame=False]", TWO_PLY)[0] == (29, 3)
    assert choose("best[endgame=False,depth=2,deep_top=1]", TWO_PLY)[0] == (29, 3)  # one cell re-scored: as one ply
    cell, guess = choose("best[endgame=False,depth=2]", TWO_PLY)
    assert cell == (0, 2) and guess.safety == pytest.approx(34 / 42)
    assert "two-ply score" in guess.explanation.text
    figures = guess.explanation.figures
    assert figures["two_ply_score"] > max(a["two_ply_score"] for a in figures["alternatives"] if a["two_ply_score"] is not None)
    result = Analyzer().analyze(observation)
    endgame = Endgame(observation, *list_layouts(result, 100))
    assert endgame.count == 42
    assert endgame.value(endgame.all, board.index(0, 2), 10**6) == 20
    assert endgame.value(endgame.all, board.index(29, 3), 10**6) == 14


def test_two_ply_values_a_position_by_the_guess_made_there():
    observation = parse_position(LOOKAHEAD)
    player = make_spec("best[endgame=False,depth=2]", seed=1)
    result = player.analyzer.analyze(observation)
    one_ply = make_spec("best[endgame=False]", seed=1)
    chosen = one_ply.look_ahead(observation, result, one_ply.candidates(observation, result))
    assert player.value_one(observation, result) == pytest.approx(chosen.score)


def test_forced_guess_is_taken_first():
    assert choose("exact", FORCED)[0][0] >= 3
    cell, guess = choose("best[endgame=False]", FORCED)
    assert cell in ((0, 0), (1, 0)) and guess.kind == "craps" and guess.safety == 0.5
    assert choose("best[endgame=False,forced=False]", FORCED)[0][0] >= 3


def test_every_guess_is_explained_in_json():
    for seed in range(3):
        player = make("best", seed=seed)
        play(player, Game(make_rules("intermediate", "safe"), seed))
        assert player.guesses
        for guess in player.guesses:
            assert guess.explanation is not None and guess.explanation.text
            json.dumps(guess.explanation.to_dict())


@pytest.mark.parametrize("rule", ["safe", "zero"])
def test_first_click_follows_the_rule(rule):
    rules = make_rules("expert", rule)
    game = Game(rules, 0)
    player = make("best", seed=0)
    player.begin(rules)
    move = player.choose(game.observation())
    assert move.cell == opening_cell(game.board, rules.mines, rule)[0]
    assert (game.board.xy(move.cell) == (0, 0)) is (rule == "safe")
    assert player.pending_guess.kind == "first" and "first click" in player.pending_guess.explanation.text
    plain = make("best", seed=0, opening=False)
    plain.begin(rules)
    assert game.board.xy(plain.choose(game.observation()).cell) == (0, 0)


def test_options_are_checked():
    assert parse_spec("best[lookahead=False,tolerance=0.05]") == ("best", {"lookahead": False, "tolerance": 0.05})
    with pytest.raises(SweeplabError, match="tolerance"):
        make("best", tolerance=1.5)
    with pytest.raises(SweeplabError, match="progress must be one of living, any"):
        make("best", progress="jsm")
    with pytest.raises(SweeplabError, match="off_edge must be 1 to 10,000, not -1"):
        make("best", off_edge=-1)
    with pytest.raises(SweeplabError, match="endgame_layouts must be 0 to 100,000, not 1,000,000"):
        make("best", endgame_layouts=10**6)
    with pytest.raises(SweeplabError, match="endgame_nodes must be 0 to"):
        make("best", endgame_nodes=10**20)
    make("best", endgame_layouts=0, endgame_nodes=0)  # no search
    for option, value, text in (("depth", 3, "depth must be 1 to 2, not 3"), ("deep_top", 0, "deep_top must be 1 to 50")):
        with pytest.raises(SweeplabError, match=text):
            make("best", **{option: value})
    with pytest.raises(SweeplabError, match=r"deep_margin must be 0 to 1, not 1\.5"):
        make("best", deep_margin=1.5)
    with pytest.raises(SweeplabError, match=r"influence_bound must be 0 to 1, not -0\.1"):
        make("best", influence_bound=-0.1)


def test_the_influence_bound_keeps_factors_to_cells_near_the_safest():
    """Unbounded, some guesses of these games take a 50/50 factor on a cell less safe than the safest; with
    ``influence_bound=0`` only cells as safe as the safest carry a factor, and no cell below the cut is added."""

    def factored(**options: float) -> tuple[int, int]:
        below, guesses = 0, 0
        for seed in range(12):
            player = make("best", seed=seed, **options)
            play(player, Game(make_rules("expert", "safe"), seed))
            for guess in player.guesses:
                figures = guess.explanation.figures if guess.explanation else {}
                rows = [figures, *figures.get("alternatives", [])] if "influence_factor" in figures else []
                top = max((r["safety"] for r in rows), default=0.0)
                below += sum(r["influence_factor"] > 1 and r["safety"] < top - 1e-9 for r in rows)
                guesses += bool(rows)
        return below, guesses

    unbounded, guesses = factored()
    bounded, bounded_guesses = factored(influence_bound=0.0)
    assert guesses and bounded_guesses
    assert unbounded > 0 and bounded == 0


def test_wins_beginner_games():
    wins = 0
    for seed in range(40):
        game = play(make("best", seed=seed), Game(Rules(9, 9, 10, "safe"), seed))
        wins += game.state is GameState.WON
    assert wins >= 30


def test_no_module_of_the_package_reads_the_layout():
    """The contract test reads the strategy's own module; the helpers must not touch a game's hidden state either."""
    forbidden = {"mine_cells", "_mine", "_number", "number", "exploded", "three_bv"}
    for path in pathlib.Path(best_package.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            assert not (isinstance(node, ast.Attribute) and node.attr in forbidden), (path.name, node.lineno)
            assert not (isinstance(node, ast.Name) and node.id == "Game"), (path.name, node.lineno)


def test_begin_receives_the_rules_in_play():
    rules = Rules(9, 9, 10, "zero")
    player = make("best", seed=3)
    play(player, Game(rules, 3))
    assert player.rules == rules


def test_the_opening_table_is_the_committed_first_click_data():
    """OPENINGS holds exactly the cells that results/best/openings/data.json marks chosen (the measured best)."""
    from sweeplab.strategies.best.opening import OPENINGS

    data = json.loads((pathlib.Path(__file__).parents[3] / "results" / "best" / "openings" / "data.json").read_text())
    chosen = {}
    for point in data["points"]:
        if point.get("chosen"):
            w, h, m = (int(v) for v in point["board"].split("x"))
            chosen[(point["rule"], w, h, m)] = tuple(point["cell"])
    assert chosen and chosen == OPENINGS
    for (rule, w, h, m), cell in OPENINGS.items():
        board = Game(make_rules(f"{w}x{h}x{m}", rule), 0).board
        assert board.xy(opening_cell(board, m, rule)[0]) == cell
