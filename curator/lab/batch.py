"""Measure the shipped scope scorer on a screening batch it has never seen: a fresh lock box.

`curator scope evaluate RECORDS... --batch FILE`. The forward-chained evaluation
(curator/lab/evaluate.py) can open its lock box once; after that, the only honest test of the
rules and the scorer is the list's next screening batch, decided by the maintainers after the
scorer was trained. This module scores such a batch with exactly what `curator check` runs — the
rules file and the scorer file beside it, not a scorer retrained here — and sets the same
figures beside TF-IDF + logistic regression trained on the records the scorer was trained on
(RECORDS). So that comparison is like for like, RECORDS must be the files named in the scorer's
provenance, byte for byte (their sha256); a batch record whose ID or title RECORDS already hold
is not new and is left out, by name.

A batch is evaluation input: a record is told apart from the training records by its arXiv
ID, so an ID is read NFKC-normalised without invisible, control or space characters (a
zero-width space must not pass a training record off as unseen), and an ID that still is not
an arXiv ID is refused (exit 2, file and line). What the page prints of the batch is escaped.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from curator.console import sanitize as s
from curator.core.errors import InputError
from curator.core.normalize import parse_arxiv_id
from curator.lab.evaluate import load_all
from curator.lab.measure import Measured, measure
from curator.lab.page import short_path, split_figures
from curator.lab.splits import arxiv_order, scored
from curator.lab.train import record_files
from curator.scope.records import Record, normal_text
from curator.scope.rules import ScopeRules, load_rules
from curator.scope.scorer import Scorer


@dataclass(frozen=True)
class Batch:
    """A new screening batch scored by the shipped rules and scorer."""

    rules: ScopeRules
    #: The scorer's training record files, and the batch's files (names).
    trained_on: tuple[str, ...]
    files: tuple[str, ...]
    #: Batch records in all, and the IDs left out because the training records hold them.
    records: int
    known: tuple[str, ...]
    measured: Measured
    #: sha256 of the batch files (name and bytes), in order.
    digest: str


def evaluate_batch(rules_path: Path, training: Sequence[Path], batch: Sequence[Path]) -> Batch:
    """Score the batch's new records with the rules' own scorer, the baseline beside it."""
    rules = load_rules(rules_path)
    scorer = rules.scorer
    if scorer is None:
        raise InputError(
            "names no scorer (`scorer:`): a batch is scored by the scorer `curator check` runs",
            rules.path,
        )
    loaded, names = load_all(training)
    # In submission order, as the scorer learned them (train.examples): the baseline too.
    trained = sorted(loaded, key=arxiv_order)
    _same_records(scorer, record_files([p.as_posix() for p in training]))
    loaded_batch, files = load_all(batch)
    found = [_with_parsed_id(r) for r in loaded_batch]
    seen = {normal_id(r.data.get("id", "")) or r.id for r in trained}
    titles = {_title_key(r) for r in trained} - {""}
    known = tuple(sorted({r.id for r in found if r.id in seen or _title_key(r) in titles}))
    test = scored([r for r in found if r.id not in known])
    if not test:
        where = files[0] if files else "--batch"
        raise InputError("no new record with a title, an abstract and a decision", where)
    span = f"{test[0].id} – {test[-1].id}"
    measured = measure(f"batch ({span})", trained, test, rules, scorer=scorer)
    return Batch(rules, tuple(names), tuple(files), len(found), known, measured, _digest(batch))


#: Characters an ID may carry that a reader does not see: format (zero-width, bidi),
#: control, space and line-separator characters.
_UNSEEN = frozenset({"Cf", "Cc", "Zs", "Zl", "Zp"})


def normal_id(raw: object) -> str | None:
    """The arXiv base ID `raw` spells once NFKC-normalised and without the characters a
    reader does not see (`2310.08560\u200b`, full-width digits); None when it still is not
    one."""
    text = "".join(_visible(unicodedata.normalize("NFKC", str(raw))))
    parsed = parse_arxiv_id(text)
    return parsed.base if parsed else None


def _visible(text: str) -> Iterable[str]:
    return (ch for ch in text if unicodedata.category(ch) not in _UNSEEN)


def _with_parsed_id(record: Record) -> Record:
    """The batch record under its normalised arXiv ID; InputError (file and line) for an ID
    that is not one: it could not be told apart from a training record."""
    raw = record.data.get("id", "")
    base = normal_id(raw)
    if base is None:
        raise InputError(
            f"the record's id {str(raw)!r} is not an arXiv ID: a batch record must be told "
            "apart from the scorer's training records by its ID",
            record.source.file,
            record.source.line,
        )
    return record if record.id == base else Record({**record.data, "id": base}, record.source)


def _title_key(record: Record) -> str:
    """The record's title folded (case, punctuation, invisible characters), for recognising a
    training record under another ID."""
    return normal_text("".join(_visible(str(record.data.get("title", "")))))


def _same_records(scorer: Scorer, files: Sequence[Path]) -> None:
    """InputError unless `files` are, byte for byte, the records the scorer was trained on."""
    listed = scorer.provenance.get("records")
    wanted = sorted(_hashes(listed))
    given = sorted(hashlib.sha256(path.read_bytes()).hexdigest() for path in files)
    if not wanted or wanted != given:
        raise InputError(
            "was not trained on these records (the sha256 of the files in its provenance "
            "differ): pass the records it was trained on, or retrain it with "
            "`curator scope train`",
            scorer.path or "the scorer",
        )


def _hashes(listed: Any) -> list[str]:
    """The sha256 of each record file a scorer's provenance names ([] when it names none)."""
    if not isinstance(listed, list):
        return []
    return [str(item.get("sha256")) for item in listed if isinstance(item, dict)]


def _digest(paths: Sequence[Path]) -> str:
    digest = hashlib.sha256()
    for path in record_files([p.as_posix() for p in paths]):
        digest.update(f"\0{path.name}\0".encode() + path.read_bytes())
    return digest.hexdigest()


def render_batch(batch: Batch) -> str:
    """The Markdown page of a batch's figures."""
    m = batch.measured
    rules = batch.rules
    files = s.text(", ".join(batch.files), 2000)
    known = (
        f" {len(batch.known)} of them are already in the training records (by ID or title) "
        "and are left out: " + ", ".join(s.code(i) for i in batch.known) + "."
        if batch.known
        else ""
    )
    scorer = short_path(rules.scorer.path) if rules.scorer else ""
    about = (
        f"Scorer `{scorer}` as shipped (include threshold {m.threshold:.3f}), trained on "
        f"{m.trained_on} gate-passing records of "
        f"{s.text(', '.join(batch.trained_on), 2000)}; the baseline is trained on the same "
        f"records. {len(m.cases)} batch records scored ({s.text(m.cases[0].record.id)} – "
        f"{s.text(m.cases[-1].record.id)}), those with a title, an abstract and a decision."
    )
    lines = [
        "# Scope verdicts on a new screening batch",
        "",
        f"Generated by `curator scope evaluate --batch` from {files} "
        f"({batch.records} records) with `{short_path(rules.path)}` (policy {rules.policy}) and "
        f"its scorer, exactly as `curator check` runs them.{known} The definitions, the "
        "baseline and the intervals are those of the forward-chained evaluation "
        "(docs/scope-evaluation.md); a batch the maintainers decided after the scorer was "
        "trained is an unseen test of the rules and the scorer alike.",
        "",
        "## Batch",
        "",
        *split_figures(m, rules, about, "batch"),
        "## Inputs",
        "",
        f"sha256 `{batch.digest}` of the batch files.",
    ]
    return "\n".join(lines) + "\n"
