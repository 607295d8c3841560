"""Decisions a maintainer recorded once: they settle an entry's scope for good.

Three records, all keyed by the paper's subject (`arxiv:<id>`, or the normalised URL):

- the list's decisions file, `rules/scope-decisions.yaml` (read where the rules are read: the
  base revision in pull-request mode, so a pull request cannot accept its own paper)::

      - id: arxiv:2305.10250
        decision: include        # or exclude
        by: "@maintainer"        # optional
        note: why                # optional

- the list's screening records (`screening/*-review.json`) that include the paper;
- an inline marker on the line of the paper's link in the list itself,
  `<!-- curator: scope-include -->` (or `scope-exclude`; `# curator: ...` in YAML), read
  from the base revision in pull-request mode, so only a marker the base holds counts.

`settle` turns the engine's decision into the recorded one: include has no finding; exclude
is an error-level `scope-exclude` (the maintainers declined the paper: the list's own hard
decision), naming the record either way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from curator.core.codes import CODES
from curator.core.decision import Decision
from curator.core.errors import InputError
from curator.core.model import Verdict
from curator.core.normalize import parse_arxiv_id, subject_for_url
from curator.textio.located_yaml import LocatedMap, load_located

#: The decisions file in the rules folder.
DECISIONS_FILE = "scope-decisions.yaml"
#: What a recorded decision may say.
CHOICES = {"include": Verdict.INCLUDE, "exclude": Verdict.EXCLUDE}
#: The rule id a recorded decision names where rules name themselves (Decision.rules).
RECORDED_ID = "scope-decision"

_KEYS = {"id", "decision", "by", "note"}


@dataclass(frozen=True)
class Recorded:
    """One maintainer decision: the paper, include or exclude, and where it is written."""

    subject: str
    verdict: Verdict
    where: str
    by: str = ""
    note: str = ""

    def describe(self) -> str:
        """`include by @x at rules/scope-decisions.yaml:3 (note)`, for reasons and explain."""
        by = f" by {self.by}" if self.by else ""
        note = f" ({self.note})" if self.note else ""
        return f"{self.verdict.value}{by}, recorded at {self.where}{note}"


def subject_of(raw: str) -> str | None:
    """The subject an `id` names: an arXiv ID (bare, `arxiv:` or a URL) or any http(s) URL."""
    text = raw.strip()
    arxiv = parse_arxiv_id(text)
    if arxiv is not None:
        return arxiv.subject
    if re.match(r"https?://", text, re.IGNORECASE):
        return subject_for_url(text)
    return None


def parse_decisions(text: str | None, name: str) -> dict[str, Recorded]:
    """The decisions file's records by subject ({} for no file); InputError with file and
    line when malformed. A paper decided twice is refused: which one stands would be a guess."""
    if text is None or not text.strip():
        return {}
    data = load_located(text, name)
    if not isinstance(data, list):
        raise InputError("expected a list of decisions (- id: ..., decision: ...)", name, 1)
    out: dict[str, Recorded] = {}
    for item in data:
        recorded = _decision(item, name)
        if recorded.subject in out:
            raise InputError(f"{recorded.subject} is decided twice", name, item.line)
        out[recorded.subject] = recorded
    return out


def _decision(item: object, name: str) -> Recorded:
    if not isinstance(item, LocatedMap):
        raise InputError("each decision must be a mapping with `id` and `decision`", name, 1)
    unknown = sorted(str(k) for k in item if k not in _KEYS)
    if unknown:
        raise InputError(f"unknown key {unknown[0]!r} (allowed: {sorted(_KEYS)})", name, item.line)
    raw = item.get("id")
    if not isinstance(raw, str):
        # YAML reads 2305.10250 as the number 2305.1025: the ID would silently change.
        line = item.line_of("id")
        raise InputError("`id` must be text: quote a bare arXiv ID ('2305.10250')", name, line)
    subject = subject_of(raw)
    if subject is None:
        line = item.line_of("id")
        raise InputError("`id` must be an arXiv ID or an http(s) URL", name, line)
    choice = CHOICES.get(str(item.get("decision", "")))
    if choice is None:
        line = item.line_of("decision")
        raise InputError("`decision` must be include or exclude", name, line)
    by, note = (" ".join(str(item.get(k) or "").split()) for k in ("by", "note"))
    return Recorded(subject, choice, f"{name}:{item.line}", by, note)


#: An inline marker: an HTML comment (Markdown) or a `#` comment (YAML) on the link's line.
_MARKER = re.compile(
    r"(?:<!--\s*curator:\s*scope-(include|exclude)\s*-->|#\s*curator:\s*scope-(include|exclude)\b)",
    re.IGNORECASE,
)
_URL = re.compile(r"https?://[^\s<>()\"'\]`]+", re.IGNORECASE)
#: A code fence's line: at any indent and blockquote depth (a fence in a list item or a quote).
_FENCE = re.compile(r"^[ \t>]*(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_MARKDOWN = (".md", ".markdown")
#: `arXiv:2305.10250` in text, or a catalogue's `arxiv: "2305.10250"` key.
_ARXIV_WORD = re.compile(r"\barxiv:\s*[\"']?([\w./-]+)", re.IGNORECASE)


def markers(text: str, name: str) -> dict[str, Recorded]:
    """The inline markers of one list file, by the subjects linked on the marker's line. In
    a Markdown file a line of a fenced code block is shown, not meant: a list explaining the
    marker with an example (`- [Title](https://arxiv.org/abs/…) <!-- curator: scope-include
    -->` in a code block) decides nothing for the paper it happens to name."""
    out: dict[str, Recorded] = {}
    markdown = name.lower().endswith(_MARKDOWN)
    fence = ""  # the open fence's characters (``` or ~~~, at least), "" outside one
    for number, line in enumerate(text.split("\n"), 1):
        if markdown:
            opened = _FENCE.match(line)
            if fence:
                if opened and opened["fence"].startswith(fence) and not opened["info"].strip():
                    fence = ""
                continue
            if opened and not ("`" in opened["fence"] and "`" in opened["info"]):
                fence = opened["fence"]
                continue
        found = _MARKER.search(line)
        if found is None:
            continue
        verdict = CHOICES[(found.group(1) or found.group(2)).lower()]
        for subject in _subjects(line):
            out.setdefault(subject, Recorded(subject, verdict, f"{name}:{number}"))
    return out


def _subjects(line: str) -> list[str]:
    """The papers a line links: its URLs and `arXiv:ID` mentions."""
    raw = [m.group(0).rstrip(".,;:") for m in _URL.finditer(line)]
    raw += [m.group(1) for m in _ARXIV_WORD.finditer(line)]
    subjects = (subject_of(r) for r in raw)
    return list(dict.fromkeys(s for s in subjects if s is not None))


def merged(*sources: Mapping[str, Recorded]) -> dict[str, Recorded]:
    """One record per subject: the first source that holds it wins (the decisions file,
    then the screening records, then the inline markers)."""
    out: dict[str, Recorded] = {}
    for source in sources:
        for subject, recorded in source.items():
            out.setdefault(subject, recorded)
    return out


def from_screening(records: Iterable[tuple[str, str, str]]) -> dict[str, Recorded]:
    """Include decisions of screening records, given as (arXiv ID, decision, where). An
    exclude or hold record settles nothing here: `record-readded` already reports a paper
    re-added after one."""
    out: dict[str, Recorded] = {}
    for raw_id, decision, where in records:
        subject = subject_of(raw_id)
        if subject is not None and decision == "include":
            out.setdefault(subject, Recorded(subject, Verdict.INCLUDE, where))
    return out


def settle(decision: Decision, recorded: Recorded) -> Decision:
    """The engine's decision replaced by the maintainers' recorded one (the engine's quotes
    and scorer stay, for `explain`)."""
    if recorded.verdict is Verdict.INCLUDE:
        reason = f"decided by the maintainers: {recorded.describe()}"
        return replace(
            decision,
            verdict=Verdict.INCLUDE,
            reason=reason,
            code=None,
            severity="",
            decided_by=recorded.where,
        )
    code = "scope-exclude"
    return replace(
        decision,
        verdict=Verdict.EXCLUDE,
        reason=f"declined by the maintainers: {recorded.describe()}",
        code=code,
        severity=CODES[code][0].value,
        decided_by=recorded.where,
    )
