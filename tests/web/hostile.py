"""Hostile clients of a real `sweeplab serve`, for the tests and for ``benchmarks/web/hostile_server.py``: slow sockets
that trickle a header line now and then, made-up cookies, connections looping a costly analysis, a huge body, and a
browser that has played whose hints are timed meanwhile."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import statistics
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from sweeplab.core.game import Game
from sweeplab.core.rules import Rules

COOKIE = "sweeplab_client"


def address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    assert parts.hostname is not None and parts.port is not None
    return parts.hostname, parts.port


def request(
    url: str, method: str, path: str, body: object = None, cookie: str = "", timeout: float = 30
) -> tuple[int, dict, dict]:
    """One request on a new connection: (status, JSON answer, headers)."""
    host, port = address(url)
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else {}
        data = None
        if body is not None:
            data = json.dumps(body)
            headers["Content-Type"] = "application/json"
        conn.request(method, path, data, headers)
        response = conn.getresponse()
        text = response.read()
        try:
            answer = json.loads(text) if text else {}
        except ValueError:
            answer = {"text": text.decode("latin-1")}
        return response.status, answer, {k.lower(): v for k, v in response.getheaders()}
    finally:
        conn.close()


def rss_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for row in status:
            if row.startswith("VmRSS:"):
                return int(row.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def issued_cookie(url: str) -> str:
    """The signed id the server gives a new browser."""
    _, _, headers = request(url, "GET", "/api/meta")
    return headers["set-cookie"].split(";")[0].split("=", 1)[1]


def costly_position() -> dict:
    """A 100x100 position with 2,500 mines, every other cell's number shown (a checkerboard): the exact engine runs
    out of the web budget (2 s) and estimates."""
    rules = Rules(100, 100, 2500, "unsafe")
    game = Game(rules, 777)
    mines = game.mine_cells()
    view = [game.number(c) if c not in mines and (c % 100 + c // 100) % 2 == 0 else -1 for c in range(10_000)]
    return {"width": 100, "height": 100, "mines": 2500, "view": view}


class SlowSockets:
    """``count`` sockets that each send the start of a request and then one more header line every ``every``
    seconds, never finishing; a socket the server closes is opened again (as an attacker would)."""

    def __init__(self, url: str, count: int, every: float = 4.0) -> None:
        self.host, self.port = address(url)
        self.count = count
        self.every = every
        self.sockets: list[socket.socket | None] = [None] * count
        self.opened = 0
        self.closed_by_server = 0
        self.refused = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _open(self, index: int) -> None:
        sock = socket.socket()
        sock.settimeout(2)
        try:
            sock.connect((self.host, self.port))
            sock.sendall(f"GET /api/meta HTTP/1.1\r\nHost: {self.host}\r\n".encode())
            sock.setblocking(False)
            self.sockets[index] = sock
            self.opened += 1
        except OSError:
            self.refused += 1
            sock.close()

    def _run(self) -> None:
        for index in range(self.count):
            if self._stop.is_set():
                return
            self._open(index)
        while not self._stop.wait(self.every):
            for index, sock in enumerate(self.sockets):
                if self._stop.is_set():
                    return
                alive = sock is not None
                if sock is not None:
                    try:
                        if sock.recv(1024) == b"":
                            alive = False
                    except BlockingIOError:
                        pass
                    except OSError:
                        alive = False
                if alive and sock is not None:
                    try:
                        sock.send(b"X-Slow: 1\r\n")
                    except OSError:
                        alive = False
                if not alive:
                    if sock is not None:
                        sock.close()
                        self.closed_by_server += 1
                    self._open(index)

    def start(self) -> SlowSockets:
        self._thread.start()
        return self

    def wait_open(self, seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while self.opened + self.refused < self.count and time.monotonic() < deadline:
            time.sleep(0.05)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)
        for sock in self.sockets:
            if sock is not None:
                sock.close()


@dataclass
class Loops:
    """Threads each repeating a request until stopped, counting the statuses."""

    statuses: Counter = field(default_factory=Counter)
    retry_after: Counter = field(default_factory=Counter)
    stop: threading.Event = field(default_factory=threading.Event)
    threads: list[threading.Thread] = field(default_factory=list)

    def add(self, target, *args) -> None:
        thread = threading.Thread(target=target, args=(self, *args), daemon=True)
        self.threads.append(thread)
        thread.start()

    def end(self, wait: float = 40) -> None:
        """Stop the loops; wait up to ``wait`` seconds for each (a request in flight may wait in the server's queue)."""
        self.stop.set()
        for thread in self.threads:
            thread.join(wait)


def hungry(loops: Loops, url: str, body: dict) -> None:
    """POST /api/analyze of a costly position, again and again, on one kept-alive connection, with no cookie."""
    host, port = address(url)
    data = json.dumps(body)
    conn = http.client.HTTPConnection(host, port, timeout=30)
    while not loops.stop.is_set():
        try:
            conn.request("POST", "/api/analyze", data, {"Content-Type": "application/json"})
            response = conn.getresponse()
            response.read()
            loops.statuses[response.status] += 1
            if response.status == 503 and response.getheader("Retry-After"):
                loops.retry_after[response.status] += 1
        except OSError:
            loops.statuses["error"] += 1
            conn.close()
            conn = http.client.HTTPConnection(host, port, timeout=30)
            time.sleep(0.05)
    conn.close()


def forged_games(loops: Loops, url: str, count: int, board: str = "100x100x1500") -> None:
    """``count`` new games, each under a made-up cookie (a valid-looking id the server never issued)."""
    for n in range(count):
        if loops.stop.is_set():
            return
        try:
            status, _, _ = request(url, "POST", "/api/games", {"board": board, "seed": n}, cookie=f"{'F' * 20}{n:06d}")
            loops.statuses[status] += 1
        except OSError:
            loops.statuses["error"] += 1


def huge_body(url: str, megabytes: float = 10) -> tuple[int, float]:
    """A JSON body of ``megabytes`` with unknown keys, sent whole (the server may answer before it is all sent):
    (status, seconds)."""
    keys = int(megabytes * 2**20 / 20)
    body = ("{" + ",".join(f'"k{n:012d}":{n % 10}' for n in range(keys)) + "}").encode()
    host, port = address(url)
    began = time.perf_counter()
    sock = socket.create_connection((host, port), timeout=30)
    try:
        head = (
            f"POST /api/games HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        )
        sock.sendall(head.encode())
        with contextlib.suppress(OSError):  # the server may refuse and close before reading it all
            sock.sendall(body)
        answer = b""
        while b"\r\n" not in answer:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
        status = int(answer.split(b" ")[1]) if answer.startswith(b"HTTP/1.1 ") else 0
    finally:
        sock.close()
    return status, time.perf_counter() - began


class Victim:
    """A browser that has played: a game on expert with a first move, then timed level-3 hints."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.cookie = issued_cookie(url)
        status, game, _ = request(url, "POST", "/api/games", {"board": "expert", "rule": "safe", "seed": 5}, self.cookie)
        assert status == 201, game
        self.game = game["id"]
        status, moved, _ = request(url, "POST", f"/api/games/{self.game}/move", {"kind": "reveal", "x": 10, "y": 8}, self.cookie)
        assert status == 200, moved
        self.times: list[float] = []
        self.statuses: Counter = Counter()

    def hints(self, count: int, pause: float = 0.05) -> None:
        for _ in range(count):
            began = time.perf_counter()
            status, _, _ = request(self.url, "GET", f"/api/games/{self.game}/hint?level=3", cookie=self.cookie)
            self.times.append(time.perf_counter() - began)
            self.statuses[status] += 1
            time.sleep(pause)

    def median(self) -> float:
        return statistics.median(self.times)

    def alive(self) -> int:
        return request(self.url, "GET", f"/api/games/{self.game}", cookie=self.cookie)[0]
