"""The package's shape: imports point one way between the layers, no two modules import each other (directly or round a
longer circle), and no module is longer than one person reads in a sitting."""

import ast
import graphlib
import pathlib

import sweeplab

ROOT = pathlib.Path(sweeplab.__file__).parent

# A package may import only packages of a lower layer. cli fronts all; studies (the papers' reproductions and our own
# studies) and web stand on bench; learn stands on bench too, so bench never imports studies, web or learn.
LAYERS = {
    "core": 0,
    "formats": 1,
    "analysis": 1,
    "strategies": 2,
    "bench": 3,
    "learn": 4,
    "studies": 5,
    "web": 5,
    "cli": 6,
}
MAX_LINES = 600


def module_name(path: pathlib.Path) -> str:
    parts = ("sweeplab", *path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in ROOT.rglob("*.py")}
PACKAGES = {module_name(path) for path in ROOT.rglob("__init__.py")}


def type_checking_only(tree: ast.AST) -> set[int]:
    """The nodes under `if TYPE_CHECKING:`: imports for annotations, never run."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(sub) for stmt in node.body for sub in ast.walk(stmt))
    return skip


def imported(name: str, path: pathlib.Path) -> set[str]:
    """The sweeplab modules one module imports, at its top or inside a function (a lazy import still runs)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = type_checking_only(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            candidates = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        for candidate in candidates:
            while candidate and candidate not in MODULES:
                candidate = candidate.rpartition(".")[0]
            if candidate and candidate != name:
                found.add(candidate)
    return found


GRAPH = {name: imported(name, path) for name, path in MODULES.items()}


def layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def test_dependencies_point_one_way():
    """core imports nothing of sweeplab; analysis never imports strategies; bench never imports studies, web or learn."""
    for name, targets in GRAPH.items():
        part = layer(name)
        if part is None:
            continue
        for target in targets:
            other = layer(target)
            if other is not None and other != part:
                assert LAYERS[other] < LAYERS[part], f"{MODULES[name].relative_to(ROOT)} imports {target}"


def test_the_layers_name_every_package():
    """A new top-level package gets its place in LAYERS (or this test's check of it would be silently skipped)."""
    top = {name.split(".")[1] for name in PACKAGES if name.count(".") == 1}
    assert top <= set(LAYERS), f"packages without a layer: {sorted(top - set(LAYERS))}"


def test_no_import_circle():
    """No module imports one that imports it back, however long the way round (package __init__s aside: importing a
    package's module runs its __init__, which only re-exports)."""
    graph = {name: {t for t in targets if t not in PACKAGES} for name, targets in GRAPH.items() if name not in PACKAGES}
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        raise AssertionError(f"import circle: {' -> '.join(error.args[1])}") from None


def test_no_module_over_600_lines():
    """Each module is one idea a reader finishes in a sitting (the C kernels aside)."""
    long = {
        str(path.relative_to(ROOT)): n
        for path in MODULES.values()
        if (n := path.read_text(encoding="utf-8").count("\n")) > MAX_LINES
    }
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_the_checks_see_real_imports():
    """The graph is read right: the harness imports the runner, and the CLI imports the harness."""
    assert "sweeplab.bench.runner" in GRAPH["sweeplab.bench.session"]
    assert any(target.startswith("sweeplab.bench.") for target in GRAPH["sweeplab.cli.bench"])
