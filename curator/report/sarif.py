"""`--format sarif`: SARIF 2.1.0 for github/codeql-action/upload-sarif (code scanning)."""

from __future__ import annotations

import hashlib
import json
from typing import Any
from urllib.parse import quote

from curator import __version__
from curator.config.home import HOME
from curator.console.sanitize import plain
from curator.core.codes import CODES
from curator.core.model import Finding, Report, Severity

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFO_URI = HOME
LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def render(report: Report, ctx: object = None) -> str:
    """The report as a SARIF 2.1.0 log with one run; every finding code is a rule."""
    return json.dumps(as_dict(report), indent=2, ensure_ascii=False) + "\n"


def as_dict(report: Report) -> dict[str, Any]:
    """The SARIF log object."""
    index = {code: i for i, code in enumerate(CODES)}
    run = {
        "tool": {"driver": driver()},
        "results": [result(f, index) for f in report.findings],
        "columnKind": "unicodeCodePoints",
    }
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}


def driver() -> dict[str, Any]:
    """The tool component: curator with one rule per finding code."""
    return {
        "name": "curator",
        "semanticVersion": __version__,
        "informationUri": INFO_URI,
        "rules": [rule(code) for code in CODES],
    }


def rule(code: str) -> dict[str, Any]:
    """A reportingDescriptor for a finding code, its default level and description."""
    severity, meaning = CODES[code]
    return {
        "id": code,
        "name": "".join(part.capitalize() for part in code.split("-")),
        "shortDescription": {"text": f"{code}: {meaning}"},
        "fullDescription": {"text": meaning},
        "defaultConfiguration": {"level": LEVEL[severity]},
        "properties": {"tags": ["curator", code.split("-", 1)[0]]},
    }


def result(finding: Finding, index: dict[str, int]) -> dict[str, Any]:
    """One SARIF result at the finding's file and line."""
    out: dict[str, Any] = {
        "ruleId": finding.code,
        "level": LEVEL[finding.severity],
        "message": {"text": message(finding)},
        "locations": [location(finding)],
        # Stable across line moves, so code scanning tracks one alert per subject and code.
        "partialFingerprints": {"curatorSubject/v1": fingerprint(finding)},
        "properties": {"subject": plain(finding.subject)},
    }
    if finding.code in index:
        out["ruleIndex"] = index[finding.code]
    return out


def message(finding: Finding) -> str:
    """Plain text: message, quoted evidence and suggestion, with no embedded link."""
    text = plain(finding.message)
    if finding.evidence:
        text += f' Evidence: "{plain(finding.evidence)}".'
    if finding.suggestion:
        text += f" Suggestion: {plain(finding.suggestion)}"
    return text or finding.code


def location(finding: Finding) -> dict[str, Any]:
    """A physicalLocation relative to the repository root."""
    uri = quote(finding.source.file.lstrip("/").replace("\\", "/"), safe="/")
    physical: dict[str, Any] = {"artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"}}
    if finding.source.line > 0:
        physical["region"] = {"startLine": finding.source.line}
    return {"physicalLocation": physical}


def fingerprint(finding: Finding) -> str:
    """A short hash of code and subject."""
    return hashlib.sha256(f"{finding.code}\0{finding.subject}".encode()).hexdigest()[:32]
