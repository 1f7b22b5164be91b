"""The learn page's recheck (sweeplab.studies.pages.recheck): each learned verdict beside the same verdict on a
second held-out seed, a changed one named."""

import json
from pathlib import Path

import pytest

from sweeplab.core.heldout import VERDICT_SEED
from sweeplab.studies.pages.page import Doc
from sweeplab.studies.pages.recheck import recheck_section
from tests.studies.pages.test_learned import SETTINGS, _bench

FIRST = {**SETTINGS, "seed": VERDICT_SEED}
SECOND = {**SETTINGS, "seed": VERDICT_SEED + 1}


def _claims_run(path: Path, seed: int, measured: str, verdict: str) -> None:
    path.mkdir(parents=True)
    claim = {"key": "seed 003 | dqn - dsscsp-manhattan | win rate", "measured": measured, "verdict": verdict}
    other = {"key": "seed 003 | dsscsp - backtracking | win rate", "measured": "+0.0", "verdict": "reproduced"}
    (path / "data.json").write_text(json.dumps({"seed": seed, "claims": [claim, other]}))


def _section(results: Path) -> str:
    doc = Doc(results, {})
    recheck_section(doc, results)
    return "".join(doc.parts)


def test_each_learned_verdict_is_shown_on_both_seeds_and_a_change_is_named(tmp_path):
    learn = tmp_path / "learn"
    # dqn clearly beats the Manhattan player on the first seed's 40 games and ties it on the second's
    _bench(learn / "heldout" / "winrates" / "beginner", {"dsscsp-manhattan": [0, 1] * 20, "dqn": [1] * 40}, FIRST)
    _bench(learn / "recheck" / "winrates" / "beginner", {"dsscsp-manhattan": [0, 1] * 20, "dqn": [1, 0] * 20}, SECOND)
    _bench(learn / "heldout" / "neural" / "beginner", {"exact": [1] * 40, "neural": [1] * 40}, FIRST)
    _bench(learn / "recheck" / "neural" / "beginner", {"exact": [1] * 40, "neural": [1] * 40}, SECOND)
    _claims_run(tmp_path / "seed003", VERDICT_SEED, "-0.4 ± 0.4 points", "not reproduced")
    _claims_run(learn / "recheck" / "seed003", VERDICT_SEED + 1, "-0.5 ± 0.4 points", "not reproduced")
    page = _section(tmp_path)
    assert "**2 of 3 verdicts are the same on fresh games; 0 turned into its opposite; 1 was decided on one seed" in page
    assert "undecided on the other (seed 003 | beginner | dqn beats dsscsp-manhattan).**" in page
    rows = [line for line in page.splitlines() if line.startswith("| ")][1:]
    assert len(rows) == 3  # the ranking claim, the neural goal, the one learned claim of seed 003 (not dsscsp's)
    assert rows[0].endswith("| decided on one seed only |") and ": reproduced |" in rows[0] and ": undecided |" in rows[0]
    assert rows[1].endswith("| yes |") and "neural \\| beginner \\| within 1 point of exact" in rows[1]
    assert "-0.5 ± 0.4 points: not reproduced | yes |" in rows[2]


def test_a_recheck_on_the_seed_it_checks_or_on_a_development_seed_is_refused(tmp_path):
    learn = tmp_path / "learn"
    _bench(learn / "heldout" / "neural" / "beginner", {"exact": [1, 0], "neural": [1, 0]}, FIRST)
    _bench(learn / "recheck" / "neural" / "beginner", {"exact": [1, 0], "neural": [1, 0]}, FIRST)
    with pytest.raises(ValueError, match="the seed it checks"):
        _section(tmp_path)
    _bench(learn / "recheck" / "winrates" / "beginner", {"dsscsp-manhattan": [1, 0], "dqn": [1, 1]}, SETTINGS)
    with pytest.raises(ValueError, match="not held out"):
        _section(tmp_path)


def test_nothing_without_a_recheck(tmp_path):
    assert _section(tmp_path) == ""


def test_verdicts_decided_both_ways_are_opposite_and_one_undecided_is_not():
    from sweeplab.studies.pages.recheck import ONE_SEED, OPPOSITE, _same

    assert _same("met", "met") == "yes"
    assert _same("reproduced", "not reproduced") == OPPOSITE
    assert _same("undecided", "not reproduced") == ONE_SEED == _same("met", "undecided")


def test_a_longer_ratio_sweep_beside_a_claims_run_decides_its_claims_on_both_seeds(tmp_path):
    learn = tmp_path / "learn"
    _bench(learn / "heldout" / "neural" / "beginner", {"exact": [1] * 40, "neural": [1] * 40}, FIRST)
    _bench(learn / "recheck" / "neural" / "beginner", {"exact": [1] * 40, "neural": [1] * 40}, SECOND)
    _claims_run(tmp_path / "seed003", VERDICT_SEED, "+0.5 ± 0.4 points", "undecided")
    _claims_run(learn / "recheck" / "seed003", VERDICT_SEED + 1, "+1.2 ± 0.4 points", "reproduced")
    assert "1 was decided on one seed" in _section(tmp_path)
    _claims_run(tmp_path / "seed003-ratio", VERDICT_SEED, "+0.9 ± 0.2 points", "reproduced")
    _claims_run(learn / "recheck" / "seed003-ratio", VERDICT_SEED + 1, "+1.0 ± 0.2 points", "reproduced")
    page = _section(tmp_path)
    assert "**2 of 2 verdicts are the same on fresh games; 0 turned into its opposite; 0 were decided" in page
    assert "+0.9 ± 0.2 points: reproduced | +1.0 ± 0.2 points: reproduced | yes |" in page
