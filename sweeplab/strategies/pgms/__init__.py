"""Seed 000's players, written for PGMS (Programmer's Minesweeper): PGMS's EquationStrategy and Studholme's
CSPStrategy with its steps 1-3 (PGMS's SinglePointStrategy is sweeplab.strategies.simple).
May import core, formats, analysis and sweeplab.strategies.base."""
