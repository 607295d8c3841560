"""The reliability collector: every case records a row into `table.ROWS`.

Nothing is written during a test run, so the suite runs in parallel and leaves the tree as it
found it. `python -m tests.reliability.write_doc` runs this folder alone, in one process, and
renders docs/reliability.md from the rows when every declared case recorded one and all passed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.reliability.table import ROWS, Row, declared

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
