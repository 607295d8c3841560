"""The reliability table: rows recorded by the tests, rendered as docs/reliability.md.

Each reliability test records one `Row` per case through the `record` fixture, into `ROWS`.
`python -m tests.reliability.write_doc` runs the folder and renders the rows here.
`declared()` lists every case the suite's modules declare, so a test can hold the committed
table to the suite.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from tests.reliability.outages import OUTAGES
from tests.reliability.threat_model import THREAT_MODEL

DOC = Path(__file__).resolve().parents[2] / "docs" / "reliability.md"
#: Modules that declare `CASES = {case: category}`; their tests record every one of them.
MODULES = (
    "test_faults", "test_hostile", "test_properties", "test_state", "test_tokens",
    "test_no_network", "test_trust", "test_reading", "test_could_not_tell", "test_publishing",
)  # fmt: skip
CATEGORY_TITLES = {
    "fault": "Faults injected (survived: exit 0, right findings, clean cache, in budget)",
    "hostile": "Hostile inputs (refused or rendered inert, no traceback)",
    "property": "Property tests (hypothesis)",
    "state": "Concurrency and state",
    "token": "Token hygiene",
    "attack": "Attacks (issues 12 and 29: no network, hostile pull requests, hidden text)",
}
_ROW = re.compile(r"^\| (?P<category>[a-z]+) \| `(?P<case>[^`]+)` \|")


@dataclass(frozen=True)
class Row:
    """One case's result: what was done, what happened, and its counts."""

    category: str
    case: str
    outcome: str
    faults: int = 0
    hostile: int = 0
    refused: int = 0
    refused_requests: int = 0
    seconds: float = 0.0
    figures: dict[str, int] = field(default_factory=dict)


#: The rows this process's tests recorded (write_doc.py renders them).
ROWS: list[Row] = []


def declared() -> dict[str, str]:
    """Every case of the suite, case -> category, from the test modules' CASES tables."""
    out: dict[str, str] = {}
    for name in MODULES:
        module = importlib.import_module(f"tests.reliability.{name}")
        for case, category in module.CASES.items():
            if case in out:
                raise ValueError(f"case {case!r} declared twice")
            out[case] = category
    return out


def documented(text: str) -> dict[str, str]:
    """case -> category of every row of a rendered table."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        match = _ROW.match(line)
        if match:
            out[match["case"]] = match["category"]
    return out


def totals(rows: Iterable[Row]) -> dict[str, int]:
    """The headline figures over all rows."""
    rows = list(rows)
    return {
        "faults": sum(r.faults for r in rows if r.category == "fault"),
        "fault_cases": sum(1 for r in rows if r.category == "fault"),
        "hostile": sum(r.hostile for r in rows),
        "refused": sum(r.refused for r in rows),
        "refused_requests": sum(r.refused_requests for r in rows),
        "cases": len(rows),
    }


#: The round-4 attacks on this session's features (issue 29): plain tests, one row per test
#: function, with how many cases (parameters) it ran and passed.
ATTACKS = Path(__file__).resolve().parents[1] / "attack29"
_ATTACK_ROW = re.compile(r"^\| `(?P<test>tests/attack29/[^`]+)` \|")


def attack_tests() -> set[str]:
    """Every test function of tests/attack29, as `file::name`."""
    found: set[str] = set()
    for path in sorted(ATTACKS.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found |= {
            f"tests/attack29/{path.name}::{node.name}"
            for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
        }
    return found


def attack_section(passed: Mapping[str, int]) -> str:
    """The round-4 attacks' table: each test function and the cases it passed."""
    lines = [
        "## Attacks on this session's features (issue 29, round 4: tests/attack29)",
        "",
        "Each row is a test function of tests/attack29 (what it attacks, held or fixed, is in",
        "[threat-model.md](threat-model.md#attacks-on-this-sessions-features-issue-29-round-4)).",
        "",
        "| test | cases passed |",
        "| --- | --- |",
    ]
    lines += [f"| `{test}` | {passed[test]} |" for test in sorted(passed)]
    return "\n".join(lines) + "\n"


def documented_attacks(text: str) -> set[str]:
    """The attack tests a rendered doc lists."""
    return {m["test"] for line in text.splitlines() if (m := _ATTACK_ROW.match(line))}


def render(rows: Iterable[Row], seconds: float, attacks: Mapping[str, int] | None = None) -> str:
    """docs/reliability.md for these rows (sorted by category order, then case)."""
    order = list(CATEGORY_TITLES)
    rows = sorted(rows, key=lambda r: (order.index(r.category), r.case))
    t = totals(rows)
    lines = [
        "# Reliability",
        "",
        "Generated by `python -m tests.reliability.write_doc` from the",
        "results of that run; a test fails when these rows and the suite's cases differ.",
        "Every service is a double on loopback; every case runs the whole `curator check`.",
        "",
        "| figure | value |",
        "| --- | --- |",
        f"| faults injected (replies served by the doubles) | {t['faults']} |",
        f"| fault cases survived (exit 0, right findings, clean cache) "
        f"| {t['fault_cases']} of {t['fault_cases']} |",
        f"| hostile inputs tried | {t['hostile']} |",
        f"| hostile inputs refused or rendered inert | {t['refused']} |",
        f"| requests that reached a refused address | {t['refused_requests']} |",
        f"| cases | {t['cases']} |",
        f"| suite time | {seconds:.1f} s |",
        "",
    ]
    for category in order:
        chosen = [r for r in rows if r.category == category]
        if not chosen:
            continue
        lines += [f"## {CATEGORY_TITLES[category]}", ""]
        lines += ["| category | case | outcome | figures |", "| --- | --- | --- | --- |"]
        lines += [f"| {r.category} | `{r.case}` | {r.outcome} | {_figures(r)} |" for r in chosen]
        lines.append("")
    if attacks:
        lines += [attack_section(attacks)]
    return "\n".join(lines) + "\n" + OUTAGES + "\n" + THREAT_MODEL


def _figures(row: Row) -> str:
    """The counts of one row, e.g. `5 faults, 1.2 s`."""
    parts = [f"{n} {name}" for name, n in row.figures.items()]
    if row.faults:
        parts.append(f"{row.faults} faults")
    if row.hostile:
        parts.append(f"{row.refused}/{row.hostile} refused")
    if row.category == "hostile" or row.refused_requests:
        parts.append(f"{row.refused_requests} requests to refused addresses")
    parts.append(f"{row.seconds:.1f} s")
    return ", ".join(parts)
