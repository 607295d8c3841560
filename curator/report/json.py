"""`--format json`: CONTRACT.md's machine-readable report (schema 1)."""

from __future__ import annotations

import json
from itertools import islice
from typing import Any, TextIO

from curator.model import Report

#: Encoded pieces joined per write: few writes, and never the whole report's pieces at once.
_BATCH = 8192


def as_dict(report: Report) -> dict[str, Any]:
    """The report as CONTRACT.md's JSON object (plus `notes` and `elapsed_seconds`)."""
    return {
        "schema": 1,
        "summary": report.summary(),
        "entries": [r.as_dict() for r in report.entries],
        "findings": [f.as_dict() for f in report.findings],
        "requests": report.requests.as_dict(),
        "notes": list(report.notes),
        "elapsed_seconds": round(report.elapsed, 3),
    }


def render(report: Report, ctx: object = None) -> str:
    """Pretty JSON text; untrusted strings are JSON-escaped by the encoder."""
    return json.dumps(as_dict(report), indent=2, ensure_ascii=False) + "\n"


def write(report: Report, stream: TextIO) -> None:
    """The text of `render`, written while it is encoded.

    `json.dumps` with an indent keeps every encoded piece in one list before joining them:
    for a 5,000-entry report (about 18 MB of text) that list and the joined copy were more than
    half of a run's peak memory.
    """
    pieces = json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(as_dict(report))
    while batch := "".join(islice(pieces, _BATCH)):
        stream.write(batch)
    stream.write("\n")
