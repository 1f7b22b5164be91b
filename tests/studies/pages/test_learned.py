"""The learned players' page: the ablations section pairs each ablated player with the full one, game by game."""

import csv
import gzip
import json
from pathlib import Path

import pytest

from sweeplab.studies.pages.learned import _ablations, _learned_players, _table4
from sweeplab.studies.pages.page import Doc

SETTINGS = {"board": "9x9x10", "rule": "safe", "seed": 0}


def _bench(folder: Path, won: dict[str, list[int]], settings: dict[str, object] = SETTINGS) -> None:
    folder.mkdir(parents=True)
    summaries = []
    for name, wins in won.items():
        rate = sum(wins) / len(wins)
        summaries.append(
            {
                "strategy": name,
                "board": "9x9x10",
                "games": len(wins),
                "win_rate": rate,
                "sem": 0.01,
                "cpu_mean": 0.001,
                "cpu_median": 0.001,
            }
        )
    (folder / "bench.json").write_text(json.dumps({"settings": settings, "summaries": summaries}))
    with gzip.open(folder / "games.csv.gz", "wt", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["strategy", "game", "won"])
        for name, wins in won.items():
            writer.writerows([name, i, w] for i, w in enumerate(wins))


def _page(results: Path) -> str:
    doc = Doc(results, {})
    _ablations(doc, results / "learn")
    return "".join(doc.parts)


def test_ablation_rows_pair_with_the_full_player_and_name_what_was_removed(tmp_path):
    results = tmp_path / "results"  # a model path in a spec is relative to the repository root, results' parent
    learn = results / "learn"
    full = [1, 1, 1, 1, 0, 1, 1, 1]
    _bench(
        learn / "winrates" / "beginner",
        {"dsscsp-manhattan": [1, 1, 0, 1, 0, 1, 1, 1], "xgboost": full, "nn": [0, 1, 0, 1, 0, 0, 1, 0]},
    )
    model = learn / "ablations" / "models" / "xgboost-without-p"
    model.mkdir(parents=True)
    (model / "card.json").write_text(json.dumps({"without": ["probability"]}))
    spec = "xgboost[model=results/learn/ablations/models/xgboost-without-p]"
    _bench(learn / "ablations" / "beginner", {"xgboost[noise=1]": [0, 1, 0, 1, 0, 0, 1, 0], spec: full})
    (learn / "ablations" / "beginner" / "command.txt").write_text("sweeplab bench ...")
    page = _page(results)
    noise = [line for line in page.splitlines() if "uniform noise (`xgboost[noise=1]`)" in line]
    assert [row.split(" | ")[1] for row in noise] == ["xgboost", "nn"]  # one noise player, paired with each kind
    assert "| -50.00 ± " in noise[0]  # 3 of 8 won against 7 of 8, paired
    assert "| +0.00 ± 0.00 |" in noise[1]
    without = next(line for line in page.splitlines() if "retrained without probability" in line)
    assert "| +0.00 ± 0.00 |" in without
    assert "sweeplab bench ..." in page


def test_an_ablation_run_on_other_layouts_is_refused(tmp_path):
    learn = tmp_path / "learn"
    _bench(learn / "winrates" / "beginner", {"xgboost": [1, 0]})
    _bench(learn / "ablations" / "beginner", {"xgboost[noise=1]": [0, 0]}, {**SETTINGS, "seed": 1})
    with pytest.raises(ValueError, match="do not pair"):
        _page(tmp_path)


def test_players_split_between_runs_of_one_board_pair_across_them(tmp_path):
    learn = tmp_path / "learn"
    _bench(learn / "winrates" / "beginner", {"dsscsp-manhattan": [1, 0, 1, 0], "exact": [1, 1, 1, 0]})
    _bench(learn / "winrates" / "beginner" / "dqn", {"dqn": [1, 1, 1, 1]})
    doc = Doc(tmp_path, {})
    _learned_players(doc)
    page = "".join(doc.parts)
    row = next(line for line in page.splitlines() if line.startswith("| 9x9x10 (beginner) | dqn |"))
    assert "| +50.00 ± " in row and "| +25.00 ± " in row  # against dsscsp-manhattan, then exact
    assert "`results/learn/winrates/beginner/dqn/`" in page
    _bench(learn / "winrates" / "beginner" / "other", {"nn": [1, 1, 1, 1]}, {**SETTINGS, "rule": "unsafe"})
    with pytest.raises(ValueError, match="differ"):
        _learned_players(Doc(tmp_path, {}))


