"""Seed 003's CSP players: DSS backbones on the coefficient matrix, DSScsp and backtracking enumeration, limited
traversal and the Manhattan-distance tie-break, over the matrix algorithms of Algorithms 1-3.
May import core, formats, analysis and sweeplab.strategies.base."""
