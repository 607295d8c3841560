"""The scope evaluation's measurements: each test record decided, counted and ranked.

A split (a forward-chaining step, the lock box, a new batch) is measured by training the scorer
on its training records and deciding its test records (`measure`); the figures are the issue's
counts (`counts`), the engine's operating points beside the baseline's (`points`), average
precision, and shares with 95 % Wilson intervals.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields, replace

from curator.core.decision import Decision, PaperText
from curator.core.model import Verdict
from curator.lab.train import Settings, examples, precision_cut, train
from curator.scope.engine import decide
from curator.scope.records import Record
from curator.scope.rules import ScopeRules
from curator.scope.scorer import Scorer
from curator.scope.screen import Group, group_of

#: The policy's lexical rule, written independently of scope.yaml to check the gate against.
POLICY_GATE = re.compile(r"\bmemor(?:y|ies)\b", re.IGNORECASE)
VERDICTS = (Verdict.INCLUDE, Verdict.REVIEW, Verdict.HOLD, Verdict.EXCLUDE)
GATE_CHANGE = "policy 2026-10-09 added the lexical entry gate"


@dataclass(frozen=True)
class Case:
    """One scored record: what the engine said, and the baseline's P(include) (gate-passing)."""

    record: Record
    decision: Decision
    passes_gate: bool
    baseline: float | None = None

    @property
    def include(self) -> bool:
        """The maintainers included the paper."""
        return self.record.decision == "include"

    @property
    def score(self) -> float:
        """The engine's P(include) (0 when the scorer did not weigh the paper)."""
        return self.decision.scorer.score if self.decision.scorer is not None else 0.0

    @property
    def row(self) -> str:
        """The confusion-matrix row: maintainer decision and whether the paper passes the gate."""
        gate = "passes gate" if self.passes_gate else "fails gate"
        return f"{self.record.decision} ({gate})"


def cases(records: Sequence[Record], rules: ScopeRules) -> list[Case]:
    """Run the engine on every record that carries its official abstract."""
    out = []
    for record in records:
        abstract = record.abstract
        if not abstract:
            continue
        title = str(record.data.get("title", ""))
        passes = bool(POLICY_GATE.search(title) or POLICY_GATE.search(abstract))
        out.append(Case(record, decide(PaperText(title, abstract), rules), passes))
    return out


@dataclass(frozen=True)
class Counts:
    """The issue's numbers for one set of cases, all over gate-passing papers unless named."""

    gate_passing: int = 0
    includes: int = 0
    include_calls: int = 0
    include_right: int = 0
    exclude_calls: int = 0
    includes_excluded: int = 0
    #: Maintainer includes given an error (`scope-exclude`: a hard rule of the policy).
    includes_erred: int = 0
    #: Gate-passing papers called a likely exclude because they score under the floor.
    floor_calls: int = 0
    reviews: int = 0
    likely_exclude_includes: int = 0
    #: discover's "likely include" group: its size and the maintainer includes in it.
    likely_include: int = 0
    likely_include_includes: int = 0
    gate_failing_includes: int = 0
    gate_disagreements: int = 0

    @property
    def includes_warned(self) -> int:
        """Maintainer includes called a likely exclude (a warning, not a hard rule's error)."""
        return self.includes_excluded - self.includes_erred

    def __add__(self, other: Counts) -> Counts:
        return Counts(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))


def counts(items: Sequence[Case], rules: ScopeRules) -> Counts:
    """Count the issue's definitions (discover's groups as `curator discover` forms them)."""
    gated = [c for c in items if c.passes_gate]
    calls = [c for c in gated if c.decision.verdict is Verdict.INCLUDE]
    return Counts(
        gate_passing=len(gated),
        includes=sum(c.include for c in gated),
        include_calls=len(calls),
        include_right=sum(c.include for c in calls),
        exclude_calls=sum(c.decision.verdict is Verdict.EXCLUDE for c in gated),
        includes_excluded=sum(c.include and c.decision.verdict is Verdict.EXCLUDE for c in gated),
        includes_erred=sum(c.include and c.decision.code == "scope-exclude" for c in gated),
        floor_calls=sum(c.decision.by_floor for c in gated),
        reviews=sum(c.decision.verdict is Verdict.REVIEW for c in gated),
        likely_exclude_includes=sum(
            c.include and group_of(c.decision) is Group.EXCLUDE for c in gated
        ),
        likely_include=sum(group_of(c.decision) is Group.INCLUDE for c in gated),
        likely_include_includes=sum(
            c.include and group_of(c.decision) is Group.INCLUDE for c in gated
        ),
        gate_failing_includes=sum(c.include and not c.passes_gate for c in items),
        gate_disagreements=sum(_engine_gate(c, rules) != c.passes_gate for c in items),
    )


