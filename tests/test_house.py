"""The package's shape: imports point one way between the layers, no two modules (nor two packages) import each other
(directly or round a longer circle, at the top, inside a function or for the type checker), no module is longer than one
person reads in a sitting, no folder holds more files than a newcomer scans, and each sub-package says what it holds."""

import ast
import graphlib
import pathlib
import re

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


def imported(name: str, path: pathlib.Path, typing: bool = False) -> set[str]:
    """The sweeplab modules one module imports, at its top or inside a function (a lazy import still runs), and with
    ``typing`` also those imported for annotations only."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = set() if typing else type_checking_only(tree)
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
#: The same with the imports made for annotations only: a circle through a type is a circle all the same.
TYPED = {name: imported(name, path, typing=True) for name, path in MODULES.items()}
MAX_FILES = 15


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
    """No module imports one that imports it back, however long the way round, at its top, inside a function or for
    its annotations (package __init__s aside: importing a package's module runs its __init__, which only re-exports)."""
    graph = {name: {t for t in targets if t not in PACKAGES} for name, targets in TYPED.items() if name not in PACKAGES}
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


def package_of(module: str) -> str:
    return module if module in PACKAGES else module.rpartition(".")[0]


def test_no_circle_between_packages():
    """Sub-packages import one way too: exact <- estimate <- the analyzer, strategies' base <- pgms, dss, best, ...; a
    module of one package never imports a package that imports it back (the __init__s' re-exports aside)."""
    graph: dict[str, set[str]] = {}
    for name, targets in TYPED.items():
        if name in PACKAGES:
            continue
        for target in targets:
            if target not in PACKAGES and package_of(target) != package_of(name):
                graph.setdefault(package_of(name), set()).add(package_of(target))
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        raise AssertionError(f"packages in a circle: {' -> '.join(error.args[1])}") from None


def test_no_folder_over_15_source_files():
    """A folder a newcomer scans at a glance: at most 15 Python and C files, or it is split into sub-packages."""
    crowded = {}
    for folder in [ROOT, *(path for path in ROOT.rglob("*") if path.is_dir() and path.name != "__pycache__")]:
        files = [path for path in folder.iterdir() if path.suffix in (".py", ".c")]
        if len(files) > MAX_FILES:
            crowded[str(folder.relative_to(ROOT.parent))] = len(files)
    assert not crowded, f"folders over {MAX_FILES} source files: {crowded}"


def test_every_sub_package_says_what_it_holds_and_may_import():
    """Each package below a layer opens with a docstring of at most three lines that ends by naming what it may
    import ("May import ..."), so a reader picks the folder from its name and its first lines."""
    for name in PACKAGES:
        if name.count(".") < 2:
            continue
        path = MODULES[name]
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")), clean=False)
        assert doc, f"{path.relative_to(ROOT)} has no docstring"
        lines = doc.strip().splitlines()
        assert len(lines) <= 3, f"{path.relative_to(ROOT)}: {len(lines)} lines"
        assert "May import" in lines[-1], f"{path.relative_to(ROOT)} does not say what it may import"


def test_the_benchmarks_readme_names_every_script_and_its_results():
    """benchmarks/README.md has a row for every script, and each result it names is committed."""
    benchmarks = ROOT.parent / "benchmarks"
    readme = (benchmarks / "README.md").read_text(encoding="utf-8")
    rows = {match.group(1): match.group(2) for match in re.finditer(r"^\| `([\w/]+\.py)` \|[^|]*\| (.*) \|$", readme, re.M)}
    scripts = {str(path.relative_to(benchmarks)) for path in benchmarks.glob("*/*.py")}
    assert set(rows) == scripts, f"rows without a script: {set(rows) - scripts}; scripts without a row: {scripts - set(rows)}"
    assert not list(benchmarks.glob("*.py")), "a script belongs in the folder of the part it measures"
    for script, result in rows.items():
        for named in re.findall(r"`(results/[^`]+)`", result):
            assert (ROOT.parent / named).exists(), f"{script}: {named} is not committed"


def test_the_architecture_page_is_short_and_names_real_files():
    """docs/architecture.md is read in five minutes (at most 150 lines), and every file or folder it names exists."""
    page = (ROOT.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert page.count("\n") <= 150
    for named in set(re.findall(r"`((?:[\w.]+/)+[\w.]*)`", page)):
        top = named.startswith(("sweeplab/", "tests/", "benchmarks/", "results/", "docs/"))
        assert (ROOT.parent / named if top else ROOT / named).exists(), f"docs/architecture.md names {named}, not there"
