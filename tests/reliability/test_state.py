"""Concurrency and state: a shared cache, a killed run, an interrupted `comment`.

Two `curator check` processes share one SQLite cache at once and lose nothing; a run killed
with SIGKILL mid-resolve leaves a cache the next run opens and uses; a `comment` run that
fails or loses its answer between listing and creating leaves, after one more run, exactly
one curator comment.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from curator.report import json as json_report
from tests.doubles.arxiv import ArxivDouble
from tests.doubles.github_issues import FakeGitHub
from tests.doubles.server import LoopbackServer, Reply, Request
from tests.reliability.conftest import Record
from tests.reliability.world import (
    P1,
    P2,
    R1,
    R2,
    Stage,
    cache_rows,
    expected_findings,
    run_cli,
)
from tests.report.sample import realistic_report

CASES = {
    "two-runs-share-one-cache-at-once": "state",
    "sigkill-mid-resolve-leaves-usable-cache": "state",
    "comment-create-fails-after-list": "state",
    "comment-created-but-answer-lost": "state",
    "four-writers-one-new-cache-at-once": "state",
    "run-in-an-outage-beside-a-run-with-answers": "state",
}
REPO = "acme/awesome-llm-memory"
MARKER = "<!-- curator:report -->"


def _spawn(stage: Stage, *args: str, **env: str) -> subprocess.Popen[bytes]:
    """`curator check` in a child process, in the stage's root with its environment (and
    `env` on top)."""
    return subprocess.Popen(
        [sys.executable, "-m", "curator", "check", *args, "--fail-on", "error"],
        cwd=stage.root,
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _integrity(path: Path) -> str:
    db = sqlite3.connect(path)
    try:
        return str(db.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        db.close()


@pytest.mark.slow
def test_two_runs_share_one_cache_at_once(
    tmp_path: Path,
    loopback: LoopbackServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    record: Record,
) -> None:
    stage = Stage(
        tmp_path, loopback, monkeypatch, capsys, settings={"service_budget": 10.0, "timeout": 5.0}
    ).build()
    # Slow answers make the two runs overlap, and both write while the other one is open.
    stage.arxiv.fail("slow:0.4", "slow:0.4")
    assert stage.github is not None
    stage.github.fail("timeout", times=2, seconds=0.4)
    started = time.monotonic()
    first = _spawn(stage, "data/papers.yaml", "--format", "json", "--output", "a.json")
    second = _spawn(stage, "data/projects.yaml", "--format", "json", "--output", "b.json")
    outs = [p.communicate(timeout=30) for p in (first, second)]
    elapsed = time.monotonic() - started
    assert [first.returncode, second.returncode] == [0, 0], outs
    assert all(b"Traceback" not in err for _, err in outs)
    rows = stage.cache_rows()
    assert set(rows) == {("arxiv", P1), ("arxiv", P2), ("github", R1), ("github", R2)}
    assert _integrity(stage.cache_path) == "ok"
    # Both runs saw each other's writes through: a third run asks nothing.
    again = stage.run()
    assert again.report["requests"]["cache_hits"] == 4
    assert sum(v for k, v in again.report["requests"].items() if k != "cache_hits") == 0
    assert again.findings() == expected_findings(True, {R1: True, R2: True})
    record(
        "two-runs-share-one-cache-at-once",
        "both exit 0; cache holds all 4 answers; a third run sends 0 requests",
        figures={"cache rows": len(rows)},
        seconds=elapsed,
    )


@pytest.mark.slow
def test_sigkill_mid_resolve_leaves_a_usable_cache(
    tmp_path: Path,
    loopback: LoopbackServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    record: Record,
) -> None:
    stage = Stage(
        tmp_path, loopback, monkeypatch, capsys, settings={"service_budget": 20.0, "timeout": 10.0}
    ).build()
    stage.arxiv.fail("slow:8")  # arXiv hangs while GitHub's answers are written
    child = _spawn(stage, "--format", "json", "--output", "killed.json")
    deadline = time.monotonic() + 15
    # Services are asked concurrently: wait for both GitHub answers in the cache AND the
    # hanging arXiv request, in whichever order they come.
    while time.monotonic() < deadline and (
        len(stage.cache_rows()) < 2 or not stage.arxiv.requests()
    ):
        time.sleep(0.05)
    assert stage.arxiv.requests(), "arXiv was not asked before the kill"
    child.send_signal(signal.SIGKILL)
    child.communicate(timeout=10)
    assert child.returncode == -signal.SIGKILL
    assert not (tmp_path / "killed.json").exists()
    assert _integrity(stage.cache_path) == "ok"
    kept = set(stage.cache_rows())
    assert kept == {("github", R1), ("github", R2)}
    run = stage.run()
    assert run.status == 0, run.stderr
    assert run.findings() == expected_findings(True, {R1: True, R2: True})
    assert run.report["requests"]["cache_hits"] == 2
    assert not any("rebuilt" in note for note in run.report.get("notes", []))
    record(
        "sigkill-mid-resolve-leaves-usable-cache",
        "killed while arXiv hung; cache intact, next run exit 0 from 2 cached answers",
        figures={"cache rows kept": len(kept)},
        seconds=run.elapsed,
    )


# -- comment ---------------------------------------------------------------------------------
def _comment_env(monkeypatch: pytest.MonkeyPatch, fake: FakeGitHub, tmp_path: Path) -> list[str]:
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_comment_token_value")
    monkeypatch.setenv("GITHUB_API_URL", fake.api)
    monkeypatch.chdir(tmp_path)
    # The comment job posts only a curator JSON report it renders itself.
    body = tmp_path / "report.json"
    body.write_text(json_report.render(realistic_report()), "utf-8")
    return ["comment", "--repo", REPO, "--pr", "7", "--body-file", str(body)]


def _ours(fake: FakeGitHub) -> list[dict[str, object]]:
    return [c for c in fake.comments_on(REPO, 7) if MARKER in str(c["body"])]


def test_comment_create_failing_after_list_leaves_one_comment(
    tmp_path: Path,
    loopback: LoopbackServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    record: Record,
) -> None:
    failures = {"left": 10}

    def create_fails(req: Request) -> Reply:
        if req.path.endswith("/issues/7/comments") and failures["left"] > 0:
            failures["left"] -= 1
            return Reply.json({"message": "Server Error"}, 502)
        return fake.handle(req)

    loopback.route("POST", "/repos/", create_fails)
    fake = FakeGitHub(loopback)
    argv = _comment_env(monkeypatch, fake, tmp_path)
    failed = run_cli(argv, capsys)
    assert failed.status != 0 and "Traceback" not in failed.stderr
    assert _ours(fake) == []
    failures["left"] = 0
    again = run_cli(argv, capsys)
    assert again.status == 0, again.stderr
    third = run_cli(argv, capsys)
    assert third.status == 0
    assert len(_ours(fake)) == 1
    record(
        "comment-create-fails-after-list",
        f"first run exit {failed.status}, no comment; two more runs: exactly 1 comment",
        figures={"curator comments": len(_ours(fake))},
    )


def test_comment_created_but_answer_lost_leaves_one_comment(
    tmp_path: Path,
    loopback: LoopbackServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    record: Record,
) -> None:
    lost = {"left": 1}

    def create_then_reset(req: Request) -> Reply:
        reply = fake.handle(req)
        if req.path.endswith("/issues/7/comments") and lost["left"] > 0:
            lost["left"] -= 1
            return Reply(reset=True)  # GitHub created it; the answer never arrives
        return reply

    loopback.route("POST", "/repos/", create_then_reset)
    fake = FakeGitHub(loopback)
    argv = _comment_env(monkeypatch, fake, tmp_path)
    first = run_cli(argv, capsys)
    assert "Traceback" not in first.stderr
    second = run_cli(argv, capsys)
    assert second.status == 0, second.stderr
    assert len(_ours(fake)) == 1
    posts = len(loopback.received("/repos/", "POST"))
    record(
        "comment-created-but-answer-lost",
        f"first run exit {first.status}; after the next run exactly 1 comment",
        figures={"create requests": posts, "curator comments": len(_ours(fake))},
    )


WRITERS = 4
ROUNDS = 40


@pytest.mark.slow
def test_four_writers_on_one_new_cache_at_once(tmp_path: Path, record: Record) -> None:
    """Issue 29: four processes open one cache file that does not exist yet at the same
    instant, then write, read back, keep and stamp through it at once: no "database is
    locked", no read that comes back wrong, no row lost, an intact file."""
    path = tmp_path / "shared" / "cache.sqlite"
    start = time.time() + 1.5  # every writer imported and waiting before it
    children = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.reliability.cache_writer", str(path), f"w{n}",
             str(ROUNDS), str(start)],
            cwd=Path(__file__).resolve().parents[2],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for n in range(WRITERS)
    ]  # fmt: skip
    outs = [child.communicate(timeout=120) for child in children]
    elapsed = time.time() - start
    assert [c.returncode for c in children] == [0] * WRITERS, [err[-500:] for _, err in outs]
    results = [json.loads(out) for out, _ in outs]
    assert all(r == {"wrong": [], "warnings": []} for r in results), results
    rows = cache_rows(path)
    own = {(s, subject) for s, subject in rows if s == "github"}
    assert len(own) == WRITERS * 25 and len([k for k in rows if k[0] == "arxiv"]) == 40
    for n in range(WRITERS):  # each writer's last round is what stays of its own rows
        assert rows["github", f"github:w{n}/repo-0"]["round"] == ROUNDS - 1
    assert _integrity(path) == "ok"
    db = sqlite3.connect(path)
    try:
        kept = db.execute("SELECT count(*) FROM kept").fetchone()[0]
        stamps = db.execute("SELECT count(*) FROM stamps").fetchone()[0]
    finally:
        db.close()
    assert (kept, stamps) == (WRITERS * ROUNDS, WRITERS)
    record(
        "four-writers-one-new-cache-at-once",
        f"{WRITERS} processes x {ROUNDS} rounds on a new file: no lock error, no wrong read, "
        "no row lost, integrity ok",
        figures={"rows": len(rows), "kept": kept},
        seconds=elapsed,
    )


