"""The reliability collector: every case records a row; a passing full run writes the doc.

`record(...)` stores one Row per case in a session-level list. At the end of a session in
which every declared case recorded its row and nothing failed, and only when
CURATOR_WRITE_DOCS=1, `pytest_sessionfinish` writes docs/reliability.md from those rows.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.reliability.table import DOC, Row, declared, render

ROWS: list[Row] = []
#: Loaded at collection, just before the first reliability test runs.
_STARTED = time.monotonic()

Record = Callable[..., Row]


@pytest.fixture
def record() -> Record:
    """`record(case, outcome, **counts)`: store this case's row for the table."""

    def add(case: str, outcome: str, **counts: Any) -> Row:
        category = declared().get(case)
        assert category is not None, f"case {case!r} is not declared in any CASES table"
        row = Row(category, case, outcome, **counts)
        ROWS.append(row)
        return row

    return add


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Write docs/reliability.md when asked to, and only from a complete, passing run."""
    if os.environ.get("CURATOR_WRITE_DOCS") != "1" or exitstatus != 0 or not ROWS:
        return
    cases = {row.case for row in ROWS}
    if cases != set(declared()) or len(cases) != len(ROWS):
        return
    seconds = time.monotonic() - _STARTED
    DOC.write_text(render(ROWS, seconds), encoding="utf-8")
