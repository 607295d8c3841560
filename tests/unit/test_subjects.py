"""Issue 30: subjects are told apart and built in one place (curator.core.subjects), not by
prefix tests where they stand."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from curator.core.model import Service
from curator.core.normalize import link_for, parse_arxiv_id
from curator.core.subjects import (
    arxiv_id_of,
    arxiv_subject,
    is_paper,
    is_repo,
    repo_subject,
    subject_id,
    subject_kind,
)

PACKAGE = Path(__file__).resolve().parents[2] / "curator"
#: The prefix tests left in modules other work was splitting while this seam went in
#: (sources/document.py, run/pipeline.py, resolvers/web.py), named by their code so that they
#: may move between modules; each is for the restructure that follows (issue 30).
LEFT = {
    'f"github:{named.lower()}"',
    'f"github:{found.most_common(1)[0][0]}"',
    'f"arxiv:{m.group(1)}"',
    'lk.subject.startswith("arxiv:")',
    'e.subject.startswith("arxiv:")',
    'subject.startswith(("arxiv:", "github:"))',
}
PREFIXES = {"arxiv:", "github:"}


@pytest.mark.parametrize(
    ("subject", "kind", "inside"),
    [
        ("arxiv:2305.10250", Service.ARXIV, "2305.10250"),
        ("arxiv:hep-th/9901001", Service.ARXIV, "hep-th/9901001"),
        ("github:owner/name", Service.GITHUB, "owner/name"),
        ("https://example.org/a", None, "https://example.org/a"),
        ("title:memory bank", None, "title:memory bank"),
        ("ARXIV:2305.10250", None, "ARXIV:2305.10250"),  # subjects are written lower-case
    ],
)
def test_kind_and_what_the_subject_names(subject: str, kind: Service | None, inside: str) -> None:
    assert subject_kind(subject) is kind
    assert subject_id(subject) == inside
    assert is_paper(subject) is (kind is Service.ARXIV)
    assert is_repo(subject) is (kind is Service.GITHUB)


def test_built_subjects_read_back() -> None:
    assert arxiv_subject("2305.10250") == "arxiv:2305.10250"
    assert repo_subject("Owner/Name") == "github:owner/name"
    assert arxiv_id_of("arxiv:2305.10250") == "2305.10250"
    assert arxiv_id_of("github:owner/name") == "github:owner/name"
    parsed = parse_arxiv_id("https://arxiv.org/abs/2305.10250v2")
    assert parsed is not None and subject_id(parsed.subject) == parsed.base


def test_a_links_service_is_its_subjects_kind() -> None:
    assert link_for("paper", "https://arxiv.org/abs/2305.10250").service is Service.ARXIV
    assert link_for("code", "https://github.com/Owner/Name").service is Service.GITHUB
    assert link_for("site", "https://example.org/").service is Service.WEB


def _prefix_tests(source: str) -> list[str]:
    """Code that tests or strips a subject prefix by hand, or builds a subject with an
    f-string, outside the allowance of LEFT."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if _tests_a_prefix(node) or _builds_a_subject(node):
            code = ast.get_source_segment(source, node) or ""
            if code not in LEFT:
                found.append(f"{getattr(node, 'lineno', 0)}: {code}")
    return found


def _tests_a_prefix(node: ast.AST) -> bool:
    """`x.startswith("arxiv:")`, `x.startswith(("arxiv:", ...))`, `x.removeprefix("github:")`;
    not `text.lower().startswith("arxiv:")`, which reads a written ID in any case."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args):
        return False
    receiver = node.func.value
    if node.func.attr not in {"startswith", "removeprefix"} or (
        isinstance(receiver, ast.Call)
        and isinstance(receiver.func, ast.Attribute)
        and receiver.func.attr in {"lower", "casefold"}
    ):
        return False
    arg = node.args[0]
    items = arg.elts if isinstance(arg, ast.Tuple) else [arg]
    return any(isinstance(i, ast.Constant) and i.value in PREFIXES for i in items)


def _builds_a_subject(node: ast.AST) -> bool:
    """`f"arxiv:{...}"` or `f"github:{...}"`."""
    if not (isinstance(node, ast.JoinedStr) and node.values):
        return False
    head = node.values[0]
    return isinstance(head, ast.Constant) and head.value in PREFIXES


def test_no_module_tests_a_subject_prefix_by_hand() -> None:
    offenders = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        if name == "core/subjects.py":
            continue
        found = _prefix_tests(path.read_text(encoding="utf-8"))
        if found:
            offenders[name] = found
    assert offenders == {}
