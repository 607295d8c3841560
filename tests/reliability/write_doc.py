"""Regenerate docs/reliability.md: `python -m tests.reliability.write_doc`.

Runs tests/reliability in this one process (no workers: the rows are collected here), then
writes the table only when the run passed and every declared case recorded exactly one row.
The tests that compare the committed doc with the suite skip themselves in this run.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from tests.reliability.table import DOC, ROWS, declared, render

HERE = Path(__file__).resolve().parent
#: Read by test_table.py: the run that rewrites the doc cannot check the doc it replaces.
REWRITING = "CURATOR_WRITE_DOCS"


def main() -> int:
    os.environ[REWRITING] = "1"
    started = time.monotonic()
    status = int(pytest.main(["-q", "-p", "no:xdist", str(HERE)]))
    if status != 0:
        print(f"not written: the reliability suite exited {status}", file=sys.stderr)
        return status
    cases = [row.case for row in ROWS]
    missing = sorted(set(declared()) - set(cases))
    if missing or len(set(cases)) != len(cases):
        print(f"not written: cases without one row each: {missing or 'repeated'}", file=sys.stderr)
        return 1
    DOC.write_text(render(ROWS, time.monotonic() - started), encoding="utf-8")
    print(f"wrote {DOC} ({len(ROWS)} cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
