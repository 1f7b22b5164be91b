"""The ``pseq`` strategy: PSEQ's published rule (the lowest mine probability, then its S, E and Q tie-breaks) on the
exact engine; its figures in C are ``_figures.c`` here (built into sweeplab.strategies._players).
May import core, formats, analysis and sweeplab.strategies (base, exact, loops)."""

from sweeplab.strategies.pseq.rule import CRITERIA, NOISE, TOLERANCE, Outcomes, PseqStrategy, largest_of

__all__ = ["CRITERIA", "NOISE", "TOLERANCE", "Outcomes", "PseqStrategy", "largest_of"]
