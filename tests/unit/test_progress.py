"""The progress display: on a terminal's stderr only, after a second of network, never offline
or in CI, and erased when the run ends."""

from __future__ import annotations

import io
import time

import pytest

from curator.console import progress
from curator.core.model import Service
from curator.core.outcomes import Counter


class FakeTerminal(io.StringIO):
    """A stream that says it is a terminal, keeping what was drawn on it."""

    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def _interactive(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("CI", "GITHUB_ACTIONS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("TERM", "xterm")


def _run(seconds: float, delay: float, **kw: object) -> str:
    stream = FakeTerminal()
    counter = Counter()
    with progress.show({Service.ARXIV: 3}, counter, delay=delay, stream=stream, **kw) as state:
        counter.add("arxiv", 2)
        time.sleep(seconds)
        state.finish(Service.ARXIV)
    return stream.getvalue()


@pytest.mark.slow
def test_a_slow_run_shows_counts_then_erases_them() -> None:
    drawn = _run(seconds=0.6, delay=0.05)
    assert "arxiv" in drawn and "0/3 subjects" in drawn and "2 requests sent" in drawn
    assert "\x1b[?25h" in drawn  # the cursor is given back
    assert drawn.endswith("\x1b[1A\x1b[2K")  # and the display's lines erased


def test_one_request_is_one_request() -> None:
    counter = Counter()
    counter.add("arxiv", 1)
    state = progress.ServiceProgress({Service.ARXIV: 3}, counter)
    assert state.lines()[0] == "… arxiv      0/3 subjects · 1 request sent"


def test_a_fast_run_draws_nothing() -> None:
    assert _run(seconds=0.0, delay=0.5) == ""


def test_an_offline_run_draws_nothing() -> None:
    assert _run(seconds=0.3, delay=0.05, offline=True) == ""


@pytest.mark.parametrize(("var", "value"), [("CI", "true"), ("GITHUB_ACTIONS", "true")])
def test_ci_logs_get_nothing(monkeypatch: pytest.MonkeyPatch, var: str, value: str) -> None:
    monkeypatch.setenv(var, value)
    assert _run(seconds=0.3, delay=0.05) == ""


def test_a_dumb_terminal_or_a_pipe_gets_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "dumb")
    assert not progress.wanted(FakeTerminal())
    monkeypatch.setenv("TERM", "xterm")
    assert progress.wanted(FakeTerminal())
    assert not progress.wanted(io.StringIO())
