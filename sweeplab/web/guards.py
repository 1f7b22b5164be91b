"""What the server checks before a request reaches the API: who the browser is (an id the server issued and signed),
where a state-changing request comes from (this server's own page only), and how large its body is.

* :class:`ClientIds`: a browser's id is random and signed with HMAC-SHA256 under a key drawn when the process
  starts; a cookie that does not verify (made up, altered, or from before a restart) names a new browser.
* :class:`Guard`, an ASGI middleware: a POST, PUT, PATCH or DELETE whose ``Origin`` (or, without one, ``Referer``)
  names another site is refused (403) before anything runs, so no other page the user visits can start or cancel
  anything here; a body longer than ``max_body`` is refused (413) before it is read whole or parsed, and one that
  does not arrive within ``body_seconds`` gets 408.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import re
import secrets
from urllib.parse import urlsplit

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY_BYTES = 256 * 1024  #: the longest request body (the largest the page sends, a 10,000-cell position, is ~40 KB)
BODY_SECONDS = 10.0  #: a request's body must have arrived this long after its headers
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")


class ClientIds:
    """Browser ids issued by this server: ``ID.MAC``, the MAC a truncated HMAC-SHA256 of the id under ``key`` (a
    fresh random one per process when None)."""

    def __init__(self, key: bytes | None = None) -> None:
        self._key = key if key is not None else secrets.token_bytes(32)

    def _mac(self, token: str) -> str:
        digest = hmac.new(self._key, token.encode("ascii"), hashlib.sha256).digest()[:18]
        return base64.urlsafe_b64encode(digest).decode("ascii")

    def issue(self) -> str:
        """A new browser's signed id (its cookie's value)."""
        token = secrets.token_urlsafe(16)
        return f"{token}.{self._mac(token)}"

    def verify(self, cookie: str) -> bool:
        """True for an id this server issued (with this process's key)."""
        token, dot, mac = cookie.partition(".")
        if not dot or len(cookie) > 120 or _ID.fullmatch(token) is None:
            return False
        return hmac.compare_digest(mac, self._mac(token))


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def foreign_origin(scope: Scope) -> str | None:
    """The other site a state-changing request comes from (its ``Origin``, or ``Referer`` when there is no
    ``Origin``), or None when it comes from this server's own page or names no site (a script, ``curl``)."""
    source = _header(scope, b"origin")
    if source is None:
        source = _header(scope, b"referer")
        if source is None:
            return None
    host = (_header(scope, b"host") or "").lower()
    parts = urlsplit(source.strip())
    if parts.scheme in ("http", "https") and parts.netloc.lower() == host and host:
        return None
    return source[:100]


class _TooLarge(Exception):
    pass


class Guard:
    """The ASGI middleware described in the module's docstring."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY_BYTES, body_seconds: float = BODY_SECONDS) -> None:
        self.app = app
        self.max_body = max_body
        self.body_seconds = body_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in STATE_CHANGING:
            await self.app(scope, receive, send)
            return
        other = foreign_origin(scope)
        if other is not None:
            detail = f"refused: a {scope['method']} request from another site ({other}); use this server's own page"
            await JSONResponse({"detail": detail}, status_code=403)(scope, receive, send)
            return
        length = _header(scope, b"content-length")
        too_large = JSONResponse(
            {"detail": f"the request body is larger than the server's limit of {self.max_body:,} bytes"},
            status_code=413,
            headers={"Connection": "close"},
        )
        if length is not None and (not length.strip().isdigit() or int(length) > self.max_body):
            if not length.strip().isdigit():
                await JSONResponse({"detail": "a malformed Content-Length header"}, status_code=400)(scope, receive, send)
            else:
                await too_large(scope, receive, send)
            return
        try:
            body = await asyncio.wait_for(self._read(receive), self.body_seconds)
        except _TooLarge:
            await too_large(scope, receive, send)
            return
        except TimeoutError:
            detail = f"the request body did not arrive within {self.body_seconds:g} s"
            await JSONResponse({"detail": detail}, status_code=408, headers={"Connection": "close"})(scope, receive, send)
            return
        if body is None:  # the client went away
            return
        await self.app(scope, _replay(body, receive), send)

    async def _read(self, receive: Receive) -> bytes | None:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                raise _TooLarge
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


__all__ = ["BODY_SECONDS", "MAX_BODY_BYTES", "ClientIds", "Guard", "foreign_origin"]
