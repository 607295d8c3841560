"""Reading a saved JSON report back (`curator comment`, `curator report`) as untrusted input.

The comment job takes the report from a pull request's artifact, which a fork controls. So
only a valid curator report (schema 1, checked against a JSON Schema) is accepted, and the
JSON itself is read strictly: no NaN or Infinity, no number too large for a float, no
nesting deeper than a report has. Anything else is one InputError line (exit 2). What the
renderers print without a sanitiser is closed too: request counters are CONTRACT.md's or
plain lower-case names, at most 32 of them, with bounded values. Every string the report
holds is still untrusted: the renderers pass each through curator/report/sanitize.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jsonschema

from curator import json_text
from curator.errors import InputError
from curator.model import (
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
from curator.scope.decision import SCHEMA as DECISION_SCHEMA
from curator.scope.decision import Decision
from curator.sources.text import read_text

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
    },
}
#: Deeper than any report (metadata of a scope decision nests a few levels).
MAX_DEPTH = 32


def read_report(path: str | Path) -> Report:
    """The Report saved at `path`; InputError (one line) for anything but a valid report."""
    name = str(path)
    data = parse(read_text(Path(path), name), name)
    return load_report(data, name)


def parse(text: str, name: str) -> dict[str, Any]:
    """Strict JSON (curator.json_text): finite numbers only, bounded nesting, an object at
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
    return Report(
        tuple(_entry(e) for e in data["entries"]),
        tuple(_finding(f) for f in data["findings"]),
        RequestCounts(data["requests"]),
        tuple(data.get("notes") or ()),
        float(data.get("elapsed_seconds") or 0.0),
    )


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
