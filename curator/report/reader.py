"""Reading a saved JSON report back (`curator comment`, `curator report`) as untrusted input.

The comment job takes the report from a pull request's artifact, which a fork controls. So
only a valid curator report (schema 1, checked against a JSON Schema) is accepted, and the
JSON itself is read strictly: no NaN or Infinity, no number too large for a float, no
nesting deeper than a report has. Anything else is one InputError line (exit 2). What the
renderers print without a sanitiser is closed too: request counters are CONTRACT.md's or
plain lower-case names, at most 32 of them, with bounded values. Every string the report
holds is still untrusted: the renderers pass each through curator/console/sanitize.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema

from curator.core.decision import SCHEMA as DECISION_SCHEMA
from curator.core.decision import Decision
from curator.core.errors import InputError
from curator.core.model import (
    REQUEST_KEYS,
    Entry,
    EntryResult,
    Finding,
    Kind,
    Report,
    RequestCounts,
    Severity,
    Source,
    Verdict,
)
from curator.fix import suggest
from curator.fix.suggest import Suggestion
from curator.textio import json_text
from curator.textio.text import read_text

_SOURCE = {
    "type": "object",
    "required": ["file", "line"],
    "properties": {"file": {"type": "string"}, "line": {"type": "integer", "minimum": 0}},
}
_TEXT = {"type": "string"}
#: A count: a JSON integer (not a boolean), far above any real run's.
_COUNT = {"type": "integer", "minimum": 0, "maximum": 10**9}
#: A request counter: CONTRACT.md's, or a service's plain name (`counter.add(name)`); a
#: renderer prints the name in the footer, so nothing else is read.
COUNTER_NAME = "^[a-z][a-z0-9_]{0,31}$"
_REQUESTS = {
    "type": "object",
    "properties": dict.fromkeys(REQUEST_KEYS, _COUNT),
    "propertyNames": {"pattern": COUNTER_NAME},
    "additionalProperties": _COUNT,
    "maxProperties": 32,
}
_CODE = {"type": "string", "pattern": "^[a-z][a-z0-9-]{0,63}$"}
_LINE = {"type": "integer", "minimum": 1, "maximum": 10_000_000}
#: The optional `fixes` array (`check --suggest`): what a review may suggest, bounded.
_FIXES = {
    "type": "array",
    "maxItems": suggest.MAX_FIXES,
    "items": {
        "type": "object",
        "additionalProperties": False,
        "required": ["file", "first", "last", "old", "new", "codes", "subject", "safe"],
        "properties": {
            "file": {"type": "string", "minLength": 1, "maxLength": 1024},
            "first": _LINE,
            "last": _LINE,
            "old": {"type": "string", "maxLength": suggest.MAX_TEXT},
            "new": {"type": "string", "maxLength": suggest.MAX_TEXT},
            "codes": {
                "type": "array",
                "minItems": 1,
                "maxItems": suggest.MAX_CODES,
                "items": _CODE,
            },
            "subject": {"type": "string", "maxLength": 2048},
            "safe": {"type": "boolean"},
        },
    },
}
#: What `--format json` writes (curator/report/json.py), as far as a renderer reads it.
SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["schema", "summary", "entries", "findings", "requests"],
    "properties": {
        "schema": {"const": 1},
        "summary": {
            "type": "object",
            "propertyNames": {"pattern": COUNTER_NAME},
            "additionalProperties": {"type": "integer"},
            "maxProperties": 32,
        },
        "entries": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["subject", "kind", "source"],
                "properties": {
                    "subject": _TEXT,
                    "kind": {"enum": [k.value for k in Kind]},
                    "title": _TEXT,
                    "date": _TEXT,
                    "source": _SOURCE,
                    "metadata": {"type": "object"},
                    "verdict": {"enum": [*(v.value for v in Verdict), None]},
                    "scope": DECISION_SCHEMA,
                    "links": {"type": "array", "items": {"type": "object"}},
                },
            },
        },
        "findings": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["code", "severity", "subject", "source", "message"],
                "properties": {
                    "code": {"type": "string", "pattern": "^[a-z][a-z0-9-]{0,63}$"},
                    "severity": {"enum": [s.value for s in Severity]},
                    "subject": _TEXT,
                    "source": _SOURCE,
                    "message": _TEXT,
                    "evidence": _TEXT,
                    "suggestion": _TEXT,
                },
            },
        },
        "requests": _REQUESTS,
        "notes": {"type": "array", "items": _TEXT},
        # A run is cut off long before a week (1e300 s would print 300 digits).
        "elapsed_seconds": {"type": "number", "minimum": 0, "maximum": 7 * 86400},
        "fixes": _FIXES,
    },
}
#: Deeper than any report (metadata of a scope decision nests a few levels).
MAX_DEPTH = 32


@dataclass(frozen=True)
class Saved:
    """A saved report and its `fixes` (None when the run planned none)."""

    report: Report
    fixes: tuple[Suggestion, ...] | None = None


def read_report(path: str | Path) -> Report:
    """The Report saved at `path`; InputError (one line) for anything but a valid report."""
    return read_saved(path).report


def read_saved(path: str | Path) -> Saved:
    """The report saved at `path` and its suggestions, both validated; InputError otherwise."""
    name = str(path)
    data = parse(read_text(Path(path), name), name)
    return Saved(load_report(data, name), load_fixes(data, name))


def parse(text: str, name: str) -> dict[str, Any]:
    """Strict JSON (curator.textio.json_text): finite numbers only, bounded nesting, an object at
    the top."""
    try:
        data = json_text.loads(text, MAX_DEPTH)
    except ValueError as exc:
        reason = json_text.reason(exc)
        raise InputError(f"not a curator JSON report: {reason}", name) from None
    if not isinstance(data, dict):
        raise InputError("not a curator JSON report: the top is not an object", name)
    return data


def load_report(data: Mapping[str, Any], name: str = "report") -> Report:
    """A Report from CONTRACT.md's JSON report, checked against SCHEMA first."""
    try:
        jsonschema.validate(data, SCHEMA)
    except jsonschema.ValidationError as exc:
        where = "/".join(str(p) for p in exc.absolute_path) or "top"
        reason = f"not a curator JSON report (malformed at {where}: {exc.message})"
        raise InputError(reason[:300], name) from None
    notes = tuple(data.get("notes") or ())
    return Report(
        tuple(_entry(e) for e in data["entries"]),
        tuple(_finding(f) for f in data["findings"]),
        RequestCounts(data["requests"]),
        notes,
        float(data.get("elapsed_seconds") or 0.0),
        pull_request=ran_on_pull_request(notes),
    )


