"""``sweeplab serve``: the helper game, analyser and benchmark panel in the browser (a local web server)."""

from __future__ import annotations

import errno
import ipaddress
import socket
import sys
import threading

import click

from sweeplab.cli.app import EXIT_SIGINT, EXIT_SIGTERM, main

LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1", "[::1]"]


def is_loopback(host: str) -> bool:
    """True for an address only this machine can reach (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def allowed_hosts(host: str) -> list[str]:
    """The Host headers the server answers: loopback names, plus ``host`` itself; any host when bound to all
    addresses (0.0.0.0 or ::), since the machine's names on the network are not known here."""
    if host in ("0.0.0.0", "::", ""):
        return ["*"]
    return sorted(set(LOOPBACK_NAMES) | {host, f"[{host}]" if ":" in host else host})


def parse_players(values: tuple[str, ...]) -> dict[str, str]:
    """``--player NAME=cmd:PROGRAM ARGS`` values -> {name: spec}, each checked (the program must exist) but named
    only by the application the server runs; a bad one is a usage error naming ``--player``, the value and why."""
    from sweeplab.core.errors import SweeplabError
    from sweeplab.strategies.registry import checked_program

    players: dict[str, str] = {}
    for value in values:
        name, equals, spec = value.partition("=")
        name, spec = name.strip(), spec.strip()
        if not equals or not name or not spec:
            raise click.BadParameter(f"{value!r} is not NAME=cmd:PROGRAM ARGS", param_hint="'--player'")
        if name in players:
            raise click.BadParameter(f"{value!r}: the name {name!r} is given twice", param_hint="'--player'")
        try:
            players[name] = checked_program(name, spec)
        except SweeplabError as error:
            raise click.BadParameter(f"{value!r}: {error}", param_hint="'--player'") from None
    return players


def open_browser(url: str) -> bool:
    """Open ``url`` in the user's browser if one can be found; False (and no error) when none can."""
    import webbrowser

    try:
        return bool(webbrowser.open(url, new=2))
    except Exception:  # no browser, no display: the printed URL is enough
        return False


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on (host, port); a clear error when the port is taken or the address is not this machine's."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named here: asyncio sets TCP_NODELAY on accepted connections only when the listening socket says it
    # is TCP (``sock.proto``); without it every small answer waits ~40 ms for the peer's delayed ACK (Nagle)
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise click.UsageError(f"port {port} on {host} is already in use: choose another with --port") from None
        if error.errno == errno.EACCES:
            raise click.UsageError(f"port {port} needs privileges to bind: choose one above 1023 with --port") from None
        raise click.UsageError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    except socket.gaierror as error:
        sock.close()
        raise click.UsageError(f"--host {host!r} is not an address of this machine: {error}") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


@main.command("serve", short_help="Play, get hints and analyse positions in a browser.")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="address to listen on; the default lets only this machine connect (0.0.0.0 shares it with your network, "
    "with no password)",
)
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="TCP port (0 picks a free one)")
@click.option("--open", "open_page", is_flag=True, help="open the page in a web browser, if one can be found")
@click.option("--quiet", is_flag=True, help="do not log each request")
@click.option(
    "--player",
    "players",
    multiple=True,
    metavar="NAME=CMD",
    callback=lambda context, parameter, value: parse_players(value),
    help="NAME=cmd:PROGRAM ARGS: an outside program (docs/arena.md) the page lists and plays under NAME, like a "
    "built-in player; repeat for more. Only these: a request from the page cannot name a program of its own",
)
def serve_command(host: str, port: int, open_page: bool, quiet: bool, players: dict[str, str]) -> None:
    """Serve sweeplab's page: play with a three-level helper, watch any strategy solve, see every cell's mine
    probability, edit and analyse positions, and run small benchmarks.

    Prints the address to open, e.g. http://127.0.0.1:8000/ . The page needs no network: everything it uses is
    served by this process. Stop it with Ctrl+C (exit status 130; SIGTERM: 143). Needs the web extra:
    pip install 'sweeplab[web]'.
    """
    try:
        import uvicorn

        from sweeplab.web.app import create_app
        from sweeplab.web.serving import BACKLOG, Serving, connection_cap, exit_status, guarded_protocol
    except ImportError as error:
        click.echo(f"error: the web page needs the 'web' extra ({error.name} is missing): pip install 'sweeplab[web]'", err=True)
        sys.exit(2)

    sock = bind(host, port)
    bound_port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound_port}/"
    if is_loopback(host):
        click.echo(f"sweeplab serving on {url} (only this machine can connect; --host 0.0.0.0 to share it)")
    else:
        shown_url = f"http://<this machine's address>:{bound_port}/" if host in ("0.0.0.0", "::") else url
        click.echo(
            f"sweeplab serving on {shown_url}: listening on {host}, so other machines that can reach this one can use "
            "it too, with no password (the default --host 127.0.0.1 keeps it to this machine)"
        )
    click.echo("press Ctrl+C to stop")
    app = create_app(allowed_hosts=allowed_hosts(host), programs=players)
    config = uvicorn.Config(
        app,
        http=guarded_protocol(connection_cap()),  # a header deadline, and connections capped below the fd limit
        log_level="warning" if quiet else "info",
        access_log=not quiet,
        timeout_graceful_shutdown=3,
        backlog=BACKLOG,
    )
    # the first signal ends solver work at once: its requests are answered 503
    server = Serving(config, on_signal=app.state.solvers.close)
    if open_page:
        local = f"http://127.0.0.1:{bound_port}/" if host in ("0.0.0.0", "::") else url

        def opener() -> None:
            if not open_browser(local):
                click.echo(f"no web browser found to open; open {local} yourself", err=True)

        threading.Timer(0.5, opener).start()
    server.run(sockets=[sock])
    if server.stopped_by is not None:  # as `sweeplab --help` states: 130 for Ctrl+C, 143 for SIGTERM
        sys.exit({2: EXIT_SIGINT, 15: EXIT_SIGTERM}.get(server.stopped_by, exit_status(server.stopped_by)))
