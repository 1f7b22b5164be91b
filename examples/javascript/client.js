#!/usr/bin/env node
// A complete small Minesweeper player for sweeplab's arena, in JavaScript for Node (no packages).
//
// Run it through the harness:  sweeplab bench -s 'cmd:node examples/javascript/client.js' -b beginner -n 300
// It reads one JSON object per line on stdin and answers every "turn" with one line on stdout (docs/arena.md).
// Its rules, the same as sweeplab's built-in `reference` player: for every revealed number (row-major order) with
// f flagged and u covered neighbours, all u are safe when f equals the number and all mines when f + u does; reveal
// the safe cells, then flag the mines, in the order found. With nothing certain, reveal the covered cell of lowest
// local probability: the largest (number - f) / u over its revealed neighbours, or (mines - flags) / covered for a
// cell next to no number; ties go to the first cell in row-major order.
"use strict";

const readline = require("readline");

const tables = new Map(); // each board size's table, worked out once

function neighbourTable(width, height) {
  const key = `${width}x${height}`;
  if (tables.has(key)) return tables.get(key);
  const table = [];
  for (let cell = 0; cell < width * height; cell++) {
    const x = cell % width, y = Math.floor(cell / width), around = [];
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        if ((dx || dy) && x + dx >= 0 && x + dx < width && y + dy >= 0 && y + dy < height) {
          around.push((y + dy) * width + x + dx);
        }
      }
    }
    table.push(around);
  }
  tables.set(key, table);
  return table;
}

// cells: one character per cell, row-major ("H" covered, "F" flag, "0"-"8" a number)
function answer(cells, width, mines, neighbours) {
  const safe = new Set(), found = new Set();
  const number = (ch) => ch >= "0" && ch <= "8";
  for (let cell = 0; cell < cells.length; cell++) {
    const ch = cells[cell];
    if (!number(ch) || ch === "0") continue;
    const around = neighbours[cell];
    const unknown = around.filter((n) => cells[n] === "H");
    if (unknown.length === 0) continue;
    const flags = around.filter((n) => cells[n] === "F").length;
    const value = ch.charCodeAt(0) - 48;
    if (flags === value) unknown.forEach((n) => safe.add(n));
    else if (flags + unknown.length === value) unknown.forEach((n) => found.add(n));
  }
  if (safe.size || found.size) {
    const moves = [...safe].map((c) => ["reveal", c % width, Math.floor(c / width)]);
    for (const c of found) if (!safe.has(c)) moves.push(["flag", c % width, Math.floor(c / width)]);
    return { moves };
  }
  let covered = 0, flagged = 0;
  for (const ch of cells) {
    if (ch === "H") covered++;
    else if (ch === "F") flagged++;
  }
  const density = (mines - flagged) / covered;
  const local = new Float64Array(cells.length).fill(-1);
  for (let cell = 0; cell < cells.length; cell++) {
    if (!number(cells[cell])) continue;
    const around = neighbours[cell];
    const unknown = around.filter((n) => cells[n] === "H");
    if (unknown.length === 0) continue;
    const flags = around.filter((n) => cells[n] === "F").length;
    const p = (cells.charCodeAt(cell) - 48 - flags) / unknown.length;
    for (const n of unknown) if (p > local[n]) local[n] = p;
  }
  let best = -1, bestP = 2;
  for (let cell = 0; cell < cells.length; cell++) {
    if (cells[cell] !== "H") continue;
    const p = local[cell] < 0 ? density : local[cell];
    if (p < bestP) { best = cell; bestP = p; }
  }
  const x = best % width, y = Math.floor(best / width);
  return { moves: [["reveal", x, y]], probabilities: [[x, y, bestP]], reason: "lowest local probability" };
}

let width = 0, mines = 0, neighbours = [];
const input = readline.createInterface({ input: process.stdin, terminal: false });
input.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "game") {
    width = message.width;
    mines = message.mines;
    neighbours = neighbourTable(width, message.height);
  } else if (message.type === "turn") {
    const cells = message.position.split("\n").slice(1).join("");
    process.stdout.write(JSON.stringify(answer(cells, width, mines, neighbours)) + "\n");
  }
});
