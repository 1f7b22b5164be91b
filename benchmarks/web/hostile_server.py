"""A real `sweeplab serve` (under ``ulimit -n 1024``) attacked at once by slow sockets, made-up cookies, connections
looping a costly analysis and a huge body, while a browser that has played asks for level-3 hints: does its game
survive, how long do its hints take (median and slowest), what did the attackers get, and how much did the server log.

The attack's helpers are the tests' (``tests/web/hostile.py``); the test suite runs a smaller version of this
(``tests/web/test_hostile.py``). Timings are wall-clock seconds on whatever machine runs it.

  python benchmarks/web/hostile_server.py --out results/web/hostile.json
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.web.hostile import (  # noqa: E402
    Loops,
    SlowSockets,
    Victim,
    costly_position,
    forged_games,
    huge_body,
    hungry,
    rss_bytes,
)
from tests.web.servers import serving  # noqa: E402


def attack(slow: int, forged: int, hungry_count: int, megabytes: float, hints: int, files: int) -> dict:
    with tempfile.TemporaryFile("w+") as log, serving(files=files, output=log) as (process, url):
        victim = Victim(url)
        victim.hints(5)  # warm: the solver processes start on first use
        victim.times.clear()
        victim.statuses.clear()
        began = time.monotonic()
        sockets = SlowSockets(url, slow).start()
        loops = Loops()
        body = costly_position()
        for _ in range(hungry_count):
            loops.add(hungry, url, body)
        forging = Loops()
        forging.add(forged_games, url, forged)
        sockets.wait_open()
        big = huge_body(url, megabytes)
        victim.hints(hints)
        alive = victim.alive()
        rss = rss_bytes(process.pid)
        forging.stop.wait(0)
        for thread in forging.threads:
            thread.join(120)
        loops.end()
        sockets.stop()
        seconds = time.monotonic() - began
        log.seek(0)
        printed = log.read()
    return {
        "slow_sockets": slow,
        "slow_opened": sockets.opened,
        "slow_closed_by_server": sockets.closed_by_server,
        "slow_refused": sockets.refused,
        "forged_cookies": forged,
        "forged_statuses": {str(k): v for k, v in forging.statuses.items()},
        "hungry_connections": hungry_count,
        "hungry_statuses": {str(k): v for k, v in loops.statuses.items()},
        "hungry_503_with_retry_after": loops.retry_after[503],
        "huge_body_megabytes": megabytes,
        "huge_body": {"status": big[0], "seconds": round(big[1], 3)},
        "victim_game_status": alive,
        "victim_hints": len(victim.times),
        "victim_hint_statuses": {str(k): v for k, v in victim.statuses.items()},
        "victim_hint_median_ms": round(victim.median() * 1000, 1),
        "victim_hint_max_ms": round(max(victim.times) * 1000, 1),
        "server_rss_mib": round(rss / 2**20),
        "server_log_lines": len(printed.splitlines()),
        "server_log_bytes": len(printed),
        "server_tracebacks": printed.count("Traceback"),
        "ulimit_n": files,
        "seconds": round(seconds, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slow", type=int, default=1000, help="slow sockets")
    parser.add_argument("--forged", type=int, default=500, help="games under made-up cookies (100x100x1500)")
    parser.add_argument("--hungry", type=int, default=12, help="connections looping /api/analyze on a costly position")
    parser.add_argument("--megabytes", type=float, default=10, help="the huge body's size")
    parser.add_argument("--hints", type=int, default=60, help="the victim's timed hints")
    parser.add_argument("--files", type=int, default=1024, help="the server's ulimit -n")
    parser.add_argument("--out", type=Path, help="write the result here as JSON")
    args = parser.parse_args()
    result = attack(args.slow, args.forged, args.hungry, args.megabytes, args.hints, args.files)
    result["machine"] = f"{platform.machine()}, {platform.python_implementation()} {platform.python_version()}"
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
