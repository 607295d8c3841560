"""Property tests of the document parser: random Markdown and HTML never crash it.

Fragments are assembled from the pieces awesome-lists are made of (paper rows, tables,
links, badges, headings) and from arbitrary text, then cut and shuffled. DocumentSource
must return entries or refuse with InputError, and every entry's line must be in the file.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from curator.core.errors import InputError
from curator.sources.document import DocumentSource
from tests.reliability.conftest import Record

CASES = {"document-parser-random-fragments": "property"}
PIECES = (
    "# Title\n",
    "## Papers\n",
    "<details>\n<summary><strong>Memory</strong></summary>\n",
    "</details>\n",
    "<table>\n",
    "</table>\n",
    "<tr>\n",
    "</tr>\n",
    '<td rowspan="2">',
    "2025-03-04",
    "</td>\n",
    '<td colspan="3">',
    "<td><strong>A Paper</strong></td>\n",
    '<a href="https://arxiv.org/abs/2503.01234v2">',
    '<a href="https://github.com/Org/Repo">',
    '<a href="javascript:alert(1)">',
    "</a>",
    '<img src="https://img.shields.io/badge/x-blue">',
    "• bullet<br>\n",
    "| Name | Time | Category |\n",
    "|---|---|---|\n",
    "| [Mem0](https://github.com/mem0ai/mem0) | 2024-07 | Layers |\n",
    "- [Repo](https://github.com/a/b) text\n",
    "[![badge](https://x/y.svg)](https://github.com/c/d)\n",
    "```\ncode\n```\n",
    "<!-- comment -->\n",
    "<",
    ">",
    "&amp;",
    "\n",
    "\r\n",
    "\t",
    "`",
    "|",
)
FRAGMENT = st.lists(
    st.one_of(st.sampled_from(PIECES), st.text(max_size=20)), min_size=0, max_size=60
).map("".join)
EXAMPLES = 150
_SEEN: list[int] = []


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(FRAGMENT)
def _parse_never_crashes(text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "README.md"
        path.write_text(text, encoding="utf-8", newline="")
        _SEEN.append(1)
        try:
            loaded = DocumentSource().load(path)
        except InputError:
            return
        lines = max(1, len(path.read_bytes().splitlines()) + 1)
        for entry in loaded.entries:
            assert 1 <= entry.source.line <= lines, (entry.source, lines)
        for finding in loaded.findings:
            assert 0 <= finding.source.line <= lines, (finding.source, lines)


@pytest.mark.slow
def test_document_parser_never_crashes_on_random_fragments(record: Record) -> None:
    _SEEN.clear()
    _parse_never_crashes()
    record(
        "document-parser-random-fragments",
        "no crash; every entry line within the file",
        figures={"fragments": len(_SEEN)},
    )
