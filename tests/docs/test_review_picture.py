"""The README's pictures of curator on a pull request: their inputs are what curator really
writes for the pull request of review_run.py, and each image shows what `curator comment`
posts for them: the sticky comment, and one suggestion of the review.

Regenerate the inputs with `CURATOR_REGENERATE_DOCS=1 python -m pytest tests/docs`, then the
images with `python docs/images/make_review_image.py` (it needs Chromium). No test here needs
Chromium: each image carries the SHA-256 of what it shows, computed here again from the
committed inputs with curator's own comment and review code.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from curator.fix.values import want_of
from curator.publish import review
from curator.publish.review import COMMENT_MARKER, MARKER
from curator.report import markdown as markdown_report
from curator.report.reader import read_saved
from tests.conftest import ROOT
from tests.docs.review_run import PULL, REPORT, review_report
from tests.doubles.server import LoopbackServer

IMAGES = ROOT / "docs" / "images"
REMAKE = "run: python docs/images/make_review_image.py (apt-get install -y chromium)"
#: What a PNG in the README may weigh.
MAX_BYTES = 600_000


@cache
def maker() -> ModuleType:
    """docs/images/make_review_image.py, imported from its file (it is not in a package;
    registered under its name first, as its dataclasses need)."""
    spec = importlib.util.spec_from_file_location(
        "make_review_image", IMAGES / "make_review_image.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_report_and_the_diff_are_what_curator_and_git_write_for_the_pull_request(
    loopback: LoopbackServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "list").mkdir()
    monkeypatch.chdir(tmp_path / "list")
    report, pull = review_report(loopback, tmp_path, monkeypatch.setenv)
    if os.environ.get("CURATOR_REGENERATE_DOCS") == "1":
        REPORT.write_text(report, encoding="utf-8")
        PULL.write_text(pull, encoding="utf-8")
    assert REPORT.read_text(encoding="utf-8") == report
    assert PULL.read_text(encoding="utf-8") == pull


def test_the_script_and_its_inputs_are_in_the_repository() -> None:
    make = maker()
    assert make.REPORT == REPORT and make.PULL == PULL
    assert REPORT.is_file() and PULL.is_file() and make.CSS.is_file()
    for image in (make.IMAGE, make.SUGGESTION_IMAGE):
        png = image.read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) < MAX_BYTES, image.name


def test_the_pull_request_shows_each_kind_of_mistake_and_its_fix() -> None:
    saved = read_saved(REPORT)
    codes = {f.code for f in saved.report.findings}
    wanted = {"arxiv-title-mismatch", "arxiv-not-found", "arxiv-date-mismatch", "repo-moved"}
    # A class the policy excludes is a likely exclude for a maintainer: a warning.
    assert wanted | {"scope-review"} <= codes
    fixed = {code for fix in saved.fixes or () for code in fix.codes}
    assert fixed == wanted
    exclude = next(r for r in saved.report.entries if r.verdict and r.verdict.value == "exclude")
    assert exclude.scope is not None and exclude.scope.quotes  # the verdict quotes its proof
    assert exclude.scope.reason.startswith("likely exclude: ")


def test_the_title_shown_is_the_same_paper_retitled() -> None:
    # curator fixes a title only when arXiv's is the same paper's: another paper's title
    # would make the ID the mistake, with no title suggested.
    saved = read_saved(REPORT)
    finding = next(f for f in saved.report.findings if f.code == "arxiv-title-mismatch")
    entry = next(r.entry for r in saved.report.entries if r.entry.subject == finding.subject)
    want = want_of(finding, entry)
    assert want is not None and want.change == "title" and not want.unsafe


def test_the_comment_image_shows_the_comment_of_the_committed_report() -> None:
    make = maker()
    markdown = make.comment_markdown()
    assert markdown.startswith("<!-- curator:report -->")
    assert "arxiv-title-mismatch" in markdown and "repo-moved" in markdown
    assert "4 one-click suggestions** in [curator's review](" in markdown
    shown = make.text_chunks(make.IMAGE.read_bytes()).get(make.DIGEST_KEY)
    assert shown == make.digest(markdown), REMAKE


def test_the_suggestion_image_shows_curators_review_of_the_committed_report() -> None:
    make = maker()
    shown = make.review_shown()
    assert shown.body.startswith(MARKER) and "4 one-click suggestions" in shown.body
    assert shown.comment["body"].startswith(COMMENT_MARKER)
    assert "```suggestion\n" in shown.comment["body"]
    assert shown.comment["path"] == "data/papers/methods.yaml"
    assert shown.replaced == ('  - title: "MemFit: Efficient Long-Term Agent Memory"',)
    assert shown.diff[-1].kind == "+" and shown.diff[-1].new == shown.comment["line"]
    png = make.SUGGESTION_IMAGE.read_bytes()
    assert make.text_chunks(png).get(make.DIGEST_KEY) == make.digest(make.review_text(shown)), (
        REMAKE
    )


def test_the_suggestion_is_drawn_as_github_draws_one() -> None:
    make = maker()
    shown = make.review_shown()
    page = make.review_page(shown)
    assert "Suggested change" in page and "Commit suggestion" in page
    assert '<span class="word">Agent</span>' in page
    assert '<span class="word">Agentic</span>' in page
    assert "```" not in page  # the block became the box, not a code listing


@pytest.mark.parametrize(
    ("module", "name", "image"),
    [
        (markdown_report, "verdict_line", "IMAGE"),  # the sticky comment's renderer
        (review, "review_body", "SUGGESTION_IMAGE"),  # the review's text
        (review, "comment_body", "SUGGESTION_IMAGE"),  # a review comment's text
    ],
)
def test_a_changed_renderer_no_longer_matches_its_image(
    monkeypatch: pytest.MonkeyPatch, module: ModuleType, name: str, image: str
) -> None:
    make = maker()
    shows = {"IMAGE": make.comment_markdown, "SUGGESTION_IMAGE": review_text}
    assert mark(getattr(make, image)) == make.digest(shows[image]())
    monkeypatch.setattr(module, name, lambda *args: "changed")
    assert mark(getattr(make, image)) != make.digest(shows[image]())


def review_text() -> str:
    """What the review picture shows, as the script computes it now."""
    make = maker()
    return str(make.review_text(make.review_shown()))


def mark(image: Path) -> str:
    """The digest an image carries."""
    make = maker()
    return str(make.text_chunks(image.read_bytes())[make.DIGEST_KEY])


def test_the_digest_chunk_round_trips() -> None:
    make = maker()
    png = make.IMAGE.read_bytes()
    marked = make.with_text(png, b"k", "v")
    assert make.text_chunks(marked)[b"k"] == "v"
    assert len(marked) == len(png) + 12 + 3
