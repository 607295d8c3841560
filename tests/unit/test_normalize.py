"""Every spelling of an arXiv ID and a GitHub URL normalises to CONTRACT.md's subject."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from curator.core.normalize import (
    arxiv_id_in_url,
    github_subject,
    is_arxiv_id_url,
    is_badge_url,
    link_for,
    parse_arxiv_id,
    subject_for_url,
    url_subject,
)


@pytest.mark.parametrize(
    ("text", "subject", "version"),
    [
        ("2305.10250", "arxiv:2305.10250", None),
        ("2305.10250v2", "arxiv:2305.10250", 2),
        ("arXiv:2305.10250", "arxiv:2305.10250", None),
        ("arxiv:2305.10250v11", "arxiv:2305.10250", 11),
        ("https://arxiv.org/abs/2305.10250", "arxiv:2305.10250", None),
        ("https://arxiv.org/abs/2305.10250v3", "arxiv:2305.10250", 3),
        ("https://arxiv.org/pdf/2305.10250", "arxiv:2305.10250", None),
        ("https://arxiv.org/pdf/2305.10250v1", "arxiv:2305.10250", 1),
        ("https://arxiv.org/pdf/2305.10250.pdf", "arxiv:2305.10250", None),
        ("https://arxiv.org/pdf/2305.10250v2.pdf", "arxiv:2305.10250", 2),
        ("http://www.arxiv.org/abs/2305.10250", "arxiv:2305.10250", None),
        ("arxiv.org/abs/2305.10250/", "arxiv:2305.10250", None),
        ("https://arxiv.org/html/2305.10250v1", "arxiv:2305.10250", 1),
        ("0704.0001", "arxiv:0704.0001", None),
        ("1412.9999", "arxiv:1412.9999", None),
        ("cs/0112017", "arxiv:cs/0112017", None),
        ("cs/0112017v2", "arxiv:cs/0112017", 2),
        ("hep-th/9901001", "arxiv:hep-th/9901001", None),
        ("math.GT/0309136", "arxiv:math.GT/0309136", None),
        ("https://arxiv.org/abs/quant-ph/0201082v1", "arxiv:quant-ph/0201082", 1),
        ("  2606.26627v1 ", "arxiv:2606.26627", 1),
    ],
)
def test_arxiv_forms(text: str, subject: str, version: int | None) -> None:
    parsed = parse_arxiv_id(text)
    assert parsed is not None
    assert parsed.subject == subject
    assert parsed.version == version


@pytest.mark.parametrize(
    "text",
    ["", "abc", "1234.12345", "2313.00001", "0612.0001", "1501.0001", "1412.00001", "2305.1025",
     "https://example.org/abs/2305.10250", "https://arxiv.org/list/cs.CL/recent", "cs/01120"],
)  # fmt: skip
def test_arxiv_invalid(text: str) -> None:
    assert parse_arxiv_id(text) is None


@pytest.mark.parametrize(
    ("url", "subject"),
    [
        ("https://github.com/mem0ai/mem0", "github:mem0ai/mem0"),
        ("https://github.com/Mem0AI/Mem0", "github:mem0ai/mem0"),
        ("https://github.com/mem0ai/mem0.git", "github:mem0ai/mem0"),
        ("https://github.com/mem0ai/mem0/", "github:mem0ai/mem0"),
        ("https://www.github.com/mem0ai/mem0", "github:mem0ai/mem0"),
        ("http://github.com/mem0ai/mem0", "github:mem0ai/mem0"),
        ("https://github.com/mem0ai/mem0/tree/main/docs", "github:mem0ai/mem0"),
        ("https://github.com/mem0ai/mem0/blob/main/README.md#x", "github:mem0ai/mem0"),
        ("https://github.com/mem0ai/mem0?tab=readme", "github:mem0ai/mem0"),
        ("github.com/mem0ai/mem0", "github:mem0ai/mem0"),
    ],
)
def test_github_forms(url: str, subject: str) -> None:
    assert github_subject(url) == subject


@pytest.mark.parametrize(
    "url",
    [
        "https://github.com/mem0ai",
        "https://github.com/orgs/mem0ai/repositories",
        "https://github.com/topics/memory",
        "https://gist.github.com/a/b",
        "https://user:pw@github.com/a/b",
        "https://github.com.evil.example/a/b",
        "ftp://github.com/a/b",
    ],
)
def test_not_github_repos(url: str) -> None:
    assert github_subject(url) is None


def test_other_urls_keep_path_and_lose_fragment() -> None:
    assert (
        url_subject("HTTPS://Www.Example.COM:443/A/b?x=1#top") == "https://www.example.com/A/b?x=1"
    )
    assert url_subject("http://example.com") == "http://example.com/"
    assert url_subject("http://example.com:8080/x") == "http://example.com:8080/x"


def test_link_for_routes_each_service() -> None:
    assert link_for("paper", "https://arxiv.org/pdf/2305.10250v2").service.value == "arxiv"
    assert link_for("code", "https://github.com/a/b").service.value == "github"
    assert link_for("website", "https://mem0.ai/").service.value == "web"
    assert subject_for_url("https://arxiv.org/list/cs.CL") == "https://arxiv.org/list/cs.CL"


@given(st.text(max_size=60))
def test_parse_never_crashes_and_is_idempotent(text: str) -> None:
    parsed = parse_arxiv_id(text)
    if parsed is not None:
        again = parse_arxiv_id(str(parsed))
        assert again == parsed


@given(st.text(max_size=80))
# NEL between C0 controls: str.strip and urlsplit each uncovered what the other strips.
@example("\x1b\x85\x08")
def test_url_subject_is_idempotent(text: str) -> None:
    once = url_subject(text)
    assert url_subject(once) == once


@pytest.mark.parametrize("text", ["http://[::1", "https://[zz]/x", "http://a:99999999/", "http://"])
def test_garbage_urls_never_raise(text: str) -> None:
    link = link_for("website", text)
    assert link.service.value == "web"
    assert link.subject


@pytest.mark.parametrize(
    ("url", "subject"),
    [
        ("https://doi.org/10.48550/arXiv.2302.04023", "arxiv:2302.04023"),
        ("https://dx.doi.org/10.48550/ARXIV.2302.04023", "arxiv:2302.04023"),
        ("https://huggingface.co/papers/2501.00003", "arxiv:2501.00003"),
        ("https://www.alphaxiv.org/abs/2501.00004v2", "arxiv:2501.00004"),
        ("https://ar5iv.labs.arxiv.org/html/2310.08560", "arxiv:2310.08560"),
        ("https://arxiv.org/pdf/2310.08560v3.pdf", "arxiv:2310.08560"),
        ("https://doi.org/10.1145/3611643.3613892", "https://doi.org/10.1145/3611643.3613892"),
        ("https://huggingface.co/papers", "https://huggingface.co/papers"),
        ("https://arxiv.org/list/cs.CL/recent", "https://arxiv.org/list/cs.CL/recent"),
    ],
)
def test_every_spelling_of_an_arxiv_paper(url: str, subject: str) -> None:
    assert subject_for_url(url) == subject


def test_only_arxiv_paper_pages_can_hold_a_bad_id() -> None:
    assert is_arxiv_id_url("https://arxiv.org/abs/2513.00001")
    assert arxiv_id_in_url("https://arxiv.org/abs/2513.00001") is None
    assert not is_arxiv_id_url("https://arxiv.org/a/someone_1")
    assert not is_arxiv_id_url("https://huggingface.co/papers/not-an-id")
    assert is_badge_url("https://img.shields.io/github/stars/a/b")
