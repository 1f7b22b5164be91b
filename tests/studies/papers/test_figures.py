import math

from sweeplab.studies.papers.figures import aspect_claims, density_claims, size_claims


def point(board, rate, games=10_000, x=None, cpu=0.001, strategy="cspstrategy"):
    wins = round(rate * games)
    return {"strategy": strategy, "board": board, "win_rate": wins / games, "wins": wins, "games": games, "x": x, "cpu_mean": cpu}


def logistic(density, midpoint=0.2, slope=30.0):
    return 1 / (1 + math.exp(slope * (density - midpoint)))


def test_a_perfect_logistic_is_not_imperfect_and_a_bumpy_one_is():
    fit = {"strategy": "cspstrategy", "size": "10x10", "midpoint": 0.2, "slope": 30.0}
    smooth = [point(f"10x10x{m}", logistic(m / 100)) for m in range(5, 40, 3)]
    (claim,) = density_claims({"points": smooth, "fits": [fit]})
    assert claim.verdict == "not reproduced" and claim.measured.startswith("0 of 12")
    bumpy = [point(p["board"], min(1.0, p["win_rate"] + (0.03 if i % 2 else -0.03))) for i, p in enumerate(smooth)]
    (claim,) = density_claims({"points": bumpy, "fits": [fit]})
    assert claim.verdict == "reproduced" and "the worst" in claim.sentence


def test_larger_boards_harder_and_cpu_growth_that_slows():
    sides = [5, 8, 10, 15, 20, 30, 40, 50]
    falling = [point(f"{s}x{s}x{round(s * s / 5)}", 0.7 - 0.01 * s, x=s, cpu=1e-4 * s**3) for s in sides]
    harder, cpu, outlier = size_claims({"points": falling})
    assert outlier.key.endswith("10x10 outlier") and outlier.verdict == "not reproduced"  # a smooth power law
    bump = [dict(p, cpu_mean=p["cpu_mean"] * (5 if p["x"] == 10 else 1)) for p in falling]
    assert size_claims({"points": bump})[2].verdict == "reproduced"
    assert harder.verdict == "reproduced" and harder.z < -2 and "rank correlation of side and win rate -1.00" in harder.sentence
    assert cpu.verdict == "reproduced" and "slower than exponential" in cpu.sentence  # a power law: log CPU is concave
    wobble = [1.0, 1.02, 0.99, 1.01, 0.98, 1.02, 1.0, 0.99]
    flat = [
        point(p["board"], 0.5, x=p["x"], cpu=1e-4 * math.exp(0.08 * p["x"]) * w) for p, w in zip(falling, wobble, strict=True)
    ]
    harder, cpu, _ = size_claims({"points": flat})
    assert harder.verdict == "not reproduced" and cpu.verdict == "not reproduced"  # exponential: no curvature


def test_skinny_boards_harder_and_the_square_easiest_or_not():
    shapes = [(900, 1), (450, 2), (100, 9), (36, 25), (30, 30)]
    rising = [point(f"{w}x{h}x180", 0.01 * h, x=h) for w, h in shapes]
    skinny, square = aspect_claims({"points": rising})
    assert skinny.verdict == "reproduced" and square.verdict == "reproduced"
    rising[3] = point("36x25x180", 0.40, x=25)
    skinny, square = aspect_claims({"points": rising})
    assert skinny.verdict == "reproduced" and square.verdict == "not reproduced" and "36x25x180" in square.measured


def test_frontier_share_and_extremes_beside_the_paper():
    from sweeplab.studies.papers.figures import frontier_claims

    def extreme(what, variables, constraints, dof, solutions):
        return {"strategy": "cspstrategy", "what": what, "board": "30x16x99", "game": 7, "variables": variables,
                "constraints": constraints, "dof": dof, "solutions": solutions}  # fmt: skip

    share = {"strategy": "cspstrategy", "what": "games whose largest set had < 1000 solutions: 995 of 1000", "board": None,
             "game": None, "variables": None, "constraints": None, "dof": None, "solutions": None, "small": 995,
             "games_with_sets": 1000}  # fmt: skip
    data = {
        "extremes": [
            extreme("most degrees of freedom", 60, 30, 30, 10_000),
            extreme("most variables and constraints", 100, 60, 40, 5_000),
            extreme("most solutions", 40, 15, 25, 2_000_000),
            share,
        ]
    }
    found = {c.claim: c for c in frontier_claims(data)}
    assert found["more than 99% of the sets solved had fewer than 1,000 solutions"].verdict == "reproduced"
    assert found["the set with the most degrees of freedom"].verdict == "reproduced"  # 30 of the paper's 39: within 2x
    assert found["the set with the most variables and constraints"].verdict == "reproduced"
    assert found["the set with the most solutions"].verdict == "not reproduced"  # 2M against 6M
    share["small"] = 980
    assert frontier_claims(data)[0].verdict == "not reproduced"
