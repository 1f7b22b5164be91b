import json

from sweeplab.learn.evaluate import compare_probabilities


def test_compare_writes_tables_and_counts_choices(tmp_path):
    table = compare_probabilities(12, ["beginner", "8x8x12"], "safe", 0, tmp_path)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["positions"] == 12 and summary["cells"] > 12
    for name in ("dsscsp", "xgboost", "nn"):
        p = summary["probability"][name]
        assert p["log_loss_vs_exact"] >= p["exact_entropy"] - 1e-9  # cross-entropy is never below the entropy
    for name in ("dsscsp-manhattan", "xgboost", "nn", "dqn"):
        c = summary["choice"][name]
        assert 0 <= c["differs"] <= 1 and c["mean_cost"] >= 0
    rows = (tmp_path / "positions.csv").read_text().splitlines()
    assert len(rows) == 13 and rows[0].startswith("board,covered,exact_min")
    assert "| xgboost |" in table and (tmp_path / "calibration.csv").exists() and (tmp_path / "calibration.png").exists()
