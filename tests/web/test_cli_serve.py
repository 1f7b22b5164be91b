"""``sweeplab serve``: its help, the loopback default, host checks, a taken port, and --open without a browser."""

import socket
import webbrowser

from click.testing import CliRunner

from sweeplab.cli import main
from sweeplab.cli.serve import allowed_hosts, bind, is_loopback, open_browser


def test_help_says_what_it_serves_and_how_to_share_it():
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0 and "[default: 127.0.0.1]" in result.output
    for words in ("three-level helper", "--host", "127.0.0.1", "0.0.0.0", "--port", "--open", "Ctrl+C"):
        assert words in result.output, words


def test_loopback_and_allowed_hosts():
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1") and is_loopback("127.3.2.1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.4") and not is_loopback("example.org")
    assert "127.0.0.1" in allowed_hosts("127.0.0.1") and "evil.example" not in allowed_hosts("127.0.0.1")
    assert "192.168.1.4" in allowed_hosts("192.168.1.4")
    assert allowed_hosts("0.0.0.0") == ["*"]


def test_a_taken_port_is_a_one_line_error():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--port", str(port)])
    assert result.exit_code == 2 and f"port {port} on 127.0.0.1 is already in use" in result.output


def test_port_zero_binds_a_free_port():
    sock = bind("127.0.0.1", 0)
    try:
        assert sock.getsockname()[1] > 0
    finally:
        sock.close()


def test_bad_port_and_host():
    assert CliRunner().invoke(main, ["serve", "--port", "70000"]).exit_code == 2
    result = CliRunner().invoke(main, ["serve", "--host", "no-such-host.invalid"])
    assert result.exit_code == 2 and "no-such-host.invalid" in result.output


def test_open_without_a_browser_is_not_an_error(monkeypatch):
    def no_browser(url, new=0):
        raise webbrowser.Error("could not locate runnable browser")

    monkeypatch.setattr(webbrowser, "open", no_browser)
    assert open_browser("http://127.0.0.1:1/") is False
    monkeypatch.setattr(webbrowser, "open", lambda url, new=0: False)
    assert open_browser("http://127.0.0.1:1/") is False


def test_missing_web_extra_is_named(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "uvicorn", None)
    result = CliRunner().invoke(main, ["serve"])
    assert result.exit_code == 2 and "pip install 'sweeplab[web]'" in result.output
