"""`--format json`: CONTRACT.md's machine-readable report (schema 1)."""

from __future__ import annotations

import json
from typing import Any

from curator.model import Report


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
