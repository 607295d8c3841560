"""The README's picture of a review: its report is what curator really writes for the pull
request of review_run.py, and the image shows the comment `curator comment` posts for it.

Regenerate the report with `CURATOR_REGENERATE_DOCS=1 python -m pytest tests/docs`, then the
image with `python docs/images/make_review_image.py` (it needs Chromium). No test here needs
Chromium: the image carries the SHA-256 of the comment it shows.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import ROOT
from tests.docs.review_run import REPORT, review_report
from tests.doubles.server import LoopbackServer

IMAGES = ROOT / "docs" / "images"
REMAKE = "run: python docs/images/make_review_image.py (apt-get install -y chromium)"


def maker() -> ModuleType:
    """docs/images/make_review_image.py, imported from its file (it is not in a package)."""
    spec = importlib.util.spec_from_file_location(
        "make_review_image", IMAGES / "make_review_image.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_report_is_what_curator_writes_for_the_pull_request(
    loopback: LoopbackServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "list").mkdir()
    monkeypatch.chdir(tmp_path / "list")
    text = review_report(loopback, tmp_path, monkeypatch.setenv)
    if os.environ.get("CURATOR_REGENERATE_DOCS") == "1":
        REPORT.write_text(text, encoding="utf-8")
    assert REPORT.read_text(encoding="utf-8") == text


def test_the_script_and_its_inputs_are_in_the_repository() -> None:
    make = maker()
    assert make.REPORT == REPORT and make.REPORT.is_file()
    assert make.CSS.is_file() and make.IMAGE.is_file()
    assert make.IMAGE.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_image_shows_the_comment_of_the_committed_report() -> None:
    make = maker()
    markdown = make.comment_markdown(REPORT)
    assert markdown.startswith("<!-- curator:report -->")
    assert "arxiv-title-mismatch" in markdown and "repo-moved" in markdown
    shown = make.text_chunks(make.IMAGE.read_bytes()).get(make.DIGEST_KEY)
    assert shown == make.digest(markdown), REMAKE


def test_the_digest_chunk_round_trips() -> None:
    make = maker()
    png = make.IMAGE.read_bytes()
    marked = make.with_text(png, b"k", "v")
    assert make.text_chunks(marked)[b"k"] == "v"
    assert len(marked) == len(png) + 12 + 3
