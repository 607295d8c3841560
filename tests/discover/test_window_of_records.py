"""Acceptance: a window of a few hundred dev-record papers, through the loopback arXiv."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from curator.core.model import Verdict
from curator.discover.run import DiscoverReport, Request, discover
from curator.lab.measure import POLICY_GATE
from curator.scope import PaperText, load_rules
from curator.scope.records import check_records, parse_records
from curator.scope.screen import Group
from tests.discover.world import LATER, SINCE, UNTIL, World, build_world
from tests.doubles.server import LoopbackServer


@pytest.fixture
def world(tmp_path: Path, loopback: LoopbackServer) -> World:
    """The dev-record window and its list."""
    return build_world(tmp_path, loopback)


def run(world: World) -> DiscoverReport:
    """One discover run over the whole window."""
    return discover(world.options(), Request(SINCE, UNTIL), LATER)


@pytest.mark.slow
def test_listed_papers_are_skipped_and_the_rest_screened(
    world: World, loopback: LoopbackServer
) -> None:
    """Every listed paper is skipped (version, old title, title only); all others screened."""
    report = run(world)
    assert report.complete
    skipped = {s.id: s.where for s in report.skipped}
    assert set(skipped) == set(world.listed)
    assert {how for how in world.listed.values()} == {"version", "old title", "title only"}
    assert all("by title" in skipped[i] for i, how in world.listed.items() if how == "title only")
    found = {c.id for c in report.candidates}
    assert found == {r.id for r in world.records} - set(world.listed)
    # Noise outside the categories or the window never comes back.
    assert not any(i.startswith("2609.99") for i in found | set(skipped))


def test_gate_and_groups_match_the_maintainers(world: World, loopback: LoopbackServer) -> None:
    """Gate failures are gate excludes; no include is likely exclude (only what a hard rule
    proves is: the home policy's one hard rule is its gate); likely include holds ≥ 85 % of
    the includes and is ≥ 80 % includes; most gate-passing excludes are to review as a likely
    exclude (of a class, or under the scorer's floor)."""
    report = run(world)
    rules = load_rules(world.root / "rules" / "scope.yaml")
    by_id = {r.id: r for r in world.records}
    includes: list[Group] = []  # the groups of maintainer includes that pass the gate
    excludes: list[Group] = []  # the groups of gate-passing maintainer excludes and holds
    gate_failing = 0
    for c in report.candidates:
        record = by_id[c.id]
        title, abstract = str(record.data["title"]), str(record.abstract)
        if not (POLICY_GATE.search(title) or POLICY_GATE.search(abstract)):
            gate_failing += 1
            assert c.decision.verdict is Verdict.EXCLUDE and c.decision.rules == (rules.gate.id,)
            assert c.group is Group.EXCLUDE
            continue
        if c.group is Group.EXCLUDE:
            assert c.decision.quotes and c.decision.rules != (rules.gate.id,)
        (includes if record.decision == "include" else excludes).append(c.group)
    assert gate_failing >= 50 and len(includes) >= 30 and len(excludes) >= 80
    assert Group.EXCLUDE not in includes
    likely = includes.count(Group.INCLUDE) + excludes.count(Group.INCLUDE)
    # Likely include holds what the maintainers take (an include, or a near miss at or above
    # the scorer's floor), and still mostly that.
    assert includes.count(Group.INCLUDE) >= 0.85 * len(includes)
    assert includes.count(Group.INCLUDE) >= 0.8 * likely and likely >= 20
    assert Group.EXCLUDE not in excludes
    likely_excludes = [
        c
        for c in report.candidates
        if by_id[c.id].decision != "include"
        and c.group is Group.REVIEW
        and c.decision.reason.startswith("likely exclude: ")
    ]
    assert len(likely_excludes) >= 0.5 * len(excludes)


@pytest.mark.slow
def test_requests_one_slice_and_nothing_new_the_second_time(
    world: World, loopback: LoopbackServer
) -> None:
    """One request per 2,000 papers; the second run over the window asks nothing."""
    first = run(world)
    n = len(first.candidates) + len(first.skipped)
    assert first.requests == len(world.arxiv.searches()) == math.ceil(n / 2000)
    asked = world.arxiv.searches()[0].query
    assert int(asked["max_results"][0]) <= 2000 and asked["start"] == ["0"]
    assert "ti:memory" in asked["search_query"][0] and "cat:cs.MA" in asked["search_query"][0]
    second = run(world)
    assert second.requests == 0 and len(world.arxiv.searches()) == 1
    assert second.remembered == 7
    assert [c.id for c in second.candidates] == [c.id for c in first.candidates]


@pytest.mark.slow
def test_drafts_pass_the_lists_own_record_checks(world: World, loopback: LoopbackServer) -> None:
    """Drafts carry the policy's fields; with the maintainer's decision filled in (here:
    curator's suggestion), the record checks find nothing."""
    report = run(world)
    rules = load_rules(world.root / "rules" / "scope.yaml")
    drafts = json.loads(json.dumps(list(report.drafts)))
    for draft, c in zip(drafts, report.candidates, strict=True):
        assert draft["reading_scope"] == "abstract" and draft["policy_version"] == "2026-10-09"
        gate_only = c.decision.rules == (rules.gate.id,)
        assert draft["decision"] == ("exclude" if gate_only else "")
        if not draft["decision"]:
            draft["decision"] = "include" if c.group is Group.INCLUDE else "exclude"
    records = parse_records(json.dumps(drafts), "drafts.json")
    official = {
        p.id: PaperText(title=" ".join(p.title.split()), abstract=" ".join(p.abstract.split()))
        for p in world.arxiv.papers.values()
    }
    assert check_records(records, {}, metadata=official, rules=rules) == []
    assert sum(r.decision == "include" for r in records) >= 20


def test_an_untouched_draft_waits_for_the_maintainer(
    world: World, loopback: LoopbackServer
) -> None:
    """Only the decision is missing from a draft the gate did not decide."""
    report = run(world)
    open_drafts = [d for d in report.drafts if not d["decision"]]
    records = parse_records(json.dumps(open_drafts[:3]), "drafts.json")
    findings = check_records(records, {}, rules=load_rules(world.root / "rules" / "scope.yaml"))
    assert [f.code for f in findings] == ["record-fields-missing"] * 3
    assert all("lacks decision" in f.message for f in findings)
