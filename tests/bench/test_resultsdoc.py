import json

from sweeplab.bench.resultsdoc import build, main


def point(**kw):
    base = {
        "group": "seed 001", "strategy": "single-point", "board": "9x9x10", "rule": "zero", "games": 1000, "wins": 700,
        "win_rate": 0.70, "sem": 0.01, "cpu_mean": 0.001, "cpu_p99": 0.002, "timeouts": 0, "paper_label": "c1",
        "published_percent": 79.5, "published_se_percent": 1.28, "difference_in_se": -5.9,
    }  # fmt: skip
    base.update(kw)
    return base


def write_levels(results, points):
    (results / "levels").mkdir(parents=True)
    data = {"command": "sweeplab experiment levels --out results/levels", "quick": False, "notes": [], "points": points}
    (results / "levels" / "data.json").write_text(json.dumps(data))


def test_differences_beyond_two_se_need_an_explanation(tmp_path):
    write_levels(tmp_path, [point(), point(board="16x16x40", published_percent=47.7, difference_in_se=0.4)])
    text, unexplained = build(tmp_path, {})
    assert "| 9x9x10 | zero | c1 | single-point | 1000 | 70.0 ± 1.0 | 79.5 ± 1.3 | -5.9 |" in text
    assert unexplained == ["seed 001 | 9x9x10 | zero | single-point (c1)"]
    assert "**not yet explained.**" in text
    assert "produced by `sweeplab experiment levels --out results/levels`" in text
    label = unexplained[0]
    text, unexplained = build(tmp_path, {label: "Our single-point flags mines; the paper's c1 does not."})
    assert not unexplained and "(-5.9 SE): Our single-point flags mines" in text


def test_missing_data_says_how_to_produce_it(tmp_path, capsys):
    out = tmp_path / "results.md"
    assert main(["--results", str(tmp_path), "--out", str(out)]) == 0
    text = out.read_text()
    assert "Not measured yet: run `sweeplab experiment outcomes --out results/outcomes`." in text
    assert "| educated | 80% to 84% | 82253 | 111689 | 73.6 ± 0.1 |" in text