def _engine_gate(case: Case, rules: ScopeRules) -> bool:
    """True when the engine's own gate let the paper through."""
    d = case.decision
    return not (d.verdict is Verdict.EXCLUDE and d.rules == (rules.gate.id,))


def wilson(part: int, whole: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of part/whole ((0, 1) for an empty whole)."""
    if whole <= 0:
        return 0.0, 1.0
    p = part / whole
    centre = (p + z * z / (2 * whole)) / (1 + z * z / whole)
    half = z * math.sqrt(p * (1 - p) / whole + z * z / (4 * whole * whole)) / (1 + z * z / whole)
    return max(0.0, centre - half), min(1.0, centre + half)


def share(part: int, whole: int) -> str:
    """`part/whole = x % [lo–hi]` with the Wilson interval."""
    if whole <= 0:
        return f"{part}/0"
    lo, hi = wilson(part, whole)
    return f"{part}/{whole} = {100 * part / whole:.0f} % [{100 * lo:.0f}–{100 * hi:.0f}]"


@dataclass(frozen=True)
class Measured:
    """One split measured: the engine's cases on the test part, with the baseline beside it."""

    name: str
    trained_on: int
    cases: tuple[Case, ...]
    threshold: float
    #: The baseline's own cuts, chosen on its out-of-fold training scores like the engine's:
    #: include at or above the first, exclude below the second.
    baseline_cuts: tuple[float, float]
    #: The same test part decided with the signal view alone (round 1's combination rule).
    alone: tuple[Case, ...] = ()


def measure(
    name: str,
    train_part: Sequence[Record],
    test_part: Sequence[Record],
    rules: ScopeRules,
    settings: Settings | None = None,
    scorer: Scorer | None = None,
) -> Measured:
    """Train the scorer (unless `scorer` is the one trained on `train_part` already) and the
    baseline on `train_part`, score `test_part` once."""
    from curator.lab.baseline import Baseline, out_of_fold

    bare = replace(rules, scorer=None)
    settings = settings or Settings()
    scorer = scorer or train(train_part, bare, settings)
    found = cases(test_part, replace(bare, scorer=scorer))
    signals = train(train_part, bare, replace(settings, lexical=None))
    alone = cases(test_part, replace(bare, scorer=signals))
    taught = {e.id for e in examples(train_part, bare)}
    # Exactly the records the scorer learned from: gate-passing, with an abstract.
    same = [r for r in train_part if r.id in taught]
    baseline = Baseline(same)
    gated = [c for c in found if c.passes_gate]
    scores = dict(
        zip((c.record.id for c in gated), baseline.scores([c.record for c in gated]), strict=True)
    )
    found = [replace(c, baseline=scores.get(c.record.id)) for c in found]
    oof = out_of_fold(same)
    labels = [int(r.decision == "include") for r in same]
    cuts = baseline_cuts(oof, labels, settings.precision)
    return Measured(name, len(same), tuple(found), scorer.threshold, cuts, tuple(alone))


def baseline_cuts(
    probs: Sequence[float], labels: Sequence[int], precision: float
) -> tuple[float, float]:
    """(include at, exclude below) for the baseline from its out-of-fold training scores: the
    engine's precision target for include, and no training include below the exclude cut."""
    pairs = list(zip(probs, labels, strict=True))
    cut = precision_cut(pairs, precision, 1.0)
    lowest = min((p for p, label in pairs if label), default=0.0)
    return cut, min(lowest, cut)


@dataclass(frozen=True)
class Points:
    """The engine and the baseline at the engine's operating points (counts, summed over steps)."""

    gate_passing: int = 0
    includes: int = 0
    k: int = 0  # the engine's include calls
    ours_right: int = 0
    base_right: int = 0  # includes among the baseline's k most likely
    e: int = 0  # the engine's exclude calls
    ours_wrong_excluded: int = 0
    base_wrong_excluded: int = 0  # includes among the baseline's e least likely
    ours_reviews: int = 0
    base_reviews: int = 0  # reviews the baseline needs for the engine's errors (cuts on test)
    deploy_calls: int = 0  # the baseline with its own training cuts: include calls
    deploy_right: int = 0
    deploy_excluded: int = 0
    deploy_wrong_excluded: int = 0
    deploy_reviews: int = 0

    def __add__(self, other: Points) -> Points:
        return Points(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))


