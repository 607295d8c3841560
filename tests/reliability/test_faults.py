"""Fault suite: every outage the services are known for, through the whole `curator check`.

Each case starts the arXiv and GitHub doubles, injects one fault (once, where a retry should
recover, or on every attempt, where it cannot) and runs the CLI on a four-subject catalogue
with a two-second service budget. It must exit 0 under `--fail-on error`, report the real
findings for what could be asked and `*-unverified` for the rest, finish within the budget,
and leave in the SQLite cache exactly the answers the services really gave.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import API_SAMPLES
from tests.doubles.arxiv import ATOM_TYPE, Paper
from tests.doubles.server import LoopbackServer, Reply, Request
from tests.reliability.conftest import Record
from tests.reliability.world import (
    P1,
    P2,
    R1,
    R2,
    SETTINGS,
    SLACK,
    Stage,
    expected_findings,
)

#: Attempts that exhaust every retry: arXiv tries 5 times, GitHub 3 per request.
ARXIV_ALWAYS = 6
GITHUB_ALWAYS = 4
BROKEN_ATOM = (
    b"<?xml version='1.0' encoding='UTF-8'?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">"
    b"<entry><id>http://arxiv.org/abs/2305.10250v1</id><title>Memory</entry></feed>"
)
GITHUB_502 = API_SAMPLES / "github" / "rest_503_html_body_2012.html"


@dataclass(frozen=True)
class Fault:
    """One injected fault and what a correct run makes of it."""

    inject: Callable[[Stage], int]  # returns how many faulty replies were queued
    arxiv_ok: bool = True
    repos_ok: dict[str, bool] = field(default_factory=lambda: {R1: True, R2: True})
    min_seconds: float = 0.0
    token: bool = True
    settings: dict[str, float] = field(default_factory=dict)


def _arxiv(*kinds: str) -> Callable[[Stage], int]:
    def inject(stage: Stage) -> int:
        stage.arxiv.fail(*kinds)
        return len(kinds)

    return inject


def _arxiv_reply(reply: Reply, times: int) -> Callable[[Stage], int]:
    def inject(stage: Stage) -> int:
        assert stage.arxiv_gate is not None
        stage.arxiv_gate.queue(reply, times)
        return times

    return inject


def _github(kind: str, times: int, on: str = "graphql", **params: object) -> Callable[[Stage], int]:
    def inject(stage: Stage) -> int:
        assert stage.github is not None
        stage.github.fail(kind, on=on, times=times, **params)
        return times

    return inject


def _graphql_reply(reply: Reply, times: int) -> Callable[[Stage], int]:
    def inject(stage: Stage) -> int:
        assert stage.graphql_gate is not None
        stage.graphql_gate.queue(reply, times)
        return times

    return inject


def _graphql_error(stage: Stage) -> int:
    """A partial GraphQL answer: data for one repository, an error for the other."""
    assert stage.github is not None
    stage.github.repos["zhongwanjun/memorybank-siliconfriend"]["graphql_error"] = "INTERNAL"
    return 1


DOWN = {R1: False, R2: False}
ATOM_REPLY = Reply(200, {"Content-Type": ATOM_TYPE}, BROKEN_ATOM)
HTML_REPLY = Reply(
    200, {"Content-Type": "text/html"}, b"<html><body>Just a moment...</body></html>"
)
DRIP_JSON = Reply(
    200, {"Content-Type": "application/json"}, b'{"data": {"r0": null}}' * 40, drip=0.05
)

ROOMY = {"service_budget": 3.0}
FAULTS: dict[str, Fault] = {
    "arxiv-503-once": Fault(_arxiv("503")),
    "arxiv-503-always": Fault(_arxiv(*["503"] * ARXIV_ALWAYS), arxiv_ok=False),
    # A 1-s wait must fit the budget even when a loaded machine slows the first try.
    "arxiv-503-retry-after-1s": Fault(_arxiv("503:1"), min_seconds=1.0, settings=ROOMY),
    "arxiv-429-always": Fault(_arxiv(*["429"] * ARXIV_ALWAYS), arxiv_ok=False),
    "arxiv-429-retry-after-1s": Fault(_arxiv("429:1"), min_seconds=1.0, settings=ROOMY),
    "arxiv-429-retry-after-1h": Fault(_arxiv("429:3600"), arxiv_ok=False),
    "arxiv-rate-exceeded-200-once": Fault(_arxiv("rate-exceeded")),
    "arxiv-rate-exceeded-200-always": Fault(
        _arxiv(*["rate-exceeded"] * ARXIV_ALWAYS), arxiv_ok=False
    ),
    "arxiv-blank-body-once": Fault(_arxiv("blank")),
    "arxiv-blank-body-always": Fault(_arxiv(*["blank"] * ARXIV_ALWAYS), arxiv_ok=False),
    "arxiv-truncated-atom-always": Fault(_arxiv(*["truncated"] * ARXIV_ALWAYS), arxiv_ok=False),
    "arxiv-malformed-atom-always": Fault(_arxiv_reply(ATOM_REPLY, ARXIV_ALWAYS), arxiv_ok=False),
    "arxiv-html-page-200-always": Fault(_arxiv_reply(HTML_REPLY, ARXIV_ALWAYS), arxiv_ok=False),
    "arxiv-connection-reset-once": Fault(_arxiv("reset")),
    "arxiv-connection-reset-always": Fault(_arxiv(*["reset"] * ARXIV_ALWAYS), arxiv_ok=False),
    "arxiv-timeout-always": Fault(_arxiv(*["slow:1.5"] * ARXIV_ALWAYS), arxiv_ok=False),
    "arxiv-slow-drip-always": Fault(_arxiv(*["drip"] * ARXIV_ALWAYS), arxiv_ok=False),
    "github-secondary-limit-retry-after-1s": Fault(
        _github("secondary", 1, retry_after=1), min_seconds=1.0, settings=ROOMY
    ),
    "github-secondary-limit-retry-after-10min": Fault(
        _github("secondary", GITHUB_ALWAYS, retry_after=600), repos_ok=DOWN
    ),
    # The reset is a whole epoch second, and curator waits one more: up to 2 s.
    "github-primary-limit-near-reset": Fault(
        _github("primary", 1, reset_in=1), min_seconds=0.5, settings={"service_budget": 4.0}
    ),
    "github-primary-limit-distant-reset": Fault(
        _github("primary", GITHUB_ALWAYS, reset_in=3600), repos_ok=DOWN
    ),
    "github-rest-primary-limit-distant-reset": Fault(
        _github("primary", GITHUB_ALWAYS, on="rest", reset_in=3600), repos_ok=DOWN, token=False
    ),
    "github-graphql-partial-error": Fault(_graphql_error, repos_ok={R1: False, R2: True}),
    "github-graphql-rate-limited-200": Fault(
        _github("rate_limited", GITHUB_ALWAYS, reset_in=3600), repos_ok=DOWN
    ),
    "github-502-html-always": Fault(_github("html5xx", GITHUB_ALWAYS, status=502), repos_ok=DOWN),
    "github-503-html-once": Fault(_github("html5xx", 1)),
    "github-rest-503-html-always": Fault(
        _github("html5xx", GITHUB_ALWAYS * 2, on="rest"), repos_ok=DOWN, token=False
    ),
    "github-connection-reset-always": Fault(_github("reset", GITHUB_ALWAYS), repos_ok=DOWN),
    "github-connection-reset-once": Fault(_github("reset", 1)),
    "github-timeout-always": Fault(_github("timeout", GITHUB_ALWAYS, seconds=1.5), repos_ok=DOWN),
    "github-malformed-json-always": Fault(_github("malformed", GITHUB_ALWAYS), repos_ok=DOWN),
    "github-slow-drip-always": Fault(_graphql_reply(DRIP_JSON, GITHUB_ALWAYS), repos_ok=DOWN),
}
CASES = dict.fromkeys(FAULTS, "fault")


def _served(stage: Stage, queued: int) -> int:
    """Faulty replies the doubles actually sent (queued minus those left unused)."""
    assert stage.github is not None and stage.arxiv_gate and stage.graphql_gate
    left = len(stage.arxiv.faults) + len(stage.arxiv_gate.replies)
    left += len(stage.graphql_gate.replies)
    left += sum(f.times or 0 for f in stage.github.faults)
    graphql_errors = sum(1 for r in stage.github.repos.values() if r.get("graphql_error"))
    return queued - left + (len(stage.server.received("/graphql")) - 1 if graphql_errors else 0)


@pytest.mark.slow
@pytest.mark.parametrize("case", list(FAULTS))
def test_fault_through_the_whole_check(
    case: str,
    loopback: LoopbackServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    record: Record,
) -> None:
    fault = FAULTS[case]
    stage = Stage(tmp_path, loopback, monkeypatch, capsys, settings=dict(fault.settings))
    if not fault.token:
        stage.token = ""
    stage.build()
    queued = fault.inject(stage)
    run = stage.run()
    assert run.status == 0, run.stderr
    assert "Traceback" not in run.stderr
    assert run.findings() == expected_findings(fault.arxiv_ok, fault.repos_ok)
    budget = {**SETTINGS, **fault.settings}["service_budget"] + SLACK
    assert fault.min_seconds <= run.elapsed <= budget, run.elapsed
    _assert_cache(stage, fault)
    served = _served(stage, queued)
    assert served >= 1
    state = "recovered" if fault.arxiv_ok and all(fault.repos_ok.values()) else "unverified"
    codes = sorted({code for code, _ in run.findings()})
    record(case, f"exit 0, {state}: {', '.join(codes)}", faults=served, seconds=run.elapsed)


def _assert_cache(stage: Stage, fault: Fault) -> None:
    """The cache holds exactly the real answers: found papers and repositories, nothing else."""
    rows = stage.cache_rows()
    arxiv = {s for (service, s) in rows if service == "arxiv"}
    github = {s for (service, s) in rows if service == "github"}
    assert arxiv == ({P1, P2} if fault.arxiv_ok else set())
    assert github == {r for r, ok in fault.repos_ok.items() if ok}
    assert {service for service, _ in rows} <= {"arxiv", "github"}
    for subject in arxiv:
        paper = stage.arxiv.papers[subject.removeprefix("arxiv:")]
        assert rows["arxiv", subject]["title"] == paper.title
    if R2 in github:
        assert rows["github", R2]["outcome"] == "found"
        assert rows["github", R2]["meta"]["archived"] is True


# -- part of a run failing (issue 29) ----------------------------------------------------------
#: Six papers in batches of two (each with the resolver's control ID): the batch holding
#: PART fails on every try, in one way per case, while the other batches answer.
SIX = [(f"2402.{n:05d}", f"A Study of Memory Number {n}", f"2024-02-{n + 1:02d}") for n in range(6)]
PART = {"2402.00004", "2402.00005"}


def _truncated(real: Reply) -> Reply:
    return Reply(200, real.headers, real.body[: len(real.body) * 2 // 3])


PARTIAL: dict[str, Callable[[Reply], Reply]] = {
    "arxiv-one-batch-of-three-503-always": lambda real: Reply(503, {"Retry-After": "0"}),
    "arxiv-one-batch-of-three-cut-feed-always": _truncated,
    "arxiv-one-batch-of-three-empty-feed-always": lambda real: Reply(
        200, real.headers, real.body.split(b"<entry>")[0] + b"</feed>"
    ),
}
CASES.update(dict.fromkeys(PARTIAL, "fault"))


@pytest.mark.parametrize("case", list(PARTIAL))
def test_part_of_the_run_failing(
    case: str,
    loopback: LoopbackServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    record: Record,
) -> None:
    """Some batches answer, one fails on every try: its papers are unverified (never
    not-found), the others verified, the report counts what could not be verified, and only
    the real answers are cached."""
    stage = Stage(tmp_path, loopback, monkeypatch, capsys, settings={"arxiv_batch_size": 2})
    served = []

    def part_fails(req: Request) -> Reply:
        real = stage.arxiv.handle(req)
        if PART & set(req.query.get("id_list", [""])[0].split(",")):
            served.append(req)
            return PARTIAL[case](real)
        return real

    loopback.route("GET", "/api/query", part_fails)  # before the double's own route
    stage.build()
    lines = ["section: Methods", "papers:"]
    for base, title, date in SIX:
        stage.arxiv.papers[base] = Paper(base, title, published=f"{date}T12:00:00Z")
        lines += [f'  - title: "{title}"', f'    arxiv: "{base}"', f'    date: "{date}"']
    (stage.root / "data" / "papers.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = stage.run("data/papers.yaml", "--skip", "github,web,scope")
    assert run.status == 0, run.stderr
    assert "Traceback" not in run.stderr and served
    unverified = {f"arxiv:{base}" for base in PART}
    assert run.findings() == {("arxiv-unverified", s) for s in unverified}
    rows = stage.cache_rows()
    assert {s for service, s in rows if service == "arxiv"} == {
        f"arxiv:{base}" for base, _, _ in SIX if base not in PART
    }
    status = {
        subject: meta["status"]
        for entry in run.report["entries"]
        for subject, meta in entry["metadata"].items()
    }
    assert status == {f"arxiv:{b}": "unverified" if b in PART else "found" for b, _, _ in SIX}
    record(
        case,
        "exit 0: 4 papers verified, the failing batch's 2 arxiv-unverified, 4 cached",
        faults=len(served),
        seconds=run.elapsed,
    )


def _double(server: LoopbackServer, req: Request, double: object) -> Reply:
    """What `double` itself answers `req` (past any interposer in front of it)."""
    for method, prefix, handler in server._routes:
        owner = getattr(handler, "__self__", None)
        if owner is double and method in (req.method, "*") and req.path.startswith(prefix):
            return handler(req)
    return Reply(404)


def test_a_repository_graphql_leaves_out_without_an_error(
    loopback: LoopbackServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    record: Record,
) -> None:
    """GraphQL answers 200 with data for one repository and null for the other, with no
    error to say why: that repository is unverified (not "not found"), never cached."""
    stage = Stage(tmp_path, loopback, monkeypatch, capsys)
    served = []

    def null_one(req: Request) -> Reply:
        real = _double(loopback, req, stage.github)
        body = json.loads(real.body)
        for alias, node in body["data"].items():
            if node and node["nameWithOwner"].lower() == R1.removeprefix("github:"):
                body["data"][alias] = None
                served.append(alias)
        body.pop("errors", None)
        return Reply.json(body, real.status, real.headers)

    loopback.route("POST", "/graphql", null_one)
    stage.build()
    run = stage.run()
    assert run.status == 0, run.stderr
    assert served and run.findings() == expected_findings(True, {R1: False, R2: True})
    _assert_cache(stage, Fault(_graphql_error, repos_ok={R1: False, R2: True}))
    record(
        "github-graphql-repository-left-out-without-error",
        "exit 0: the repository left out is repo-unverified (never not-found), not cached",
        faults=len(served),
        seconds=run.elapsed,
    )


CASES["github-graphql-repository-left-out-without-error"] = "fault"
