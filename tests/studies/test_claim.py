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
        assert claim["verdict"] in ("reproduced", "not reproduced") and claim["sentence"] and claim["key"]
        assert claim["z"] is None or math.isfinite(claim["z"])
    assert len(data["cpu_se"]) == len(data["points"])
    assert "## Claims" in (tmp_path / "table.md").read_text()
