"""Move logs: what play --log writes reads back, replays to the same game, and a malformed line is named."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sweeplab.core.game import Game, GameState
from sweeplab.core.rules import Rules
from sweeplab.formats.movelog import (
    GameRecord,
    LoggedMove,
    MoveLog,
    MoveLogError,
    MoveLogWriter,
    load_move_log,
    read_move_log,
    replay,
)
from sweeplab.strategies.base import play
from sweeplab.strategies.registry import make


def logged_game(tmp_path, strategy="single-point", board=(9, 9, 10), rule="safe", seed=4):
    """Play a game, logging it with the writer as play --log does; returns (game, path)."""
    rules = Rules(*board, rule)
    game = Game(rules, seed)
    player = make(strategy, seed=seed + 1)  # not the layout's seed: the same stream would tie guesses to mines
    path = tmp_path / "game.jsonl"
    with path.open("w") as stream:
        writer = MoveLogWriter(stream, GameRecord(rules.spec(), rule, seed, strategy))

        def on_move(g, move):
            guess = player.guesses[-1] if player.guesses and player.guesses[-1].move == g.moves - 1 else None
            x, y = g.board.xy(move.cell)
            if guess is None:
                writer.move(LoggedMove(g.moves, move.kind, x, y, True, state=g.state.value))
            else:
                writer.move(LoggedMove(g.moves, move.kind, x, y, False, guess.kind, guess.safety, None, g.state.value))

        play(player, game, on_move=on_move)
        writer.end(game)
    return game, path


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["single-point", "exact", "random"]),
    st.sampled_from([(9, 9, 10), (8, 8, 10), (5, 4, 3), (12, 3, 6)]),
    st.sampled_from(["unsafe", "safe", "xp", "zero", "hint"]),
    st.integers(-(2**40), 2**40),
)
def test_a_logged_game_replays_to_the_same_board(tmp_path_factory, strategy, board, rule, seed):
    game, path = logged_game(tmp_path_factory.mktemp("log"), strategy, board, rule, seed)
    log = load_move_log(path)
    assert log.game == GameRecord(f"{board[0]}x{board[1]}x{board[2]}", rule, seed, strategy)
    assert len(log.moves) == game.moves and log.end == game.state.value
    replayed = log.game.new_game()  # a hint can win a small board before any move
    for replayed, move in replay(log):
        assert replayed.state.value == move.state
    assert replayed.observation().view == game.observation().view
    assert replayed.state is game.state and replayed.mine_cells() == game.mine_cells()


def lines_of(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def write_lines(path, lines):
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))
    return path


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda ls: ls.__setitem__(1, "{not json"), r"line 2: not JSON"),
        (lambda ls: ls.__setitem__(1, "[1, 2]"), r"line 2: expected a JSON object"),
        (lambda ls: ls[0].__setitem__("log", "chess"), r"line 1: not a sweeplab move log"),
        (lambda ls: ls[0].__setitem__("version", 99), r"line 1: log version 99"),
        (lambda ls: ls[0].__setitem__("seed", "abc"), r"line 1: 'seed' must be int, not 'abc'"),
        (lambda ls: ls[0].__setitem__("seed", True), r"line 1: 'seed' must be int, not True"),
        (lambda ls: ls[0].__setitem__("rule", "lucky"), r"line 1: unknown first-click rule 'lucky'"),
        (lambda ls: ls[0].__setitem__("board", "huge"), r"line 1: unknown board 'huge'"),
        (lambda ls: ls[1].__setitem__("move", 5), r"line 2: move 5 where move 1 was expected"),
        (lambda ls: ls[1].__setitem__("kind", "dig"), r"line 2: unknown move kind 'dig'"),
        (lambda ls: ls[1].__setitem__("x", 9), r"line 2: cell \(9, \d+\) is off the 9x9 board"),
        (lambda ls: ls[1].__setitem__("y", -1), r"line 2: cell \(\d+, -1\) is off the 9x9 board"),
        (lambda ls: ls[1].pop("certain"), r"line 2: missing 'certain'"),
        (lambda ls: ls[1].__setitem__("safety", 1.5), r"line 2: 'safety' must be a probability from 0 to 1, not 1.5"),
        (lambda ls: ls[1].__setitem__("state", "paused"), r"line 2: unknown state 'paused'"),
        (lambda ls: ls[1].update(certain=False, guess=None, safety=None), r"line 2: a move that is not certain needs"),
        (lambda ls: ls[1].update(certain=True, guess="first"), r"line 2: a certain move has no guess kind"),
        (lambda ls: ls[-1].__setitem__("moves", 1), r"the end line counts 1 moves but the log has"),
        (lambda ls: ls[-1].__setitem__("end", "draw"), r"'end' must be won or lost, not 'draw'"),
        (lambda ls: ls.append(ls[1]), r"a line after the end line"),
    ],
)
def test_a_malformed_line_is_named(tmp_path, edit, message):
    _, path = logged_game(tmp_path)
    lines = lines_of(path)
    edit(lines)
    with pytest.raises(MoveLogError, match=rf"{path}, {message}" if message.startswith("line") else message):
        log = load_move_log(write_lines(path, lines))
        list(replay(log, str(path)))


def test_a_log_that_does_not_replay_as_logged_is_refused(tmp_path):
    game, path = logged_game(tmp_path)
    lines = lines_of(path)
    last = len(lines) - 2  # the last move's line index (the end line follows it)
    lines[last]["kind"] = "flag"  # the game-ending reveal made a flag: the game goes on, the log says it ended
    lines[last].update(certain=True, guess=None, safety=None)
    with pytest.raises(MoveLogError, match=rf"line {last + 1}: the log says the game was {game.state.value} after move"):
        list(replay(load_move_log(write_lines(path, lines)), str(path)))
    lines = lines_of(path)
    lines[1]["x"], lines[1]["y"] = lines[2]["x"], lines[2]["y"]  # move 2's cell, then revealed twice or dealt elsewhere
    lines[0]["seed"] += 1  # another seed deals other mines
    with pytest.raises(MoveLogError, match=r"the log says the game was|does not replay|the logged mines are not"):
        list(replay(load_move_log(write_lines(path, lines)), str(path)))


def test_a_log_cut_short_is_read_as_far_as_it_goes(tmp_path):
    game, path = logged_game(tmp_path)
    assert game.moves > 2
    lines = lines_of(path)[:3]
    log = load_move_log(write_lines(path, lines))
    assert log.end is None and len(log.moves) == 2
    games = [g for g, _ in replay(log)]
    assert games[-1].moves == 2 and games[-1].state is GameState.PLAYING
    # a line cut mid-way is malformed, and named
    path.write_text(path.read_text() + '{"move": 3, "ki')
    with pytest.raises(MoveLogError, match=r"line 4: not JSON"):
        load_move_log(path)


def test_unreadable_and_empty_logs(tmp_path):
    with pytest.raises(MoveLogError, match="empty"):
        read_move_log("\n\n")
    with pytest.raises(MoveLogError, match=r"cannot read it \(IsADirectoryError"):
        load_move_log(tmp_path)
    with pytest.raises(MoveLogError, match="not UTF-8"):
        (tmp_path / "bad").write_bytes(b"\xff\xfe")
        load_move_log(tmp_path / "bad")
    bom = read_move_log("\ufeff" + json.dumps(GameRecord("3x1x1", "unsafe", 1).to_dict()) + "\n")
    assert bom == MoveLog(GameRecord("3x1x1", "unsafe", 1), ())
