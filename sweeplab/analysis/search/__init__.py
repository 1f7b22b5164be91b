"""Seed 004's local searches for the consistency problem: random search, hill climbing, simulated annealing and a
genetic algorithm, each looking for a full layout that fits a position.
May import core only."""
