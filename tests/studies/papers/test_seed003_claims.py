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


def test_groups_keep_only_the_points_of_those_groups_with_their_games_and_seeds():
    from sweeplab.studies.papers.experiments import plan_experiment, run_settings

    _, full = plan_experiment("seed003", Settings(quick=True, games=7))
    _, ratio = plan_experiment("seed003", Settings(quick=True, games=7, groups=["ratio"]))
    assert {p.group for p in full.points} == {"versions", "ratio", "shape", "blocks"}
    assert [p for p in ratio.points] == [p for p in full.points if p.group == "ratio"]
    assert any("--groups" in note for note in ratio.notes)
    assert run_settings("seed003", Settings(quick=True, groups=["ratio"]))["--groups"] == "ratio"
    assert "--groups" not in run_settings("seed003", Settings(quick=True))  # as runs made before the option stored


def test_groups_name_an_unknown_group_and_the_known_ones():
    import pytest

    from sweeplab.studies.experiment import ExperimentError
    from sweeplab.studies.papers.experiments import plan_experiment

    with pytest.raises(ExperimentError, match=r"no group 'figures'.*versions, ratio, shape, blocks"):
        plan_experiment("seed003", Settings(quick=True, groups=["ratio", "figures"]))
