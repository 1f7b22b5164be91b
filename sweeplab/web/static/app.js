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
  // the server's counts: every digit up to 30 digits, else scientific ("3.0236e+263")
  const digits = String(text);
  const scientific = digits.match(/^(\d)\.(\d+)e\+(\d+)$/);
  if (scientific) return `${scientific[1]}.${scientific[2].slice(0, 2)} × 10^${scientific[3]}`;
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
  renderTimer: null, // a board drawing put off while the auto-solver plays fast
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

// three digits as on the classic counter; the mine counter shows more when a board has more (1500), the timer stops at 999
function lcd(n, most = Infinity) {
  const sign = n < 0 ? "-" : "";
  return sign + String(Math.min(most, Math.abs(Math.floor(n)))).padStart(sign ? 2 : 3, "0");
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
  $("timer").textContent = lcd(game.elapsed, 999);
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
  if (game.deal) info += ` · ${game.deal}`;
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
  $("timer").textContent = lcd(state.tickBase + (performance.now() - state.tickAt) / 1000, 999);
}

// While the auto-solver plays with no delay the board is drawn at most every SOLVE_FRAME_MS: a big board's paint
// (ten thousand cells) takes longer than a server's step, and would otherwise set the pace. Stopping draws at once.
const SOLVE_FRAME_MS = 150;

function renderPlay() {
  if (state.solving && Number($("solver-delay").value) === 0) {
    if (!state.renderTimer) state.renderTimer = setTimeout(() => { state.renderTimer = null; drawPlay(); }, SOLVE_FRAME_MS);
    return;
  }
  drawPlay();
}

function drawPlay() {
  clearTimeout(state.renderTimer);
  state.renderTimer = null;
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
    let text = overlay.exact ? `exact, ${bigCount(overlay.layouts)} layouts`
      : overlay.error <= 1e-9 ? `exact up to floating-point rounding, about ${bigCount(overlay.layouts)} layouts`
      : `estimated, within about ±${overlay.error.toFixed(3)}`;
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
  const drawing = state.solving;
  state.solving = false;
  if (drawing) drawPlay(); // the last position, drawn now
  $("btn-solve").textContent = "Solve";
  if (state.game) {
    $("btn-step").disabled = state.game.over;
    $("btn-solve").disabled = state.game.over;
  }
}

async function loadMbf(file) {
  const buffer = await file.arrayBuffer();
  let binary = "";
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  await newGame({ mbf: btoa(binary) });
}


// ---------------------------------------------------------------- tabs and start-up
function showView(name) {
  for (const tab of document.querySelectorAll(".tab")) tab.setAttribute("aria-selected", String(tab.dataset.view === name));
  for (const view of document.querySelectorAll(".view")) view.hidden = view.id !== `view-${name}`;
}

function describeStrategy() {
  const strategy = state.meta.strategies.find((s) => s.name === $("solver-strategy").value);
  if (!strategy) return;
  // a short description; the options and their defaults on hover (best has seventeen: too many to print to players)
  const literal = (v) => (typeof v === "boolean" ? (v ? "True" : "False") : v);
  const options = Object.entries(strategy.options).map(([k, v]) => `${k}=${literal(v)}`);
  const about = $("solver-about");
  about.textContent = strategy.summary;
  about.title = `${strategy.name}: ${strategy.summary} [${strategy.source}]` + (options.length ? `\noptions: ${options.join(", ")}` : "");
  const hint = $("solver-options");
  hint.placeholder = options.length ? `options, e.g. ${options[0]}` : "no options";
  hint.title = options.length ? `key=value,... : ${options.join(", ")}` : `${strategy.name} takes no options`;
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

// every script of the page has run by then (index.html loads app.js first, the panels after it)
document.addEventListener("DOMContentLoaded", start);
