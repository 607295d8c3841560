"""Screening records (the list's `screening/*-review.json`) checked against live metadata.

A record is the maintainers' decision on one paper. These checks are pure: they compare the
records with the official title and abstract the resolvers fetched, and return findings.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from curator.config.context import CheckContext
from curator.core.errors import InputError
from curator.core.model import Finding, Source
from curator.core.normalize import parse_arxiv_id
from curator.core.subjects import arxiv_id_of, arxiv_subject
from curator.scope.engine import PaperText
from curator.scope.rules import ScopeRules
from curator.textio import json_text
from curator.textio.text import read_text

#: Used when scope.yaml has no `records` section: the policy's own vocabulary.
DEFAULT_SPEC: dict[str, Any] = {
    "reading_scopes": [
        "abstract",
        "abstract_and_selected_sections",
        "full_text",
        "title_topic_screen",
    ],
    "sections_required_for": ["abstract_and_selected_sections"],
    "required": {
        "2026-10-09": {
            "any": ["id", "title", "decision", "policy_version", "reading_scope", "reason"],
            "include": [
                "source_url",
                "abstract|source_abstract",
                "memory_focus_quote",
                "memory_focus_reason",
            ],
        },
    },
    "reassessment_fields": ["previous_sha256", "source_url", "source_sha256", "reason"],
}

_MEMORY = re.compile(r"(?<!\w)memor(?:y|ies)(?!\w)", re.IGNORECASE)


@dataclass(frozen=True)
class Record:
    """One screening record as read, with where it starts in its file."""

    data: Mapping[str, Any]
    source: Source

    @property
    def id(self) -> str:
        """The arXiv ID without version (or the raw id when it is not one)."""
        raw = str(self.data.get("id", "")).strip()
        parsed = parse_arxiv_id(raw)
        return parsed.base if parsed else raw

    @property
    def decision(self) -> str:
        """include, exclude or hold (as written)."""
        return str(self.data.get("decision", ""))

    @property
    def abstract(self) -> str | None:
        """The recorded abstract: `abstract` (policy 2026-10-09) or `source_abstract`."""
        value = self.data.get("abstract") or self.data.get("source_abstract")
        return str(value) if value else None


def load_records(path: Path) -> tuple[Record, ...]:
    """Read a JSON array of records; InputError with file and line when malformed."""
    name = path.as_posix()
    return parse_records(read_text(path, name), name)


def parse_records(text: str, name: str) -> tuple[Record, ...]:
    """Records from JSON text, each located at the line its object starts on."""
    try:
        json_text.check_depth(text)
    except json_text.TooDeep as exc:
        raise InputError(f"invalid JSON: {exc}", name) from None
    decoder = json_text.DECODER
    pos = _skip(text, 0)
    if pos >= len(text) or text[pos] != "[":
        raise InputError("expected a JSON array of records", name, _line(text, pos))
    pos = _skip(text, pos + 1)
    out: list[Record] = []
    while pos < len(text) and text[pos] != "]":
        try:
            value, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            raise InputError(f"invalid JSON: {exc.msg}", name, exc.lineno) from None
        except ValueError as exc:  # NaN, Infinity, a number out of range
            reason = json_text.reason(exc)
            raise InputError(f"invalid JSON: {reason}", name, _line(text, pos)) from None
        if not isinstance(value, dict):
            raise InputError("each record must be a JSON object", name, _line(text, pos))
        out.append(Record(value, Source(name, _line(text, pos))))
        pos = _skip(text, end)
        if pos < len(text) and text[pos] == ",":
            pos = _skip(text, pos + 1)
        elif pos < len(text) and text[pos] != "]":
            raise InputError("expected ',' or ']' between records", name, _line(text, pos))
    if pos >= len(text) or _skip(text, pos + 1) != len(text):
        raise InputError("the array is not closed, or text follows it", name, _line(text, pos))
    return tuple(out)


def _skip(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def normal_text(text: str) -> str:
    """Case, spacing, dashes and punctuation folded, for comparing titles and abstracts."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    folded = re.sub(r"\\[a-z]+\s*\{([^}]*)\}", r"\1", folded)  # \textsc{Bright} -> bright
    folded = re.sub(r"[^\w\s]", " ", folded)
    return " ".join(folded.split())


