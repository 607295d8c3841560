"""docs/example-comment-iaar.md: the comment curator writes for the real iaar sample list,
checked against the loopback arXiv and GitHub doubles (seeded from the list itself, with one
fault of each kind injected, as in test_end_to_end.py). Regenerate with:
CURATOR_REGENERATE_DOCS=1 python -m pytest tests/integration/test_example_comment.py
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from curator.report import markdown
from curator.report.render_context import RenderContext
from tests.conftest import SAMPLES
from tests.doubles.server import LoopbackServer
from tests.integration.test_end_to_end import World

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "example-comment-iaar.md"
SAMPLE = SAMPLES / "iaar-awesome-ai-memory.README.excerpt.md"


def test_example_comment_is_current(
    loopback: LoopbackServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(SAMPLES)  # report paths relative to the list, as in its own repository
    world = World(loopback, [SAMPLE.name], tmp_path)
    world.inject()
    report = replace(world.check(), elapsed=2.4)  # a fixed time keeps the file stable
    ctx = RenderContext(
        repository="IAAR-Shanghai/Awesome-AI-Memory",
        head_sha="0000000000000000000000000000000000000000",
        run_url="https://github.com/IAAR-Shanghai/Awesome-AI-Memory/actions/runs/1",
        title="curator report",
    )
    text = markdown.render(report, ctx)
    assert text.startswith(markdown.MARKER)
    if os.environ.get("CURATOR_REGENERATE_DOCS") == "1":
        DOC.write_text(text, encoding="utf-8")
    assert DOC.read_text(encoding="utf-8") == text
