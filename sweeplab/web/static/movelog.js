// sweeplab's move log: each move in words, and a guess's explanation as a small table that marks its cells.
"use strict";

// ----- the move log
function clearLog() {
  $("move-log").replaceChildren();
  state.moveNumber = 0;
}

function logMove(text, kind, guess = null) {
  const li = document.createElement("li");
  li.textContent = text;
  if (kind) li.className = kind;
  if (guess && guess.explanation) li.appendChild(explanationBlock(guess));
  const log = $("move-log");
  log.appendChild(li);
  while (log.children.length > 300) log.removeChild(log.firstChild);
  log.scrollTop = log.scrollHeight;
}

// A guess's explanation as a player reads it: the reason in one sentence (the strategy's whole text on hover), then
// the chosen cell and its closest alternatives as a small table; pointing at it marks those cells on the board.
const EXPLAIN_ROWS = 5;
const EXPLAIN_COLUMNS = [["safety", "safe"], ["win_probability", "wins"], ["score", "score"]];

function explanationBlock(guess) {
  const explanation = guess.explanation;
  const figures = explanation.figures || {};
  const block = document.createElement("div");
  block.className = "explain";
  const reason = document.createElement("p");
  reason.className = "reason";
  // the "next best" clause is what the table shows
  const clauses = explanation.text.split("; ").filter((clause) => !clause.startsWith("next best"));
  reason.textContent = `Why: ${clauses.join("; ")}.`;
  reason.title = explanation.text;
  block.appendChild(reason);
  const alternatives = (Array.isArray(figures.alternatives) ? figures.alternatives : []).filter((a) => Array.isArray(a.cell));
  const marked = alternatives.map((a) => a.cell).concat(Array.isArray(figures.set) ? figures.set : []);
  block.addEventListener("mouseenter", () => { state.highlight = { chosen: guess.cell, cells: marked }; renderPlay(); });
  block.addEventListener("mouseleave", () => { state.highlight = null; renderPlay(); });
  if (!alternatives.length) return block;
  // closest first: by score where the strategy gave one, else by chance of winning, else by safety
  const keys = (a) => ["score", "win_probability", "safety"].map((key) => (typeof a[key] === "number" ? a[key] : -Infinity));
  const closer = (a, b) => {
    const [ka, kb] = [keys(a), keys(b)];
    const k = ka.findIndex((value, i) => value !== kb[i]);
    return k < 0 ? 0 : kb[k] - ka[k] > 0 ? 1 : -1;
  };
  const chosen = { cell: guess.cell, safety: guess.safety, score: figures.score, win_probability: figures.win_probability };
  const rows = [chosen].concat([...alternatives].sort(closer).slice(0, EXPLAIN_ROWS - 1));
  const columns = EXPLAIN_COLUMNS.filter(([key]) => rows.some((row) => typeof row[key] === "number"));
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  for (const label of ["cell", ...columns.map(([, name]) => name)]) {
    const th = document.createElement("th");
    th.textContent = label;
    head.appendChild(th);
  }
  const body = table.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    tr.dataset.cell = row.cell.join(",");
    if (row === chosen) tr.className = "chosen";
    tr.insertCell().textContent = row === chosen ? `${cellName(row.cell)} chosen` : cellName(row.cell);
    for (const [key] of columns) {
      const value = row[key];
      tr.insertCell().textContent = typeof value !== "number" ? "–" : key === "score" ? value.toFixed(3) : `${(value * 100).toFixed(1)}%`;
    }
  }
  if (alternatives.length > rows.length - 1) {
    table.createCaption().textContent = `and ${alternatives.length - (rows.length - 1)} more candidate(s)`;
    table.caption.style.captionSide = "bottom";
  }
  block.appendChild(table);
  return block;
}
