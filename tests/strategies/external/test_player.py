"""``cmd:`` players in play: the same games as their built-in twin, the rules for an answer's moves, guesses with
their probabilities, forfeits as outcomes, restarts, stderr kept, CPU counted, limits, specs checked, resume."""

import shlex
import sys
import textwrap

import pytest

from sweeplab.bench.journal import Journal
from sweeplab.bench.runner import BenchSpec, play_one, run_many
from sweeplab.core.game import Game, GameState, Move
from sweeplab.core.rules import Rules
from sweeplab.strategies import make, names, play
from sweeplab.strategies.base import play_move
from sweeplab.strategies.external.player import ExternalSpecError, external
from sweeplab.strategies.external.protocol import GAME_TIME, ILLEGAL, MOVE_TIME, Forfeit, ProgramFailed
from sweeplab.strategies.registry import StrategySpecError, checked_spec, make_spec, parse_spec

from .conftest import PYTHON_CLIENT, hostile

BEGINNER = Rules(9, 9, 10, "safe")


def scripted(tmp_path, answers, name="scripted.py", before=""):
    """A program that answers turn k with ``answers[k % len(answers)]`` (JSON text) and keeps a log on stderr."""
    path = tmp_path / name
    path.write_text(
        textwrap.dedent(
            f"""\
            import sys, time
            answers = {answers!r}
            turn = 0
            for line in sys.stdin:
                if '"turn"' not in line:
                    continue
                {before}
                print("turn", turn, file=sys.stderr, flush=True)
                sys.stdout.write(answers[turn % len(answers)] + "\\n")
                sys.stdout.flush()
                turn += 1
            """
        )
    )
    return f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(path))}"


def test_the_python_client_plays_the_same_games_as_its_builtin_twin():
    for seed in range(30):
        through = play(make(PYTHON_CLIENT, seed=seed), Game(BEGINNER, seed))
        twin = play(make("reference", seed=seed), Game(BEGINNER, seed))
        assert through.history == twin.history and through.state is twin.state