def test_table4_gathers_the_versions_the_learned_players_and_oh(tmp_path):
    point = {"group": "versions", "paper_label": "+DSS", "strategy": "dss", "games": 100, "win_rate": 0.9, "sem": 0.01}
    (tmp_path / "seed003").mkdir()
    (tmp_path / "seed003" / "data.json").write_text(json.dumps({"points": [point, {**point, "group": "ratio"}]}))
    _bench(tmp_path / "learn" / "winrates" / "beginner", {"nn": [1, 0], "exact": [1, 1]})
    _bench(tmp_path / "oh-beginner", {"exact": [1, 1, 1], "oh": [1, 1, 0]})
    doc = Doc(tmp_path, {})
    _table4(doc, tmp_path / "learn")
    rows = [line for line in "".join(doc.parts).splitlines() if line.startswith("| ") and "games" not in line]
    assert [r.split(" | ")[1] for r in rows] == ["dss", "nn", "oh"]
    assert rows[2].startswith("| OH [5] | oh | 3 | 66.7 ± 1.0 |")


def test_the_symmetric_player_pairs_with_exact_and_the_one_pass_player_and_states_its_cost(tmp_path):
    from sweeplab.studies.pages.neural import _symmetries

    neural = tmp_path / "learn" / "neural"
    _bench(neural / "beginner", {"exact": [1, 1, 1, 1, 0, 1], "neural": [1, 0, 1, 1, 0, 1]})
    _bench(neural / "symmetries" / "beginner", {"exact": [1, 1, 1, 1, 0, 1], "neural[symmetries=4]": [1, 1, 1, 1, 0, 0]})
    (neural / "symmetries" / "beginner" / "command.txt").write_text("sweeplab bench --strategy 'exact,neural[symmetries=4]'")
    speed = [{"board": "9x9x10", "symmetries": 1, "median_ms": 0.7}, {"board": "9x9x10", "symmetries": 4, "median_ms": 2.3}]
    timing = {"command": "python benchmarks/learn/neural_speed.py", "boards": speed}
    (neural / "symmetries" / "speed.json").write_text(json.dumps(timing))
    text = _symmetries(Doc(tmp_path, {}), neural / "symmetries")
    row = next(line for line in text.splitlines() if line.startswith("| 9x9x10 (beginner) |"))
    assert "| -16.67 ± " in row and "| +0.00 ± " in row  # 4 of 6 against exact's 5 of 6, paired; the one pass also won 4
    assert "9x9x10 2.30 ms against 0.70; over the 2 ms goal on 9x9x10." in text
    assert "`results/learn/neural/symmetries/beginner/`" in text
    assert _symmetries(Doc(tmp_path, {}), tmp_path / "nothing") == ""


HELD_OUT = {**SETTINGS, "seed": 1_000_000}


def test_a_verdict_run_of_a_development_seed_is_refused(tmp_path):
    _bench(tmp_path / "learn" / "heldout" / "winrates" / "beginner", {"dsscsp-manhattan": [1, 0], "dqn": [1, 1]})
    with pytest.raises(ValueError, match="is not held out"):
        _learned_players(Doc(tmp_path, {}))


def test_each_held_out_claim_says_whether_the_development_verdict_changed(tmp_path):
    learn = tmp_path / "learn"
    n = 100
    base = [int(i < 50) for i in range(n)]
    _bench(learn / "winrates" / "beginner", {"dsscsp-manhattan": base, "dqn": [int(i < 90) for i in range(n)]})
    _bench(learn / "heldout" / "winrates" / "beginner", {"dsscsp-manhattan": base, "dqn": base}, HELD_OUT)
    doc = Doc(tmp_path, {})
    _learned_players(doc)
    page = "".join(doc.parts)
    assert "### Win rates on held-out layouts\n\nRoot seed 1,000,000, held out" in page
    assert "dqn +0.00 ± 0.00 pts; undecided" in page
    assert "On the development layouts (seed 0): dqn +40.00 ± 4.92 pts, reproduced; the verdict changed" in page


