"""Round 4 attacks (issue 29) on inline scope markers, `<!-- curator: scope-include -->`.

Only a marker the base holds counts in a pull request (tests/integration/
test_scope_decisions.py). Here: the base's README explains the marker with an example in a
fenced code block, and the example's link happens to name a paper; a pull request adding that
paper was accepted by the example. A line of a code block is shown, not meant: it decides
nothing. A marker moved by the pull request onto its own paper's line, or a base marker on a
line the pull request appends its paper to, decide nothing either (held).
"""

from __future__ import annotations

from pathlib import Path

from curator.scope.decided import markers
from tests.integration.test_scope_decisions import PLAIN, check, git, row, scope_findings

INCLUDE = " <!-- curator: scope-include -->"
EXAMPLE = (
    "## Contributing\n\nA maintainer accepts a paper for good with a marker:\n\n"
    "```markdown\n" + row(PLAIN.id, "Example", INCLUDE) + "```\n\n"
    "~~~~\n" + row("2501.00002", "Another", INCLUDE) + "~~~ not the end\n~~~~\n"
)


def commit_base(root: Path, text: str) -> None:
    git(root, "init", "-q", "-b", "main")
    Path("README.md").write_text(text, encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")


def test_an_example_marker_in_a_code_block_accepts_no_paper(root: Path) -> None:
    commit_base(root, "# List\n\n" + EXAMPLE)
    Path("README.md").write_text("# List\n\n" + row(PLAIN.id, PLAIN.title) + "\n" + EXAMPLE)
    git(root, "commit", "-qam", "pull request")
    status, report = check("--changed-since", "main~1")
    assert status == 1
    assert scope_findings(report) == {f"arxiv:{PLAIN.id}": ("scope-exclude", "error")}


def test_a_base_marker_on_a_line_the_pull_request_extends_covers_only_the_base_links(
    root: Path,
) -> None:
    other = "2501.00002"
    commit_base(root, "# List\n\n" + row(other, "Fast kernels", INCLUDE))
    # The pull request appends its paper to the marked line.
    Path("README.md").write_text(
        "# List\n\n- [Fast kernels](https://arxiv.org/abs/2501.00002) "
        f"[{PLAIN.title}](https://arxiv.org/abs/{PLAIN.id}){INCLUDE}\n"
    )
    git(root, "commit", "-qam", "pull request")
    status, report = check("--changed-since", "main~1")
    assert status == 1
    assert scope_findings(report).get(f"arxiv:{PLAIN.id}") == ("scope-exclude", "error")


def test_markers_outside_code_blocks_still_count_and_lines_are_gits() -> None:
    text = (
        "- [A](https://arxiv.org/abs/2501.00011)" + INCLUDE + "\n"
        "```\n" + row("2501.00012", "B", INCLUDE) + "```\n"
        "- [C \u2028 title](https://arxiv.org/abs/2501.00013)" + INCLUDE + "\n"
    )
    found = markers(text, "README.md")
    assert sorted(found) == ["arxiv:2501.00011", "arxiv:2501.00013"]
    assert found["arxiv:2501.00013"].where == "README.md:5"  # U+2028 starts no line in git
    # In YAML a `#` comment is the marker, whatever surrounds it.
    assert sorted(markers(text, "data/papers.yaml")) == [
        "arxiv:2501.00011", "arxiv:2501.00012", "arxiv:2501.00013",
    ]  # fmt: skip
