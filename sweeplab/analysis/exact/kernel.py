"""The exact count in C (``_kernel.c`` with ``_count.c``, built by setup.py when a C compiler is present): ``KERNEL``
is the compiled module, or None when it is not built or ``SWEEPLAB_PURE_PYTHON`` is set; each of its functions has a
pure-Python twin."""

from __future__ import annotations

import os

try:  # the optional C kernel (setup.py builds it when a C compiler is present)
    import sweeplab.analysis.exact._kernel as _built_kernel  # a C extension without a stub: mypy sees Any
except ImportError:  # pragma: no cover - depends on the build
    _built_kernel = None
KERNEL = None if os.environ.get("SWEEPLAB_PURE_PYTHON") else _built_kernel
_PACK = getattr(KERNEL, "pack", None)  # the view as the kernel's bytes and its flag count, in one pass