def test_guesses_are_recorded_with_the_programs_probability_and_reason():
    player, game = make(PYTHON_CLIENT, seed=1), Game(BEGINNER, 1)
    player.begin(BEGINNER)
    guesses = []
    while not game.over:
        _, guess = play_move(player, game)
        guesses += [guess] if guess is not None else []
    twin = make("reference", seed=1)
    play(twin, Game(BEGINNER, 1))
    assert [(g.cell, g.kind, g.safety) for g in player.guesses] == [(g.cell, g.kind, g.safety) for g in twin.guesses]
    assert guesses and all(g.explanation.text == "lowest local probability" for g in guesses)
    cell = guesses[0].cell
    assert [cell % 9, cell // 9, 1 - guesses[0].safety] in guesses[0].explanation.figures["probabilities"]


def test_moves_an_earlier_move_of_the_same_answer_made_pointless_are_skipped(tmp_path):
    # 5x1 with a mine at x=2: revealing x=0 opens x=1 too, x=4 opens x=3
    spec = scripted(tmp_path, ['{"moves": [["reveal",0,0],["reveal",1,0],["reveal",4,0],["reveal",3,0]]}'])
    game = play(make(spec, seed=0), Game(Rules(5, 1, 1, "unsafe"), layout=[2]))
    assert game.state is GameState.WON and game.history == [Move.reveal(0), Move.reveal(4)]


@pytest.mark.parametrize(
    ("second", "says"),
    [
        ('["reveal",1,0]', r"cannot reveal \(1, 0\): it is already revealed \(shows 1\)"),
        ('["flag",0,0]', r"cannot flag \(0, 0\): it is already revealed \(shows 0\)"),
        ('["unflag",4,0]', r"cannot unflag \(4, 0\): it is not flagged"),
        ('["chord",1,0]', r"cannot chord \(1, 0\): it shows 1 but has 0 flagged neighbours"),
        ('["chord",4,0]', r"cannot chord \(4, 0\): it is not revealed"),
        ('["chord",0,0]', r"cannot chord \(0, 0\): it has no covered unflagged neighbours"),
    ],
)
def test_an_illegal_move_is_a_forfeit_that_names_it(tmp_path, second, says):
    spec = scripted(tmp_path, ['{"moves": [["reveal",0,0]]}', '{"moves": [' + second + "]}"])
    with pytest.raises(Forfeit, match=says) as caught:
        play(make(spec, seed=0), Game(Rules(5, 1, 1, "unsafe"), layout=[2]))
    assert caught.value.outcome == ILLEGAL


def test_a_forfeit_is_the_games_outcome_the_program_restarts_and_its_stderr_is_kept(tmp_path):
    spec = hostile("crash")  # plays its first game, dies in the middle of the next
    first = play_one(spec, BEGINNER, 0, 0, options={"log_dir": str(tmp_path)})
    assert first.outcome.startswith(("won", "lost")) and first.cpu_seconds > 0
    second = play_one(spec, BEGINNER, 0, 1, options={"log_dir": str(tmp_path)})
    assert second.outcome == "forfeit: the program exited" and not second.won
    third = play_one(spec, BEGINNER, 0, 2, options={"log_dir": str(tmp_path)})  # a fresh copy plays it
    assert third.outcome.startswith(("won", "lost"))
    logs = list((tmp_path / "stderr").glob("*.log"))
    text = "".join(log.read_text() for log in logs)
    assert "crash: going down mid-game" in text and "lost: forfeit: the program exited" in text
    assert text.count("--- sweeplab started") == 2


def test_a_program_that_fails_the_first_game_fails_the_run_with_its_stderr():
    with pytest.raises(ProgramFailed, match=r"(?s)failed the first game.*giving up before the first answer"):
        play_one(hostile("never"), BEGINNER, 0, 0)


def test_the_move_and_game_time_limits(tmp_path):
    slow = scripted(tmp_path, ['{"moves": [["reveal",0,0]]}'], before="time.sleep(0.4 if turn else 0)")
    result = play_one(slow, Rules(5, 1, 1, "unsafe"), 0, 1, layout=[2], options={"move_time_limit": 0.2})
    assert result.outcome == MOVE_TIME and result.timed_out
    toggling = ['{"moves": [["flag",4,0]]}', '{"moves": [["unflag",4,0]]}']
    steady = scripted(tmp_path, toggling, name="s.py", before="time.sleep(0.05)")
    result = play_one(steady, Rules(5, 1, 1, "unsafe"), 0, 1, layout=[2], options={"time_limit": 0.3}, time_limit=0.3)
    assert result.outcome == GAME_TIME and result.timed_out and 4 <= result.moves <= 8


def test_a_cmd_spec_is_checked_before_anything_runs(tmp_path):
    for spec, says in [
        ("cmd:", "give the program after 'cmd:'"),
        ("cmd:   ", "give the program after 'cmd:'"),
        ("cmd:python3 'open", "No closing quotation"),
        ("cmd:no-such-program-sweeplab x", "no program 'no-such-program-sweeplab' on PATH"),
        (f"cmd:{tmp_path}/missing", "is not an executable file"),
    ]:
        with pytest.raises(ExternalSpecError, match=says):
            checked_spec(spec, outside=True)
    assert parse_spec(f"  {PYTHON_CLIENT}  ", outside=True) == (PYTHON_CLIENT, {})
    assert external(PYTHON_CLIENT) is external(PYTHON_CLIENT) and not any(n.startswith("cmd:") for n in names())
    with pytest.raises(ExternalSpecError, match="move time limit"):
        make(PYTHON_CLIENT, move_time_limit=0)


def test_a_run_with_a_program_resumes_to_the_same_games(tmp_path):
    spec = BenchSpec(PYTHON_CLIENT, BEGINNER, 3)
    whole = run_many([(spec, 40)], batch=7)[0]
    with Journal(tmp_path, {"s": 1}) as journal:
        journal.record("0", whole[5:20], 0.1)
    with Journal(tmp_path, {"s": 1}, resume=True) as journal:
        resumed = run_many([(spec, 40)], journal=journal, batch=7)[0]
    assert [(r.index, r.won, r.moves, r.outcome) for r in resumed] == [(r.index, r.won, r.moves, r.outcome) for r in whole]


def test_each_turn_names_the_cells_revealed_since_the_last_in_row_major_order():
    player = make(PYTHON_CLIENT, seed=0)
    assert player._revealed(b"H1H0", 2) == b"[1,0,1],[1,1,0]"  # the first turn: every revealed cell
    player._sent = b"H1HH"
    assert player._revealed(b"01F2", 2) == b"[0,0,0],[1,1,2]"  # a flag is no reveal; an unchanged cell is not named
    player._sent = b"01F2"
    assert player._revealed(b"01F2", 2) == b""


def test_play_and_evaluate_take_a_program_and_the_log_keeps_its_reasons(tmp_path):
    from click.testing import CliRunner

    from sweeplab.cli import main

    log = tmp_path / "game.jsonl"
    result = CliRunner().invoke(main, ["play", "-s", PYTHON_CLIENT, "-b", "5x4x3", "--seed", "7", "--log", str(log)])
    assert result.exit_code == 0 and "WON after 10 moves" in result.output, result.output
    again = CliRunner().invoke(main, ["replay", str(log), "--explain"])
    assert again.exit_code == 0 and "why: lowest local probability" in again.output, again.output
    result = CliRunner().invoke(main, ["evaluate", "-s", PYTHON_CLIENT, "-b", "3x3x1", "-r", "unsafe"])
    twin = CliRunner().invoke(main, ["evaluate", "-s", "reference", "-b", "3x3x1", "-r", "unsafe"])
    assert result.exit_code == 0 and "wins 8/9" in result.output and "wins 8/9" in twin.output, result.output


def test_only_the_command_line_may_name_an_outside_program():
    """The registry's checks refuse cmd: unless their caller allows it (the CLI does; the web page's requests, which
    go through the same checks, cannot start a program)."""
    for check in (checked_spec, parse_spec):
        with pytest.raises(StrategySpecError, match="can be given only on the command line"):
            check(PYTHON_CLIENT)
    with pytest.raises(StrategySpecError, match="can be given only on the command line"):
        make_spec(PYTHON_CLIENT)


def test_games_that_take_turns_on_one_copy_each_play_their_own():
    """As the web page's auto-solvers do: two games stepped in turn share this thread's copy of the program; each
    joins again (a new game line) when the other used the copy, or stopped it, since its last turn."""
    games = [Game(BEGINNER, seed) for seed in (1, 2)]
    players = [make(PYTHON_CLIENT, seed=seed) for seed in (1, 2)]
    for player in players:
        player.begin(BEGINNER)
    turn = 0
    while not all(game.over for game in games):
        for player, game in zip(players, games, strict=True):
            if not game.over:
                play_move(player, game)
        turn += 1
        if turn == 5:
            players[1]._program.stop()  # as another game's forfeit would
    for seed, game in zip((1, 2), games, strict=True):
        assert game.history == play(make("reference", seed=seed), Game(BEGINNER, seed)).history
