"""Training the scope scorer from screening records: two views and their combination.

The examples are the records that carry the official abstract and pass the entry gate (the
scorer only ever sees such papers); the label is the maintainers' decision (include = 1,
exclude or hold = 0). Two views are fitted, both class-balanced L2-regularised logistic
regressions in pure Python: the signal view over the signals (curator/scope/signals.py, a few
dozen numbers in [0, 1]: Newton steps) and the lexical view over the words and word pairs of
the title and abstract (curator/scope/lexical.py: L-BFGS, the heaviest `lexical.top` kept).
Out-of-fold scores of both views on the training records fit the stack (a logistic regression
on the two log-odds) and choose the include threshold: the lowest combined score at which the
papers with strong evidence that reach it are at least `precision` maintainer includes; and the
floor: the score that a share `recall` of the includes reach, out of fold. The
veto is fixed (the scorer leaning to include, 0.5 on a class-balanced fit): it only ever turns
a proven exclusion into review.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from curator.core.decision import PaperText
from curator.core.errors import InputError
from curator.lab.splits import arxiv_order, usable
from curator.scope.engine import strong
from curator.scope.lexical import Features, Lexical, features, logistic, logit
from curator.scope.lexical import Settings as LexicalSettings
from curator.scope.lexical import fit as fit_lexical
from curator.scope.records import Record, check_records, load_records
from curator.scope.rules import ScopeRules, parse_rules
from curator.scope.scorer import Scorer, Stack, scorer_data
from curator.scope.signals import read, rule_hits
from curator.textio.text import read_text


@dataclass(frozen=True)
class Settings:
    """Training knobs; the defaults are what rules/scope-scorer.json was trained with.

    `lexical`: the lexical view's knobs, or None for the signal view alone (format /2).
    """

    l2: float = 1.0
    folds: int = 5
    precision: float = 0.95
    #: The share of the training includes the floor keeps at or above it (out of fold).
    recall: float = 0.95
    veto: float = 0.5
    iterations: int = 25
    lexical: LexicalSettings | None = field(default_factory=lambda: LexicalSettings(c=10.0))


@dataclass(frozen=True)
class Example:
    """One gate-passing record: its signal values, label, whether its evidence is strong, and
    its words for the lexical view."""

    id: str
    features: dict[str, float]
    label: int
    strong: bool
    words: Features = field(default_factory=lambda: Features({}))


def examples(records: Sequence[Record], rules: ScopeRules) -> list[Example]:
    """Gate-passing records with an abstract and a decision, as training examples, in
    submission (arXiv ID) order: the folds are cut by position, so the scorer is a function
    of the records, not of the order of the files they came in."""
    bare = replace(rules, scorer=None)
    out = []
    for record in sorted(filter(usable, records), key=arxiv_order):
        paper = PaperText(str(record.data.get("title", "")), record.abstract or "")
        hits = rule_hits(bare.gate, paper)
        if not hits:
            continue
        reading = read(paper, bare, hits)
        label = 1 if record.decision == "include" else 0
        ok = not strong(reading, bare, True)
        out.append(Example(record.id, reading.features(), label, ok, features(paper)))
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
    """Signal weights and bias: L2-regularised, class-balanced logistic regression (Newton)."""
    names = sorted({k for e in items for k in e.features})
    rows = [[1.0, *(e.features.get(n, 0.0) for n in names)] for e in items]
    labels = [e.label for e in items]
    positives = sum(labels) or 1
    negatives = (len(labels) - sum(labels)) or 1
    # Balanced: each class weighs half the loss, whatever its size.
    cw = [0.5 / positives if y else 0.5 / negatives for y in labels]
    size = len(names) + 1
    # The penalty is per example of the average class: scaled like the loss.
    penalty = settings.l2 / len(items) if items else 0.0
    w = [0.0] * size
    for _ in range(settings.iterations):
        grad = [penalty * x if j else 0.0 for j, x in enumerate(w)]
        hess = [[penalty if i == j and i else 0.0 for j in range(size)] for i in range(size)]
        for row, y, c in zip(rows, labels, cw, strict=True):
            p = logistic(sum(a * b for a, b in zip(w, row, strict=True)))
            g, h = c * (p - y), c * p * (1 - p)
            for i, xi in enumerate(row):
                if xi:
                    grad[i] += g * xi
                    hi = hess[i]
                    for j, xj in enumerate(row):
                        if xj:
                            hi[j] += h * xi * xj
        for i in range(size):
            hess[i][i] += 1e-9  # a signal no example has still gets a solvable system
        step = _solve(hess, grad)
        w = [a - b for a, b in zip(w, step, strict=True)]
        if max(map(abs, step)) < 1e-7:
            break
    return {n: w[i + 1] for i, n in enumerate(names)}, w[0]


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix @ x = vector (Gaussian elimination with partial pivoting)."""
    n = len(vector)
    a = [[*row, v] for row, v in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        head = a[col][col] or 1e-12
        for r in range(col + 1, n):
            factor = a[r][col] / head
            if factor:
                a[r] = [x - factor * y for x, y in zip(a[r], a[col], strict=True)]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        rest = sum(a[r][c] * x[c] for c in range(r + 1, n))
        x[r] = (a[r][n] - rest) / (a[r][r] or 1e-12)
    return x


def folds(count: int, settings: Settings) -> list[tuple[list[int], list[int]]]:
    """(training, held-out) positions of each fold: by position, every k-th example held out."""
    k = max(2, min(settings.folds, count))
    return [
        ([i for i in range(count) if i % k != fold], list(range(fold, count, k)))
        for fold in range(k)
    ]


def out_of_fold(items: Sequence[Example], settings: Settings) -> list[float]:
    """Each example's signal-view probability from a fit without its fold."""
    probs = [0.0] * len(items)
    for kept, held in folds(len(items), settings):
        weights, bias = fit([items[i] for i in kept], settings)
        model = Scorer(weights, bias, 0.5, 0.5)
        for i in held:
            probs[i] = model.probability(items[i].features)
    return probs


def lexical_out_of_fold(
    items: Sequence[Example], settings: Settings, lexical: LexicalSettings
) -> list[float]:
    """Each example's lexical-view probability from a fit without its fold (the folds of
    `settings`, the same as `out_of_fold`'s), the view fitted with `lexical`."""
    probs = [0.0] * len(items)
    for kept, held in folds(len(items), settings):
        view = Lexical(
            *fit_lexical([items[i].words for i in kept], [items[i].label for i in kept], lexical)
        )
        for i in held:
            probs[i] = view.probability(items[i].words)
    return probs


def fit_stack(
    signal: Sequence[float], lexical: Sequence[float], labels: Sequence[int], settings: Settings
) -> Stack:
    """The combination of the two views' out-of-fold probabilities: a logistic regression on
    their log-odds (class-balanced, L2 as the signal view)."""
    rows = [
        Example(str(i), {"signals": logit(s), "lexical": logit(x)}, y, True)
        for i, (s, x, y) in enumerate(zip(signal, lexical, labels, strict=True))
    ]
    weights, bias = fit(rows, settings)
    return Stack(weights.get("signals", 0.0), weights.get("lexical", 0.0), bias)


def threshold(items: Sequence[Example], probs: Sequence[float], precision: float) -> float:
    """The lowest score at which the strong-evidence papers reaching it are at least
    `precision` includes (0.99 when no score is)."""
    pairs = [(p, e.label) for e, p in zip(items, probs, strict=True) if e.strong]
    return min(0.99, max(0.01, precision_cut(pairs, precision, 0.99)))


def floor(items: Sequence[Example], probs: Sequence[float], recall: float, cut: float) -> float:
    """The highest score that at least `recall` of the includes reach (out of fold), at most
    the include threshold `cut`: below it a paper ranks under nearly every include."""
    ranked = sorted((p for e, p in zip(items, probs, strict=True) if e.label), reverse=True)
    if not ranked:
        return min(cut, 0.01)
    kept = max(1, math.ceil(recall * len(ranked)))
    return max(1e-6, min(cut, ranked[kept - 1]))


def precision_cut(pairs: Sequence[tuple[float, int]], precision: float, none: float) -> float:
    """The lowest score whose (score, label) pairs at or above it are at least `precision`
    positive (`none` when no score is)."""
    ranked = sorted(pairs, reverse=True)
    best, hits = none, 0
    for n, (p, label) in enumerate(ranked, 1):
        hits += label
        # Only a cut between two different scores can be a threshold.
        nxt = ranked[n][0] if n < len(ranked) else -1.0
        if nxt < p and hits >= precision * n:
            best = p
    return best


def train(
    records: Sequence[Record],
    rules: ScopeRules,
    settings: Settings | None = None,
    provenance: dict[str, Any] | None = None,
) -> Scorer:
    """A scorer trained on `records`; threshold from out-of-fold scores."""
    settings = settings or Settings()
    items = examples(records, rules)
    if len({e.label for e in items}) < 2:
        raise InputError("training needs gate-passing records of both include and exclude/hold")
    probs = out_of_fold(items, settings)
    weights, bias = fit(items, settings)
    about = dict(provenance or {})
    about.update(
        examples=len(items),
        includes=sum(e.label for e in items),
        settings=asdict(settings),
    )
    if settings.lexical is None:
        cut = threshold(items, probs, settings.precision)
        low = floor(items, probs, settings.recall, cut)
        return Scorer(weights, bias, cut, settings.veto, about, floor=low, recall=settings.recall)
    labels = [e.label for e in items]
    words = lexical_out_of_fold(items, settings, settings.lexical)
    stack = fit_stack(probs, words, labels, settings)
    combined = [stack.probability(s, x) for s, x in zip(probs, words, strict=True)]
    cut = threshold(items, combined, settings.precision)
    low = floor(items, combined, settings.recall, cut)
    view = Lexical(*fit_lexical([e.words for e in items], labels, settings.lexical))
    return Scorer(
        weights,
        bias,
        cut,
        settings.veto,
        about,
        lexical=view,
        stack=stack,
        floor=low,
        recall=settings.recall,
    )


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
