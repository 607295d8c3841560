"""Measure the shipped scope scorer on a screening batch it has never seen: a fresh lock box.

`curator scope evaluate RECORDS... --batch FILE` (and `python -m curator.scope.evaluate
--batch FILE`). The forward-chained evaluation (curator/scope/evaluate.py) can open its lock
box once; after that, the only honest test of the rules and the scorer is the list's next
screening batch, decided by the maintainers after the scorer was trained. This module scores
such a batch with exactly what `curator check` runs — the rules file and the scorer file beside
it, not a scorer retrained here — and sets the same figures beside TF-IDF + logistic regression
trained on the records the scorer was trained on (RECORDS). So that comparison is like for
like, RECORDS must be the files named in the scorer's provenance, byte for byte (their sha256);
a batch record whose ID RECORDS already hold is not new and is left out, by name.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from curator.errors import InputError
from curator.scope.evaluate import Measured, load_all, measure, short_path, split_figures
from curator.scope.rules import ScopeRules, load_rules
from curator.scope.scorer import Scorer
from curator.scope.splits import arxiv_order, scored
from curator.scope.train import record_files


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
    found, files = load_all(batch)
    seen = {r.id for r in trained}
    known = tuple(sorted({r.id for r in found if r.id in seen}))
    test = scored([r for r in found if r.id not in seen])
    if not test:
        where = files[0] if files else "--batch"
        raise InputError("no new record with a title, an abstract and a decision", where)
    span = f"{test[0].id} – {test[-1].id}"
    measured = measure(f"batch ({span})", trained, test, rules, scorer=scorer)
    return Batch(rules, tuple(names), tuple(files), len(found), known, measured, _digest(batch))


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
    known = (
        f" {len(batch.known)} of them are already in the training records and are left out: "
        + ", ".join(f"`{i}`" for i in batch.known)
        + "."
        if batch.known
        else ""
    )
    scorer = short_path(rules.scorer.path) if rules.scorer else ""
    about = (
        f"Scorer `{scorer}` as shipped (include threshold {m.threshold:.3f}), trained on "
        f"{m.trained_on} gate-passing records of "
        f"{', '.join(batch.trained_on)}; the baseline is trained on the same records. "
        f"{len(m.cases)} batch records scored ({m.cases[0].record.id} – "
        f"{m.cases[-1].record.id}), those with a title, an abstract and a decision."
    )
    lines = [
        "# Scope verdicts on a new screening batch",
        "",
        f"Generated by `curator scope evaluate --batch` from {', '.join(batch.files)} "
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
