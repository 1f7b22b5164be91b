"""Seed 000's board sweeps: density and aspect."""

import csv

from sweeplab.studies.experiment import Settings
from sweeplab.studies.papers.experiments import EXPERIMENTS, run_experiment


def test_density_fits_a_falling_logistic(tmp_path):
    settings = Settings(quick=True, strategies=["single-point"], games=30)
    run_experiment("density", tmp_path, settings, echo=lambda s: None)
    fits = list(csv.DictReader((tmp_path / "fits.csv").open()))
    assert len(fits) == 3 and all(float(f["slope"]) > 0 and 0 < float(f["midpoint"]) < 0.4 for f in fits)


def test_aspect_plays_every_shape_from_900x1_to_30x30(tmp_path):
    plan = EXPERIMENTS["aspect"].plan(Settings(strategies=["single-point"]))
    assert [p.rules.height for p in plan.points] == [1, 2, 3, 4, 5, 6, 9, 10, 12, 15, 18, 20, 25, 30]
    assert all(p.rules.width * p.rules.height == 900 and p.rules.mines == 180 for p in plan.points)
    assert plan.notes == []
