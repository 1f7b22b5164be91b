// sweeplab's benchmark panel: pick strategies, run a paired benchmark in the server, and show its tables and chart.
"use strict";

// ---------------------------------------------------------------- Benchmark
const bench = { order: [], poll: null };

function buildBenchStrategies() {
  const list = $("bench-strategies");
  for (const strategy of state.meta.strategies) {
    const label = document.createElement("label");
    label.title = `${strategy.summary} [${strategy.source}]`;
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = strategy.name;
    box.addEventListener("change", () => {
      bench.order = bench.order.filter((n) => n !== strategy.name);
      if (box.checked) bench.order.push(strategy.name);
      markBenchOrder();
    });
    const order = document.createElement("span");
    order.className = "order";
    label.append(box, order, ` ${strategy.name}`);
    list.appendChild(label);
  }
  for (const name of ["exact", "single-point"]) {
    const box = list.querySelector(`input[value="${name}"]`);
    if (box) { box.checked = true; bench.order.push(name); }
  }
  markBenchOrder();
}

function markBenchOrder() {
  for (const label of $("bench-strategies").children) {
    const name = label.querySelector("input").value;
    const at = bench.order.indexOf(name);
    label.querySelector(".order").textContent = at >= 0 ? `${at + 1}` : "";
  }
}

async function startBench() {
  const more = $("bench-more").value.trim();
  const strategies = bench.order.concat(more ? [more] : []);
  const body = {
    strategies,
    board: boardText($("bench-board"), $("bench-custom")),
    rule: $("bench-rule").value,
    games: Number($("bench-games").value),
    seed: Number($("bench-seed").value),
  };
  try {
    showMessage($("bench-message"), "");
    $("bench-results").replaceChildren();
    const status = await api("POST", "/api/bench", body);
    showBench(status);
    pollBench();
  } catch (error) {
    showMessage($("bench-message"), error.message, true);
  }
}

function pollBench() {
  clearTimeout(bench.poll);
  bench.poll = setTimeout(async () => {
    try {
      const status = await api("GET", "/api/bench");
      showBench(status);
      if (status.state === "running") pollBench();
    } catch (error) {
      showMessage($("bench-message"), error.message, true);
    }
  }, 300);
}

async function cancelBench() {
  try {
    showBench(await api("POST", "/api/bench/cancel"));
  } catch (error) {
    showMessage($("bench-message"), error.message, true);
  }
}

function showBench(status) {
  const running = status.state === "running";
  $("bench-run").disabled = running;
  $("bench-cancel").disabled = !running;
  if (status.state === "idle") return;
  const progress = $("bench-progress");
  progress.max = status.games_total || 1;
  progress.value = status.games_done;
  const s = status.settings;
  const what = `${s.strategies.join(", ")} on ${s.board} (${s.rule}), ${s.games} games each, seed ${s.seed}`;
  const verb = { running: "running", done: "finished", failed: "failed", cancelled: "cancelled" }[status.state];
  $("bench-status").textContent = `Run ${status.run} ${verb}: ${status.games_done}/${status.games_total} games, ${status.seconds.toFixed(1)} s · ${what}`;
  if (status.state === "failed") showMessage($("bench-message"), status.error, true);
  if (status.state === "done" && status.report) showBenchReport(status.report);
}

function showBenchReport(report) {
  const percent = (v) => `${(v * 100).toFixed(1)}%`;
  const rows = report.summaries.map((s) => `<tr><td>${s.strategy}</td><td>${s.games}</td><td>${s.wins}</td>
    <td>${percent(s.win_rate)} ± ${percent(s.sem)}</td><td>${percent(s.wilson_low)} – ${percent(s.wilson_high)}</td>
    <td>${(s.cpu_mean * 1000).toFixed(2)}</td><td>${s.guesses_per_game.toFixed(2)}</td></tr>`).join("");
  const se = report.summaries[0] && report.summaries[0].sets ? `standard error over ${report.summaries[0].sets} sets of games (seed 000's statistic)` : "binomial standard error";
  let html = `<table class="results"><thead><tr><th>strategy</th><th>games</th><th>wins</th><th>win rate ± SE</th>
    <th>95% Wilson</th><th>ms CPU / game</th><th>guesses / game</th></tr></thead><tbody>${rows}</tbody></table>
    <p class="small">± is the ${se}.</p>`;
  if (report.paired.length) {
    const pairs = report.paired.map((p) => `<tr><td>${p.a} − ${p.b}</td><td>${p.games}</td>
      <td>${p.difference >= 0 ? "+" : ""}${percent(p.difference)} ± ${percent(p.se)}</td><td>${p.a_only}</td><td>${p.b_only}</td></tr>`).join("");
    html += `<table class="results"><thead><tr><th>paired (same games)</th><th>games</th><th>difference ± SE</th>
      <th>only first won</th><th>only second won</th></tr></thead><tbody>${pairs}</tbody></table>`;
  }
  html += `<div class="bench-chart">${benchChart(report)}</div>`;
  html += `<p><a class="button" id="bench-json" href="/api/bench/report.json" download>Download the report (JSON)</a></p>`;
  $("bench-results").innerHTML = html;
}
