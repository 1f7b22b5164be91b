"""The benchmark panel's chart in Chromium: each strategy's win rate with its Wilson interval, and each paired
difference with ±1.96 standard errors, drawn where the report's numbers say."""

from __future__ import annotations

import pytest

from tests.web.pages import shot


def rows(page, panel: str) -> list[dict]:
    return page.eval_on_selector_all(
        f"svg.chart.{panel} g.row",
        """groups => groups.map(g => {
            const caps = [...g.querySelectorAll('line.cap')].map(l => +l.getAttribute('x1'));
            return { label: g.dataset.label, value: +g.dataset.value, low: +g.dataset.low, high: +g.dataset.high,
                     dot: +g.querySelector('circle.dot').getAttribute('cx'), caps }; })""",
    )


def test_the_chart_draws_win_rates_and_paired_differences(page, shots):
    page.click(".tab[data-view=bench]")
    page.check("#bench-strategies input[value=level2]")
    page.fill("#bench-games", "60")
    page.click("#bench-run")
    page.wait_for_selector("svg.chart.rates", timeout=60_000)
    report = page.evaluate("fetch('/api/bench/report.json').then(r => r.json())")
    rates = rows(page, "rates")
    assert [r["label"] for r in rates] == [s["strategy"] for s in report["summaries"]] == ["exact", "single-point", "level2"]
    for row, summary in zip(rates, report["summaries"], strict=True):
        assert row["value"] == pytest.approx(summary["win_rate"])
        assert (row["low"], row["high"]) == (pytest.approx(summary["wilson_low"]), pytest.approx(summary["wilson_high"]))
        assert row["caps"][0] <= row["dot"] <= row["caps"][1]
    # one scale for all: a higher win rate is further right, in proportion
    (a, b) = sorted(rates, key=lambda r: r["value"])[::2]
    if b["value"] > a["value"]:
        scale = (b["dot"] - a["dot"]) / (b["value"] - a["value"])
        assert (a["caps"][1] - a["caps"][0]) == pytest.approx(scale * (a["high"] - a["low"]), abs=0.01)
    paired = rows(page, "paired")
    assert [r["label"] for r in paired] == ["exact − single-point", "exact − level2"]
    for row, pair in zip(paired, report["paired"], strict=True):
        assert row["value"] == pytest.approx(pair["difference"])
        assert row["high"] - row["low"] == pytest.approx(2 * 1.96 * pair["se"])
    zero = page.eval_on_selector("svg.chart.paired line.zero", "l => +l.getAttribute('x1')")
    for row in paired:
        assert (row["dot"] > zero) == (row["value"] > 0) or row["value"] == 0
    size = page.eval_on_selector("svg.chart.rates", "s => { const r = s.getBoundingClientRect(); return [r.width, r.height]; }")
    assert size[0] > 300 and size[1] > 80
    assert page.locator("table.results").count() == 2, "the tables stay"
    shot(page, shots, "bench-chart.png")
