"""The arena's leaderboard from games.csv rows: standings, every pair with its SE and McNemar p, losses by reason."""

import json
import math

import pytest

from sweeplab.bench.arena import ArenaError, leaderboard, markdown, read_games, write
from sweeplab.bench.stats import mcnemar


def rows(player, wins, moves=10, cpu=0.002, outcome_lost="lost on an educated guess"):
    return [
        {
            "strategy": player, "game": str(i), "won": "1" if w else "0", "moves": str(moves),
            "cpu_seconds": str(cpu), "outcome": "won with guessing" if w else outcome_lost,
        }
        for i, w in enumerate(wins)
    ]  # fmt: skip


def test_standings_pairs_and_losses():
    a = [True] * 8 + [False] * 2
    b = [True] * 5 + [False] * 5
    c = [False, True] * 5
    board = leaderboard(
        {"b": rows("b", b), "a": rows("a", a, moves=20, cpu=0.004), "c": rows("c", c, outcome_lost="forfeit: not the protocol")},
        "9x9x10", "safe", 0, "sweeplab arena ...",
    )  # fmt: skip
    assert [s.player for s in board.standings] == ["a", "b", "c"]
    top = board.standings[0]
    assert (top.games, top.wins, top.win_rate) == (10, 8, 0.8)
    assert math.isclose(top.se, math.sqrt(0.8 * 0.2 / 10)) and math.isclose(top.cpu_per_move, 0.0002)
    assert board.standings[2].losses == {"forfeit: not the protocol": 5}
    assert [(p.a, p.b) for p in board.pairs] == [("a", "b"), ("a", "c"), ("b", "c")]
    ab = board.pairs[0]
    assert (ab.a_only, ab.b_only, ab.difference) == (3, 0, pytest.approx(0.3))
    assert ab.mcnemar_p == mcnemar(3, 0) == pytest.approx(0.25)  # 2 * 0.5**3
    text = markdown(board)
    assert "| 1 | `a` | 10 | 8 | 80.00% ± 12.65% |" in text and "sweeplab arena ..." in text
    assert "- `c`: forfeit: not the protocol 5" in text


def test_players_on_different_games_are_refused():
    with pytest.raises(ArenaError, match="did not play the same games"):
        leaderboard({"a": rows("a", [True, False]), "b": rows("b", [True])}, "9x9x10", "safe", 0, "")


def test_write_and_read(tmp_path):
    board = leaderboard({"a": rows("a", [True, False]), "b": rows("b", [False, False])}, "9x9x10", "safe", 0, "cmd")
    files = write(board, tmp_path)
    assert [f.name for f in files][:2] == ["leaderboard.md", "leaderboard.json"]
    data = json.loads((tmp_path / "leaderboard.json").read_text())
    assert data["command"] == "cmd" and data["pairs"][0]["mcnemar_p"] == 1.0
    pytest.importorskip("matplotlib")
    assert (tmp_path / "leaderboard.png").read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(ArenaError, match="cannot read"):
        read_games(tmp_path / "missing.csv")
    (tmp_path / "other.csv").write_text("a,b\n1,2\n")
    with pytest.raises(ArenaError, match=r"not a bench run's games\.csv"):
        read_games(tmp_path / "other.csv")
