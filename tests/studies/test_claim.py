"""The claims machinery: its statistics, and every claims experiment's quick run writing its verdicts."""

import json
import math

import pytest

from sweeplab.studies.claim import (
    REPRODUCED,
    chi_square_homogeneity,
    chi_square_sf,
    ratio_se,
    verdict,
    zscore,
)
from sweeplab.studies.experiment import Settings
from sweeplab.studies.papers.experiments import CLAIM_EXPERIMENTS, EXPERIMENTS, run_experiment


@pytest.mark.parametrize(
    ("x", "k", "p"), [(3.841458820694124, 1, 0.05), (5.991464547107979, 2, 0.05), (23.209251, 10, 0.01), (1.0, 3, 0.8012519569)]
)
def test_chi_square_tail_matches_known_quantiles(x, k, p):
    assert chi_square_sf(x, k) == pytest.approx(p, abs=1e-6)


def test_homogeneity_test_tells_equal_from_different_rates():
    assert chi_square_homogeneity([500, 500, 500], [1000, 1000, 1000])[2] == pytest.approx(1.0)
    stat, df, p = chi_square_homogeneity([500, 560], [1000, 1000])
    assert df == 1 and stat == pytest.approx(7.2, rel=0.01) and p < 0.01


def test_verdicts_and_ratios():
    assert verdict(1.99) == REPRODUCED and verdict(-2.01) != REPRODUCED and verdict(None) != REPRODUCED
    assert zscore(0.3, 0.1, 0.1) == pytest.approx(2.0)
    r, se = ratio_se(2.0, 0.2, 1.0, 0.1)
    assert r == 2.0 and se == pytest.approx(2.0 * math.hypot(0.1, 0.1))


@pytest.mark.parametrize("name", [e.name for e in CLAIM_EXPERIMENTS])
def test_quick_claims_run_writes_verdicts(name, tmp_path):
    assert EXPERIMENTS[name] is next(e for e in CLAIM_EXPERIMENTS if e.name == name)
    settings = Settings(quick=True, games=6, command=f"sweeplab experiment {name} --quick --games 6")
    files = run_experiment(name, tmp_path, settings, echo=lambda s: None)
    assert {"data.json", "data.csv", "table.md"} <= {f.name for f in files}
    data = json.loads((tmp_path / "data.json").read_text())
    assert data["claims"], "every claims experiment tests at least one claim"
    for claim in data["claims"]:
        assert claim["verdict"] in ("reproduced", "not reproduced", "undecided") and claim["sentence"] and claim["key"]
        assert claim["z"] is None or math.isfinite(claim["z"])
    assert len(data["cpu_se"]) == len(data["points"])
    assert "## Claims" in (tmp_path / "table.md").read_text()


def test_every_games_outcome_is_written_and_read_back_and_pairs_recompute(tmp_path):
    from sweeplab.bench.runner import GameResult
    from sweeplab.studies.claim import paired_difference, read_outcomes, write_outcomes

    def game(i, won):
        return GameResult(index=i, won=won, moves=3, cpu_seconds=0.0012, three_bv=None, revealed=5)

    a = [game(0, True), game(1, True), game(2, False)]
    b = [game(0, True), game(1, False), game(2, False)]
    path = write_outcomes(tmp_path / "outcomes.csv.gz", [a, b])
    found = read_outcomes(path)
    assert found[0][1] == (True, 0.0012) and found[1][1] == (False, 0.0012)
    d, se, n = paired_difference([(found[0], found[1])])
    assert (round(d, 6), n) == (round(1 / 3, 6), 3) and se > 0
    path.write_bytes(__import__("gzip").compress(b"point,game,won,timed_out,cpu_us\n0,1,2,0,5\n"))
    with pytest.raises(ValueError, match="line 2: won must be 0 or 1"):
        read_outcomes(path)


def test_nearly_as_accurate_is_an_equivalence_test():
    from sweeplab.studies.claim import equivalent
    from sweeplab.studies.papers.seed003_claims import equivalence_claim, retest

    # a small loss measured precisely is equivalent (the difference test would call it a difference) ...
    assert equivalent(-0.0011, 0.0004) and not equivalent(-0.0011, 0.006)
    claim = equivalence_claim("x", "y", "nearly the same accuracy", "words", -0.0011, 0.0004, 11000)
    assert claim.verdict == "reproduced" and "inside the margin of ±1 point" in claim.sentence
    # ... and data written before the test changed is re-read the same way: d from the wins, SE = d / z
    points = [{"group": "ratio", "strategy": s, "games": 1000, "wins": w} for s, w in (("dss[limited=True]", 899), ("dss", 900))]
    old = {"key": "seed 003 | dss[limited=True] - dss | win rate", "published": "nearly the same accuracy", "z": -2.5}
    new = retest({"points": points, "claims": [old]})["claims"][0]
    assert new["verdict"] == "reproduced" and new["measured"] == "-0.10 ± 0.04 points"


def test_seed003s_gain_claims_are_retested_three_ways():
    """A stored claim of a gain gets the three-way verdict of its z (undecided inside ±2 SE); others are kept."""
    from sweeplab.studies.papers.seed003_claims import GAIN_PUBLISHED, retest

    gain = {"key": "seed 003 | dqn - dsscsp-manhattan | win rate", "published": GAIN_PUBLISHED, "verdict": "not reproduced"}
    other = {"key": "seed 003 | shape | dqn", "published": "no effect", "z": 0.5, "verdict": "not reproduced"}
    claims = retest({"claims": [{**gain, "z": 1.3}, {**gain, "z": -2.2}, {**gain, "z": 3.0}, other]})["claims"]
    assert [c["verdict"] for c in claims] == ["undecided", "not reproduced", "reproduced", "not reproduced"]
