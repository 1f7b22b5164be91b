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


def _claims_run(seed, games, claims):
    points = [{"group": "ratio", "strategy": s, "board": "16x16x13", "games": games} for s in ("dsscsp-manhattan", "dqn")]
    return {"experiment": "seed003", "seed": seed, "command": f"sweeplab experiment seed003 --games {games}", "points": points,
            "claims": claims}  # fmt: skip


def _gain(key, z):
    from sweeplab.studies.papers.seed003_claims import GAIN_PUBLISHED

    return {"key": key, "claim": key, "published": GAIN_PUBLISHED, "measured": f"z {z}", "z": z, "verdict": "?", "sentence": ""}


def test_more_games_replace_the_claims_they_also_make_and_keep_the_others():
    from sweeplab.studies.papers.seed003_claims import with_more_games

    a, b = "seed 003 | dqn - dsscsp-manhattan | win rate", "seed 003 | shape | dqn"
    base = _claims_run(7, 1000, [_gain(a, 1.0), {**_gain(b, 0.5), "published": "no effect", "verdict": "not reproduced"}])
    more = _claims_run(7, 4000, [_gain(a, 3.0)])
    merged = with_more_games(base, more, "more")
    assert [(c["key"], c["z"], c["verdict"]) for c in merged["claims"]] == [(a, 3.0, "reproduced"), (b, 0.5, "not reproduced")]
    assert merged["more_games"] == {"command": more["command"], "keys": [a], "games": [4000]}
    assert with_more_games(base, None, "more") is base


def test_more_games_from_another_seed_or_with_fewer_games_are_refused():
    import pytest

    from sweeplab.studies.papers.seed003_claims import with_more_games

    key = "seed 003 | dqn - dsscsp-manhattan | win rate"
    base = _claims_run(7, 1000, [_gain(key, 1.0)])
    with pytest.raises(ValueError, match="seed 8, not of 'seed003' on seed 7"):
        with_more_games(base, _claims_run(8, 4000, [_gain(key, 3.0)]), "more")
    with pytest.raises(ValueError, match="more: dsscsp-manhattan on 16x16x13 has 500 games, fewer than the 1,000"):
        with_more_games(base, _claims_run(7, 500, [_gain(key, 3.0)]), "more")
