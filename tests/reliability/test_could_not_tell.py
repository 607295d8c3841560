"""Issue 29, three defects of "could not tell" taken for an answer: discover's empty arXiv
feed remembered as "nothing submitted", a soft-404 redirect written by `fix`, and the
scorer's own training records passed off as an unseen batch by an invisible character.

Each case runs the command line against the loopback doubles (or the shipped scorer and its
records) and records its row of docs/reliability.md.
"""

from __future__ import annotations

import json
import time
from datetime import date, timedelta
from pathlib import Path

import pytest

from curator.cli import main
from tests.conftest import ROOT, SCOPE
from tests.discover.world import write_list
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.server import LoopbackServer
from tests.doubles.world import World
from tests.fix.world import findings, make_world
from tests.reliability.conftest import Record

CASES = {
    "discover-empty-feed-over-settled-days": "attack",
    "fix-redirect-to-home-sign-in-or-404": "attack",
    "batch-training-ids-with-zero-width-space": "attack",
}


def test_discover_empty_feed_over_settled_days(
    loopback: LoopbackServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    record: Record,
) -> None:
    """arXiv's transient empty feed over a settled week that has a paper: exit 1, nothing
    remembered, and the next run (the glitch gone) finds the paper."""
    started = time.monotonic()
    since = date.today() - timedelta(days=20)
    until = since + timedelta(days=6)
    double = ArxivDouble()
    double.papers["2609.00001"] = Paper(
        "2609.00001", "Long-term memory for LLM agents", published=f"{since}T10:00:00Z"
    )
    double.fail("empty")
    World.start(loopback, tmp_path, arxiv=double).enter(monkeypatch)
    write_list(tmp_path, [])
    window = ["discover", "--since", str(since), "--until", str(until), "data"]
    assert main(window) == 1
    first = capsys.readouterr().out
    assert f"INCOMPLETE: arXiv answered no paper at all for {since}..{until}" in first
    assert main(window) == 0
    assert "2609.00001" in capsys.readouterr().out
    assert len(double.searches()) == 2  # the empty answer's days were asked again
    record(
        "discover-empty-feed-over-settled-days",
        "exit 1, 7 settled days unknown, none remembered; the next run asks again and finds "
        "the paper",
        faults=1,
        seconds=time.monotonic() - started,
    )


@pytest.mark.slow
def test_fix_redirect_to_home_sign_in_or_404(
    loopback: LoopbackServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, record: Record
) -> None:
    """Deep links a host now sends to its home page, a sign-in page or a 404: likely broken,
    never written; the same page with a slash added is the one fix written."""
    started = time.monotonic()
    site = f"http://127.0.0.1:{loopback.url.rsplit(':', 1)[1]}"
    moves = {"/p/1": "/", "/p/2": "/signin", "/p/3": "/gone", "/p/4": "/p/4/"}
    rows = [f"- [Tool {p[-1]}]({site}{p}) a memory tool" for p in moves]
    world = make_world(loopback, tmp_path, monkeypatch, "# Tools\n\n" + "\n".join(rows) + "\n")
    for path, target in moves.items():
        world.web.redirect(path, target, status=301)
    for page in ("/", "/signin", "/p/4/"):
        world.web.page(page)
    before = world.text()
    codes = sorted(c for c, _ in findings(world.check()))
    assert codes == ["link-broken", "link-redirect", "link-soft-404", "link-soft-404"]
    assert world.fix().status in (0, 1)
    assert world.text() == before.replace(f"{site}/p/4)", f"{site}/p/4/)")
    record(
        "fix-redirect-to-home-sign-in-or-404",
        "2 link-soft-404, 1 link-broken, none rewritten; the same-page redirect (a slash) written",
        hostile=3,
        refused=3,
        seconds=time.monotonic() - started,
    )


def test_batch_training_ids_with_zero_width_space(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], record: Record
) -> None:
    """60 of the shipped scorer's own training records, each ID ending in U+200B, offered as
    a new batch: known by their normalised IDs, nothing new to score, exit 2."""
    started = time.monotonic()
    data = json.loads((SCOPE / "2026-10-03-review.json").read_text(encoding="utf-8"))
    batch = tmp_path / "2026-12-01-review.json"
    hidden = [{**r, "id": r["id"] + "\u200b"} for r in data[:60]]
    batch.write_text(json.dumps(hidden, ensure_ascii=False), encoding="utf-8")
    rules = ROOT / "rules" / "scope.yaml"
    argv = ["scope", "evaluate", str(SCOPE), "--rules", str(rules), "--batch", str(batch)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "no new record" in err and len(err.strip().splitlines()) == 1
    record(
        "batch-training-ids-with-zero-width-space",
        "exit 2: no new record (60 training records known by their normalised IDs)",
        hostile=1,
        refused=1,
        seconds=time.monotonic() - started,
    )
