"""The committed docs/reliability.md matches the suite: one row per declared case."""

from __future__ import annotations

import os

import pytest

from tests.reliability.outages import OUTAGES
from tests.reliability.table import (
    DOC,
    Row,
    attack_tests,
    declared,
    documented,
    documented_attacks,
    render,
    totals,
)

#: The run that regenerates the doc cannot check the doc it is about to write.
REWRITING = pytest.mark.skipif(
    os.environ.get("CURATOR_WRITE_DOCS") == "1", reason="this run rewrites docs/reliability.md"
)


@REWRITING
def test_committed_table_rows_are_the_suites_cases() -> None:
    assert DOC.is_file(), "run python -m tests.reliability.write_doc"
    assert documented(DOC.read_text(encoding="utf-8")) == declared()


@REWRITING
def test_committed_table_says_no_request_reached_a_refused_address() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert "| requests that reached a refused address | 0 |" in text


def test_render_and_documented_round_trip() -> None:
    rows = [
        Row("fault", "a-case", "exit 0", faults=3),
        Row("hostile", "b", "exit 2", hostile=1, refused=1),
    ]
    assert documented(render(rows, 1.0)) == {"a-case": "fault", "b": "hostile"}
    assert totals(rows)["faults"] == 3 and totals(rows)["refused"] == 1


def test_the_outages_section_is_rendered_and_committed() -> None:
    assert OUTAGES in render([Row("fault", "a-case", "exit 0", faults=1)], 1.0)
    assert OUTAGES in DOC.read_text(encoding="utf-8")


@REWRITING
def test_committed_table_lists_every_round_4_attack() -> None:
    assert documented_attacks(DOC.read_text(encoding="utf-8")) == attack_tests()
