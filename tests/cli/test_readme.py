"""README.md's command list ("What you can do") names every command of `sweeplab --help`, and nothing else."""

import re
from pathlib import Path

from sweeplab.cli import main
from sweeplab.cli.app import COMMAND_MODULES, load_commands

README = Path(__file__).resolve().parents[2] / "README.md"


def readme_commands(text: str) -> set[str]:
    """The command names (the word after ``sweeplab``) in the first code block of the "What you can do" section."""
    section = text.split("## What you can do", 1)[1]
    block = section.split("```sh", 1)[1].split("```", 1)[0]
    names = set()
    for line in block.splitlines():
        found = re.match(r"\s*sweeplab\s+([a-z][a-z-]*)", line)
        if found:
            names.add(found.group(1))
    return names


def test_the_parser_reads_a_command_list():
    text = "## What you can do\n\n```sh\nsweeplab play -s x   # one game\nsweeplab bench-engine\n  # note\n```\n"
    assert readme_commands(text) == {"play", "bench-engine"}


def test_the_readme_lists_every_command_and_no_other():
    listed = readme_commands(README.read_text(encoding="utf-8"))
    load_commands()
    commands = {name for name, command in main.commands.items() if not command.hidden}
    assert not commands - listed, f"README.md's command list misses {sorted(commands - listed)}: add a line for each"
    assert not listed - commands, f"README.md lists {sorted(listed - commands)}, which `sweeplab --help` does not have"


def test_every_command_is_loaded_from_the_module_the_table_names():
    """The lazy table and the modules agree: once every module is imported, the commands registered are the table's."""
    load_commands()
    assert set(main.commands) == set(COMMAND_MODULES)


def test_a_command_imports_only_its_own_module():
    """`sweeplab bench` does not load the web server, the learners or the other commands' modules."""
    import subprocess
    import sys

    code = (
        "import sys\nfrom sweeplab.cli import main\n"
        "try:\n    main(['bench', '-s', 'exact', '-b', 'beginner', '-n', '1', '-j', '1'])\nexcept SystemExit:\n    pass\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith(('sweeplab.cli.', 'sweeplab.web', 'numpy', 'rich')))))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120).stdout.split()
    assert "sweeplab.cli.bench" in loaded
    for other in ("sweeplab.cli.play", "sweeplab.cli.serve", "sweeplab.cli.learn.commands", "sweeplab.web", "numpy"):
        assert other not in loaded, loaded
