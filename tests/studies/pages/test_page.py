"""The page builder: headings and the anchors links to them use."""

from sweeplab.studies.pages.page import anchor, headings


def test_headings_skip_code_blocks():
    assert headings("## A\n\n```\n# not a heading\n```\n### B: c\nnot # one") == ["A", "B: c"]


def test_anchors_follow_githubs_rules_and_number_repeats():
    title = "Figures 2-4: win rate by level and first-click rule; Figure 5: CPU time per game"
    assert anchor(title, []) == "figures-2-4-win-rate-by-level-and-first-click-rule-figure-5-cpu-time-per-game"
    assert anchor("Seed 000's page (10,000 games)", []) == "seed-000s-page-10000-games"
    assert anchor("unsafe", ["unsafe", "safe", "Unsafe"]) == "unsafe-2"