def _spaced(text: str) -> str:
    return " ".join(text.split())


@dataclass(frozen=True)
class RecordCheck:
    """What check_records needs besides the records: the list, the metadata, the settings."""

    papers_in_list: Mapping[str, PaperText]
    metadata: Mapping[str, PaperText] = field(default_factory=dict)
    sources: Mapping[str, Source] = field(default_factory=dict)
    context: CheckContext = field(default_factory=CheckContext)
    spec: Mapping[str, Any] = field(default_factory=lambda: DEFAULT_SPEC)


def spec_from(rules: ScopeRules | None) -> Mapping[str, Any]:
    """The record settings of scope.yaml, falling back to DEFAULT_SPEC key by key."""
    spec = dict(DEFAULT_SPEC)
    if rules is not None:
        spec.update(rules.records)
    return spec


def check_records(
    records: Sequence[Record],
    papers_in_list: Mapping[str, PaperText],
    *,
    metadata: Mapping[str, PaperText] | None = None,
    sources: Mapping[str, Source] | None = None,
    context: CheckContext | None = None,
    rules: ScopeRules | None = None,
) -> list[Finding]:
    """Findings for records that disagree with live metadata, the policy or the list.

    `papers_in_list` maps each listed paper's arXiv ID (or `arxiv:` subject) to its official
    text; `metadata` adds official text for records of papers not in the list; `sources`
    says where each listed paper is in the catalogue.
    """
    job = RecordCheck(
        {_key(k): v for k, v in papers_in_list.items()},
        {_key(k): v for k, v in (metadata or {}).items()},
        {_key(k): v for k, v in (sources or {}).items()},
        context or CheckContext(),
        spec_from(rules),
    )
    findings: list[Finding] = []
    for record in records:
        findings += _check_one(record, job)
    findings += _list_findings(records, job)
    return findings


def _key(raw: str) -> str:
    text = arxiv_id_of(raw)
    parsed = parse_arxiv_id(text)
    return parsed.base if parsed else text


def _subject(record_id: str) -> str:
    return arxiv_subject(record_id) if parse_arxiv_id(record_id) else record_id


def _check_one(record: Record, job: RecordCheck) -> list[Finding]:
    out = _fields(record, job) + _reading_scope(record, job)
    official = job.papers_in_list.get(record.id) or job.metadata.get(record.id)
    if official is not None:
        out += _against_official(record, official, job)
    return out


def _finding(
    job: RecordCheck,
    code: str,
    record: Record,
    message: str,
    evidence: str = "",
    suggestion: str = "",
) -> Finding:
    return job.context.finding(
        code, _subject(record.id), record.source, message, evidence, suggestion
    )


def _present(record: Record, name: str) -> bool:
    """True when one of the `a|b` alternatives is present and not empty."""
    return any(record.data.get(alt) not in (None, "", [], {}) for alt in name.split("|"))


def _fields(record: Record, job: RecordCheck) -> list[Finding]:
    version = str(record.data.get("policy_version", ""))
    required = job.spec.get("required", {}).get(version)
    if required is None:
        known = ", ".join(sorted(job.spec.get("required", {})))
        return [
            _finding(
                job,
                "record-fields-missing",
                record,
                f"policy_version {version or '(none)'} is not one the rules know ({known})",
            )
        ]
    names = list(required.get("any", [])) + list(required.get(record.decision, []))
    if record.decision == "include" and record.data.get("track") == "procedural_memory":
        names += list(required.get("procedural", []))
    missing = [n for n in names if not _present(record, n)]
    if not missing:
        return []
    return [
        _finding(
            job,
            "record-fields-missing",
            record,
            f"{record.decision or 'record'} under policy {version} lacks {', '.join(missing)}",
        )
    ]


