import re
import time

from sweeplab.cli.progress import PlainProgress, interval


def test_plain_progress_prints_done_total_rate_and_eta(capsys):
    with PlainProgress("bench", 1000, done=200, every=0.01) as progress:
        time.sleep(0.05)
        progress.advance(300)
        time.sleep(0.05)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("bench: 200/1,000 games (20.0%), 0.0 games/s, ETA unknown")  # resumed games are no rate
    assert re.match(r"bench: 500/1,000 games \(50\.0%\), [\d,.]+ games/s, ETA \d+ s$", lines[-1]), lines[-1]


def test_the_interval_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("SWEEPLAB_PROGRESS_SECONDS", "0.5")
    assert interval() == 0.5
    for bad in ("nan", "-1", "x", "inf"):
        monkeypatch.setenv("SWEEPLAB_PROGRESS_SECONDS", bad)
        assert interval() == 5.0
