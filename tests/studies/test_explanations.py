import json
import os
import subprocess
from pathlib import Path

import pytest

from sweeplab.studies.explanations import Explanation, fill, load

ROOT = Path(__file__).resolve().parents[2]


def test_every_committed_explanation_names_committed_evidence_or_says_it_is_unexplained():
    found = load(ROOT / "results" / "explanations.json")
    assert found, "results/explanations.json is empty"
    tracked = set(subprocess.run(["git", "ls-files", "results"], cwd=ROOT, capture_output=True, text=True).stdout.split())
    if not tracked:  # under CI the suite runs in a clone, where git must answer
        if os.environ.get("CI") == "true":
            pytest.fail("git ls-files lists nothing under results/: is this a git checkout?")
        pytest.skip("not a git checkout")
    for label, entry in found.items():
        for name in entry.evidence:
            assert name in tracked, f"{label}: evidence {name} is not committed"
        assert entry.shown or entry.printed.startswith("**Unexplained.**")


def write(tmp_path, entries):
    (tmp_path / "results").mkdir(exist_ok=True)
    path = tmp_path / "results" / "explanations.json"
    path.write_text(json.dumps(entries))
    return path


def test_an_explanation_needs_its_evidence_or_the_mark_unexplained(tmp_path):
    (tmp_path / "results" / "run").mkdir(parents=True)
    (tmp_path / "results" / "run" / "data.json").write_text("{}")
    path = write(
        tmp_path,
        {"a": {"text": "Shown.", "evidence": ["results/run/data.json"]}, "b": {"text": "Tried x.", "unexplained": True}},
    )
    found = load(path)
    assert found["a"] == Explanation("Shown.", ("results/run/data.json",)) and found["a"].shown
    assert not found["b"].shown and found["b"].printed == "**Unexplained.** Tried x."
    for bad, reason in [
        ("Because.", "expected {'text'"),
        ({"text": "Because."}, "give either the evidence files"),
        ({"text": "Because.", "evidence": ["results/none.csv"]}, "the evidence file results/none.csv does not exist"),
        ({"text": "x", "evidence": ["results/run/data.json"], "unexplained": True}, "give either"),
    ]:
        with pytest.raises(ValueError, match=reason.replace("(", r"\(").replace("{", r"\{")) as error:
            load(write(tmp_path, {"label": bad}))
        assert "'label'" in str(error.value)


def test_a_missing_file_means_no_explanations(tmp_path):
    assert load(tmp_path / "explanations.json") == {}


def test_placeholders_are_filled_from_the_data_they_cite(tmp_path):
    data = {
        "claims": [{"key": "a | dss[limited=True] | CPU", "measured": "1.52 ± 0.08", "z": 5.835}],
        "points": [{"board": "9x9x10", "win_rate": 0.869, "cpu_mean": 0.00132}],
    }
    (tmp_path / "d.json").write_text(json.dumps(data))
    text = 'r {{d.json#claims[key="a | dss[limited=True] | CPU"].measured}}, {{d.json#claims.0.z:.1f}} SE, '
    text += "{{d.json#points[board=9x9x10].win_rate:%.1f}}%, {{d.json#points[board=9x9x10].cpu_mean:ms.2f}} ms"
    assert fill(text, tmp_path, "row") == "r 1.52 ± 0.08, 5.8 SE, 86.9%, 1.32 ms"
    for bad, why in (
        ("{{d.json#points[board=8x8x10].win_rate}}", "matches 0 items"),
        ("{{d.json#points.0.wins}}", "no 'wins' there"),
        ("{{e.json#points}}", "cannot read e.json"),
        ("{{d.json#claims.0.measured:.1f}}", "needs a number"),
        ("{{d.json points}}", "cannot be read"),
    ):
        with pytest.raises(ValueError, match=why):
            fill(bad, tmp_path, "row")


def test_placeholders_read_one_row_of_a_csv_file(tmp_path):
    rows = "strategy,kind,low,rate,observations\nexact,educated,0.80,0.8224,1603094\nexact,educated,0.85,0.861,20\n"
    rows += "cspstrategy,educated,0.80,0.804,99\n"
    (tmp_path / "bins.csv").write_text(rows)
    text = "{{bins.csv#[strategy=exact,low=0.8].rate:%.1f}}% of {{bins.csv#[strategy=exact,low=0.80].observations:,}}, "
    text += "{{bins.csv#[strategy=cspstrategy].kind}} {{bins.csv#[low=0.85].rate}}"
    assert fill(text, tmp_path, "row") == "82.2% of 1,603,094, educated 0.861"
    for bad, why in (
        ("{{bins.csv#[strategy=exact,width=1].rate}}", "no item has a field 'width'"),
        ("{{bins.csv#[strategy=exact,low=0.8].width}}", "no 'width' there"),
        ("{{bins.csv#[strategy=nn].rate}}", "matches 0 items"),
        ("{{bins.csv#[strategy=exact].rate}}", "matches 2 items"),
        ("{{bins.csv#[low=0.85].kind:.1f}}", "needs a number"),
        ("{{none.csv#[low=0.85].kind}}", "cannot read none.csv as CSV"),
    ):
        with pytest.raises(ValueError, match=why):
            fill(bad, tmp_path, "row")


def test_a_placeholder_scales_seconds_to_microseconds(tmp_path):
    (tmp_path / "d.json").write_text(json.dumps({"cpu_per_move": 9.017e-06}))
    assert fill("{{d.json#cpu_per_move:us.0f}} µs, {{d.json#cpu_per_move:ms.3f}} ms", tmp_path, "row") == "9 µs, 0.009 ms"
