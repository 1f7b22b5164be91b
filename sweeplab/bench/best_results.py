"""Moved to :mod:`sweeplab.studies.best`; only ``section`` stays here, for ``resultsdoc``, until it imports it from there."""

from sweeplab.studies.best import section

__all__ = ["section"]
