#!/usr/bin/env python3
"""A complete small Minesweeper player for sweeplab's arena, in plain Python (no sweeplab import).

Run it through the harness:  sweeplab bench -s 'cmd:python3 examples/python/client.py' -b beginner -n 300
It reads one JSON object per line on stdin and answers every "turn" with one line on stdout (docs/arena.md).
Its rules, the same as sweeplab's built-in `reference` player: for every revealed number (row-major order) with f
flagged and u covered neighbours, all u are safe when f equals the number and all mines when f + u does; reveal the
safe cells, then flag the mines, in the order found. With nothing certain, reveal the covered cell of lowest local
probability: the largest (number - f) / u over its revealed neighbours, or (mines - flags) / covered for a cell
next to no number; ties go to the first cell in row-major order. It looks only at the numbers that still have
covered neighbours (a number loses them for good: this player never unflags), learning the new ones from each
turn's "revealed" list.
"""

import functools
import json
import sys


@functools.lru_cache(maxsize=16)
def neighbour_table(width, height):
    """Each cell's neighbours (cells are numbered row-major, y * width + x), worked out once per board size."""
    table = []
    for cell in range(width * height):
        x, y = cell % width, cell // width
        table.append(
            [
                (y + dy) * width + x + dx
                for dy in (-1, 0, 1)
                for dx in (-1, 0, 1)
                if (dx or dy) and 0 <= x + dx < width and 0 <= y + dy < height
            ]
        )
    return table


# the position's letters as bytes (indexing bytes gives ints, which compare fast): H covered, F flag, 0-8 a number
COVERED, FLAG, ZERO = b"HF0"


def answer(cells, numbers, width, mines, neighbours):
    """The moves for a position given as bytes, one letter per cell (row-major: H covered, F flag, 0-8 a number),
    and the numbers still worth a look: ``numbers`` lists (row-major) every revealed 1-8 that may have covered
    neighbours; the ones that have none are left out of the list returned (they never get any back).
    Returns (the answer, that list)."""
    safe, found, kept = {}, {}, []
    for cell in numbers:
        around = neighbours[cell]
        unknown = [n for n in around if cells[n] == COVERED]
        if not unknown:
            continue
        kept.append(cell)
        value = cells[cell] - ZERO
        flags = sum(1 for n in around if cells[n] == FLAG)
        if flags == value:
            safe.update(dict.fromkeys(unknown))
        elif flags + len(unknown) == value:
            found.update(dict.fromkeys(unknown))
    if safe or found:
        moves = [["reveal", c % width, c // width] for c in safe]
        moves += [["flag", c % width, c // width] for c in found if c not in safe]
        return {"moves": moves}, kept
    covered = cells.count(COVERED)
    density = (mines - cells.count(FLAG)) / covered
    local = {c: -1.0 for c, ch in enumerate(cells) if ch == COVERED}
    for cell in kept:
        around = neighbours[cell]
        unknown = [n for n in around if cells[n] == COVERED]
        p = (cells[cell] - ZERO - sum(1 for n in around if cells[n] == FLAG)) / len(unknown)
        for n in unknown:
            if p > local[n]:
                local[n] = p
    best, best_p = -1, 2.0
    for cell, p in local.items():
        if p < 0:
            p = density
        if p < best_p:
            best, best_p = cell, p
    x, y = best % width, best // width
    return {"moves": [["reveal", x, y]], "probabilities": [[x, y, best_p]], "reason": "lowest local probability"}, kept


def main():
    width = mines = 0
    neighbours, numbers = [], []
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:  # bytes: json reads them as they are, with no text layer between
        message = json.loads(line)
        if message["type"] == "game":
            width, mines = message["width"], message["mines"]
            neighbours = neighbour_table(width, message["height"])
            numbers = []
        elif message["type"] == "turn":
            position = message["position"]  # the "WxHxM" line, then one line per row
            cells = position[position.index("\n") + 1 :].replace("\n", "").encode()
            fresh = [y * width + x for x, y, number in message["revealed"] if number]  # the numbers revealed since
            if fresh:
                numbers = sorted(numbers + fresh)
            reply, numbers = answer(cells, numbers, width, mines, neighbours)
            out.write(json.dumps(reply).encode() + b"\n")
            out.flush()


if __name__ == "__main__":
    main()
