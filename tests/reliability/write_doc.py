"""Regenerate docs/reliability.md: `python -m tests.reliability.write_doc`.

Runs tests/reliability and tests/attack29 in this one process (no workers: the rows are
collected here), then writes the table only when the run passed, every declared case recorded
exactly one row, and every attack test passed. The tests that compare the committed doc with
the suite skip themselves in this run.
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.reliability.table import ATTACKS, DOC, ROWS, attack_tests, declared, render

HERE = Path(__file__).resolve().parent
#: Read by test_table.py: the run that rewrites the doc cannot check the doc it replaces.
REWRITING = "CURATOR_WRITE_DOCS"


class AttackResults:
    """Counts the passed cases of each attack test function (`file::name`)."""

    def __init__(self) -> None:
        self.passed: Counter[str] = Counter()

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "call" and report.passed and report.nodeid.startswith("tests/attack29"):
            self.passed[report.nodeid.split("[", 1)[0]] += 1


def main() -> int:
    os.environ[REWRITING] = "1"
    started = time.monotonic()
    attacks = AttackResults()
    argv = ["-q", "-p", "no:xdist", str(HERE), str(ATTACKS)]
    status = int(pytest.main(argv, plugins=[attacks]))
    if status != 0:
        print(f"not written: the reliability suite exited {status}", file=sys.stderr)
        return status
    cases = [row.case for row in ROWS]
    missing = sorted(set(declared()) - set(cases))
    if missing or len(set(cases)) != len(cases):
        print(f"not written: cases without one row each: {missing or 'repeated'}", file=sys.stderr)
        return 1
    if set(attacks.passed) != attack_tests():
        print("not written: an attack test did not pass", file=sys.stderr)
        return 1
    seconds = time.monotonic() - started
    DOC.write_text(render(ROWS, seconds, dict(attacks.passed)), encoding="utf-8")
    print(f"wrote {DOC} ({len(ROWS)} cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
