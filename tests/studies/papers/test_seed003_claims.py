"""Seed 003's claims experiment (sweeplab.studies.papers.seed003_claims): what it plans."""

from sweeplab.studies.experiment import Settings
from sweeplab.studies.papers.seed003_claims import SEED_003_LEARNED, Seed003Claim


def test_skip_leaves_whole_specs_out_of_every_group_and_keeps_the_others_games():
    full = Seed003Claim().plan(Settings(quick=True))
    skipped = Seed003Claim().plan(Settings(quick=True, skip=["dss[limited=True]", "xgboost"]))
    names = {p.strategy for p in skipped.points}
    assert "dss[limited=True]" not in names and "xgboost" not in names and "dss" in names
    assert {spec for _, spec in SEED_003_LEARNED} - {"xgboost"} <= names
    kept = [p for p in full.points if p.strategy not in ("dss[limited=True]", "xgboost")]
    assert [(p.group, p.strategy, p.rules, p.seed_offset) for p in skipped.points] == [
        (p.group, p.strategy, p.rules, p.seed_offset) for p in kept
    ]
