"""SARIF 2.1.0 output: valid against the official OASIS schema, one rule per code, plain text."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from curator.cli import main
from curator.core.codes import CODES
from curator.core.model import Finding, Report, Severity, Source
from curator.report import sarif
from tests.report.sample import CTX, HOSTILE, clean_report, hostile_report, realistic_report

# The OASIS SARIF TC's published schema, byte for byte (see SARIF-SCHEMA.md).
SCHEMA_PATH = Path(__file__).parent / "sarif-schema-2.1.0.json"
SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))

# RFC 3986 grammar, written out because jsonschema checks "uri" only with the optional rfc3987
# package (not installed) and never checks "uri-reference" under draft 4.
_PCT = r"%[0-9A-Fa-f]{2}"
_PCHAR_NC = rf"(?:[A-Za-z0-9\-._~!$&'()*+,;=@]|{_PCT})"  # pchar without ":"
_PCHAR = rf"(?:{_PCHAR_NC}|:)"
_HOST = rf"(?:\[[0-9A-Za-z:.\-_~!$&'()*+,;=]+\]|(?:[A-Za-z0-9\-._~!$&'()*+,;=]|{_PCT})*)"
_AUTHORITY = rf"(?:(?:[A-Za-z0-9\-._~!$&'()*+,;=:]|{_PCT})*@)?{_HOST}(?::[0-9]*)?"
_TAIL = rf"(?:\?(?:{_PCHAR}|[/?])*)?(?:#(?:{_PCHAR}|[/?])*)?"
_SUFFIX = rf"(?:/{_PCHAR}*)*"
URI = re.compile(
    rf"[A-Za-z][A-Za-z0-9+\-.]*:(?://{_AUTHORITY}{_SUFFIX}|/?(?:{_PCHAR}+{_SUFFIX})?){_TAIL}"
)
RELATIVE_REF = re.compile(
    rf"(?://{_AUTHORITY}{_SUFFIX}|/(?:{_PCHAR}+{_SUFFIX})?|{_PCHAR_NC}+{_SUFFIX}|){_TAIL}"
)

FORMATS = jsonschema.FormatChecker()
FORMATS.checkers = dict(jsonschema.Draft4Validator.FORMAT_CHECKER.checkers)


@FORMATS.checks("uri")
def _is_uri(value: object) -> bool:
    return not isinstance(value, str) or URI.fullmatch(value) is not None


@FORMATS.checks("uri-reference")
def _is_uri_reference(value: object) -> bool:
    if not isinstance(value, str):
        return True
    return URI.fullmatch(value) is not None or RELATIVE_REF.fullmatch(value) is not None


def schema_errors(log: dict[str, Any], formats: jsonschema.FormatChecker = FORMATS) -> list[str]:
    """Every violation of the official SARIF 2.1.0 schema, as path: message."""
    checker = jsonschema.Draft4Validator(SCHEMA, format_checker=formats)
    return [f"{list(e.absolute_path)}: {e.message}" for e in checker.iter_errors(log)]


def test_the_schema_is_the_official_one() -> None:
    """The stored file is the OASIS schema as published: its title, size and a valid draft 4."""
    text = SCHEMA_PATH.read_text(encoding="utf-8")
    assert len(text) == 112_768
    assert SCHEMA["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    assert SCHEMA["$schema"] == "http://json-schema.org/draft-04/schema#"
    jsonschema.Draft4Validator.check_schema(SCHEMA)


@pytest.mark.parametrize(
    "report",
    [realistic_report(), clean_report(), hostile_report()],
    ids=["real", "clean", "hostile"],
)
@pytest.mark.parametrize("ctx", [None, CTX], ids=["no-ctx", "ctx"])
def test_rendered_logs_validate(report: Report, ctx: object) -> None:
    """Realistic, clean and hostile reports render to logs the official schema accepts."""
    log = json.loads(sarif.render(report, ctx))
    assert schema_errors(log) == []
    assert len(log["runs"][0]["results"]) == len(report.findings)


@pytest.fixture
def catalogue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A duplicate, then a bad arXiv ID with a date that is no date, in a file whose name has
    a space."""
    (tmp_path / "pyproject.toml").write_text("[tool.curator]\n", encoding="utf-8")
    data = tmp_path / "data"
    data.mkdir()
    (data / "my papers.yaml").write_text(
        "section: Test\n"
        "papers:\n"
        '  - {title: "MemGPT", arxiv: "2310.08560", date: "2023-10-12"}\n'
        '  - {title: "MemGPT again", arxiv: "2310.08560v2", date: "2023-10-12"}\n'
        '  - {title: "Bad id", arxiv: "not-an-id", date: "someday"}\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    return data


def test_a_real_check_run_validates(catalogue: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`curator check --format sarif` on a catalogue, offline by --skip, writes a valid log."""
    out = catalogue.parent / "report.sarif"
    skip = "arxiv,github,web,scope"
    status = main(["check", "data", "--skip", skip, "--format", "sarif", "--output", str(out)])
    assert status == 1, capsys.readouterr().err
    log = json.loads(out.read_text(encoding="utf-8"))
    assert schema_errors(log) == []
    results = log["runs"][0]["results"]
    codes = [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]) for r in results]
    assert sorted(codes, key=str) == sorted(
        [
            ("entry-duplicate", {"startLine": 4}),
            ("arxiv-bad-id", {"startLine": 5}),
            ("entry-invalid", {"startLine": 5}),
        ],
        key=str,
    )
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
    assert uris == {"data/my%20papers.yaml"}


def test_schema_rejects_a_broken_log() -> None:
    """The official schema with format checks fails a bad level, no message, a raw space."""
    log = json.loads(sarif.render(realistic_report()))
    results = log["runs"][0]["results"]
    results[0]["level"] = "fatal"
    del results[1]["message"]
    results[2]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] = "data/a b.yaml"
    log["runs"][0]["tool"]["driver"]["informationUri"] = "not a uri"
    errors = schema_errors(log)
    assert len(errors) == 4, errors
    assert any("'fatal' is not one of" in e for e in errors)
    assert any("'message' is a required property" in e for e in errors)
    assert any("'data/a b.yaml' is not a 'uri-reference'" in e for e in errors)
    assert any("'not a uri' is not a 'uri'" in e for e in errors)


@pytest.mark.parametrize(
    ("value", "uri", "reference"),
    [
        ("https://github.com/", True, True),
        ("https://json.schemastore.org/sarif-2.1.0.json", True, True),
        ("data/my%20list.yaml", False, True),
        ("data/papers/2024.yaml", False, True),
        ("/data/x.yaml?q=1#frag", False, True),
        ("data/my list.yaml", False, False),
        ("data/100%.yaml", False, False),
        ("a:b/c.yaml", True, True),
        ("not a uri", False, False),
        ("https://exa mple.com/", False, False),
    ],
)
def test_uri_formats_follow_rfc_3986(value: str, uri: bool, reference: bool) -> None:
    """The format checks added above accept RFC 3986 forms and refuse raw spaces and stray %."""
    assert FORMATS.conforms(value, "uri") is uri
    assert FORMATS.conforms(value, "uri-reference") is reference


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
    log = sarif.as_dict(Report((), (f,)))
    loc = log["runs"][0]["results"][0]["locations"][0]
    assert loc["physicalLocation"] == {
        "artifactLocation": {"uri": "data/my%20list.yaml", "uriBaseId": "%SRCROOT%"}
    }
    assert schema_errors(log) == []


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
