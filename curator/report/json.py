"""`--format json`: CONTRACT.md's machine-readable report (schema 1)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any, TextIO

from curator.core.model import Report

if TYPE_CHECKING:
    from curator.fix.suggest import Suggestion

#: Encoded pieces joined per write: few writes, and never the whole report's text at once.
_BATCH = 256


def as_dict(
    report: Report, fixes: Sequence[Suggestion] | None = None, trail: bool = False
) -> dict[str, Any]:
    """The report as CONTRACT.md's JSON object (plus `notes` and `elapsed_seconds`), and
    `fixes` only when the run planned them (`check --suggest`): a report without stays as
    it was, byte for byte. An entry's `scope.scorer` holds P(include) and its thresholds;
    every signal and word the scorer weighed (`signals`, `terms`) only with `trail`
    (`check --scope-trail`): they were most of a report's bytes."""
    data = {
        "schema": 1,
        "summary": report.summary(),
        "entries": [r.as_dict(trail) for r in report.entries],
        "findings": [f.as_dict() for f in report.findings],
        "requests": report.requests.as_dict(),
        "notes": list(report.notes),
        "elapsed_seconds": round(report.elapsed, 3),
    }
    if fixes is not None:
        data["fixes"] = [fix.as_dict() for fix in fixes]
    return data


def render(
    report: Report,
    ctx: object = None,
    fixes: Sequence[Suggestion] | None = None,
    trail: bool = False,
) -> str:
    """The JSON text; untrusted strings are JSON-escaped by the encoder."""
    return "".join(_pieces(as_dict(report, fixes, trail)))


def write(
    report: Report,
    stream: TextIO,
    fixes: Sequence[Suggestion] | None = None,
    trail: bool = False,
) -> None:
    """The text of `render`, written while it is encoded (a 5,000-entry report is about
    12 MB of text: it is never held whole)."""
    pieces = _pieces(as_dict(report, fixes, trail))
    while batch := "".join(islice(pieces, _BATCH)):
        stream.write(batch)


def _pieces(data: dict[str, Any]) -> Iterator[str]:
    """The report's text in pieces: one key per line, and one line per item of a list.

    Each piece is encoded by the json module's C encoder, which is not used with an indent:
    with `indent=2` the pure-Python encoder was a fifth of a warm run's time. The text stays
    easy to read and to diff, an entry or finding a line.
    """
    last = len(data) - 1
    yield "{\n"
    for i, (key, value) in enumerate(data.items()):
        yield f"  {_dumps(key)}: "
        if isinstance(value, list) and value:
            yield "[\n"
            end = len(value) - 1
            for j, item in enumerate(value):
                yield "    " + _dumps(item) + (",\n" if j < end else "\n")
            yield "  ]"
        else:
            yield _dumps(value)
        yield ",\n" if i < last else "\n"
    yield "}\n"


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