@pytest.mark.slow
def test_a_run_in_an_outage_beside_a_run_with_answers(
    tmp_path: Path,
    loopback: LoopbackServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    record: Record,
) -> None:
    """Issue 29: two runs share one cache at once; one of them finds arXiv down (every try
    503), the other gets its answers. The outage is never cached and removes nothing: the
    answers the other run stored stay, and a third run asks arXiv nothing."""
    stage = Stage(
        tmp_path, loopback, monkeypatch, capsys, settings={"service_budget": 10.0, "timeout": 5.0}
    ).build()
    stage.arxiv.fail("slow:0.6")  # the answered run is still writing while the other fails
    with LoopbackServer() as down:
        dead = ArxivDouble()
        dead_url = dead.install(down)
        dead.fail(*["503"] * 30)
        started = time.monotonic()
        answered = _spawn(stage, "data/papers.yaml", "--format", "json", "--output", "a.json")
        outage = _spawn(
            stage, "data/papers.yaml", "--format", "json", "--output", "b.json",
            CURATOR_ARXIV_API_URL=dead_url,
        )  # fmt: skip
        outs = [p.communicate(timeout=60) for p in (answered, outage)]
        elapsed = time.monotonic() - started
        assert dead.requests(), "the outage run did not ask its arXiv"
    assert [answered.returncode, outage.returncode] == [0, 0], outs
    failed = json.loads((stage.root / "b.json").read_text(encoding="utf-8"))
    assert {f["code"] for f in failed["findings"] if f["subject"] in (P1, P2)} == {
        "arxiv-unverified"
    }
    rows = stage.cache_rows()
    assert {s for service, s in rows if service == "arxiv"} == {P1, P2}
    assert all(rows["arxiv", p]["title"] == stage.arxiv.papers[p[6:]].title for p in (P1, P2))
    assert _integrity(stage.cache_path) == "ok"
    again = stage.run("data/papers.yaml")
    assert again.status == 0 and again.report["requests"]["arxiv"] == 0
    assert again.findings() == {("arxiv-date-mismatch", P2)}
    record(
        "run-in-an-outage-beside-a-run-with-answers",
        "both exit 0; the outage run's papers unverified, the other's answers cached and kept; "
        "a third run asks arXiv nothing",
        faults=len(dead.requests()),
        seconds=elapsed,
    )
