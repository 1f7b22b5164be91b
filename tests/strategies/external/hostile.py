"""A program that plays the first game of each copy as the Python reference client does, then misbehaves in the way
its argument names: the hostile players of the arena's tests.

  exit     exits at once when its second game starts
  crash    exits in the middle of its second game (after its first answer)
  hang     never answers again
  garbage  answers with a line that is not JSON
  flood    writes without end (no newline) instead of answering
  lines    answers, then writes more lines without being asked
  illegal  reveals a revealed cell
  stderr   writes lines to stderr, then answers as it should (no misbehaviour: its stderr is kept)
  burn     spends 20 ms of CPU before each answer, then answers as it should (no misbehaviour: its CPU is counted)
  never    fails in its first game: exits before answering, after a line on stderr
"""

import json
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "examples" / "python"))
from client import answer, neighbour_table

BURN = 0.02  #: CPU seconds the burn mode spends before each answer


def main() -> None:
    mode = sys.argv[1]
    width = mines = games = 0
    neighbours: list = []
    answered = 0
    out = sys.stdout
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "game":
            games += 1
            width, mines = message["width"], message["mines"]
            neighbours = neighbour_table(width, message["height"])
            if mode == "exit" and games > 1:
                sys.exit(3)
            continue
        cells = "".join(message["position"].split("\n")[1:]).encode()
        numbers = [cell for cell, letter in enumerate(cells) if 48 < letter <= 56]  # every revealed 1-8, row-major
        reply = answer(cells, numbers, width, mines, neighbours)[0]
        answered += 1
        if mode == "burn":
            began = time.process_time()
            while time.process_time() - began < BURN:
                pass
        if mode == "never":
            print("never: giving up before the first answer", file=sys.stderr, flush=True)
            sys.exit(1)
        if mode == "stderr":
            print(f"stderr: turn {message['moves']}", file=sys.stderr, flush=True)
        if games > 1:
            if mode == "crash" and answered > 1:
                print("crash: going down mid-game", file=sys.stderr, flush=True)
                sys.exit(1)
            if mode == "hang":
                time.sleep(3600)
            if mode == "garbage":
                out.write("this is not json\n")
                out.flush()
                continue
            if mode == "flood":
                chunk = "x" * 65536
                while True:
                    out.write(chunk)
            if mode == "illegal" and any(ch not in b"HF" for ch in cells):
                x, y = next((i % width, i // width) for i, ch in enumerate(cells) if ch not in b"HF")
                reply = {"moves": [["reveal", x, y]]}
            if mode == "lines":
                out.write(json.dumps(reply) + "\n")
        out.write(json.dumps(reply) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
