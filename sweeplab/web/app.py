"""The FastAPI application: the JSON API over games, analysis, the helper and benchmarks, and the static page; each
refusal is a 4xx whose ``detail`` is one sentence naming the field, cell or number and the reason (see :func:`create_app`)."""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

import anyio.to_thread
from fastapi import FastAPI, Query, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.middleware.trustedhost import TrustedHostMiddleware

from sweeplab.core.errors import IllegalMoveError, InconsistentPositionError, SweeplabError, UndecidedError
from sweeplab.core.geometry import Board
from sweeplab.core.rules import FIRST_CLICK_RULES, PRESETS, Rules
from sweeplab.formats.position import format_position, parse_position
from sweeplab.strategies.base import StrategyError, StrategyLimitError
from sweeplab.strategies.registry import get, names, options, register_program
from sweeplab.web import schemas
from sweeplab.web.benchjobs import BenchBusyError, BenchRunner, NoBenchError
from sweeplab.web.games import MAX_GAMES_PER_CLIENT, MAX_IDLE_SECONDS, ExpiredGameError, GameStore, LiveGame, UnknownGameError
from sweeplab.web.guards import MAX_BODY_BYTES, ClientIds, Guard
from sweeplab.web.payloads import LEVELS, analysis_payload, guess_payload, hint_payload, xy
from sweeplab.web.solvers import SolverLimitError, SolverPool

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("sweeplab.web")

COOKIE = "sweeplab_client"  #: names the browser whose games a request may see (an id the server signed)
NEWCOMERS = "new browsers"  #: the solver queue's one line for every browser that has not played yet
ERRORS_SHOWN = 10  #: a 422 lists this many of its errors (and says how many more)
THREADS = 100  #: threads for the API's blocking handlers (a request waiting in the solver queue holds one)
REFUSAL_SECONDS = 1.0  #: a solver request refused because its line is full is answered after this long (a loop of
#: them cannot keep the server busy with refusals)
SOLVER_PATHS = re.compile(r"/api/analyze|/api/games/[^/]+/(hint|probabilities|step)")
GameId = Annotated[str, PathParam(pattern=r"^[A-Za-z0-9_-]{1,64}$", description="the id a new game was given")]


def _field(location: tuple[Any, ...]) -> str:
    parts = [str(p) for p in location if p not in ("body", "query", "path")]
    return ".".join(parts) or "request"


def _message(error: dict[str, Any]) -> str:
    text = str(error.get("msg", "invalid"))
    text = text.removeprefix("Value error, ")
    return text if len(text) <= 300 else text[:300] + "…"


def _short(field: str) -> str:
    return field if len(field) <= 60 else field[:60] + "…"


