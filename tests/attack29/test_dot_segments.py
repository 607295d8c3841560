"""Round 4 attack (issue 29): an arXiv or GitHub link spelled with dot segments.

`https://arxiv.org/./abs/ID` (or `/%2e/`, `/x/../`) opens the paper in every browser, which
resolves dot segments before asking. Read as written it was no arXiv link: the entry was a
plain web link, so a pull request could list a real off-topic paper under a made-up title
with neither its title nor its scope checked. Links are now recognised by the path a browser
requests.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.core.normalize import browser_path, subject_for_url
from tests.integration.test_scope_decisions import PLAIN, check, git, scope_findings


@pytest.mark.parametrize(
    ("url", "subject"),
    [
        ("https://arxiv.org/./abs/2501.00001", "arxiv:2501.00001"),
        ("https://arxiv.org/%2E/abs/2501.00001", "arxiv:2501.00001"),
        ("https://arxiv.org/x/../abs/2501.00001v2", "arxiv:2501.00001"),
        ("https://arxiv.org/abs/%2e%2e/pdf/2501.00001", "arxiv:2501.00001"),
        ("https://github.com/./o/r", "github:o/r"),
        ("https://github.com/a/b/../../o/r", "github:o/r"),
        ("https://example.org/a/./b/../c", "https://example.org/a/./b/../c"),  # as written
    ],
)
def test_links_are_recognised_by_the_path_a_browser_asks_for(url: str, subject: str) -> None:
    assert subject_for_url(url) == subject


def test_the_root_and_trailing_segments_resolve_as_a_browser_does() -> None:
    assert browser_path("/../../abs/x") == "/abs/x"
    assert browser_path("/abs/x/.") == "/abs/x/"
    assert browser_path("/abs/x/..") == "/abs/"
    assert browser_path("/.well-known/x") == "/.well-known/x"


def test_a_paper_behind_a_dot_segment_gets_its_title_and_scope_checked(root: Path) -> None:
    git(root, "init", "-q", "-b", "main")
    Path("README.md").write_text("# List\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    made_up = "Long-term memory for agents"
    Path("README.md").write_text(
        f"# List\n\n- [{made_up}](https://arxiv.org/./abs/{PLAIN.id})\n", encoding="utf-8"
    )
    git(root, "commit", "-qam", "pull request")
    status, report = check("--changed-since", "main~1")
    assert status == 1
    codes = {f["code"] for f in report["findings"] if f["subject"] == f"arxiv:{PLAIN.id}"}
    assert "arxiv-title-mismatch" in codes
    assert scope_findings(report) == {f"arxiv:{PLAIN.id}": ("scope-exclude", "error")}
