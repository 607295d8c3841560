"""Training the scope scorer from screening records: pure-Python logistic regression.

The examples are the records that carry the official abstract and pass the entry gate (the
scorer only ever sees such papers); the label is the maintainers' decision (exclude or hold
= 1, include = 0). Terms seen in fewer than `min_df` training papers are dropped, and an L2
penalty keeps any one phrasing from dominating. The threshold is chosen on out-of-fold
scores of the training records alone: the lowest that sends at most `budget` of the
maintainers' includes that the rules let through to review.

Title-only records (no abstract) are left out: added as title-only examples on the time split
they moved the scorer along its curve (3/17 includes and 69/79 excludes flagged, or 0/17 and
53/79, against 2/17 and 67/79 without) rather than improving it.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from curator.errors import InputError
from curator.model import Verdict
from curator.scope.engine import PaperText, decide
from curator.scope.records import Record, check_records, load_records
from curator.scope.rules import ScopeRules, parse_rules
from curator.scope.scorer import Scorer, paper_terms, scorer_data
from curator.sources.text import read_text


@dataclass(frozen=True)
class Settings:
    """Training knobs; the defaults are what rules/scope-scorer.json was trained with."""

    min_df: int = 3
    l2: float = 0.02
    iterations: int = 120
    folds: int = 5
    budget: float = 0.05


@dataclass(frozen=True)
class Example:
    """One gate-passing record: its terms, label and the rules' own verdict."""

    id: str
    terms: frozenset[str]
    label: int
    rules_include: bool


def examples(records: Sequence[Record], rules: ScopeRules) -> list[Example]:
    """Gate-passing records with an abstract, as training examples (rules without scorer)."""
    bare = replace(rules, scorer=None)
    out = []
    for record in records:
        title, abstract = str(record.data.get("title", "")), record.abstract or ""
        if not abstract or record.decision not in ("include", "exclude", "hold"):
            continue
        verdict = decide(PaperText(title, abstract), bare).verdict
        if verdict in (Verdict.EXCLUDE, Verdict.HOLD):
            continue
        label = 0 if record.decision == "include" else 1
        found = frozenset(paper_terms(title, abstract))
        out.append(Example(record.id, found, label, verdict is Verdict.INCLUDE))
    return out


def refuse_bad(records: Sequence[Record], rules: ScopeRules) -> None:
    """InputError when a record fails the policy's own checks or contradicts another."""
    own = {r.id: PaperText(str(r.data.get("title", "")), r.abstract or "") for r in records}
    findings = check_records(records, {}, metadata=own, rules=rules)
    if findings:
        first = findings[0]
        more = f" (and {len(findings) - 1} more)" if len(findings) > 1 else ""
        raise InputError(
            f"{first.code}: {first.message}{more}", first.source.file, first.source.line
        )
    seen: dict[str, Record] = {}
    for record in records:
        earlier = seen.setdefault(record.id, record)
        if earlier.decision != record.decision and "reassessment" not in record.data:
            raise InputError(
                f"{record.id} is {record.decision} here but {earlier.decision} at {earlier.source}",
                record.source.file,
                record.source.line,
            )


