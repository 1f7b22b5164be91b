"""How ``sweeplab serve`` runs uvicorn so that slow or many clients cannot take it down, and stops on a signal with the
exit status ``sweeplab --help`` states.

* A connection must send a whole request's headers within :data:`HEADER_SECONDS` of opening (or of its previous
  answer): a client that trickles a header line every few seconds is closed (the body then has
  :data:`~sweeplab.web.guards.BODY_SECONDS`, :class:`~sweeplab.web.guards.Guard`).
* Open connections are capped below the process's file-descriptor limit (:func:`connection_cap`); past the cap the
  oldest connection waiting without a request being answered is closed, first one that has sent part of a request,
  so a flood of slow sockets makes room for a new client rather than locking it out.
* When accepting fails for want of descriptors, asyncio pauses accepting for a second and calls the loop's
  exception handler, once per attempt; here that is one line per :data:`LOG_INTERVAL`, not a traceback each time.
* A SIGINT or SIGTERM shuts down (the solver processes at once, the benchmark runs, then the server) and the
  process exits 130 or 143, not by the signal (uvicorn raises the signal again once it has shut down).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
import signal
import socket
import time
from collections.abc import Callable, Generator
from typing import Any

from uvicorn import Config, Server
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 10.0  #: the longest a connection may take to send a request's headers
LOG_INTERVAL = 10.0  #: at most one line per this many seconds about refused or closed connections
MAX_CONNECTIONS = 4096  #: the most open connections whatever the descriptor limit
BACKLOG = 64  #: the listening socket's backlog, also how many connections asyncio accepts in one go
log = logging.getLogger("uvicorn.error")


def connection_cap(limit: int | None = None, backlog: int = BACKLOG) -> int:
    """Connections to hold at most: the descriptor limit (the soft ``RLIMIT_NOFILE`` when None) less what asyncio may
    accept in one go before any is counted (``backlog``) and an eighth, at least 64, for files, pipes to the solver
    and benchmark processes and the listening socket (1024 descriptors: 832 connections)."""
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0] if limit is None else limit
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(8, min(MAX_CONNECTIONS, soft - backlog - max(64, soft // 8)))


class Throttled:
    """Say something at most once per ``interval`` seconds, with how many times it was kept quiet in between."""

    def __init__(self, interval: float = LOG_INTERVAL, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = interval
        self.clock = clock
        self._last = -float("inf")
        self.quiet = 0
        self.said = 0

    def say(self, message: str) -> None:
        now = self.clock()
        if now - self._last < self.interval:
            self.quiet += 1
            return
        more = f" ({self.quiet} more since the last such line)" if self.quiet else ""
        self._last, self.quiet = now, 0
        self.said += 1
        log.warning("%s%s", message, more)


def guarded_protocol(max_connections: int, header_seconds: float = HEADER_SECONDS) -> type[H11Protocol]:
    """uvicorn's h11 protocol with a header deadline and a cap on open connections (see the module's docstring)."""
    partial: dict[Any, None] = {}  # connections that have sent part of a request, oldest first
    idle: dict[Any, None] = {}  # connections with nothing sent since they opened or were last answered
    shed = Throttled()

    class Guarded(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._wait()
            if len(self.connections) > max_connections:
                victim = next((c for c in (*partial, *idle) if c is not self), self)
                self._forget(victim)
                victim.transport.close()
                shed.say(
                    f"{len(self.connections)} open connections, past the cap of {max_connections} (below the file "
                    "descriptor limit): the oldest waiting connection was closed"
                )

        def _wait(self) -> None:
            """No request is being answered: one must arrive within the deadline."""
            partial.pop(self, None)
            idle[self] = None
            if self._deadline is None:
                self._deadline = self.loop.call_later(header_seconds, self._late)

        def _forget(self, connection: Any) -> None:
            partial.pop(connection, None)
            idle.pop(connection, None)
            if connection._deadline is not None:
                connection._deadline.cancel()
                connection._deadline = None

        def _late(self) -> None:
            self._deadline = None
            if self in partial or self in idle:
                self._forget(self)
                self.transport.close()

        def _answering(self) -> bool:
            return self.cycle is not None and not self.cycle.response_complete

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self._answering():
                self._forget(self)
            elif self in idle:
                del idle[self]
                partial[self] = None

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and not self._answering():
                self._wait()

        def connection_lost(self, exc: Exception | None) -> None:
            self._forget(self)
            super().connection_lost(exc)

    return Guarded


class Serving(Server):
    """uvicorn's server that logs a failed accept once per interval, and remembers the signal that stopped it instead
    of raising it again; ``on_signal`` runs on the first one (it ends the solver processes)."""

    def __init__(self, config: Config, on_signal: Callable[[], None] | None = None) -> None:
        super().__init__(config)
        self.on_signal = on_signal
        self.accept_failures = Throttled()
        self.stopped_by: int | None = None

    def handle_exit(self, sig: int, frame: Any) -> None:
        if self.stopped_by is None:
            self.stopped_by = sig
            if self.on_signal is not None:
                self.on_signal()
        super().handle_exit(sig, frame)

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        handlers = {sig: signal.signal(sig, self.handle_exit) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for sig, handler in handlers.items():
                signal.signal(sig, handler)

    def loop_exception(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """The event loop's exception handler: a failed accept is one line per interval, the rest as asyncio says."""
        if str(context.get("message", "")).startswith("socket.accept() out of system resource"):
            error = context.get("exception")
            self.accept_failures.say(
                f"cannot accept a connection: {getattr(error, 'strerror', None) or error}; new connections wait "
                "(the open ones are answered)"
            )
            return
        loop.default_exception_handler(context)

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        asyncio.get_running_loop().set_exception_handler(self.loop_exception)
        await super().serve(sockets)


def exit_status(sig: int | None) -> int:
    """The exit status for a server stopped by ``sig`` (None: it stopped on its own): 128 + the signal's number."""
    return 0 if sig is None else 128 + sig


__all__ = ["BACKLOG", "HEADER_SECONDS", "Serving", "Throttled", "connection_cap", "exit_status", "guarded_protocol"]
