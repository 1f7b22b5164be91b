"""sweeplab.analysis: constraints from a position, and the exact probability engine over them.

Importing it registers the ``noguess`` rule's dealer (:mod:`sweeplab.analysis.noguess`), which core cannot hold."""

from sweeplab.analysis import noguess as _noguess  # noqa: F401  (registers the noguess dealer)
