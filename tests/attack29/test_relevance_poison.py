"""Round 4 attack (issue 29): a pull request poisoning the relevance model with its own
screening records.

The relevance stage learns the list's scope from the listed papers and the screening
records' includes. A pull request that adds a records file whose includes carry its
off-topic paper's title (under other IDs, or its own ID with a version) would make its paper
"most like" a listed one, and its `scope-review` warning would vanish. In pull-request mode
the records that teach the model are the base's, as the rules and decisions are.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.scope.test_relevance_end_to_end import OFF, check, git


def poison(root: Path) -> None:
    """The pull request's own records: includes titled as its off-topic paper."""
    folder = root / "screening"
    folder.mkdir(exist_ok=True)
    records = [
        {
            "id": ident,
            "title": OFF.title,
            "decision": "include",
            "policy_version": "2026-10-09",
            "reading_scope": "abstract",
            "reason": "memory of agents",
        }
        for ident in (f"{OFF.id}v2", "2501.09991", "2501.09992", "2501.09993")
    ]
    (folder / "2025-01-10-review.json").write_text(json.dumps(records), encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "pull request: records")


def test_the_pull_requests_own_records_do_not_teach_the_model(
    pull_request: tuple[Path, str],
) -> None:
    root, base = pull_request
    poison(root)
    report = check(root, base)
    scope = [f for f in report["findings"] if f["code"] == "scope-review"]
    assert [f["subject"] for f in scope] == [f"arxiv:{OFF.id}"]
    assert "unlike anything in the list" in scope[0]["message"]


def test_a_title_stuffed_with_the_lists_words_is_scored_as_arxiv_titles_it(
    pull_request: tuple[Path, str],
) -> None:
    """The pull request writes its off-topic paper under a title made of the list's words:
    the model scores arXiv's title, and the written one is `arxiv-title-mismatch` (an error)."""
    root, base = pull_request
    readme = root / "README.md"
    text = readme.read_text(encoding="utf-8")
    stuffed = "LLM Agents with Memory, Planning, Tool Use and Reflection for Web Navigation"
    readme.write_text(text.replace(f"**{OFF.title}**", f"**{stuffed}**"), encoding="utf-8")
    git(root, "commit", "-qam", "pull request: stuffed title")
    report = check(root, base)
    codes = {(f["code"], f["severity"]) for f in report["findings"]
             if f["subject"] == f"arxiv:{OFF.id}"}  # fmt: skip
    assert ("scope-review", "warning") in codes
    assert ("arxiv-title-mismatch", "error") in codes
