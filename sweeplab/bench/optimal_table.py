"""Moved to :mod:`sweeplab.studies.optimal_table`; only ``section`` stays here, for ``resultsdoc``, until it imports it
from there."""

from sweeplab.studies.optimal_table import section

__all__ = ["section"]
