"""The estimators' C module (``_chain.c`` with ``_chain_fold.c`` and ``_chain_order.c``, built by setup.py when a C
compiler is present): ``CHAIN`` is the compiled module, or None when it is not built or ``SWEEPLAB_PURE_PYTHON`` is
set; each of its functions has a pure-Python twin."""

from __future__ import annotations

import os

try:  # the chain's block move, the folds and their orders in C
    import sweeplab.analysis.estimate._chain as _built_chain  # a C extension without a stub: mypy sees Any
except ImportError:  # pragma: no cover - depends on the build
    _built_chain = None
CHAIN = None if os.environ.get("SWEEPLAB_PURE_PYTHON") else _built_chain
