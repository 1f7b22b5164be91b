import ast
import pathlib

import pytest

import sweeplab
from sweeplab.core.errors import UnknownStrategyError
from sweeplab.strategies import get, names, register
from sweeplab.strategies.base import Strategy


def test_names_and_metadata():
    assert {"random", "single-point"} <= set(names())
    for name in names():
        cls = get(name)
        assert issubclass(cls, Strategy)
        assert cls.name == name and cls.source and cls.summary


def test_unknown_name_lists_choices():
    with pytest.raises(UnknownStrategyError, match="unknown strategy 'nope': choose one of random"):
        get("nope")


def test_register_refuses_duplicates():
    with pytest.raises(ValueError, match="already registered"):
        register("random", "x:y")


LAYERS = {"core": 0, "formats": 1, "analysis": 1, "strategies": 2, "bench": 3, "learn": 3, "web": 4, "cli": 5}  # cli fronts all


def test_dependencies_point_one_way():
    """core imports nothing of sweeplab; analysis never imports strategies; nothing low imports bench/web; cli fronts all."""
    root = pathlib.Path(sweeplab.__file__).parent
    for path in root.rglob("*.py"):
        part = path.relative_to(root).parts[0].removesuffix(".py")
        if part not in LAYERS:
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("sweeplab."):
                target = node.module.split(".")[1]
                if target in LAYERS and target != part:
                    assert LAYERS[target] < LAYERS[part] or (part == "formats" and target == "core"), (
                        f"{path.relative_to(root)} imports sweeplab.{target}"
                    )
