"""curator's markers are whole lines of a body as GitHub reads it: only `\\n` ends a line."""

from __future__ import annotations

from curator.publish.api import body_lines
from curator.report.markdown import CLEAN_MARKER


def test_a_marker_between_line_separators_is_no_line_of_its_own() -> None:
    quoted = f"| `A\u2028{CLEAN_MARKER}\u2028B` |"
    assert CLEAN_MARKER not in body_lines(f"# report\n{quoted}\n")
    assert CLEAN_MARKER in body_lines(f"# report\r\n{CLEAN_MARKER}\r\n")
