"""Case folders (tests/cases/fix/<case>/): a list as written, the findings a check made of it,
and the list as `curator fix --unsafe` must leave it, byte for byte.

`findings.json` gives each finding's code, line, subject, suggestion (and evidence) and whether
it is fixed; everything not fixed must be left. A new layout or bug is a new folder.
"""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest

from curator.core.codes import CODES
from curator.core.model import EntryResult, Finding, Report, Source
from curator.fix.plan import plan_fixes
from curator.fix.verify import read_entries

CASES = Path(__file__).resolve().parents[1] / "cases" / "fix"


def case_names() -> list[str]:
    return sorted(p.name for p in CASES.iterdir() if p.is_dir())


def load(case: Path) -> tuple[str, bytes, Report, list[dict[str, object]]]:
    """The file's name as curator would name it, its bytes, the report, the findings' specs."""
    source = next(case.glob("input.*"))
    name = "papers.yaml" if source.suffix == ".yaml" else "README.md"
    data = source.read_bytes()
    text = data.decode("utf-8-sig")
    entries = read_entries(name, text)
    assert entries, case
    specs = json.loads((case / "findings.json").read_text(encoding="utf-8"))
    findings = tuple(finding(s, name) for s in specs)
    return name, data, Report(tuple(EntryResult(e) for e in entries), findings), specs


def finding(spec: dict[str, object], name: str) -> Finding:
    """The finding a check would have made, from its spec."""
    code = str(spec["code"])
    return Finding(
        code,
        CODES[code][0],
        str(spec["subject"]),
        Source(name, int(str(spec["line"]))),
        "m",
        str(spec.get("evidence", "")),
        str(spec.get("suggestion", "")),
    )


@pytest.mark.parametrize("case", case_names())
def test_case(case: str) -> None:
    folder = CASES / case
    name, data, report, specs = load(folder)
    bom = codecs.BOM_UTF8 if data.startswith(codecs.BOM_UTF8) else b""
    text = data[len(bom) :].decode("utf-8")
    plan = plan_fixes(report, {name: text})
    fixes = plan.fixes(unsafe=True)
    after = fixes[0].after if fixes else text
    expected = next(folder.glob("expected.*")).read_bytes()
    assert bom + after.encode("utf-8") == expected
    fixed = {(f.code, f.source.line) for f in plan.fixed(unsafe=True)}
    wanted = {(str(s["code"]), int(str(s["line"]))) for s in specs if s["fixed"]}
    assert fixed == wanted
    assert {(f.code, f.source.line) for f in plan.left} == {
        (str(s["code"]), int(str(s["line"]))) for s in specs if not s["fixed"]
    }
    # The edits read back as the same entries, on the same lines.
    assert len(read_entries(name, after) or []) == len(report.entries)
    assert after.count("\n") == text.count("\n")
