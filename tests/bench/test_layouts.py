import contextlib
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sweeplab.bench.layouts import MANIFEST_SCHEMA, deal_layouts, load_layouts
from sweeplab.cli import main
from sweeplab.core.errors import LayoutFormatError
from sweeplab.core.rules import Rules

RULES = Rules(9, 9, 10, "safe")


@pytest.fixture(scope="module")
def dealt(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("deal") / "d"
    deal_layouts(RULES, 4, 7, out, None, "test")
    return out


@pytest.fixture(scope="module")
def fuzzed(dealt: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the deal whose manifest the fuzzers overwrite."""
    copy = tmp_path_factory.mktemp("fuzz") / "d"
    shutil.copytree(dealt, copy)
    return copy


def manifest(directory: Path) -> dict:
    return json.loads((directory / "deal.json").read_text())


def with_manifest(dealt: Path, tmp_path: Path, **changes: object) -> Path:
    copy = tmp_path / "copy"
    shutil.copytree(dealt, copy)
    data = manifest(dealt)
    for key, value in changes.items():
        if value is ...:
            data.pop(key)
        else:
            data[key] = value
    (copy / "deal.json").write_text(json.dumps(data))
    return copy


def test_the_manifest_lists_its_files_and_reads_back(dealt):
    data = manifest(dealt)
    assert data["files"] == [f"game-{i:06d}.mbf" for i in range(4)] and data["rule_unmet"] == []
    layouts = load_layouts(dealt)
    assert (layouts.rule, layouts.seed, layouts.first_click) == ("safe", 7, 0)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"seed": 1.5}, "field 'seed': expected an integer, got 1.5"),
        ({"seed": "abc"}, "field 'seed': expected an integer, got \"abc\""),
        ({"seed": True}, "field 'seed': expected an integer, got true"),
        ({"seed": ...}, "field 'seed': missing"),
        ({"seed": None}, "field 'seed': null (the root seed"),  # found by the fuzz test below: once read as no seed
        ({"board": None}, "field 'board': null"),
        ({"rule": "lucky"}, "field 'rule': unknown rule \"lucky\""),
        ({"rule": ...}, "field 'rule': missing"),
        ({"board": "8x8x10"}, "field 'board': says \"8x8x10\" but the layout files are 9x9x10"),
        ({"first_click": [10, 0]}, "field 'first_click': the cell (10, 0) is off the 9x9 board"),
        ({"first_click": [0, -1]}, "field 'first_click': the cell (0, -1) is off the 9x9 board"),
        ({"first_click": "0,0"}, "field 'first_click': expected a cell [x, y] of two integers"),
        ({"first_click": None, "openings": [[0, 0], [9, 9], None, None]}, "field 'openings[1]': the cell (9, 9) is off"),
        ({"first_click": None, "openings": [[0, 0]]}, "field 'openings': lists 1 openings for 4 layouts"),
        ({"count": 5}, "field 'count': says 5 layouts but the directory holds 4"),
        ({"count": 0}, "field 'count': expected an integer of at least 1"),
        ({"files": ["game-000000.mbf"]}, "3 layout file(s) are not the deal's (game-000001.mbf"),
        ({"files": ["../x.mbf"]}, "field 'files': expected a list of layout file names"),
        ({"colour": "blue"}, "field 'colour': unknown field"),
    ],
)
def test_a_hostile_manifest_is_refused_naming_the_file_and_field(dealt, tmp_path, changes, message):
    copy = with_manifest(dealt, tmp_path, **changes)
    with pytest.raises(LayoutFormatError) as caught:
        load_layouts(copy)
    assert str(caught.value).startswith(f"{copy / 'deal.json'}: ")
    assert message in str(caught.value)


def test_a_click_on_a_mine_is_refused(dealt, tmp_path):
    mine = min(load_layouts(dealt).layouts[0].mines)
    copy = with_manifest(dealt, tmp_path, first_click=[mine % 9, mine // 9])
    with pytest.raises(LayoutFormatError, match=r"game-000000.mbf has a mine under"):
        load_layouts(copy)


def test_a_negative_seed_in_the_manifest_is_a_seed(dealt, tmp_path):
    assert load_layouts(with_manifest(dealt, tmp_path, seed=-1)).seed == -1


def test_deal_refuses_a_non_empty_directory_unless_forced(tmp_path):
    out = tmp_path / "d"
    deal_layouts(RULES, 5, 0, out, None)
    with pytest.raises(LayoutFormatError, match=r"is not empty \(deal.json, game-000000.mbf, game-000001.mbf and 3 more\)"):
        deal_layouts(RULES, 3, 1, out, None)
    deal_layouts(RULES, 3, 1, out, None, force=True)
    assert sorted(p.name for p in out.iterdir()) == ["deal.json", "game-000000.mbf", "game-000001.mbf", "game-000002.mbf"]
    assert load_layouts(out).seed == 1
    (out / "mine.mbf").write_bytes((out / "game-000000.mbf").read_bytes())
    with pytest.raises(LayoutFormatError, match=r"holds layout files that are not an earlier deal's \(mine.mbf\)"):
        deal_layouts(RULES, 3, 1, out, None, force=True)
    with pytest.raises(LayoutFormatError, match=r"field 'files': 1 layout file\(s\) are not the deal's \(mine.mbf\)"):
        load_layouts(out)


def test_deal_cli_force_and_rule_unmet(tmp_path):
    out = tmp_path / "d"
    first = CliRunner().invoke(main, ["deal", "-b", "5x5x17", "-r", "zero", "--first-click", "2,2", "-n", "3", "--out", str(out)])
    assert first.exit_code == 0 and "in 3 of 3 layouts the 'zero' rule could not be met" in first.output
    again = CliRunner().invoke(main, ["deal", "-b", "beginner", "-n", "2", "--out", str(out)])
    assert again.exit_code == 2 and "is not empty" in again.output and "--force" in again.output
    bench = CliRunner().invoke(main, ["bench", "--layouts", str(out), "-s", "single-point", "-j", "1"])
    assert "in 3 of them the 'zero' rule could not be met" in bench.output
    forced = CliRunner().invoke(main, ["deal", "-b", "beginner", "-n", "2", "--out", str(out), "--force"])
    assert forced.exit_code == 0 and len(list(out.glob("*.mbf"))) == 2


# ----------------------------------------------------------------------------------------------- fuzzing

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
CELLS = st.lists(st.integers(-2, 11), min_size=2, max_size=2) | JSON
FIELD_VALUES = {
    "board": st.sampled_from(["9x9x10", "8x8x10", "beginner", "9x9x10x1"]) | JSON,
    "rule": st.sampled_from(["unsafe", "safe", "xp", "zero", "hint", "lucky"]) | JSON,
    "seed": st.integers() | JSON,
    "count": st.integers(-1, 6) | JSON,
    "first_click": st.none() | CELLS,
    "openings": st.none() | st.lists(st.none() | CELLS, max_size=6) | JSON,
    "files": st.lists(st.sampled_from([f"game-{i:06d}.mbf" for i in range(6)] + ["x.mbf", "../a.mbf"]), max_size=6) | JSON,
    "rule_unmet": st.lists(st.integers(-1, 5), max_size=3) | JSON,
    "command": st.text(max_size=10) | JSON,
    "note": JSON,
}
REQUIRED = ("board", "rule", "seed")
NEAR_VALID = st.fixed_dictionaries(
    {k: FIELD_VALUES[k] for k in REQUIRED}, optional={k: v for k, v in FIELD_VALUES.items() if k not in REQUIRED}
)
MANIFESTS = NEAR_VALID | st.fixed_dictionaries({}, optional={**FIELD_VALUES, "extra": JSON}) | JSON


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=MANIFESTS)
def test_fuzzed_manifests_are_read_or_refused_never_crash(fuzzed, data):
    (fuzzed / "deal.json").write_text(json.dumps(data))
    try:
        layouts = load_layouts(fuzzed)
    except LayoutFormatError as error:
        assert str(error).startswith(str(fuzzed / "deal.json"))
        return
    assert isinstance(data, dict) and set(data) <= set(MANIFEST_SCHEMA)
    assert layouts.rule in ("unsafe", "safe", "xp", "zero", "hint") and isinstance(layouts.seed, int)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_fuzzed_manifest_bytes_never_crash(fuzzed, raw):
    (fuzzed / "deal.json").write_bytes(raw)
    with contextlib.suppress(LayoutFormatError):  # refused is fine; any other exception fails the test
        load_layouts(fuzzed)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=MANIFESTS)
def test_fuzzed_manifests_through_the_command_exit_0_or_2_without_a_traceback(fuzzed, data):
    (fuzzed / "deal.json").write_text(json.dumps(data))
    result = CliRunner().invoke(main, ["bench", "--layouts", str(fuzzed), "-s", "random", "-n", "1", "-j", "1"])
    assert result.exit_code in (0, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output


VALID = st.fixed_dictionaries(
    {"board": st.just("9x9x10"), "rule": st.sampled_from(["unsafe", "safe", "xp", "zero", "hint"]), "seed": st.integers()},
    optional={
        "count": st.just(4),
        "first_click": st.sampled_from([None, [0, 0]]),
        "files": st.just([f"game-{i:06d}.mbf" for i in range(4)]),
        "rule_unmet": st.lists(st.integers(0, 3), max_size=2),
        "command": st.text(max_size=10),
        "note": st.text(max_size=10),
    },
)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=VALID)
def test_every_manifest_the_schema_allows_is_read_as_written(fuzzed, data):
    (fuzzed / "deal.json").write_text(json.dumps(data))
    layouts = load_layouts(fuzzed)
    assert (layouts.rule, layouts.seed) == (data["rule"], data["seed"])
    assert layouts.first_click == (0 if data.get("first_click") else None)
