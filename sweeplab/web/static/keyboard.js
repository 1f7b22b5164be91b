// Play by keyboard, as minesweeper.online and Arbiter players expect: the arrow keys move a cursor on the board,
// Space flags a covered cell (unflags a flag) or chords a number, Enter reveals (or chords), Ctrl+Z undoes the last
// move, + and - zoom the board and = fits it to the window again. Space and Enter act on the cursor's cell, which
// is also the cell the mouse last pointed at. Keys typed into a text field are left alone.
"use strict";

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
let spaceTaken = false; // a Space the board used: its keyup must not also press a focused button

function typing(target) {
  const field = target.closest && target.closest("input, textarea, select");
  return Boolean(field) && !(field.type === "checkbox");
}

function playKeys(event) {
  if ($("view-play").hidden || typing(event.target)) return;
  const key = event.key;
  if ((event.ctrlKey || event.metaKey) && !event.altKey && key.toLowerCase() === "z") {
    event.preventDefault();
    undoMove();
    return;
  }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (key === "+" || key === "-" || key === "=") {
    event.preventDefault();
    zoomBoard(key === "+" ? 1 : key === "-" ? -1 : 0);
    return;
  }
  if (key in ARROWS) {
    event.preventDefault();
    const step = event.shiftKey ? 5 : 1;
    playBoard.moveCursor(ARROWS[key][0] * step, ARROWS[key][1] * step);
    return;
  }
  if (key !== " " && key !== "Enter") return;
  if (!state.game || !playBoard.width) return;
  event.preventDefault(); // else Space scrolls the page, or presses the button last clicked
  if (key === " ") spaceTaken = true;
  if (document.activeElement && document.activeElement.tagName === "BUTTON") document.activeElement.blur();
  if (playBoard.cursor === null) {
    playBoard.moveCursor(0, 0); // nothing pointed at yet: show the cursor first
    return;
  }
  const index = playBoard.cursor;
  const v = state.game.view[index];
  if (key === "Enter") onPlayCell(index, "reveal");
  else onPlayCell(index, v >= 0 ? "reveal" : "right");
}

function playKeysUp(event) {
  if (event.key === " " && spaceTaken) {
    spaceTaken = false;
    event.preventDefault();
  }
}

// steps: +1 zooms in, -1 out, 0 back to the size that fits the window
function zoomBoard(steps) {
  playBoard.zoomBy(steps);
  showZoom();
}

function showZoom() {
  const size = playBoard.cellSize;
  $("zoom-level").textContent = size ? `${size} px` : "";
  $("zoom-fit").disabled = playBoard.zoom === 0;
}
