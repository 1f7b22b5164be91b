// sweeplab's analyser: edit a position cell by cell or as text, and see the exact engine's analysis of it.
"use strict";

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
    lines.push(result.exact ? `Exact: ${bigCount(result.layouts)} layouts fit the position.`
      : result.error <= 1e-9 ? `Exact up to floating-point rounding: about ${bigCount(result.layouts)} layouts fit the position.`
      : `Estimated (the position is too large to count in time): within about ±${result.error.toFixed(3)}.`);
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
