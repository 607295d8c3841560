"""`--format text` prints every untrusted string, the finding code included, as plain text."""

from __future__ import annotations

from curator.model import Finding, Report, Severity, Source
from curator.report.text import render


def test_text_drops_terminal_escapes_from_every_field() -> None:
    # A re-rendered JSON report (`curator report`) is untrusted: even its codes.
    evil = "\x1b]0;owned\x07\x1b[2J\u202ecode"
    finding = Finding(evil, Severity.ERROR, evil, Source(evil, 3), evil, evil, evil)
    out = render(Report((), (finding,)), width=400)
    assert "\x1b" not in out
    assert "\x07" not in out
    assert "\u202e" not in out
    assert "errors (1)" in out