def test_the_neural_goal_is_judged_on_held_out_games_beside_the_development_ones(tmp_path):
    from sweeplab.studies.pages.neural import neural_section

    learn = tmp_path / "learn"
    n = 400
    exact = [int(i % 10 < 4) for i in range(n)]
    _bench(learn / "neural" / "expert", {"exact": exact, "neural": exact})
    behind = [w if i % 40 else 0 for i, w in enumerate(exact)]  # 10 fewer wins on the same games: -2.5 points
    _bench(learn / "heldout" / "neural" / "expert", {"exact": exact, "neural": behind}, HELD_OUT)
    (learn / "cards").mkdir()
    (learn / "cards" / "neural.json").write_text(json.dumps({"kind": "neural", "command": "sweeplab learn neural train"}))
    speed = {"board": "9x9x10", "median_ms": 1.5, "p90_ms": 3.0, "cpu_median_ms": 2.3, "move_median_ms": 0.01}
    (learn / "neural" / "speed.json").write_text(json.dumps({"command": "python x", "model_bytes": 1, "boards": [speed]}))
    doc = Doc(tmp_path, {})
    neural_section(doc, learn)
    page = "".join(doc.parts)
    row = next(line for line in page.splitlines() if line.startswith("| 9x9x10 (expert) |"))
    assert "| -2.50 ± " in row and "| undecided |" in row and "400 games: +0.00 ± 0.00, met (changed)" in row
    assert "| not met (2.30 ms) |" in row
    assert "The win-rate goal is not claimed on 9x9x10 (expert) (undecided)" in page
    assert "The cost goal is not met on 9x9x10 (expert) (not met (2.30 ms))." in page


def test_a_claim_not_yet_measured_on_held_out_layouts_has_no_verdict(tmp_path):
    learn = tmp_path / "learn"
    base = [int(i < 50) for i in range(100)]
    _bench(learn / "winrates" / "beginner", {"dsscsp-manhattan": base, "dqn-single": [int(i < 90) for i in range(100)]})
    _bench(learn / "heldout" / "winrates" / "beginner", {"dsscsp-manhattan": base, "dqn": base}, HELD_OUT)
    doc = Doc(tmp_path, {})
    _learned_players(doc)
    page = "".join(doc.parts)
    assert "Not yet measured on held-out layouts, so without a verdict here" in page
    assert "- beginner: deep Q-learning, single pass (dqn-single), wins more than the Manhattan version: " in page
    assert [s.claim for s in doc.scores] == ["beginner: deep Q-learning (dqn) wins more than the Manhattan version"]


@pytest.mark.parametrize(
    ("dqn_won", "verdict"),
    [
        (lambda i: i < 400, "reproduced"),  # nn's own games: level, without spread
        (lambda i: i < 340, "not reproduced"),  # 7.5 points behind on nested games: far past 2 SE
        (lambda i: i % 2 == 0, "undecided"),  # level on average, ±2.5 points: the interval holds 0 and -1 point
    ],
)
def test_the_q_learning_claim_is_a_non_inferiority_test_with_an_undecided_band(dqn_won, verdict):
    """Not reproduced when dqn is behind the better classifier by more than 2 SE, reproduced when the difference
    less 2 SE clears minus one point, undecided when the interval holds both 0 and minus one point."""
    from sweeplab.studies.pages.learned import _learn_claims

    n = 800
    outcomes = {
        "dsscsp-manhattan": {i: i < 300 for i in range(n)},
        "xgboost": {i: i < 350 for i in range(n)},
        "nn": {i: i < 400 for i in range(n)},
        "dqn": {i: dqn_won(i) for i in range(n)},
    }
    claim = next(c for c in _learn_claims("beginner", outcomes) if c["key"].endswith("dqn at least as good as the classifiers"))
    assert claim["verdict"] == verdict, claim["sentence"]
