"""Measure the scope engine on labelled screening records, without letting it flatter itself.

`curator scope evaluate RECORDS... [--rules FILE] [--out FILE] [--lock-box]` writes the
Markdown report (docs/scope-evaluation.md in this repository; measure.py measures a split,
page.py and tables.py write the page). The records that carry an abstract are put in
submission (arXiv ID) order; the scorer is trained by forward chaining on earlier parts and
scored on the next (curator/lab/splits.py), then, only with `--lock-box`, trained on all the
development records and scored once on the latest quarter. Each split is compared with
TF-IDF + logistic regression trained on exactly the same records (curator/lab/baseline.py),
at the engine's own operating points. Shares carry 95 % Wilson intervals.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from curator.lab.measure import Evaluation, measure
from curator.lab.page import render
from curator.lab.splits import forward_chain, lock_box
from curator.scope.records import Record, load_records
from curator.scope.rules import load_rules


def load_all(paths: Sequence[Path]) -> tuple[list[Record], list[str]]:
    """Every record of the files (folders: their `*-review.json`), and the file names."""
    from curator.lab.train import record_files

    files = record_files([p.as_posix() for p in paths])
    records: list[Record] = []
    for path in files:
        records += load_records(path)
    return records, [p.name for p in files]


def run(rules_path: Path, paths: Sequence[Path], open_lock_box: bool = False) -> Evaluation:
    """Forward chaining on the development records, and the lock box when asked."""
    rules = replace(load_rules(rules_path), scorer=None)  # never the shipped scorer
    records, names = load_all(paths)
    development, box = lock_box(records)
    chained = tuple(measure(s.name, s.train, s.test, rules) for s in forward_chain(development))
    sealed = measure("lock box", development, box, rules) if open_lock_box and box else None
    digest = inputs_digest(rules_path, paths)
    return Evaluation(
        rules, tuple(names), len(records), tuple(development), chained, sealed, digest
    )


#: The code the figures follow from, inside the package (explain, memo and the pipeline's
#: stage only present or keep decisions).
EVALUATED_CODE = (
    "lab/baseline.py",
    "core/decision.py",
    "scope/engine.py",
    "lab/evaluate.py",
    "lab/measure.py",
    "lab/page.py",
    "lab/tables.py",
    "scope/lexical.py",
    "scope/matching.py",
    "scope/records.py",
    "scope/rule_item.py",
    "scope/rules.py",
    "scope/scorer.py",
    "scope/signals.py",
    "lab/splits.py",
    "lab/train.py",
    "scope/screen.py",
)


def inputs_digest(rules_path: Path, paths: Sequence[Path]) -> str:
    """sha256 of the record files (name and bytes), the rules file and EVALUATED_CODE: what
    the evaluation's figures are a function of (with the baseline's library)."""
    from curator.lab.train import record_files

    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    named = [(p.name, p) for p in record_files([p.as_posix() for p in paths])]
    named += [("rules", rules_path), *((c, package / c) for c in EVALUATED_CODE)]
    for name, path in named:
        digest.update(f"\0{name}\0".encode() + path.read_bytes())
    return digest.hexdigest()


def evaluation(rules_path: Path, paths: Sequence[Path], open_lock_box: bool = False) -> str:
    """The evaluation Markdown of the rules at `rules_path` on the records at `paths`."""
    return render(run(rules_path, paths, open_lock_box))
