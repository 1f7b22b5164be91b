"""The experiment registry: every experiment is offered, runs quick and writes its files; names and strategies are checked."""

import json

import pytest

from sweeplab.core.errors import UnknownStrategyError
from sweeplab.studies.experiment import ExperimentError, Settings
from sweeplab.studies.papers.experiments import EXPERIMENTS, run_experiment

EXPECTED_FILES = {
    "levels": {"data.csv", "data.json", "table.md", "pairs.csv", "levels-seed000.png", "cpu-seed000-safe.png"},
    "density": {"data.csv", "data.json", "table.md", "fits.csv", "density.png"},
    "size": {"data.csv", "data.json", "table.md", "size.png", "size-cpu.png"},
    "aspect": {"data.csv", "data.json", "table.md", "aspect.png"},
    "outcomes": {"data.csv", "data.json", "table.md", "outcomes.csv", "outcomes.png"},
    "calibration": {"data.csv", "data.json", "table.md", "bins.csv", "paper-bins.csv", "groups.csv", "reliability.png"},
    "guesses": {"data.csv", "data.json", "table.md", "audit.csv", "guesses.csv.gz"},
    "frontier": {"data.csv", "data.json", "table.md", "games.csv.gz", "extremes.csv", "frontier.png"},
}


def test_every_experiment_is_offered_by_the_cli():
    from sweeplab.cli.experiment import EXPERIMENT_NAMES

    assert set(EXPERIMENT_NAMES) == set(EXPERIMENTS)


@pytest.mark.parametrize("name", list(EXPECTED_FILES))
def test_quick_run_writes_its_files(name, tmp_path):
    settings = Settings(quick=True, strategies=["single-point"], games=4, command=f"sweeplab experiment {name} --quick")
    lines: list[str] = []
    files = run_experiment(name, tmp_path, settings, echo=lines.append)
    names = {f.name for f in files}
    assert EXPECTED_FILES[name] <= names
    for f in files:
        assert f.exists() and f.stat().st_size > 0
        if f.suffix == ".png":
            assert f.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = json.loads((tmp_path / "data.json").read_text())
    assert data["experiment"] == name and data["command"] == settings.command
    assert data["points"] and all(p["games"] == 4 and p["strategy"] == "single-point" for p in data["points"])
    assert "Produced by `sweeplab experiment" in (tmp_path / "table.md").read_text()


def test_unknown_names_are_errors(tmp_path):
    with pytest.raises(ExperimentError, match="unknown experiment"):
        run_experiment("nope", tmp_path, Settings())
    with pytest.raises(UnknownStrategyError):
        run_experiment("levels", tmp_path, Settings(strategies=["no-such-strategy"]))


def test_defaults_use_only_registered_strategies():
    plan = EXPERIMENTS["levels"].plan(Settings(quick=True))
    from sweeplab.strategies.registry import names

    assert plan.points and {p.build_name for p in plan.points} <= set(names())


def test_experiments_take_strategy_specs(tmp_path):
    settings = Settings(strategies=["cspstrategy[start=centre]"], games=3, board="8x8x10", rule="unsafe")
    run_experiment("outcomes", tmp_path, settings, echo=lambda s: None)
    data = json.loads((tmp_path / "data.json").read_text())
    assert [p["strategy"] for p in data["points"]] == ["cspstrategy[start=centre]"]
    with pytest.raises(Exception, match="no option 'nope'"):
        run_experiment("outcomes", tmp_path / "x", Settings(strategies=["cspstrategy[nope=1]"], games=1), echo=lambda s: None)


@pytest.mark.parametrize(("groups", "said"), [("ratio,figures", "no group 'figures'"), ("ratio,", "an empty group")])
def test_cli_groups_that_are_not_the_experiments_are_refused_before_any_game(groups, said, tmp_path):
    from click.testing import CliRunner

    from sweeplab.cli import main

    out = tmp_path / "run"
    result = CliRunner().invoke(main, ["experiment", "seed003", "--quick", "--groups", groups, "--out", str(out)])
    assert result.exit_code != 0 and said in result.output and not out.exists()
