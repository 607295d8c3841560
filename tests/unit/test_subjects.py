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
#: Modules other work was splitting while this seam went in: their prefix tests are left for
#: the restructure that follows (issue 30).
LEFT = {"sources/document.py", "resolvers/web.py", "run/pipeline.py"}


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


def _prefix_tests(tree: ast.AST) -> list[int]:
    """Lines that test or strip a subject prefix by hand, or build one with an f-string."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            receiver = node.func.value
            # `text.lower().startswith("arxiv:")` reads a written ID (any case), not a subject.
            written = (
                isinstance(receiver, ast.Call)
                and isinstance(receiver.func, ast.Attribute)
                and receiver.func.attr in {"lower", "casefold"}
            )
            if node.func.attr in {"startswith", "removeprefix"} and node.args and not written:
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and arg.value in {"arxiv:", "github:"}:
                    found.append(node.lineno)
        if isinstance(node, ast.JoinedStr) and node.values:
            head = node.values[0]
            if isinstance(head, ast.Constant) and head.value in {"arxiv:", "github:"}:
                found.append(node.lineno)
    return found


def test_no_module_tests_a_subject_prefix_by_hand() -> None:
    offenders = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        if name == "core/subjects.py" or name in LEFT:
            continue
        lines = _prefix_tests(ast.parse(path.read_text(encoding="utf-8")))
        if lines:
            offenders[name] = lines
    assert offenders == {}
