// sweeplab's board, shared by Play and the analyser: drawing, the pressed look, the keyboard cursor and the zoom.
"use strict";

const MIN_CELL = 6; // px: a 200-wide board still fits a 1280-px window; + zooms in from there
const MIN_TOUCH_CELL = 22; // px: on a narrow screen (a phone) cells stay this large and the board scrolls in its frame
const NARROW = 700; // px: a window narrower than this is a phone's
const MAX_CELL = 26; // px: the size a small board is drawn at (the fit never goes above it; the zoom may)
const ZOOM_STEP = 1.25;

class BoardView {
  // onCell(index, button, event): button "left" | "right". pressable(index): the cells a left button held on
  // `index` shows pressed (the cell itself, or a number's covered neighbours when it would chord); given, the board
  // is a game's: the keyboard cursor also follows the mouse (Space then acts on the cell pointed at, as on
  // minesweeper.online), its outline shown only while the keyboard moves it.
  constructor(element, onCell, pressable = null) {
    this.element = element;
    this.onCell = onCell;
    this.pressable = pressable;
    this.width = 0;
    this.height = 0;
    this.cells = [];
    this.drawn = []; // what each cell shows now ("class|title|inner"): a redraw touches only the cells that change
    this.hover = null;
    this.cursor = null; // the keyboard cursor's cell
    this.cursorShown = false; // drawn once the keyboard has been used
    this.zoom = 0; // steps of ZOOM_STEP above (+) or below (-) the size that fits the window
    this.pressed = [];
    this.holding = false;
    this.pointer = "";
    element.addEventListener("contextmenu", (event) => event.preventDefault());
    element.addEventListener("mousedown", (event) => {
      if (event.button !== 0 || !this.pressable) return;
      this.holding = true;
      this.press(this.cellAt(event));
    });
    element.addEventListener("mouseup", (event) => {
      const index = this.cellAt(event);
      this.holding = false;
      this.press(null);
      if (index === null) return;
      this.cursor = index;
      if (event.button === 0) this.onCell(index, "left", event);
      else if (event.button === 2) this.onCell(index, "right", event);
    });
    element.addEventListener("mouseover", (event) => {
      this.hover = this.cellAt(event);
      if (this.holding) this.press(event.buttons & 1 ? this.hover : null);
    });
    element.addEventListener("mousemove", (event) => {
      // Chrome sends a mousemove when the page scrolls under a still pointer: only a real move takes the cursor
      const at = `${event.screenX},${event.screenY}`;
      if (!this.pressable || at === this.pointer || this.hover === null) return;
      this.pointer = at;
      this.cursor = this.hover;
      if (this.cursorShown) {
        this.cursorShown = false;
        for (const div of this.element.querySelectorAll(".c.cursor")) div.classList.remove("cursor");
      }
    });
    element.addEventListener("mouseleave", () => { this.hover = null; this.press(null); });
    document.addEventListener("mouseup", () => { this.holding = false; this.press(null); });
  }

  cellAt(event) {
    const cell = event.target.closest(".c");
    return cell && this.element.contains(cell) ? Number(cell.dataset.i) : null;
  }

  // the pressed look: the cells under a held button sink (the classic game's feedback before a reveal or chord)
  press(index) {
    for (const i of this.pressed) if (this.cells[i]) this.cells[i].classList.remove("pressed");
    this.pressed = index === null ? [] : this.pressable(index);
    for (const i of this.pressed) this.cells[i].classList.add("pressed");
  }

  resize(width, height) {
    if (width === this.width && height === this.height) return;
    this.width = width;
    this.height = height;
    this.cursor = null;
    this.element.style.setProperty("--w", width);
    this.fit();
    const fragment = document.createDocumentFragment();
    this.cells = [];
    this.drawn = [];
    for (let i = 0; i < width * height; i++) {
      const div = document.createElement("div");
      div.dataset.i = i;
      div.dataset.x = i % width;
      div.dataset.y = Math.floor(i / width);
      fragment.appendChild(div);
      this.cells.push(div);
    }
    this.element.replaceChildren(fragment);
  }

  // The cell size: the board fills the width the page gives it (the main column less the frame), at most MAX_CELL
  // and at least MIN_CELL (MIN_TOUCH_CELL on a phone), times the user's zoom. A board wider than the window scrolls
  // inside its frame; the page itself never scrolls sideways.
  smallest() {
    return window.innerWidth < NARROW ? MIN_TOUCH_CELL : MIN_CELL;
  }

  fitted() {
    const main = document.querySelector("main");
    const style = getComputedStyle(main);
    const room = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 30;
    return Math.max(this.smallest(), Math.min(MAX_CELL, Math.floor(room / Math.max(1, this.width))));
  }