#: How the pipeline's note on a pull-request run begins (curator.run.pipeline).
PULL_REQUEST_NOTE = "pull-request mode"


def ran_on_pull_request(notes: Sequence[str]) -> bool:
    """Whether a saved report came from a pull-request run: the JSON report does not carry
    `Report.pull_request`, but the run's first note says it."""
    return any(note.startswith(PULL_REQUEST_NOTE) for note in notes)


def _source(raw: Mapping[str, Any]) -> Source:
    return Source(raw["file"], raw["line"])


def _entry(raw: Mapping[str, Any]) -> EntryResult:
    entry = Entry(
        raw["subject"],
        Kind(raw["kind"]),
        _source(raw["source"]),
        title=raw.get("title") or "",
        date=raw.get("date") or "",
    )
    verdict = Verdict(raw["verdict"]) if raw.get("verdict") else None
    scope = Decision.from_dict(raw["scope"]) if raw.get("scope") else None
    return EntryResult(entry, raw.get("metadata") or {}, verdict, scope)


def _finding(raw: Mapping[str, Any]) -> Finding:
    return Finding(
        raw["code"],
        Severity(raw["severity"]),
        raw["subject"],
        _source(raw["source"]),
        raw["message"],
        raw.get("evidence") or "",
        raw.get("suggestion") or "",
    )


def load_fixes(data: Mapping[str, Any], name: str = "report") -> tuple[Suggestion, ...] | None:
    """The report's `fixes` (already shaped by SCHEMA), each checked: a file name inside the
    tree, sane lines, text that spans exactly those lines. None when the report has none."""
    raw = data.get("fixes")
    if raw is None:
        return None
    found = []
    for i, item in enumerate(raw):
        fix = Suggestion(
            item["file"],
            item["first"],
            item["last"],
            item["old"],
            item["new"],
            tuple(item["codes"]),
            item["subject"],
            item["safe"],
        )
        reason = _fix_problem(fix)
        if reason:
            raise InputError(f"not a curator JSON report (malformed at fixes/{i}: {reason})", name)
        found.append(fix)
    return tuple(found)


def _fix_problem(fix: Suggestion) -> str:
    """Why a suggestion cannot be one curator made, or "" (suggest.problem: the writer
    leaves out what a reader refuses)."""
    return suggest.problem(fix)
