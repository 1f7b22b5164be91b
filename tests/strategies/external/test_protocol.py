"""The protocol's lines: what sweeplab writes reads back as JSON, and every way an answer can break it is named."""

import json
import re

import pytest

from sweeplab.strategies.external.protocol import GARBLED, Forfeit, game_message, parse_answer, turn_message


def test_the_game_and_turn_lines_are_json_objects_on_one_line():
    game = game_message(9, 9, 10, "safe", 123)
    assert game.endswith(b"\n") and game.count(b"\n") == 1
    assert json.loads(game) == {"type": "game", "protocol": 1, "width": 9, "height": 9, "mines": 10, "rule": "safe", "seed": 123}
    turn = turn_message("3x1x1\n1HF\n", "[0,0,1]", 2)
    assert turn.count(b"\n") == 1
    assert json.loads(turn) == {"type": "turn", "moves": 2, "position": "3x1x1\n1HF\n", "revealed": [[0, 0, 1]]}
    assert json.loads(turn_message("1x1x0\nH\n", "", 0))["revealed"] == []


def test_an_answer_gives_moves_as_cells_with_its_reason_and_probabilities():
    answer = parse_answer(b'{"moves": [["reveal", 2, 1], ["flag", 0, 0], ["chord", 1, 1], ["unflag", 0, 1]]}', 3, 2)
    assert answer.moves == [("reveal", 5), ("flag", 0), ("chord", 4), ("unflag", 3)]
    assert answer.reason == "" and answer.probabilities == {}
    answer = parse_answer(b'{"moves": [["reveal", 0, 0]], "probabilities": [[0, 0, 0.25], [1, 0, 1]], "reason": "r"}', 2, 1)
    assert answer.probabilities == {0: 0.25, 1: 1.0} and answer.reason == "r"
    assert len(parse_answer(b'{"moves": [["reveal", 0, 0]], "reason": "' + b"x" * 900 + b'"}', 1, 1).reason) == 500


@pytest.mark.parametrize(
    ("line", "says"),
    [
        (b"hello", "not a JSON object"),
        (b"[1, 2]", "not a JSON object"),
        (b"\xff\xfe", "not a JSON object"),
        (b'{"moves": []}', 'no "moves" list'),
        (b'{"move": ["reveal", 0, 0]}', 'no "moves" list'),
        (b'{"moves": [["open", 0, 0]]}', "is not a move"),
        (b'{"moves": [["reveal", 0]]}', "is not a move"),
        (b'{"moves": [["reveal", 3, 0]]}', "not on the 3x2 board"),
        (b'{"moves": [["reveal", 0, -1]]}', "not on the 3x2 board"),
        (b'{"moves": [["reveal", 0.5, 0]]}', "not on the 3x2 board"),
        (b'{"moves": [["reveal", 0, 0]], "reason": 3}', '"reason" is not a string'),
        (b'{"moves": [["reveal", 0, 0]], "probabilities": {"a": 1}}', "not a list of [x, y, p]"),
        (b'{"moves": [["reveal", 0, 0]], "probabilities": [[0, 0, 1.5]]}', "not between 0 and 1"),
        (b'{"moves": [["reveal", 0, 0]], "probabilities": [[0, 0]]}', "is not [x, y, p]"),
        (b'{"moves": [["reveal", 0, 0]], "probabilities": [[9, 0, 0.5]]}', "not on the 3x2 board"),
    ],
)
def test_an_answer_out_of_the_protocol_is_a_forfeit_that_says_why(line, says):
    with pytest.raises(Forfeit, match=re.escape(says)) as caught:
        parse_answer(line, 3, 2)
    assert caught.value.outcome == GARBLED


def test_a_long_garbage_line_is_quoted_short():
    with pytest.raises(Forfeit) as caught:
        parse_answer(b"x" * 10_000, 3, 2)
    assert len(str(caught.value)) < 300 and "more bytes" in str(caught.value)
