import json
import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from sweeplab.learn.seed003.evaluate import clustered_mean, compare_probabilities, markdown


def test_compare_writes_tables_and_counts_choices(tmp_path):
    table = compare_probabilities(12, ["beginner", "8x8x12"], "safe", 0, tmp_path)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["positions"] == 12 and summary["cells"] > 12
    assert 0 < summary["frontier_cells"] < summary["cells"] and 1 <= summary["games"] <= 12
    for name in ("dsscsp", "xgboost", "nn"):
        for p in (summary["probability"][name], summary["probability"][name]["frontier"]):
            assert p["log_loss_vs_exact"] >= p["exact_entropy"] - 1e-4  # cross-entropy is never below the entropy
            assert p["log_loss_vs_exact_se"] >= 0 and p["mean_abs_diff_vs_exact_se"] >= 0
    for name in ("dsscsp-manhattan", "xgboost", "nn", "dqn"):
        c = summary["choice"][name]
        assert 0 <= c["differs"] <= 1 and c["mean_cost"] >= 0
    rows = (tmp_path / "positions.csv").read_text().splitlines()
    assert len(rows) == 13 and rows[0].startswith("board,game,covered,exact_min")
    assert "| xgboost | frontier |" in table and table == markdown(summary)
    assert (tmp_path / "calibration.csv").exists() and (tmp_path / "calibration.png").exists()


@given(st.lists(st.floats(-10, 10), min_size=2, max_size=30))
def test_clustered_mean_with_one_value_per_cluster_is_the_ordinary_standard_error(values):
    x = np.array(values)
    mean, se = clustered_mean(x, np.arange(len(x)))
    assert math.isclose(mean, x.mean(), abs_tol=1e-9)
    assert math.isclose(se, x.std(ddof=1) / math.sqrt(len(x)), rel_tol=1e-6, abs_tol=1e-9)


def test_clustered_mean_counts_clusters_not_values():
    # two games, each a block of identical values: the spread is between games, and only two of them are independent
    x = np.array([0.0] * 50 + [1.0] * 50)
    mean, se = clustered_mean(x, np.array([0] * 50 + [1] * 50))
    assert mean == 0.5 and math.isclose(se, 0.5)
    assert clustered_mean(x, np.zeros(100)) == (0.5, 0.0)
