// The benchmark's results drawn as SVG (no library): each strategy's win rate with its 95% Wilson interval, and
// each paired difference (first strategy minus another, on the same games) with ±1.96 standard errors about zero.
"use strict";

const CHART_W = 560;
const CHART_LABEL = 170; // room for the strategy names on the left
const CHART_ROW = 24;
const CHART_AXIS = 30;

function escapeXml(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

// one panel: rows of {label, value, low, high}, on an axis from `from` to `to` (fractions, shown as %)
function chartPanel(title, rows, from, to, kind, zero) {
  const plot = CHART_W - CHART_LABEL - 20;
  const x = (v) => CHART_LABEL + ((Math.max(from, Math.min(to, v)) - from) / (to - from)) * plot;
  const height = 22 + rows.length * CHART_ROW + CHART_AXIS;
  const parts = [`<svg class="chart ${kind}" width="${CHART_W}" height="${height}" viewBox="0 0 ${CHART_W} ${height}" role="img" aria-label="${escapeXml(title)}">`];
  parts.push(`<text class="title" x="4" y="14">${escapeXml(title)}</text>`);
  const bottom = 22 + rows.length * CHART_ROW;
  // ticks at round steps (0 among them when the axis holds it), at most six intervals
  const step = [0.01, 0.02, 0.05, 0.1, 0.2, 0.25].find((s) => (to - from) / s <= 6 + 1e-9) || 0.5;
  for (let k = Math.ceil(from / step - 1e-9); k * step <= to + 1e-9; k++) {
    const v = k * step;
    parts.push(`<line class="grid" x1="${x(v)}" x2="${x(v)}" y1="20" y2="${bottom}"/>`);
    parts.push(`<text class="tick" x="${x(v)}" y="${bottom + 14}" text-anchor="middle">${Math.round(v * 100)}%</text>`);
  }
  if (zero) parts.push(`<line class="zero" x1="${x(0)}" x2="${x(0)}" y1="20" y2="${bottom}"/>`);
  rows.forEach((row, i) => {
    const y = 22 + i * CHART_ROW + CHART_ROW / 2;
    parts.push(`<g class="row" data-label="${escapeXml(row.label)}" data-value="${row.value}" data-low="${row.low}" data-high="${row.high}">`);
    parts.push(`<text class="label" x="${CHART_LABEL - 8}" y="${y + 4}" text-anchor="end">${escapeXml(row.label)}</text>`);
    parts.push(`<line class="err" x1="${x(row.low)}" x2="${x(row.high)}" y1="${y}" y2="${y}"/>`);
    parts.push(`<line class="cap" x1="${x(row.low)}" x2="${x(row.low)}" y1="${y - 5}" y2="${y + 5}"/>`);
    parts.push(`<line class="cap" x1="${x(row.high)}" x2="${x(row.high)}" y1="${y - 5}" y2="${y + 5}"/>`);
    parts.push(`<circle class="dot" cx="${x(row.value)}" cy="${y}" r="4.5"><title>${escapeXml(row.label)}: ${(row.value * 100).toFixed(1)}% (${(row.low * 100).toFixed(1)}% – ${(row.high * 100).toFixed(1)}%)</title></circle>`);
    parts.push("</g>");
  });
  parts.push("</svg>");
  return parts.join("");
}

// the axis: the smallest span of round tenths (win rates) or round steps (differences) that holds every interval
function chartRange(rows, zero) {
  const low = Math.min(...rows.map((r) => r.low), zero ? 0 : 1);
  const high = Math.max(...rows.map((r) => r.high), zero ? 0 : 0);
  if (!zero) return [Math.max(0, Math.floor(low * 10) / 10), Math.min(1, Math.ceil(high * 10) / 10 || 0.1)];
  const reach = Math.max(Math.abs(low), Math.abs(high), 0.01);
  const step = reach > 0.2 ? 0.1 : reach > 0.05 ? 0.05 : 0.01;
  const edge = Math.ceil(reach / step) * step;
  return [-edge, edge];
}

function benchChart(report) {
  const rates = report.summaries.map((s) => ({ label: s.strategy, value: s.win_rate, low: s.wilson_low, high: s.wilson_high }));
  const [from, to] = chartRange(rates, false);
  let svg = chartPanel("win rate, with its 95% Wilson interval", rates, from, to === from ? from + 0.1 : to, "rates", false);
  if (report.paired.length) {
    const pairs = report.paired.map((p) => ({
      label: `${p.a} − ${p.b}`, value: p.difference, low: p.difference - 1.96 * p.se, high: p.difference + 1.96 * p.se,
    }));
    const [a, b] = chartRange(pairs, true);
    svg += chartPanel("paired difference (same games), ±1.96 SE", pairs, a, b, "paired", true);
  }
  return svg;
}
