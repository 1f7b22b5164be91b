"""The optional C kernels (``_kernel.c`` and ``_chain.c``, built by setup.py when a C compiler is present): ``KERNEL``
and ``CHAIN`` are the compiled modules, or None when not built or ``SWEEPLAB_PURE_PYTHON`` is set; each of their
functions has a pure-Python twin."""

from __future__ import annotations

import os

try:  # the optional C kernel (setup.py builds it when a C compiler is present)
    import sweeplab.analysis._kernel as _built_kernel  # a C extension without a stub: mypy sees Any
except ImportError:  # pragma: no cover - depends on the build
    _built_kernel = None
KERNEL = None if os.environ.get("SWEEPLAB_PURE_PYTHON") else _built_kernel
try:  # the chain's block move in C (``_chain.c``), built the same way
    import sweeplab.analysis._chain as _built_chain
except ImportError:  # pragma: no cover - depends on the build
    _built_chain = None
CHAIN = None if os.environ.get("SWEEPLAB_PURE_PYTHON") else _built_chain
_PACK = getattr(KERNEL, "pack", None)  # the view as the kernel's bytes and its flag count, in one pass
