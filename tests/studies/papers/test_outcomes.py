"""The paired claims of seed 000's start, overlap and equation runs and of seed 003's sweeps recompute from the per-game
outcomes committed beside them."""

import json
import re
from pathlib import Path

import pytest

from sweeplab.studies.claim import OUTCOMES, paired_difference, read_outcomes

RESULTS = Path(__file__).resolve().parents[3] / "results"

#: experiment -> (the strategy a claim's difference is for, the one it is against); points pair up within a group.
#: ``equation``'s leads and seed 003's paired claims are checked below.
PAIRS = {"start": ("cspstrategy", "cspstrategy[start=centre]"), "overlap": ("cspstrategy", "cspstrategy[overlap=min]")}


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_paired_differences_recompute_from_the_committed_games(name):
    path = RESULTS / name / OUTCOMES
    assert path.exists(), f"results/{name}/{OUTCOMES} is not committed"
    data = json.loads((RESULTS / name / "data.json").read_text())
    games = read_outcomes(path)
    first, second = PAIRS[name]
    differences = [c for c in data["claims"] if " - " in c["key"]]
    assert differences, f"{name}: no paired claim"
    for claim in differences:
        group = next(p["group"] for p in data["points"] if f"| {p['group']} |" in claim["key"])
        at = {p["strategy"]: k for k, p in enumerate(data["points"]) if p["group"] == group}
        assert len(games[at[first]]) == data["points"][at[first]]["games"]
        d, se, _ = paired_difference([(games[at[first]], games[at[second]])])
        shown = re.search(r"([+-]\d+\.\d+) ± (\d+\.\d+) points", claim["measured"])
        assert shown, claim["measured"]
        digits = len(shown.group(2).split(".")[1])
        assert f"{100 * d:+.{digits}f}" == shown.group(1) and f"{100 * se:.{digits}f}" == shown.group(2), claim["key"]


def test_equations_leads_recompute_from_the_committed_games():
    """Each lead of CSPStrategy over an EquationStrategy variant (the corner-start claim and the hinted-games claim)
    is the paired difference of their committed games, group by group."""
    data = json.loads((RESULTS / "equation" / "data.json").read_text())
    games = read_outcomes(RESULTS / "equation" / OUTCOMES)
    at = {(p["group"], p["strategy"]): k for k, p in enumerate(data["points"])}

    def lead(group: str, strategy: str) -> tuple[float, float]:
        d, se, n = paired_difference([(games[at[(group, "cspstrategy")]], games[at[(group, strategy)]])])
        assert n == data["points"][at[(group, strategy)]]["games"]
        return 100 * d, 100 * se

    checked = 0
    for claim in data["claims"]:
        strategy = claim["key"].split(" | ")[2]
        if "corner start" in claim["key"]:
            shown = re.fullmatch(r"([+-]\d+\.\d) ± (\d+\.\d) points", claim["measured"])
            assert shown, claim["measured"]
            d, se = lead("unsafe", strategy)
            assert (f"{d:+.1f}", f"{se:.1f}") == shown.groups(), claim["key"]
            checked += 1
        elif "hinted games closer" in claim["key"]:
            shown = re.fullmatch(
                r"lead ([+-]\d+\.\d) ± (\d+\.\d) points hinted, ([+-]\d+\.\d) ± (\d+\.\d) points safe", claim["measured"]
            )
            assert shown, claim["measured"]
            (dh, seh), (ds, ses) = lead("hint", strategy), lead("safe", strategy)
            assert (f"{dh:+.1f}", f"{seh:.1f}", f"{ds:+.1f}", f"{ses:.1f}") == shown.groups(), claim["key"]
            checked += 1
    assert checked == 5


def test_seed003s_paired_claims_recompute_from_the_committed_games():
    """Each 'A - B | win rate' claim of seed 003 (the equivalence tests and the learned players against the
    Manhattan version) is the paired difference of A's and B's games pooled over the mine-ratio sweep."""
    data = json.loads((RESULTS / "seed003" / "data.json").read_text())
    games = read_outcomes(RESULTS / "seed003" / OUTCOMES)
    ratio = [(k, p) for k, p in enumerate(data["points"]) if p["group"] == "ratio"]
    checked = 0
    for claim in data["claims"]:
        parts = claim["key"].split(" | ")
        if len(parts) != 3 or parts[2] != "win rate" or " - " not in parts[1]:
            continue
        a, b = parts[1].split(" - ")
        at = {name: sorted((p["x"], k) for k, p in ratio if p["strategy"] == name) for name in (a, b)}
        assert [x for x, _ in at[a]] == [x for x, _ in at[b]], claim["key"]
        d, se, n = paired_difference([(games[i], games[j]) for (_, i), (_, j) in zip(at[a], at[b], strict=True)])
        assert n == sum(data["points"][i]["games"] for _, i in at[a])
        shown = re.match(r"([+-]\d+\.\d+) ± (\d+\.\d+) points", claim["measured"])
        assert shown, claim["measured"]
        digits = len(shown.group(2).split(".")[1])
        assert (f"{100 * d:+.{digits}f}", f"{100 * se:.{digits}f}") == shown.groups(), claim["key"]
        checked += 1
    assert checked == 10  # three equivalence claims, three heuristics, four learned players