def points(m: Measured) -> Points:
    """The engine's include and exclude counts, and what the baseline does at the same ones."""
    gated = [c for c in m.cases if c.passes_gate and c.baseline is not None]
    k = sum(c.decision.verdict is Verdict.INCLUDE for c in gated)
    e = sum(c.decision.verdict is Verdict.EXCLUDE for c in gated)
    ranked = sorted(gated, key=lambda c: (-(c.baseline or 0.0), c.record.id))
    wrong_in = sum(not c.include for c in gated if c.decision.verdict is Verdict.INCLUDE)
    wrong_out = sum(c.include for c in gated if c.decision.verdict is Verdict.EXCLUDE)
    top = _largest(ranked, lambda part: sum(not c.include for c in part) <= wrong_in)
    bottom = _largest(
        ranked[::-1][: len(ranked) - top], lambda part: sum(c.include for c in part) <= wrong_out
    )
    inc_at, exc_below = m.baseline_cuts
    calls = [c for c in gated if (c.baseline or 0.0) >= inc_at]
    outs = [c for c in gated if (c.baseline or 0.0) < exc_below]
    return Points(
        gate_passing=len(gated),
        includes=sum(c.include for c in gated),
        k=k,
        ours_right=sum(c.include for c in gated if c.decision.verdict is Verdict.INCLUDE),
        base_right=sum(c.include for c in ranked[:k]),
        e=e,
        ours_wrong_excluded=wrong_out,
        base_wrong_excluded=sum(c.include for c in ranked[len(ranked) - e :]) if e else 0,
        ours_reviews=sum(c.decision.verdict is Verdict.REVIEW for c in gated),
        base_reviews=len(ranked) - top - bottom,
        deploy_calls=len(calls),
        deploy_right=sum(c.include for c in calls),
        deploy_excluded=len(outs),
        deploy_wrong_excluded=sum(c.include for c in outs),
        deploy_reviews=len(gated) - len(calls) - len(outs),
    )


def _largest(ranked: Sequence[Case], ok: object) -> int:
    """The largest n whose first n cases still satisfy `ok`."""
    best = 0
    for n in range(1, len(ranked) + 1):
        if ok(ranked[:n]):  # type: ignore[operator]
            best = n
    return best


def average_precision(pairs: Iterable[tuple[float, bool]]) -> float:
    """Average precision of a ranking by score (ties broken against the ranker)."""
    ranked = sorted(pairs, key=lambda p: (-p[0], p[1]))
    total = sum(label for _, label in ranked)
    if not total:
        return 0.0
    hits, ap = 0, 0.0
    for n, (_, label) in enumerate(ranked, 1):
        if label:
            hits += 1
            ap += hits / n
    return ap / total


def ap_pair(parts: Sequence[Measured]) -> tuple[float, float]:
    """(engine, baseline) average precision of P(include) over the gate-passing test papers,
    each step ranked on its own and the precisions pooled."""
    ours = [(c.score, c.include) for m in parts for c in m.cases if c.passes_gate]
    base = [(c.baseline or 0.0, c.include) for m in parts for c in m.cases if c.passes_gate]
    return average_precision(ours), average_precision(base)


@dataclass(frozen=True)
class Evaluation:
    """Everything the evaluation measured."""

    rules: ScopeRules
    files: tuple[str, ...]
    records: int
    development: tuple[Record, ...]
    chained: tuple[Measured, ...]
    sealed: Measured | None
    #: inputs_digest of the record files, the rules file and the evaluation's code.
    digest: str = ""
