"""arxiv-link-form: off by default; with rules/links.yaml's `arxiv_links`, every arxiv.org paper
link in another form is found, with the link in the list's form as suggestion."""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.checks.link_forms import link_forms, wanted_link
from curator.config.context import CheckContext
from curator.config.links import LinkRules, load_link_rules
from curator.core.errors import InputError
from curator.core.model import Entry, Kind, Source
from curator.core.normalize import link_for

ABS = LinkRules(arxiv_form="abs")
PDF = LinkRules(arxiv_form="pdf")
BARE = LinkRules(arxiv_version="none")
BOTH = LinkRules(arxiv_form="abs", arxiv_version="none")


@pytest.mark.parametrize(
    ("url", "rules", "wanted"),
    [
        ("https://arxiv.org/pdf/2310.08560", ABS, "https://arxiv.org/abs/2310.08560"),
        ("http://arxiv.org/pdf/2310.08560v2.pdf", ABS, "https://arxiv.org/abs/2310.08560v2"),
        ("https://arxiv.org/abs/2310.08560", ABS, None),
        ("http://www.arxiv.org/abs/2310.08560v2", ABS, None),  # the form asked for, as written
        ("https://arxiv.org/abs/2310.08560", PDF, "https://arxiv.org/pdf/2310.08560"),
        ("https://arxiv.org/abs/2310.08560v3", BARE, "https://arxiv.org/abs/2310.08560"),
        ("https://arxiv.org/pdf/2310.08560v3", BARE, "https://arxiv.org/pdf/2310.08560"),
        ("https://arxiv.org/pdf/2310.08560v3", BOTH, "https://arxiv.org/abs/2310.08560"),
        ("https://arxiv.org/html/2310.08560v1", ABS, "https://arxiv.org/abs/2310.08560v1"),
        ("https://huggingface.co/papers/2310.08560", ABS, None),  # a mirror: not arxiv.org
        ("https://arxiv.org/list/cs.CL/recent", ABS, None),
        ("https://arxiv.org/abs/hep-th/9901001v1", BOTH, "https://arxiv.org/abs/hep-th/9901001"),
    ],
)
def test_the_link_in_the_lists_form(url: str, rules: LinkRules, wanted: str | None) -> None:
    assert wanted_link(url, rules) == wanted


def entry(*urls: str) -> Entry:
    links = tuple(link_for("paper", u) for u in urls)
    return Entry(links[0].subject, Kind.PAPER, Source("README.md", 4), links=links)


def test_off_by_default_and_on_when_the_rules_ask() -> None:
    listed = [entry("https://arxiv.org/pdf/2310.08560v2")]
    assert link_forms(listed, CheckContext()) == []
    assert link_forms(listed, CheckContext(links=LinkRules())) == []
    (found,) = link_forms(listed, CheckContext(links=BOTH))
    assert (found.code, found.severity.value, found.subject) == (
        "arxiv-link-form", "warning", "arxiv:2310.08560",
    )  # fmt: skip
    assert found.evidence == "https://arxiv.org/pdf/2310.08560v2"
    assert found.suggestion == "https://arxiv.org/abs/2310.08560"


def test_the_rules_key_is_read_and_checked(tmp_path: Path) -> None:
    path = tmp_path / "links.yaml"
    path.write_text("arxiv_links:\n  form: pdf\n  version: none\n", encoding="utf-8")
    rules = load_link_rules(path)
    assert (rules.arxiv_form, rules.arxiv_version) == ("pdf", "none") and rules.asks_arxiv_form
    path.write_text("arxiv_links:\n  form: html\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"links.yaml:2: arxiv_links.form must be one of"):
        load_link_rules(path)
    path.write_text("arxiv_links:\n  versions: none\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"unknown key arxiv_links\.versions"):
        load_link_rules(path)
