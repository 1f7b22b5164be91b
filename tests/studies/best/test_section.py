"""The best study's docs section: the verdict against a target, the pairing with the earlier version, the regret part."""

import json

import pytest
from click.testing import CliRunner

from sweeplab.cli import main as cli
from sweeplab.studies.best import section, summarise, verdict
from sweeplab.studies.best.section import _influence_bound as influence_bound


def test_verdict_states_the_gap_to_the_target_plainly():
    assert verdict(0.41, 0.005, 10_000, 41.5) == "41.00 ± 0.50 at n=10,000; target 41.5; not shown, 0.50 short"
    assert (
        verdict(0.418, 0.002, 40_000, 41.5)
        == "41.80 ± 0.20 at n=40,000; target 41.5; above the target by 0.30, within 2 SE: not shown"
    )
    assert verdict(0.42, 0.002, 40_000, 41.5) == "42.00 ± 0.20 at n=40,000; target 41.5; shown, 0.50 above"


def _bench(run, seed, *more):
    args = ["bench", "-s", "best,exact", "-b", "9x9x10", "-r", "safe", "--first-click", "0,0", "-n", "5", "-j", "1"]
    result = CliRunner().invoke(cli, [*args, "--seed", str(seed), *more, "--out", str(run)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    summarise(run, f"sweeplab bench ... --seed {seed}")


def test_this_version_is_paired_with_the_one_before_only_on_the_same_deals(tmp_path):
    root = tmp_path / "best"
    _bench(root / "paired" / "beginner-safe-0-0", 4)
    _bench(root / "before-living" / "paired" / "beginner-safe-0-0", 4)
    text = section(tmp_path)
    assert "against the one before it" in text and "root seed 4 in both" in text
    after = text.split("against the one before it", 1)[1]
    row = next(line for line in after.splitlines() if line.startswith("| 9x9x10 safe (0, 0) | 5 |"))
    assert row.count("|") == 6 and row.endswith("| +0.00 ± 0.00 |")  # the same code on the same deals
    assert "The runs of the version before the living-cell look-ahead" in text
    _bench(root / "before-living" / "paired" / "beginner-safe-0-0", 5, "--force")  # other deals: no pairing
    assert "against the one before it" not in section(tmp_path)


def test_the_regret_section_reads_its_data_and_how_the_positions_were_collected(tmp_path):
    regret = tmp_path / "best" / "regret"
    regret.mkdir(parents=True)
    (regret / "positions.json").write_text(json.dumps({"games": 90, "seed": 5, "low": 30, "high": 3000}))
    rows = [
        {"strategy": "best[endgame=False]", "regret_points": 1.0, "optimal_share": 0.7, "difference_points": 0.0},
        {"strategy": "exact", "regret_points": 2.5, "optimal_share": 0.4, "difference_points": 1.5},
    ]
    rows[0]["difference_se"], rows[1]["difference_se"] = 0.0, 0.2
    data = {"positions_searched": 12, "mean_optimal_win_probability": 0.61, "strategies": rows}
    (regret / "data.json").write_text(json.dumps(data))
    text = section(tmp_path)
    assert "### Each guess against the exact optimum" in text
    assert "12 positions" in text and "root seed 5, 90 games" in text and "30 to 3,000 consistent layouts" in text
    assert "| `exact` | 2.500 | 40.0% | +1.500 ± 0.200 |" in text
    assert "collect --games 90 --seed 5" in text and "--strategy 'exact'" in text
    # a later run on the same positions (its own folder) adds its rows and its command
    later = regret / "depth2"
    later.mkdir()
    extra = [dict(rows[0]), {**rows[1], "strategy": "best[depth=2]", "regret_points": 0.9, "difference_points": -0.1}]
    (later / "data.json").write_text(json.dumps({**data, "strategies": extra}))
    text = section(tmp_path)
    assert "| `best[depth=2]` (`depth2/`) | 0.900 | 40.0% | -0.100 ± 0.200 |" in text
    assert "--strategy 'best[depth=2]' --out results/best/regret/depth2" in text
    # ... and one whose reference played other moves (other positions, or another reference) is refused by name
    extra[0]["regret_points"] = 1.2
    (later / "data.json").write_text(json.dumps({**data, "strategies": extra}))
    with pytest.raises(ValueError, match=r"depth2/data\.json: not a run on the same positions"):
        section(tmp_path)


@pytest.mark.parametrize(("difference", "words"), [(0.003, "ahead by more"), (-0.003, "behind by more"), (0.001, "within 2 SE")])
def test_the_influence_bound_sentence_follows_its_paired_row(difference, words):
    row = {"change": "influence bound 0.05, expert", "games": 100_000, "difference": difference, "se": 0.001}
    text = influence_bound([{"change": "other", "games": 1, "difference": 0.5, "se": 0.1}, row])
    assert "100,000 expert games" in text and f"{100 * difference:+.2f} ± 0.10" in text and words in text
    assert influence_bound([]) == ""
