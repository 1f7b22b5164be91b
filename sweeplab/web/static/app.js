// sweeplab's page: plain JavaScript over the server's JSON API (no build step, no network beyond this server).
"use strict";

const COVERED = -1;
const FLAGGED = -2;
const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

class ApiError extends Error {
  constructor(status, body) {
    super(body && body.detail ? body.detail : `the server answered ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    throw new ApiError(0, { detail: "the sweeplab server cannot be reached: is `sweeplab serve` still running?" });
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (error) { data = { detail: text }; }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

function showMessage(element, text, isError) {
  element.textContent = text || "";
  element.classList.toggle("error", Boolean(isError));
}

const pct = (p) => (p === 0 ? "0" : p === 1 ? "100" : p < 0.005 ? "<1" : p > 0.995 ? ">99" : String(Math.round(p * 100)));
const cellName = (xy) => `(${xy[0]}, ${xy[1]})`;
// a count that may have dozens of digits (layouts): plain up to a million, else "3.16 × 10^40"
function bigCount(text) {
  const digits = String(text);
  if (digits.length <= 7) return Number(digits).toLocaleString("en-US");
  return `${digits[0]}.${digits.slice(1, 3)} × 10^${digits.length - 1}`;
}

// ---------------------------------------------------------------- shared controls
const state = {
  meta: null,
  game: null,
  tick: null,
  tickBase: 0,
  tickAt: 0,
  solving: false,
  busy: false,
  hint: null,
  overlay: null,
  highlight: null, // {chosen, cells} of the explanation pointed at in the move log
  moveNumber: 0,
  round: 0, // counts the games dealt on this page (a restart is a new one): the record counts each once
};

function fillBoardSelect(select, custom, preferred) {
  for (const [name, size] of Object.entries(state.meta.presets)) {
    const option = new Option(`${name} (${size[0]}x${size[1]}, ${size[2]} mines)`, name);
    select.add(option);
  }
  select.add(new Option("custom…", "custom"));
  select.value = preferred;
  select.addEventListener("change", () => { custom.hidden = select.value !== "custom"; });
}

function boardText(select, custom) {
  return select.value === "custom" ? custom.value.trim() : select.value;
}

function fillRuleSelect(select) {
  for (const [name, about] of Object.entries(state.meta.rules)) {
    const option = new Option(name, name);
    option.title = about;
    select.add(option);
  }
  select.value = "safe";
}

// ---------------------------------------------------------------- Play
const playBoard = new BoardView($("play-grid"), onPlayCell, pressedCells);

function lcd(n) {
  const sign = n < 0 ? "-" : "";
  return sign + String(Math.min(999, Math.abs(Math.floor(n)))).padStart(sign ? 2 : 3, "0");
}

function setGame(game) {
  const ended = game.over && state.game && state.game.id === game.id && !state.game.over;
  state.game = game;
  if (ended) {
    const how = game.state === "won" ? `won in ${game.elapsed.toFixed(1)} s` : `lost on ${cellName(game.exploded || [0, 0])}`;
    logMove(`Game ${how} after ${game.moves} moves.`, game.state === "lost" ? "lost" : "end");
    recordGame(game, state.round);
  }
  showGameStats(game);
  playBoard.resize(game.width, game.height);
  showZoom();
  $("mine-counter").textContent = lcd(game.state === "won" ? 0 : game.mines_left);
  state.tickBase = game.elapsed;
  state.tickAt = performance.now();
  const running = game.state === "playing" && game.moves > 0;
  $("timer").textContent = lcd(game.elapsed);
  if (running && !state.tick) state.tick = setInterval(tickTimer, 250);
  if (!running && state.tick) { clearInterval(state.tick); state.tick = null; }
  const status = $("game-status");
  status.className = `game-status ${game.state}`;
  if (game.state === "won") status.textContent = `Won in ${game.elapsed.toFixed(1)} s`;
  else if (game.state === "lost") status.textContent = `Lost: mine at ${cellName(game.exploded || [0, 0])}`;
  else status.textContent = game.moves ? "Playing" : "Click any cell to start";
  const what = game.source === "mbf"
    ? `MBF layout ${game.board} (no first-click rule)`
    : `${game.board}, first click “${game.rule}”, seed ${game.seed}`;
  let info = `${what} · ${game.moves} move${game.moves === 1 ? "" : "s"}`;
  if (!game.rule_kept) info += ` · the first-click rule was not met: ${game.rule_failure}`;
  if (game.undos) info += ` · ${game.undos} undo${game.undos === 1 ? "" : "s"} (assisted)`;
  $("play-info").textContent = info;
  $("download-game-position").href = `/api/games/${game.id}/position`;
  $("btn-step").disabled = game.over || state.solving;
  $("btn-solve").disabled = game.over && !state.solving;
  $("btn-undo").disabled = game.moves === 0;
  renderPlay();
}

function tickTimer() {
  if (!state.game || state.game.over) return;
  $("timer").textContent = lcd(state.tickBase + (performance.now() - state.tickAt) / 1000);
}

function renderPlay() {
  const game = state.game;
  if (!game) return;
  const won = game.state === "won";
  const extra = {
    layout: won ? [] : game.layout,
    flagged: won ? game.layout : [],
    exploded: game.exploded,
    wrong: game.wrong_flags,
    hintCell: game.moves === 0 ? game.hint_cell : null,
    marks: {},
  };
  const overlay = state.overlay;
  const numbers = $("overlay-numbers").checked;
  if (overlay && $("overlay-on").checked) {
    extra.probabilities = overlay.probabilities;
    extra.numbers = numbers;
    extra.marks.craps = overlay.craps_shoots.flatMap((s) => s.cells);
    extra.marks["mk-safe"] = overlay.safe;
    extra.marks["mk-mine"] = overlay.mines;
  } else if (overlay && numbers) {
    // numbers without colours: the plain covered cells carry the percentages
    extra.values = overlay.probabilities
      .map((p, i) => ({ cell: [i % game.width, Math.floor(i / game.width)], p }))
      .filter((v) => v.p !== null && game.view[v.cell[1] * game.width + v.cell[0]] === COVERED);
    extra.valueClass = "";
  }
  if (state.hint && !game.over) {
    extra.marks["mk-safe"] = (extra.marks["mk-safe"] || []).concat(state.hint.safe);
    extra.marks["mk-mine"] = (extra.marks["mk-mine"] || []).concat(state.hint.mines);
    extra.marks["mk-guess"] = state.hint.guess ? state.hint.guess.cells : [];
    if (!extra.values && !(extra.probabilities && extra.numbers)) {
      extra.values = state.hint.values;
      extra.valueClass = "val";
    }
  }
  if (state.highlight) {
    extra.marks["hl-alt"] = state.highlight.cells;
    extra.marks["hl-chosen"] = [state.highlight.chosen];
  }
  playBoard.render(game.view, extra);
}

async function newGame(body) {
  stopSolving();
  try {
    const game = await api("POST", "/api/games", body);
    state.round += 1;
    clearLog();
    state.hint = null;
    state.overlay = null;
    $("hint-text").textContent = "";
    $("overlay-text").textContent = "";
    showMessage($("play-message"), "");
    setGame(game);
    await refreshAids();
  } catch (error) {
    showMessage($("play-message"), error.message, true);
  }
}

function newGameFromControls() {
  const body = { board: boardText($("play-board"), $("play-custom")), rule: $("play-rule").value };
  const seed = $("play-seed").value.trim();
  if (seed) body.seed = seed;
  return newGame(body);
}

async function restartGame() {
  if (!state.game) return;
  stopSolving();
  try {
    const game = await api("POST", `/api/games/${state.game.id}/restart`);
    state.round += 1;
    clearLog();
    state.hint = null;
    $("hint-text").textContent = "";
    state.overlay = null;
    showMessage($("play-message"), "");
    setGame(game);
    await refreshAids();
  } catch (error) {
    showMessage($("play-message"), error.message, true);
  }
}

async function playMove(kind, index) {
  const game = state.game;
  const x = index % game.width;
  const y = Math.floor(index / game.width);
  try {
    const result = await api("POST", `/api/games/${game.id}/move`, { kind, x, y });
    logMove(`you: ${kind} (${x}, ${y})`, result.game.state === "lost" ? "lost" : "");
    showMessage($("play-message"), "");
    setGame(result.game);
    await refreshAids();
  } catch (error) {
    showMessage($("play-message"), error.message, true);
  }
}

async function undoMove() {
  const game = state.game;
  if (!game || state.busy || game.moves === 0) return;
  stopSolving();
  state.busy = true;
  try {
    const result = await api("POST", `/api/games/${game.id}/undo`);
    logMove(`undo: ${result.undone.kind} ${cellName(result.undone.cell)} taken back`, "undo");
    showMessage($("play-message"), "");
    setGame(result.game);
    await refreshAids();
  } catch (error) {
    showMessage($("play-message"), error.message, true);
  } finally {
    state.busy = false;
  }
}

// the cells a left button held on `index` shows pressed: a covered cell it would reveal, or the covered neighbours
// of the number it would chord
function pressedCells(index) {
  const game = state.game;
  if (!game || game.over || state.busy || state.solving || $("flag-mode").checked) return [];
  const v = game.view[index];
  if (v === COVERED) return [index];
  if (v <= 0) return [];
  return neighbours(game, index).filter((n) => game.view[n] === COVERED);
}

function neighbours(game, index) {
  const x = index % game.width;
  const y = Math.floor(index / game.width);
  const out = [];
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      const nx = x + dx;
      const ny = y + dy;
      if ((dx || dy) && nx >= 0 && ny >= 0 && nx < game.width && ny < game.height) out.push(ny * game.width + nx);
    }
  }
  return out;
}

// button: "left" (reveal or chord; flags in flag mode), "right" (flag or unflag), "reveal" (the keyboard's reveal,
// whatever the flag mode)
function onPlayCell(index, button) {
  const game = state.game;
  if (!game || game.over || state.busy || state.solving) return;
  const v = game.view[index];
  const flagging = button === "right" || (button === "left" && $("flag-mode").checked);
  if (flagging) {
    if (v === COVERED) return playMove("flag", index);
    if (v === FLAGGED) return playMove("unflag", index);
    return;
  }
  if (v === COVERED) return playMove("reveal", index);
  if (v > 0) {
    // chord only when the number's flags are all placed and something is left to open
    const around = neighbours(game, index).map((n) => game.view[n]);
    const flags = around.filter((n) => n === FLAGGED).length;
    const covered = around.filter((n) => n === COVERED).length;
    if (flags === v && covered > 0) return playMove("chord", index);
  }
}

// ----- the helper and the overlay
function selectedLevel() {
  return Number(document.querySelector('input[name="level"]:checked').value);
}

async function requestHint() {
  if (!state.game) return;
  try {
    const asked = positionKey(state.game);
    const hint = await api("GET", `/api/games/${state.game.id}/hint?level=${selectedLevel()}`);
    hint.position = asked;
    state.hint = hint;
    $("hint-text").textContent = hint.text;
    showMessage($("play-message"), "");
  } catch (error) {
    state.hint = null;
    $("hint-text").textContent = "";
    showMessage($("play-message"), `Helper: ${error.message}`, true);
  }
  renderPlay();
}

async function refreshOverlay() {
  if (!state.game) return;
  try {
    const overlay = await api("GET", `/api/games/${state.game.id}/probabilities`);
    state.overlay = overlay;
    let text = overlay.exact ? `exact, ${bigCount(overlay.layouts)} layouts` : `estimated, within about ±${overlay.error.toFixed(3)}`;
    if (overlay.best) {
      text += overlay.best.certain
        ? ` · ${overlay.safe.length} certainly safe`
        : ` · safest ${cellName(overlay.best.cell)} at ${(overlay.best.probability * 100).toFixed(1)}%`;
    }
    if (overlay.craps_shoots.length) text += ` · ${overlay.craps_shoots.length} craps shoot(s)`;
    $("overlay-text").textContent = text;
  } catch (error) {
    state.overlay = null;
    $("overlay-text").textContent = "";
    showMessage($("play-message"), `Overlay: ${error.message}`, true);
  }
  renderPlay();
}

// what a hint was computed for: it is shown until this changes (a move, an undo, a new game), not on a redraw
function positionKey(game) {
  return `${game.id}:${game.moves}:${game.view.join(",")}`;
}

async function refreshAids() {
  const game = state.game;
  const wantsOverlay = $("overlay-on").checked || $("overlay-numbers").checked;
  if (!game || game.over) {
    state.hint = null;
    state.overlay = null;
    $("hint-text").textContent = "";
    $("overlay-text").textContent = "";
    renderPlay();
    return;
  }
  const stale = state.hint && state.hint.position !== positionKey(game);
  if ($("hint-always").checked && (stale || !state.hint)) await requestHint();
  else if (stale) { state.hint = null; $("hint-text").textContent = ""; }
  if (wantsOverlay) await refreshOverlay();
  else state.overlay = null;
  renderPlay();
}

// ----- the auto-solver
function strategySpec() {
  const name = $("solver-strategy").value;
  const options = $("solver-options").value.trim().replace(/^\[|\]$/g, "");
  return options ? `${name}[${options}]` : name;
}

async function stepOnce() {
  const game = state.game;
  if (!game || game.over) return false;
  state.busy = true;
  try {
    const result = await api("POST", `/api/games/${game.id}/step`, { strategy: strategySpec() });
    const move = result.move;
    let text = `${strategySpec()}: ${move.kind} ${cellName(move.cell)}`;
    let kind = "";
    if (result.guess) {
      const g = result.guess;
      const safety = g.safety === null || g.safety === undefined ? "no estimate" : `safe with p = ${(g.safety * 100).toFixed(1)}%`;
      text += ` — guess (${g.kind}), ${safety}, ${g.outcome ? "survived" : "hit a mine"}`;
      kind = g.outcome ? "guess" : "lost";
    } else {
      text += " — certain";
    }
    logMove(text, kind, result.guess);
    showMessage($("play-message"), "");
    setGame(result.game);
    await refreshAids();
    return !result.game.over;
  } catch (error) {
    showMessage($("play-message"), error.message, true);
    return false;
  } finally {
    state.busy = false;
  }
}

async function solve() {
  if (state.solving) { stopSolving(); return; }
  state.solving = true;
  $("btn-solve").textContent = "Pause";
  $("btn-step").disabled = true;
  try {
    while (state.solving) {
      const more = await stepOnce();
      if (!more || !state.solving) break;
      const delay = Number($("solver-delay").value);
      if (delay > 0) await sleep(delay);
    }
  } finally {
    stopSolving();
  }
}

function stopSolving() {
  state.solving = false;
  $("btn-solve").textContent = "Solve";
  if (state.game) {
    $("btn-step").disabled = state.game.over;
    $("btn-solve").disabled = state.game.over;
  }
}

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

async function loadMbf(file) {
  const buffer = await file.arrayBuffer();
  let binary = "";
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  await newGame({ mbf: btoa(binary) });
}

// ---------------------------------------------------------------- Analyser
const analyser = { width: 8, height: 8, mines: 10, view: [], tool: COVERED, seq: 0, timer: null, result: null, bad: [] };
const anBoard = new BoardView($("an-grid"), onAnalyserCell);

function buildPalette() {
  const palette = $("an-palette");
  const tools = [[COVERED, "H", "hidden"], [FLAGGED, "F", "flag"]];
  for (let n = 0; n <= 8; n++) tools.push([n, String(n), `the number ${n}`]);
  for (const [value, label, about] of tools) {
    const button = document.createElement("button");
    button.setAttribute("role", "radio");
    button.dataset.value = value;
    button.title = `a click sets ${about}`;
    button.innerHTML = value > 0 ? `<span class="n${value}">${label}</span>` : label;
    button.addEventListener("click", () => selectTool(value));
    palette.appendChild(button);
  }
  selectTool(COVERED);
}

function selectTool(value) {
  analyser.tool = value;
  for (const button of $("an-palette").querySelectorAll("button")) {
    button.setAttribute("aria-checked", String(Number(button.dataset.value) === value));
  }
}

function setAnalyserPosition(width, height, mines, view) {
  analyser.width = width;
  analyser.height = height;
  analyser.mines = mines;
  analyser.view = view.slice();
  $("an-width").value = width;
  $("an-height").value = height;
  $("an-mines").value = mines;
  anBoard.resize(width, height);
  analyserChanged(true);
}

function positionText() {
  const { width, height, mines, view } = analyser;
  const rows = [];
  for (let y = 0; y < height; y++) {
    let row = "";
    for (let x = 0; x < width; x++) {
      const v = view[y * width + x];
      row += v === COVERED ? "H" : v === FLAGGED ? "F" : String(v);
    }
    rows.push(row);
  }
  return `${width}x${height}x${mines}\n${rows.join("\n")}\n`;
}

function analyserChanged(immediately) {
  const text = positionText();
  $("an-text").value = text;
  $("an-text").scrollTop = 0;
  $("an-download").href = `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;
  renderAnalyser();
  clearTimeout(analyser.timer);
  analyser.timer = setTimeout(analyse, immediately ? 0 : 120);
}

async function analyse() {
  const seq = ++analyser.seq;
  const body = { width: analyser.width, height: analyser.height, mines: analyser.mines, view: analyser.view };
  try {
    const result = await api("POST", "/api/analyze", body);
    if (seq !== analyser.seq) return;
    analyser.result = result;
    analyser.bad = [];
    showMessage($("an-message"), "");
  } catch (error) {
    if (seq !== analyser.seq) return;
    analyser.result = null;
    analyser.bad = error.body && error.body.cells ? error.body.cells : [];
    const prefix = error.body && error.body.inconsistent ? "Inconsistent: " : "";
    showMessage($("an-message"), prefix + error.message, true);
  }
  renderAnalyser();
}

function renderAnalyser() {
  const result = analyser.result;
  const extra = { marks: { "mk-bad": analyser.bad.slice(0, 1) }, numbers: $("an-numbers").checked };
  const box = $("an-result");
  if (result) {
    extra.probabilities = result.probabilities;
    extra.marks["mk-safe"] = result.safe;
    extra.marks["mk-mine"] = result.mines;
    extra.marks.craps = result.craps_shoots.flatMap((s) => s.cells);
    extra.marks["mk-guess"] = result.best && !result.best.certain ? [result.best.cell] : [];
    const lines = [];
    lines.push(result.exact ? `Exact: ${bigCount(result.layouts)} layouts fit the position.` : `Estimated (the position is too large to count in time): within about ±${result.error.toFixed(3)}.`);
    lines.push(`Mines left to place: ${result.mines_left} (${result.total_mines} minus flags).`);
    if (result.best) {
      lines.push(result.best.certain
        ? `<span class="best">Best move: reveal ${cellName(result.best.cell)}, certainly safe</span> (${result.safe.length} safe cells).`
        : `<span class="best">Best move: ${cellName(result.best.cell)}, a mine with probability ${(result.best.probability * 100).toFixed(2)}%</span>${result.best.ties > 1 ? ` (${result.best.ties} cells tie)` : ""}.`);
    }
    lines.push(`Certainly safe: ${result.safe.length} · certain mines: ${result.mines.length}.`);
    if (result.unconstrained.cells) lines.push(`${result.unconstrained.cells} cells no number touches, each ${(result.unconstrained.probability * 100).toFixed(2)}%.`);
    for (const shoot of result.craps_shoots) {
      lines.push(`Craps shoot over ${shoot.cells.length} cells: no other move can inform it; best ${cellName(shoot.best)}, safe with p = ${(shoot.safety * 100).toFixed(1)}%.`);
    }
    box.innerHTML = lines.map((l) => `<div>${l}</div>`).join("");
  } else {
    box.textContent = "";
  }
  anBoard.render(analyser.view, extra);
}

function onAnalyserCell(index, button) {
  const v = analyser.view[index];
  if (button === "right") analyser.view[index] = v === FLAGGED ? COVERED : FLAGGED;
  else analyser.view[index] = analyser.tool;
  if (analyser.view[index] !== v) analyserChanged(false);
}

function newEmptyPosition() {
  const width = Number($("an-width").value);
  const height = Number($("an-height").value);
  const mines = Number($("an-mines").value);
  const limits = state.meta.limits;
  if (!(width >= 1 && height >= 1 && mines >= 0) || width * height > limits.page_max_cells || width > limits.page_max_side || height > limits.page_max_side) {
    showMessage($("an-message"), `Width and height must be 1 to ${limits.page_max_side} with at most ${limits.page_max_cells} cells, and mines at least 0.`, true);
    return;
  }
  setAnalyserPosition(width, height, mines, new Array(width * height).fill(COVERED));
}

async function loadPositionText(text) {
  try {
    const grid = await api("POST", "/api/position/parse", { text });
    setAnalyserPosition(grid.width, grid.height, grid.mines, grid.view);
  } catch (error) {
    showMessage($("an-message"), error.message, true);
  }
}

async function openGameInAnalyser() {
  const game = state.game;
  if (!game) return;
  setAnalyserPosition(game.width, game.height, game.mines, game.view.map((v) => (v >= 0 || v === FLAGGED ? v : COVERED)));
  showView("analyse");
}

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

// ---------------------------------------------------------------- tabs and start-up
function showView(name) {
  for (const tab of document.querySelectorAll(".tab")) tab.setAttribute("aria-selected", String(tab.dataset.view === name));
  for (const view of document.querySelectorAll(".view")) view.hidden = view.id !== `view-${name}`;
}

function describeStrategy() {
  const strategy = state.meta.strategies.find((s) => s.name === $("solver-strategy").value);
  if (!strategy) return;
  const literal = (v) => (typeof v === "boolean" ? (v ? "True" : "False") : v);
  const options = Object.entries(strategy.options).map(([k, v]) => `${k}=${literal(v)}`).join(", ");
  $("solver-about").textContent = `${strategy.summary} [${strategy.source}]${options ? ` · options: ${options}` : ""}`;
}

function describeLevel() {
  $("level-about").textContent = state.meta.levels[selectedLevel()];
}

document.addEventListener("keydown", (event) => {
  if ($("view-analyse").hidden || event.target.closest("input, textarea, select")) return;
  const index = anBoard.hover;
  if (index === null) return;
  const key = event.key.toUpperCase();
  const value = key === "H" ? COVERED : key === "F" ? FLAGGED : /^[0-8]$/.test(key) ? Number(key) : null;
  if (value === null) return;
  event.preventDefault();
  if (analyser.view[index] !== value) {
    analyser.view[index] = value;
    analyserChanged(false);
  }
});

async function start() {
  try {
    state.meta = await api("GET", "/api/meta");
  } catch (error) {
    showMessage($("play-message"), error.message, true);
    return;
  }
  fillBoardSelect($("play-board"), $("play-custom"), "beginner");
  fillBoardSelect($("bench-board"), $("bench-custom"), "beginner");
  fillRuleSelect($("play-rule"));
  fillRuleSelect($("bench-rule"));
  for (const strategy of state.meta.strategies) {
    const option = new Option(strategy.name, strategy.name);
    option.title = strategy.summary;
    $("solver-strategy").add(option);
  }
  $("solver-strategy").value = state.meta.strategies.some((s) => s.name === "best") ? "best" : "exact";
  describeStrategy();
  describeLevel();
  buildPalette();
  buildBenchStrategies();

  for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => showView(tab.dataset.view));
  $("btn-new").addEventListener("click", newGameFromControls);
  $("btn-restart").addEventListener("click", restartGame);
  $("btn-undo").addEventListener("click", undoMove);
  $("zoom-in").addEventListener("click", () => zoomBoard(1));
  $("zoom-out").addEventListener("click", () => zoomBoard(-1));
  $("zoom-fit").addEventListener("click", () => zoomBoard(0));
  $("records-reset").addEventListener("click", resetRecords);
  document.addEventListener("keydown", playKeys);
  document.addEventListener("keyup", playKeysUp);
  let refit = null;
  window.addEventListener("resize", () => {
    cancelAnimationFrame(refit);
    refit = requestAnimationFrame(() => { playBoard.fit(); anBoard.fit(); showZoom(); });
  });
  showRecords();
  $("mbf-file").addEventListener("change", (event) => { if (event.target.files[0]) loadMbf(event.target.files[0]); event.target.value = ""; });
  $("btn-hint").addEventListener("click", requestHint);
  $("btn-hint-clear").addEventListener("click", () => { state.hint = null; $("hint-text").textContent = ""; $("hint-always").checked = false; renderPlay(); });
  $("hint-always").addEventListener("change", refreshAids);
  for (const radio of document.querySelectorAll('input[name="level"]')) {
    radio.addEventListener("change", () => { describeLevel(); if (state.hint || $("hint-always").checked) requestHint(); });
  }
  $("overlay-on").addEventListener("change", refreshAids);
  $("overlay-numbers").addEventListener("change", refreshAids);
  $("solver-strategy").addEventListener("change", describeStrategy);
  $("btn-step").addEventListener("click", () => { if (!state.busy) stepOnce(); });
  $("btn-solve").addEventListener("click", solve);
  $("solver-delay").addEventListener("input", () => { $("solver-delay-out").textContent = `${(Number($("solver-delay").value) / 1000).toFixed(2)} s`; });
  $("btn-to-analyser").addEventListener("click", openGameInAnalyser);

  $("an-new").addEventListener("click", newEmptyPosition);
  $("an-numbers").addEventListener("change", renderAnalyser);
  $("an-load-text").addEventListener("click", () => loadPositionText($("an-text").value));
  $("an-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (file) await loadPositionText(await file.text());
    event.target.value = "";
  });

  $("bench-run").addEventListener("click", startBench);
  $("bench-cancel").addEventListener("click", cancelBench);
  try { showBench(await api("GET", "/api/bench")); } catch (error) { /* shown when used */ }

  setAnalyserPosition(8, 8, 10, new Array(64).fill(COVERED));
  await newGameFromControls();
  showZoom();
  document.body.dataset.ready = "true";
}

start();
