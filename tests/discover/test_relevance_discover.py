"""Issue 31, item 5: discover for a list without a scope policy.

A real list (the LLM-agents survey list of the samples) without rules/: discover asks arXiv
for the list's own words in the categories, one request for the window, and groups the
window's papers by the list's relevance: an off-topic paper is a likely exclude, papers like
the list are not, a listed paper is skipped, no draft records (they are a policy's).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from curator.config.options import Options, build
from curator.core.errors import UsageError
from curator.discover import render
from curator.discover.relevant import categories
from curator.discover.run import DiscoverReport, Request, discover
from curator.discover.window import DEFAULT_CATEGORIES
from curator.scope.relevance import MIN_LISTED
from curator.scope.screen import Group
from tests.discover.world import LATER
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.server import LoopbackServer
from tests.doubles.world import World

SAMPLE = (
    Path(__file__).resolve().parents[1]
    / "fixtures/shared/samples/woooodyy-llm-agent-paper-list.README.md"
)
DAY = date(2026, 9, 24)
LIKE = [
    "Self-Improving LLM Agents for Web Navigation with Tool Use and Planning",
    "Chain-of-Thought Reasoning for Embodied Language Model Agents in Interactive Games",
]
OFF = "Equivariant Diffusion Models for Protein Structure Prediction"
LISTED = ("2210.03629", "ReAct: Synergizing Reasoning and Acting in Language Models")


def options(root: Path, url: str) -> Options:
    env = {
        "CURATOR_ARXIV_API_URL": url,
        "CURATOR_ARXIV_DELAY": "0",
        "CURATOR_CACHE": str(root / "cache.sqlite"),
    }
    return build({"paths": (str(root / "README.md"),)}, env, root)


def papers() -> dict[str, Paper]:
    stamp = "2026-09-24T10:00:00Z"
    titles = [*LIKE, OFF, LISTED[1]]
    ids = ["2609.00001", "2609.00002", "2609.00003", LISTED[0]]
    return {
        i: Paper(i, t, abstract=f"{t}.", published=stamp, categories=("cs.CL",))
        for i, t in zip(ids, titles, strict=True)
    }


def asker(tmp_path: Path, loopback: LoopbackServer) -> Callable[[], DiscoverReport]:
    """The sample list in `tmp_path`, arXiv's double serving the day's papers: one discover
    of the day a call."""
    shutil.copyfile(SAMPLE, tmp_path / "README.md")
    double = ArxivDouble()
    double.papers.update(papers())
    url = World.start(loopback, tmp_path, arxiv=double).arxiv_url
    return lambda: discover(options(tmp_path, url), Request(DAY, DAY, categories=()), LATER)


def test_discover_without_a_policy_asks_the_lists_words_and_groups_by_relevance(
    tmp_path: Path, loopback: LoopbackServer
) -> None:
    report = asker(tmp_path, loopback)()
    assert report.complete and report.requests == 1
    # The list's own words, in the default categories (the cache knows no listed paper).
    assert all(f"cat:{c}" in report.query for c in DEFAULT_CATEGORIES)
    assert "memory" not in report.query and "ti:" in report.query
    groups = {c.meta["title"]: c.group for c in report.candidates}
    assert groups[OFF] is Group.EXCLUDE
    assert all(groups[t] is not Group.EXCLUDE for t in LIKE)
    assert [s.id for s in report.skipped] == [LISTED[0]]
    assert report.drafts == ()
    off = next(c for c in report.candidates if c.meta["title"] == OFF)
    assert off.decision.reason.startswith("unlike anything in the list: most like")
    assert "1 likely exclude, each unlike anything in the list" in render.markdown(report)
    # Ranked: the groups in order, never a likely include after a likely exclude.
    order = [c.group for c in report.candidates]
    assert order == sorted(order, key=[Group.INCLUDE, Group.REVIEW, Group.EXCLUDE].index)
    # The JSON report has no draft records (a policy's), and says the same groups.
    data = json.loads(render.as_json(report))
    assert {c["title"]: c["group"] for c in data["candidates"]} == {
        t: g.value for t, g in groups.items()
    }
    assert not any("draft" in c for c in data["candidates"])


def test_the_same_window_asked_again_gives_the_same_verdicts(
    tmp_path: Path, loopback: LoopbackServer
) -> None:
    # The first run keeps the window's papers in the cache; the second scores them against a
    # background without them, as the first did (a paper is never its own background).
    ask = asker(tmp_path, loopback)
    runs = [ask(), ask()]
    first, again = ([(c.id, c.group, c.decision) for c in r.candidates] for r in runs)
    assert first == again
    # The words asked come from the list alone, not from what the cache has gathered since
    # (else each run's query, and the days it remembers, would drift).
    assert runs[0].query.split(" AND (")[-1] == runs[1].query.split(" AND (")[-1]


def test_a_list_too_small_to_learn_from_is_a_usage_error(
    tmp_path: Path, loopback: LoopbackServer
) -> None:
    items = [f"- [Agents {i}](https://arxiv.org/abs/2401.{i:05d})" for i in range(MIN_LISTED - 1)]
    (tmp_path / "README.md").write_text("# L\n\n" + "\n".join(items) + "\n", encoding="utf-8")
    url = World.start(loopback, tmp_path, arxiv=True).arxiv_url
    with pytest.raises(UsageError, match="too few to learn"):
        discover(options(tmp_path, url), Request(DAY, DAY, categories=()), LATER)


def test_the_categories_asked_are_those_the_listed_papers_are_filed_under() -> None:
    metas = [{"primary_category": "cs.CL"}] * 6 + [{"primary_category": "cs.AI"}] * 3
    metas += [{"primary_category": "q-bio.BM"}, {"primary_category": ""}, {}]
    # cs.CL and cs.AI cover 9 of 10: enough; the tenth's category is not asked.
    assert categories(metas) == ("cs.CL", "cs.AI")
    assert categories([]) == ()
    assert categories([{"primary_category": "bad category!"}]) == ()
