"""Large positions: components too wide to count exactly, folded in floating point or estimated by a Markov chain
over their solutions (with its C module), and the former sampled count.
May import core and sweeplab.analysis.exact."""
