"""The lead's format table reaches these renderers, with or without a RenderContext."""

from __future__ import annotations

import json

import pytest
from markdown_it import MarkdownIt

from curator.report.interface import Format, renderer
from tests.report.sample import CTX, hostile_report


@pytest.mark.parametrize("fmt", [Format.MARKDOWN, Format.SARIF, Format.GITHUB])
@pytest.mark.parametrize("ctx", [None, CTX])
def test_renderers_accept_none_or_context(fmt: Format, ctx: object) -> None:
    """The CLI may pass no context; every format still renders the hostile report inertly."""
    out = renderer(fmt)(hostile_report(), ctx)
    assert out.endswith("\n")
    if fmt is Format.MARKDOWN:
        html = MarkdownIt("commonmark").enable("table").render(out)
        assert "<img" not in html and "<!-- hidden" not in html
    if fmt is Format.SARIF:
        assert json.loads(out)["version"] == "2.1.0"
    if fmt is Format.GITHUB:
        assert all(line.startswith("::") for line in out.splitlines())
