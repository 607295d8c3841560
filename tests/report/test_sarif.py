"""SARIF 2.1.0 output: valid against the schema subset, one rule per code, plain-text messages."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from curator.codes import CODES
from curator.model import Finding, Report, Severity, Source
from curator.report import sarif
from tests.report.sample import CTX, HOSTILE, hostile_report, realistic_report

SCHEMA = json.loads((Path(__file__).parent / "sarif-2.1.0-subset.schema.json").read_text())


@pytest.mark.parametrize("report", [realistic_report(), hostile_report()])
def test_validates_against_schema(report: Report) -> None:
    """Both the realistic and the hostile report validate (uri-reference format included)."""
    log = json.loads(sarif.render(report, CTX))
    checker = jsonschema.Draft7Validator(SCHEMA, format_checker=jsonschema.FormatChecker())
    errors = [e.message for e in checker.iter_errors(log)]
    assert errors == []


def test_schema_rejects_a_broken_log() -> None:
    """The schema subset is strict enough to fail a result without a message or bad level."""
    log = json.loads(sarif.render(realistic_report()))
    log["runs"][0]["results"][0]["level"] = "fatal"
    del log["runs"][0]["results"][1]["message"]
    assert len(list(jsonschema.Draft7Validator(SCHEMA).iter_errors(log))) == 2


def test_rules_are_the_finding_codes() -> None:
    """Every code in CODES is a rule with its description and default level; ruleIndex fits."""
    log = json.loads(sarif.render(realistic_report()))
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == list(CODES)
    by_id = {r["id"]: r for r in rules}
    assert by_id["repo-moved"]["defaultConfiguration"]["level"] == "warning"
    assert by_id["link-redirect"]["defaultConfiguration"]["level"] == "note"
    for res in log["runs"][0]["results"]:
        assert rules[res["ruleIndex"]]["id"] == res["ruleId"]


def test_results_levels_and_locations() -> None:
    """Levels map error/warning/info to error/warning/note; locations carry file and line."""
    results = json.loads(sarif.render(realistic_report()))["runs"][0]["results"]
    assert [r["level"] for r in results] == ["error", "warning", "warning", "note"]
    loc = results[0]["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "data/papers/2024.yaml"
    assert loc["region"] == {"startLine": 12}
    assert "Suggestion: https://github.com/mem0ai/mem0-core" in results[2]["message"]["text"]


def test_line_zero_has_no_region_and_odd_paths_are_encoded() -> None:
    """Unknown lines omit the region (startLine must be >= 1); spaces are percent-encoded."""
    f = Finding("entry-invalid", Severity.ERROR, "x", Source("data/my list.yaml", 0), "bad")
    loc = sarif.as_dict(Report((), (f,)))["runs"][0]["results"][0]["locations"][0]
    assert loc["physicalLocation"] == {
        "artifactLocation": {"uri": "data/my%20list.yaml", "uriBaseId": "%SRCROOT%"}
    }


def test_hostile_text_is_plain_one_line() -> None:
    """Messages are one line of plain text with no control characters."""
    results = json.loads(sarif.render(hostile_report()))["runs"][0]["results"]
    for res in results:
        text = res["message"]["text"]
        assert "\n" not in text and "\r" not in text
        assert "markdown" not in res["message"]
    assert HOSTILE.split()[1] in results[0]["message"]["text"]


def test_fingerprint_ignores_line_moves() -> None:
    """The partial fingerprint depends on code and subject, not on the line."""
    a = Finding("repo-stale", Severity.WARNING, "github:o/r", Source("f", 1), "m")
    b = Finding("repo-stale", Severity.WARNING, "github:o/r", Source("f", 9), "m")
    assert sarif.fingerprint(a) == sarif.fingerprint(b)
