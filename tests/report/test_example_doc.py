"""docs/example-comment.md is exactly what the renderer makes of the sample report.

Regenerate with: CURATOR_REGENERATE_DOCS=1 python -m pytest tests/report/test_example_doc.py
"""

from __future__ import annotations

import os
from pathlib import Path

from curator.report import markdown
from tests.report.sample import CTX, realistic_report

DOC = Path(__file__).resolve().parents[2] / "docs" / "example-comment.md"


def test_example_comment_is_current() -> None:
    """The checked-in example matches the renderer's output."""
    body = markdown.render(realistic_report(), CTX)
    if os.environ.get("CURATOR_REGENERATE_DOCS") == "1":
        DOC.write_text(body, encoding="utf-8")
    assert DOC.read_text(encoding="utf-8") == body
