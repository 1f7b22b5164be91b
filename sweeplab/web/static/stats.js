// A finished game's statistics (the server computes them from the layout once the game is over), and this
// browser's record, kept in localStorage: games played and won, and the best time, board by board. A game with an
// undo or an auto-solver move is "assisted": it counts as played (and won), never as a best time. A game the
// player made no move in (the auto-solver's alone) is not counted.
"use strict";

const RECORDS_KEY = "sweeplab.records.v1";

function fixed(value, digits) {
  return value === null || value === undefined ? "–" : value.toFixed(digits);
}

function showGameStats(game) {
  const box = $("game-stats");
  const stats = game.over ? game.stats : null;
  box.hidden = !stats;
  if (!stats) return;
  const bv = stats.three_bv_solved === stats.three_bv ? `${stats.three_bv}` : `${stats.three_bv_solved} / ${stats.three_bv}`;
  const rows = [
    ["time", `${fixed(stats.time, 2)} s`, "from the first move to the last"],
    ["3BV", bv, "the fewest clicks that clear the board: one per opening, one per number no opening reveals"],
    ["3BV/s", fixed(stats.three_bv_per_second, 2), "3BV solved per second"],
    ["clicks", stats.solver_moves ? `${stats.clicks} (${stats.solver_moves} auto)` : `${stats.clicks}`,
      "your reveals, flags and chords (undone ones too), and the auto-solver's moves"],
    ["efficiency", stats.efficiency === null ? "–" : `${Math.round(stats.efficiency * 100)}%`, "3BV solved / clicks"],
  ];
  const cells = rows.map(([name, value, about]) => `<div class="stat" title="${about}" data-stat="${name}"><span class="name">${name}</span><span class="value">${value}</span></div>`);
  let note = "";
  if (stats.assisted) {
    const why = [];
    if (stats.undos) why.push(`${stats.undos} undo${stats.undos === 1 ? "" : "s"}`);
    if (stats.solver_moves) why.push(`${stats.solver_moves} auto-solver move${stats.solver_moves === 1 ? "" : "s"}`);
    note = `<p class="assisted">Assisted (${why.join(", ")}): not a record.</p>`;
  }
  box.innerHTML = `<div class="stats-row">${cells.join("")}</div>${note}`;
}

function loadRecords() {
  try {
    const records = JSON.parse(localStorage.getItem(RECORDS_KEY) || "null");
    if (records && typeof records.boards === "object") return records;
  } catch (error) { /* a damaged record starts afresh */ }
  return { boards: {}, last: null };
}

function saveRecords(records) {
  try { localStorage.setItem(RECORDS_KEY, JSON.stringify(records)); } catch (error) { /* storage full or off */ }
}

// Count a game that has just ended; `round` names this deal on this page, so a game undone and ended again
// (lost, undone, then won) is counted once, as its last ending.
function recordGame(game, round) {
  const stats = game.stats;
  if (!stats || stats.clicks - (stats.solver_moves || 0) === 0) return; // the auto-solver's game alone
  const records = loadRecords();
  const key = `${game.id}:${round}`;
  const entry = records.boards[game.board] || (records.boards[game.board] = { played: 0, won: 0, assisted: 0, best: null });
  const won = game.state === "won";
  if (records.last && records.last.key === key && records.boards[records.last.board]) {
    const before = records.boards[records.last.board];
    before.played -= 1;
    before.won -= records.last.won ? 1 : 0;
    before.assisted -= records.last.assisted ? 1 : 0;
  }
  entry.played += 1;
  entry.won += won ? 1 : 0;
  entry.assisted += stats.assisted ? 1 : 0;
  if (won && !stats.assisted && (entry.best === null || stats.time < entry.best)) entry.best = stats.time;
  records.last = { key, board: game.board, won, assisted: stats.assisted };
  saveRecords(records);
  showRecords();
}

function showRecords() {
  const records = loadRecords();
  const boards = Object.entries(records.boards).filter(([, e]) => e.played > 0);
  const played = boards.reduce((n, [, e]) => n + e.played, 0);
  const won = boards.reduce((n, [, e]) => n + e.won, 0);
  const box = $("records");
  if (!played) {
    box.innerHTML = `<p class="small">No game finished in this browser yet.</p>`;
    return;
  }
  const rows = boards.map(([board, e]) => `<tr data-board="${board}"><td>${board}</td><td>${e.played}</td><td>${e.won}</td>
    <td>${Math.round((100 * e.won) / e.played)}%</td><td>${e.best === null ? "–" : `${e.best.toFixed(2)} s`}</td></tr>`);
  box.innerHTML = `<p class="small" id="records-total">${played} played, ${won} won (${Math.round((100 * won) / played)}%)</p>
    <table class="records"><thead><tr><th>board</th><th>played</th><th>won</th><th>win %</th><th>best time</th></tr></thead>
    <tbody>${rows.join("")}</tbody></table>`;
}

function resetRecords() {
  try { localStorage.removeItem(RECORDS_KEY); } catch (error) { /* nothing kept */ }
  showRecords();
}