def _reading_scope(record: Record, job: RecordCheck) -> list[Finding]:
    scope = str(record.data.get("reading_scope", ""))
    allowed = list(job.spec.get("reading_scopes", []))
    if scope not in allowed:
        return [
            _finding(
                job,
                "record-bad-reading-scope",
                record,
                f"reading_scope {scope or '(none)'} is not one of {', '.join(allowed)}",
            )
        ]
    if scope in job.spec.get("sections_required_for", []) and not record.data.get("sections_read"):
        return [
            _finding(
                job,
                "record-bad-reading-scope",
                record,
                f"reading_scope {scope} needs `sections_read` naming the sections",
            )
        ]
    return []


def _against_official(record: Record, official: PaperText, job: RecordCheck) -> list[Finding]:
    out: list[Finding] = []
    title = str(record.data.get("title", ""))
    if official.title and title and normal_text(title) != normal_text(official.title):
        out.append(
            _finding(
                job,
                "record-title-mismatch",
                record,
                "the record's title is not the official title",
                evidence=title,
                suggestion=official.title,
            )
        )
    mine = record.abstract
    if official.abstract and mine and normal_text(mine) != normal_text(official.abstract):
        out.append(
            _finding(
                job,
                "record-abstract-mismatch",
                record,
                "the record's abstract is not the official abstract",
                evidence=_first_difference(mine, official.abstract),
            )
        )
    quote = record.data.get("memory_focus_quote")
    if quote and official.title is not None and official.abstract is not None:
        out += _quote(record, str(quote), official, job)
    return out


def _first_difference(mine: str, official: str) -> str:
    """A short view of where the two texts part, in normalised words."""
    a, b = normal_text(mine).split(), normal_text(official).split()
    i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return f"record: …{' '.join(a[i : i + 8])}… / official: …{' '.join(b[i : i + 8])}…"


def _quote(record: Record, quote: str, official: PaperText, job: RecordCheck) -> list[Finding]:
    # Whitespace is folded: the arXiv API wraps abstracts where the abs page does not.
    wanted = _spaced(quote)
    texts = [_spaced(official.title or ""), _spaced(official.abstract or "")]
    if not any(wanted and wanted in t for t in texts):
        return [
            _finding(
                job,
                "record-quote-missing",
                record,
                "memory_focus_quote is not verbatim in the official title or abstract",
                evidence=quote,
            )
        ]
    if not _MEMORY.search(wanted):
        return [
            _finding(
                job,
                "record-quote-missing",
                record,
                "memory_focus_quote does not contain the word memory or memories",
                evidence=quote,
            )
        ]
    return []


def _list_findings(records: Sequence[Record], job: RecordCheck) -> list[Finding]:
    """Listed papers without an include record, or re-added without a reassessment."""
    by_id: dict[str, list[Record]] = {}
    for record in records:
        by_id.setdefault(record.id, []).append(record)
    out: list[Finding] = []
    for paper_id in job.papers_in_list:
        mine = by_id.get(paper_id, [])
        source = job.sources.get(paper_id, Source("", 0))
        includes = [r for r in mine if r.decision == "include"]
        if not includes:
            out.append(
                job.context.finding(
                    "record-missing",
                    _subject(paper_id),
                    source,
                    "the paper is in the list but no screening record includes it",
                )
            )
            continue
        earlier = [r for r in mine if r.decision in ("exclude", "hold")]
        if earlier and not any(_reassessed(r, earlier, job) for r in includes):
            first = earlier[0]
            out.append(
                job.context.finding(
                    "record-readded",
                    _subject(paper_id),
                    includes[-1].source,
                    f"re-added after a {first.decision} record ({first.source}) without a complete "
                    "`reassessment`",
                    evidence=str(first.data.get("reason", "")),
                )
            )
    return out


def _reassessed(record: Record, earlier: Sequence[Record], job: RecordCheck) -> bool:
    """True when the include carries a complete reassessment pointing at an earlier record."""
    entry = record.data.get("reassessment")
    if not isinstance(entry, Mapping):
        return False
    if not all(entry.get(k) for k in job.spec.get("reassessment_fields", [])):
        return False
    hashes = {r.data.get("source_sha256") for r in earlier} - {None, ""}
    # The policy asks the reassessment to name the excluded record's source hash.
    return not hashes or entry.get("previous_sha256") in hashes
