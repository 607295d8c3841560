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
