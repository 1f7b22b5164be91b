"""What the tests of outside players share: the reference clients' and the hostile program's command lines."""

import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PYTHON_CLIENT = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(ROOT / 'examples' / 'python' / 'client.py'))}"
HOSTILE = Path(__file__).resolve().parent / "hostile.py"


def hostile(mode: str) -> str:
    """The hostile program misbehaving as ``mode`` (see hostile.py), as a strategy spec."""
    return f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(HOSTILE))} {mode}"