def create_app(
    allowed_hosts: list[str] | None = None,
    store: GameStore | None = None,
    solvers: SolverPool | None = None,
    programs: dict[str, str] | None = None,
) -> FastAPI:
    """The application. ``allowed_hosts`` (the Host headers accepted; None accepts any) guards a local server
    against DNS rebinding: ``sweeplab serve`` passes the loopback names and its own host. ``solvers`` runs steps,
    hints and analyses (a pool of its own when None, ended with the application; one given must have been made
    with the same ``programs``). ``programs`` (name -> ``cmd:PROGRAM ARGS``, ``sweeplab serve --player``) are outside
    programs the page lists and plays by name like built-in players (named in this process, the solver processes
    and the benchmark runs' processes); a request can name no other program, and set none of their options.

    Every request body, query and path is validated by a schema (:mod:`sweeplab.web.schemas`), never answered with a
    traceback. Statuses: 400 input the library refuses (a malformed position or layout, a board past a strategy's
    limit), 404 an unknown game, 410 an expired one (the message says why), 409 a move the game does not allow now
    or a benchmark already running, 422 a request that breaks the schema or a position no layout can produce (with
    ``cells``, the numbers to blame; its error list cut short), 500 a bug (a strategy that breaks its contract), 503 a
    step, hint or analysis past the time or memory limit of one request, or refused by the solver queue before it ran
    (then with ``Retry-After``; :mod:`sweeplab.web.solvers`, where all of them run). Before any of that
    (:mod:`sweeplab.web.guards`): 403 a state-changing request from another site's page, 413 a body past
    :data:`~sweeplab.web.guards.MAX_BODY_BYTES`, 408 a body too slow to arrive. Games and benchmarks are kept per
    browser, named by an HttpOnly, SameSite=Strict cookie the server issues and signs on first use (:data:`COOKIE`).
    The server keeps each game's layout: a game's payload carries it only once the game is over."""
    for name, spec in (programs or {}).items():
        register_program(name, spec)
    games = store if store is not None else GameStore()
    pool = solvers if solvers is not None else SolverPool(programs=programs)
    runner = BenchRunner(programs=programs)
    ids = ClientIds()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        anyio.to_thread.current_default_thread_limiter().total_tokens = THREADS
        if solvers is None:
            await anyio.to_thread.run_sync(pool.start)  # every worker ready before the first request needs one
        yield
        if solvers is None:
            pool.close()
        runner.shutdown()

    app = FastAPI(
        title="sweeplab",
        summary="Play, get help, watch strategies solve, analyse positions and run small benchmarks.",
        docs_url=None,  # the interactive docs load scripts from a CDN; the page must work with no network
        redoc_url=None,
        lifespan=lifespan,
    )
    app.add_middleware(Guard)
    if allowed_hosts is not None:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts)
    app.state.games = games
    app.state.bench = runner
    app.state.solvers = pool

    @app.middleware("http")
    async def client_cookie(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        """Name the browser: its cookie when this server issued it, else a new signed id set on the answer (a
        made-up or altered cookie names a new browser); its games are its own."""
        client = request.cookies.get(COOKIE, "")
        issued = ids.verify(client)
        request.state.client = client if issued else ids.issue()
        if SOLVER_PATHS.fullmatch(request.url.path) and pool.full(line(request)):  # refused before its body is read
            await asyncio.sleep(REFUSAL_SECONDS)
            response: Response = JSONResponse(
                {"detail": "not run: this browser's requests (or all requests) already fill the solver queue; try again"},
                status_code=503,
                headers={"Retry-After": str(max(1, round(pool.seconds)))},
            )
        else:
            response = await call_next(request)
        if not issued:
            response.set_cookie(COOKIE, request.state.client, httponly=True, samesite="strict")
        return response

    def owned(request: Request, game_id: str) -> LiveGame:
        return games.get(game_id, client=request.state.client)

    def line(request: Request) -> str:
        """The request's line in the solver queue: its own for a browser that has played, one for all the others."""
        client: str = request.state.client
        return client if games.is_player(client) else NEWCOMERS

    # ----- errors: one sentence, the right status, never a traceback -----
    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        found = exc.errors()
        errors = [{"field": _short(_field(tuple(e.get("loc", ())))), "message": _message(e)} for e in found[:ERRORS_SHOWN]]
        detail = "; ".join(f"{e['field']}: {e['message']}" for e in errors[:3])
        if len(found) > 3:
            detail += f"; and {len(found) - 3} more error(s)"
        return JSONResponse({"detail": detail, "errors": errors, "error_count": len(found)}, status_code=422)

    @app.exception_handler(SweeplabError)
    async def refused(request: Request, exc: SweeplabError) -> JSONResponse:
        status = 400
        if isinstance(exc, ExpiredGameError):
            status = 410
        elif isinstance(exc, UnknownGameError | NoBenchError):
            status = 404
        elif isinstance(exc, IllegalMoveError | BenchBusyError):
            status = 409
        elif isinstance(exc, StrategyError) and not isinstance(exc, StrategyLimitError):
            status = 500  # the strategy broke its contract: not the request's fault
        elif isinstance(exc, UndecidedError):  # the budget counts from the start of the work, but the machine is shared
            detail = f"{exc} (the server may be busy: try again, or use `sweeplab analyze --seconds` for more time)"
            return JSONResponse({"detail": detail}, status_code=503, headers={"Retry-After": str(max(1, round(pool.seconds)))})
        elif isinstance(exc, SolverLimitError):
            status = 503
            if exc.retry_after is not None:  # queued, not run: it may well run if asked again
                return JSONResponse({"detail": str(exc)}, status_code=503, headers={"Retry-After": str(exc.retry_after)})
        return JSONResponse({"detail": str(exc)}, status_code=status)

    @app.exception_handler(Exception)
    async def crashed(request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error on %s %s", request.method, request.url.path)
        return JSONResponse({"detail": f"internal error: {type(exc).__name__}: {exc}"}, status_code=500)

    def inconsistent(board: Board, exc: InconsistentPositionError) -> JSONResponse:
        return JSONResponse(
            {"detail": str(exc), "inconsistent": True, "cells": [xy(board, c) for c in exc.cells]}, status_code=422
        )

    # ----- the page -----
    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # ----- what the page offers -----
    @app.get("/api/meta")
    def meta() -> dict[str, Any]:
        """Presets, first-click rules, strategies (with their options) and the page's limits."""
        return {
            "presets": {name: list(size) for name, size in PRESETS.items()},
            "rules": FIRST_CLICK_RULES,
            "strategies": [
                {
                    "name": name,
                    "summary": get(name).summary,
                    "source": get(name).source,
                    "options": {  # the options a spec can set (NAME[key=value,...]) and their defaults
                        k: p.default for k, p in options(name).items() if isinstance(p.default, bool | int | float | str)
                    },
                }
                for name in names()
            ],
            "levels": LEVELS,
            "limits": {
                "page_max_cells": schemas.PAGE_MAX_CELLS,
                "page_max_side": schemas.PAGE_MAX_SIDE,
                "bench_max_games": schemas.BENCH_MAX_GAMES,
                "bench_max_strategies": schemas.BENCH_MAX_STRATEGIES,
                "games_per_client": games.per_client,
                "max_clients": games.max_clients,
                "max_game_bytes": games.max_bytes,
                "max_body_bytes": MAX_BODY_BYTES,
                "max_idle_seconds": games.max_idle,
                "solver_seconds": pool.seconds,
                "solver_memory_bytes": pool.memory,
            },
        }

    # ----- games -----
    @app.post("/api/games", status_code=201)
    def new_game(request: schemas.NewGame, http: Request) -> dict[str, Any]:
        """Deal a game (a seed is drawn when none is given, and shown so the game can be replayed), or play an
        MBF layout as it is."""
        if request.mbf is not None:
            from sweeplab.formats.mbf import read_mbf

            layout = read_mbf(request.mbf_bytes(), "the MBF file")
            schemas.check_page_size(layout.width, layout.height)
            rules = Rules(layout.width, layout.height, len(layout.mines), "unsafe")
            return games.new(rules, None, layout.mines, client=http.state.client).payload()
        seed = request.seed
        if seed is None:
            seed = secrets.randbits(32)
        return games.new(request.rules(), seed, client=http.state.client).payload()

    @app.get("/api/games/{game_id}")
    def game_state(http: Request, game_id: GameId) -> dict[str, Any]:
        live = owned(http, game_id)
        with live.lock:
            return live.payload()

    @app.post("/api/games/{game_id}/restart")
    def restart(http: Request, game_id: GameId) -> dict[str, Any]:
        """The same game again: same rules and seed (or the same layout)."""
        live = owned(http, game_id)
        with live.lock:
            live.restart()
            return live.payload()

    @app.post("/api/games/{game_id}/move")
    def move(http: Request, game_id: GameId, request: schemas.MoveRequest) -> dict[str, Any]:
        """Reveal, flag, unflag or chord the cell (x, y)."""
        live = owned(http, game_id)
        with live.lock:
            cell = live.game.board.index(request.x, request.y)
            opened = live.move(request.kind, cell)
        games.played(http.state.client)
        with live.lock:
            return {"game": live.payload(), "opened": len(opened)}

    @app.post("/api/games/{game_id}/undo")
    def undo(http: Request, game_id: GameId) -> dict[str, Any]:
        """Take back the last move (a lost game plays on); counted, and the game is then "assisted". 409 when no
        move has been played."""
        live = owned(http, game_id)
        with live.lock:
            undone = live.undo()
            return {"game": live.payload(), "undone": {"kind": undone.kind, "cell": xy(live.game.board, undone.cell)}}

    @app.post("/api/games/{game_id}/step")
    def step(http: Request, game_id: GameId, request: schemas.StepRequest) -> dict[str, Any]:
        """One move of the strategy: the move, and its guess record (with its explanation) when it guessed."""
        live = owned(http, game_id)
        games.played(http.state.client)
        with live.lock:
            try:
                played, guess = live.step(request.strategy, pool, queue=line(http))
            except SweeplabError:
                raise
            except Exception as error:  # a strategy bug: say which strategy, keep the server up
                raise StrategyError(f"strategy {request.strategy!r} crashed: {type(error).__name__}: {error}") from error
            board = live.game.board
            return {
                "game": live.payload(),
                "move": {"kind": played.kind, "cell": xy(board, played.cell)},
                "guess": guess_payload(board, guess),
                "certain": guess is None,
            }

    @app.get("/api/games/{game_id}/hint")
    def hint(
        http: Request, game_id: GameId, level: Annotated[int, Query(ge=1, le=3, description="the helper's level")] = 3
    ) -> Any:
        """What the helper at this level marks on the current position (from what the player sees only)."""
        live = owned(http, game_id)
        with live.lock:
            observation = live.game.observation()
        try:
            return pool.run(hint_payload, observation, level, what=f"the level-{level} hint", client=line(http))[0]
        except InconsistentPositionError as exc:
            return inconsistent(observation.board, exc)

    @app.get("/api/games/{game_id}/probabilities")
    def probabilities(http: Request, game_id: GameId) -> Any:
        """The exact engine on the current position: the overlay's data."""
        live = owned(http, game_id)
        with live.lock:
            observation = live.game.observation()
        try:
            return pool.run(analysis_payload, observation, what="the analysis", client=line(http))[0]
        except InconsistentPositionError as exc:
            return inconsistent(observation.board, exc)

    @app.get("/api/games/{game_id}/position", response_class=PlainTextResponse)
    def position(http: Request, game_id: GameId) -> PlainTextResponse:
        """The player's view in JSMinesweeper's text format (flags as F), for the analyser or `sweeplab analyze`."""
        live = owned(http, game_id)
        with live.lock:
            text = format_position(live.game.observation())
        return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="sweeplab-{game_id[:8]}.txt"'})

    # ----- the analyser -----
    @app.post("/api/analyze")
    def analyze_position(request: schemas.Position, http: Request) -> Any:
        """Every covered cell's probability, certain cells, craps shoots and the best move; an impossible position
        gets 422 with the number to blame."""
        observation = request.observation()
        try:
            return pool.run(analysis_payload, observation, what="the analysis", client=line(http))[0]
        except InconsistentPositionError as exc:
            return inconsistent(observation.board, exc)

    @app.post("/api/position/parse")
    def parse(request: schemas.PositionText) -> dict[str, Any]:
        """Read JSMinesweeper's text format into a grid (errors name the line and the cell)."""
        observation = parse_position(request.text, "the position")
        schemas.check_page_size(observation.width, observation.height)
        return {
            "width": observation.width,
            "height": observation.height,
            "mines": observation.mines,
            "view": list(observation.view),
            "text": format_position(observation),
        }

    # ----- benchmarks -----
    @app.post("/api/bench", status_code=202)
    def bench_start(request: schemas.BenchRequest, http: Request) -> dict[str, Any]:
        """Start this browser's paired benchmark in a child process (one per browser, a few at once, each within the
        page's bound of estimated work); poll GET /api/bench for progress."""
        settings = request.model_dump()
        return runner.start(settings, client=http.state.client)

    @app.get("/api/bench")
    def bench_status(http: Request) -> dict[str, Any]:
        return runner.status(http.state.client)

    @app.post("/api/bench/cancel")
    def bench_cancel(http: Request) -> dict[str, Any]:
        return runner.cancel(http.state.client)

    @app.get("/api/bench/report.json")
    def bench_report(http: Request) -> JSONResponse:
        """This browser's last finished run's report: settings, per-strategy summaries and the paired differences."""
        report = runner.report(http.state.client)
        name = f"sweeplab-bench-{report['settings']['board']}-seed{report['settings']['seed']}.json"
        return JSONResponse(report, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    return app


__all__ = ["COOKIE", "MAX_GAMES_PER_CLIENT", "MAX_IDLE_SECONDS", "create_app"]
