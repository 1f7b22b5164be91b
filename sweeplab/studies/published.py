"""The seed papers' published numbers, as printed, for side-by-side tables (docs/results.md and experiment tables).

Every value is copied from the seed text with its location; nothing here is measured. Seed 000's Tables 1-3 are
run together in the extracted text ("50%85351700650.2%"); they were split so that successes / observations
reproduces the printed rate, which leaves one reading for every row.
"""

from __future__ import annotations

#: Seed 001, table "Experiment on success rate of different strategy (other than csp)", 1000 games each, Vista/7
#: first click (rule ``zero``). Keys: (board spec, paper's column label) -> win rate in percent.
SEED_001: dict[tuple[str, str], float] = {
    ("9x9x10", "c1"): 79.5,
    ("16x16x40", "c1"): 47.7,
    ("30x16x99", "c1"): 1.9,
    ("9x9x10", "c1 + c2"): 92.9,
    ("16x16x40", "c1 + c2"): 75.6,
    ("30x16x99", "c1 + c2"): 20.0,
    ("9x9x10", "c1 + c2 + c3"): 95.0,
    ("16x16x40", "c1 + c2 + c3"): 79.0,
    ("30x16x99", "c1 + c2 + c3"): 33.3,
    ("9x9x10", "c1 + c2 + c3 + c4"): 96.5,
    ("16x16x40", "c1 + c2 + c3 + c4"): 83.8,
    ("30x16x99", "c1 + c2 + c3 + c4"): 35.9,
}
SEED_001_GAMES = 1000

#: Seed 002, "Results" table (sample size not stated; "safe first round"). Keys: (board, level) -> percent.
SEED_002: dict[tuple[str, str], float] = {
    ("9x9x10", "Lvl 1"): 43.2,
    ("8x8x10", "Lvl 1"): 27.3,
    ("16x16x40", "Lvl 1"): 9.5,
    ("30x16x99", "Lvl 1"): 0.0,
    ("9x9x10", "Lvl 2"): 57.8,
    ("8x8x10", "Lvl 2"): 36.1,
    ("16x16x40", "Lvl 2"): 18.9,
    ("30x16x99", "Lvl 2"): 0.19,
    ("9x9x10", "Lvl 3"): 85.2,
    ("8x8x10", "Lvl 3"): 73.8,
    ("16x16x40", "Lvl 3"): 65.2,
    ("30x16x99", "Lvl 3"): 27.9,
}

#: Seed 004, "5 Results": the CSP agent on 10x10 boards with 10 mines solved 104 of 130 games.
SEED_004: dict[tuple[str, str], tuple[int, int]] = {("10x10x10", "CSP agent"): (104, 130)}

#: Seed 000, Figure 6 (CSPStrategy, 10,000 expert games, standard rules): percent of games per reason.
SEED_000_FIGURE_6: dict[str, float] = {
    "won without guessing": 5.4,
    "won with guessing": 28.6,
    "lost on a craps shoot": 12.1,
    "lost on an educated guess": 17.8,
    "lost on another guess": 36.1,
}

#: Seed 000, Tables 1-3: (estimated probability of success as printed, successes, observations, printed rate %).
SEED_000_TABLES: dict[str, list[tuple[str, int, int, float]]] = {
    "craps": [
        ("34%", 72, 215, 33.5),
        ("50%", 51117, 102296, 50.0),
        ("58% to 63%", 271, 474, 57.2),
        ("67%", 5646, 8591, 65.7),
        ("70% to 79%", 1269, 1732, 73.3),
        ("80% to 89%", 1862, 2306, 80.7),
        ("90% to 97%", 198, 216, 91.7),
    ],
    "educated": [
        ("50%", 8535, 17006, 50.2),
        ("52% to 65%", 1544, 2586, 59.7),
        ("66%", 21510, 32274, 66.6),
        ("67% to 74%", 3827, 5465, 70.0),
        ("75%", 12145, 17039, 71.3),
        ("76% to 79%", 3204, 4156, 77.1),
        ("80% to 84%", 82253, 111689, 73.6),
        ("85% to 89%", 75462, 91848, 82.2),
        ("90% to 94%", 55368, 62680, 88.3),
        ("95% to 99%", 11831, 12600, 93.9),
    ],
    "unconstrained": [
        ("16% to 48%", 56, 128, 43.8),
        ("50% to 59%", 7743, 14307, 54.1),
        ("60% to 69%", 43851, 65453, 67.0),
        ("70% to 74%", 33973, 46361, 73.3),
        ("75% to 78%", 33361, 43663, 76.4),
        ("79%", 103223, 129794, 79.5),
        ("80%", 347816, 433651, 80.2),
        ("81% to 84%", 125695, 153516, 81.9),
        ("85% to 89%", 69973, 81889, 85.4),
        ("90% to 99%", 55847, 63460, 88.0),
    ],
}

#: Seed 000, "Advanced Minesweeper Analysis": the largest coupled sets met in 600,000 games
#: as (what, variables, constraints, degrees of freedom, solutions).
SEED_000_FRONTIER: list[tuple[str, int, int, int, int]] = [
    ("most degrees of freedom", 69, 30, 39, 1_620_880),
    ("most variables and constraints", 100, 67, 33, 9_240),
    ("most solutions", 46, 16, 30, 6_060_240),
]
SEED_000_FRONTIER_GAMES = 600_000

#: PSEQ's README (b1f6c1c4/MineSweeperProb, ``FL@[1,1]-PSEQ-...-SFAR``): win rates in percent under the safe rule with
#: the first click in the corner, by board.
PSEQ_README: dict[str, float] = {"beginner": 91.68, "intermediate": 78.12, "expert": 39.62}

#: PSEQ's own C++ built and run on this project's machine type, games per CPU second, as ``shared/anchors.md`` records
#: them (not rerun here: its repository cannot be fetched from this machine).
PSEQ_HERE: dict[str, int] = {"30x16x99": 774, "16x16x40": 5551, "9x9x10": 16005}