def fit(items: Sequence[Example], settings: Settings) -> tuple[dict[str, float], float]:
    """Term weights and bias by L2-regularised, class-balanced logistic regression."""
    df = Counter(t for e in items for t in e.terms)
    vocab = sorted(t for t, n in df.items() if n >= settings.min_df)
    index = {t: i for i, t in enumerate(vocab)}
    rows = [[index[t] for t in e.terms if t in index] for e in items]
    norms = [1 / math.sqrt(len(r)) if r else 0.0 for r in rows]
    labels = [e.label for e in items]
    positives = sum(labels) or 1
    negatives = (len(labels) - sum(labels)) or 1
    # Balanced: each class weighs half the loss, whatever its size.
    cw = [0.5 / positives if y else 0.5 / negatives for y in labels]
    w = [0.0] * len(vocab)
    bias = 0.0
    step = 2.0
    for _ in range(settings.iterations):
        grad = [settings.l2 * x for x in w]
        gb = 0.0
        for row, norm, y, c in zip(rows, norms, labels, cw, strict=True):
            z = bias + norm * sum(map(w.__getitem__, row))
            p = 1 / (1 + math.exp(-z)) if z > -500 else 0.0
            g = c * (p - y)
            gb += g
            gn = g * norm
            for j in row:
                grad[j] += gn
        w = [a - step * b for a, b in zip(w, grad, strict=True)]
        bias -= step * gb
    return {t: w[i] for t, i in index.items() if abs(w[i]) > 1e-6}, bias


def out_of_fold(items: Sequence[Example], settings: Settings) -> list[float]:
    """Each example's probability from a model trained without its fold (folds by position)."""
    probs = [0.0] * len(items)
    k = max(2, min(settings.folds, len(items)))
    for fold in range(k):
        train = [e for i, e in enumerate(items) if i % k != fold]
        weights, bias = fit(train, settings)
        model = Scorer(weights, bias, 0.5)
        for i in range(fold, len(items), k):
            probs[i] = model.probability(items[i].terms)
    return probs


def threshold(items: Sequence[Example], probs: Sequence[float], budget: float) -> float:
    """The lowest threshold flagging at most `budget` of the includes the rules let through."""
    kept = sorted(
        (p for e, p in zip(items, probs, strict=True) if e.rules_include and not e.label),
        reverse=True,
    )
    allowed = int(budget * len(kept))
    if not kept:
        return 0.5
    # Just above the (allowed+1)-th highest include score: that one and those below pass.
    cut = kept[allowed] if allowed < len(kept) else 0.0
    return min(0.99, max(0.01, cut + 1e-6))


def train(
    records: Sequence[Record],
    rules: ScopeRules,
    settings: Settings | None = None,
    provenance: dict[str, Any] | None = None,
) -> Scorer:
    """A scorer trained on `records` (after refusing bad ones); threshold from out-of-fold."""
    settings = settings or Settings()
    items = sorted(examples(records, rules), key=lambda e: e.id)
    if len({e.label for e in items}) < 2:
        raise InputError("training needs gate-passing records of both include and exclude/hold")
    probs = out_of_fold(items, settings)
    cut = threshold(items, probs, settings.budget)
    weights, bias = fit(items, settings)
    about = dict(provenance or {})
    about.update(
        examples=len(items),
        excludes=sum(e.label for e in items),
        settings=asdict(settings),
    )
    return Scorer(weights, bias, cut, about)


def record_files(paths: Sequence[str]) -> list[Path]:
    """The record files named: a file as given, a folder as its `*-review.json` files."""
    out: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(path.glob("*-review.json"))
            if not found:
                raise InputError("no *-review.json record files in this folder", raw)
            out += found
        else:
            out.append(path)
    return out


def train_files(paths: Sequence[str], rules_path: Path, out: Path, command: str) -> Scorer:
    """`curator scope train`: read, refuse bad records, train, write the scorer JSON."""
    rules = parse_rules(read_text(rules_path), rules_path.as_posix())
    files = record_files(paths)
    records = [r for path in files for r in load_records(path)]
    refuse_bad(records, rules)
    provenance = {
        "command": command,
        "data": "maintainers' screening records (title, abstract, decision) of the list",
        "records": [
            {
                "file": path.name,
                "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
                "records": sum(r.source.file == path.as_posix() for r in records),
            }
            for path in files
        ],
        "rules": f"{rules_path.parent.name}/{rules_path.name}",
        "policy": rules.policy,
    }
    scorer = train(records, rules, provenance=provenance)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(scorer_data(scorer), indent=1, ensure_ascii=False) + "\n", "utf-8")
    return scorer
