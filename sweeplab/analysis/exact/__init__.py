"""The exact count: constraints from a position, super-cells and components, the count per component (and its C
kernel), the weighting by the global mine count, Probabilities, the budget, and the sound cheap passes.
May import core only; the front that runs these stages is sweeplab.analysis.analyzer."""