  fit() {
    if (!this.width) return;
    const size = Math.max(this.smallest(), Math.min(64, Math.round(this.fitted() * ZOOM_STEP ** this.zoom)));
    this.cellSize = size;
    this.element.style.setProperty("--cell", `${size}px`);
    // the board's own size, set: with it the board is a layout boundary (a change of text beside it does not lay out
    // its ten thousand cells again)
    this.element.style.width = `${this.width * size + 6}px`;
    this.element.style.height = `${this.height * size + 6}px`;
    this.element.classList.toggle("tiny", size < 12);
  }

  zoomBy(steps) {
    this.zoom = steps === 0 ? 0 : Math.max(-4, Math.min(8, this.zoom + steps));
    this.fit();
  }

  moveCursor(dx, dy) {
    if (!this.width) return;
    if (this.cursor === null) {
      this.cursor = this.hover !== null ? this.hover : Math.floor(this.height / 2) * this.width + Math.floor(this.width / 2);
    } else if (this.cursorShown) {
      const x = Math.max(0, Math.min(this.width - 1, (this.cursor % this.width) + dx));
      const y = Math.max(0, Math.min(this.height - 1, Math.floor(this.cursor / this.width) + dy));
      this.cursor = y * this.width + x;
    }
    this.showCursor();
  }

  showCursor() {
    this.cursorShown = true;
    for (const div of this.element.querySelectorAll(".c.cursor")) div.classList.remove("cursor");
    const div = this.cells[this.cursor];
    if (!div) return;
    div.classList.add("cursor");
    div.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  // view: per cell -1/-2/0..8; extra: {layout, exploded, wrong, probabilities, numbers, marks, values, hintCell}
  render(view, extra = {}) {
    const w = this.width;
    const index = (xy) => xy[1] * w + xy[0];
    const mines = new Set((extra.layout || []).map(index));
    const flagged = new Set((extra.flagged || []).map(index));
    const wrong = new Set((extra.wrong || []).map(index));
    const exploded = extra.exploded ? index(extra.exploded) : -1;
    const marks = new Map();
    for (const [name, list] of Object.entries(extra.marks || {})) {
      for (const xy of list) {
        const i = index(xy);
        marks.set(i, (marks.get(i) || []).concat(name));
      }
    }
    const values = new Map((extra.values || []).map((v) => [index(v.cell), v.p]));
    const probabilities = extra.probabilities || null;
    for (let i = 0; i < view.length; i++) {
      const v = view[i];
      const div = this.cells[i];
      const classes = ["c"];
      let text = "";
      let title = `(${i % w}, ${Math.floor(i / w)})`;
      let p = null;
      if (v >= 0) {
        classes.push("open");
        if (v > 0) { classes.push(`n${v}`); text = String(v); }
      } else if (i === exploded) {
        classes.push("mine", "exploded");
      } else if (v === FLAGGED || flagged.has(i)) {
        classes.push(wrong.has(i) ? "wrong" : "flag");
        if (wrong.has(i)) classes.push("open");
      } else if (mines.has(i)) {
        classes.push("mine");
      } else {
        classes.push("covered");
      }
      let inner = text;
      if (v === COVERED && !mines.has(i) && i !== exploded) {
        if (probabilities && probabilities[i] !== null && probabilities[i] !== undefined) {
          p = probabilities[i];
          classes.push("ov");
          if (p === 0) classes.push("p0");
          else if (p === 1) classes.push("p1");
          title += ` mine probability ${(p * 100).toFixed(2)}%`;
          if (extra.numbers) inner = `<span class="pct">${pct(p)}</span>`;
        } else if (values.has(i)) {
          const value = values.get(i);
          title += extra.valueClass ? ` level 2 value ${(value * 100).toFixed(1)}%` : ` mine probability ${(value * 100).toFixed(2)}%`;
          inner = `<span class="pct ${extra.valueClass || ""}">${pct(value)}</span>`;
        }
      }
      for (const name of marks.get(i) || []) classes.push(name);
      if (extra.hintCell && index(extra.hintCell) === i) classes.push("revealed-hint");
      if (this.cursorShown && i === this.cursor) classes.push("cursor");
      if (this.pressed.includes(i)) classes.push("pressed");
      const className = classes.join(" ");
      const drawn = `${className}|${title}|${p}|${inner}`;
      if (this.drawn[i] === drawn) continue; // unchanged: no DOM write, no style recalculation
      this.drawn[i] = drawn;
      div.className = className;
      div.title = title;
      if (p === null) div.style.removeProperty("--p");
      else div.style.setProperty("--p", p);
      if (div.innerHTML !== inner) div.innerHTML = inner;
    }
  }
}

