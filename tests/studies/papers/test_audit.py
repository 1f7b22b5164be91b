"""Audited play: the same games as the harness, each guess with the exact chance of the guessed cell."""

import json

import pytest

from sweeplab.bench.runner import BenchSpec, make_batches, play_one
from sweeplab.core.rules import Rules
from sweeplab.studies.experiment import Settings
from sweeplab.studies.papers.audit import audit_batch, audit_bins
from sweeplab.studies.papers.experiments import run_experiment


def test_audited_games_are_the_harness_games():
    rules = Rules(9, 9, 10, "safe")
    spec = BenchSpec("cspstrategy", rules, 3)
    (batch,) = make_batches(spec, 12, 12)
    results, rows = audit_batch(batch)
    for r in results:
        plain = play_one("cspstrategy", rules, 3, r.index)
        assert (r.won, r.moves, r.guesses) == (plain.won, plain.moves, plain.guesses)
    assert rows and all(row.exact is not None and 0 <= row.exact <= 1 for row in rows)
    assert all(row.kind != "first" for row in rows)


def test_the_exact_strategys_estimates_are_the_exact_chances():
    spec = BenchSpec("exact", Rules(8, 8, 12, "unsafe"), 0)
    (batch,) = make_batches(spec, 20, 20)
    _, rows = audit_batch(batch)
    assert rows
    for row in rows:
        assert row.exact == pytest.approx(row.estimate)


def test_bins_follow_the_papers_rows():
    spec = BenchSpec("cspstrategy", Rules(16, 16, 40, "safe"), 0)
    (batch,) = make_batches(spec, 30, 30)
    _, rows = audit_batch(batch)
    table = audit_bins(rows)
    assert sum(t["observations"] for t in table) <= len(rows)
    assert {t["kind"] for t in table} <= {"craps", "educated", "unconstrained"}
    for t in table:
        assert t["successes"] <= t["observations"] and t["mean_exact"] is not None


def test_guesses_experiment_writes_the_audit(tmp_path):
    settings = Settings(quick=True, strategies=["cspstrategy"], games=3)
    run_experiment("guesses", tmp_path, settings, echo=lambda s: None)
    data = json.loads((tmp_path / "data.json").read_text())
    assert data["audit"] and {a["scope"] for a in data["audit"]} <= {"all boards but hinted", "hinted games"}
    assert "mean exact chance" in (tmp_path / "table.md").read_text()
