"""Measure the scope engine on labelled screening records, without letting it flatter itself.

`curator scope evaluate RECORDS... [--rules FILE] [--out FILE] [--lock-box]` (and
`python -m curator.cli.evaluate --records DIR`) writes the Markdown report
(docs/scope-evaluation.md in this repository). The records that carry an abstract are put in
submission (arXiv ID) order; the scorer is trained by forward chaining on earlier parts and
scored on the next (curator/scope/splits.py), then, only with `--lock-box`, trained on all the
development records and scored once on the latest quarter. Each split is compared with
TF-IDF + logistic regression trained on exactly the same records (curator/scope/baseline.py),
at the engine's own operating points. Shares carry 95 % Wilson intervals.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path

from curator.console import sanitize
from curator.core.decision import Decision, PaperText
from curator.core.model import Verdict
from curator.scope.engine import decide
from curator.scope.records import Record, load_records
from curator.scope.rules import Kind, ScopeRules, load_rules
from curator.scope.scorer import Scorer
from curator.scope.screen import Group, group_of
from curator.scope.splits import LOCK_BOX, PARTS, forward_chain, lock_box
from curator.scope.train import Settings, examples, precision_cut, train

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
    reviews: int = 0
    likely_exclude_includes: int = 0
    gate_failing_includes: int = 0
    gate_disagreements: int = 0

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
        reviews=sum(c.decision.verdict is Verdict.REVIEW for c in gated),
        likely_exclude_includes=sum(
            c.include and group_of(c.decision) is Group.EXCLUDE for c in gated
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
    from curator.scope.baseline import Baseline, out_of_fold

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


def _issue_rows(n: Counts) -> list[tuple[str, str]]:
    """The issue's definitions, in its words."""
    return [
        (
            "gate-passing papers (standalone memory/memories in title or abstract)",
            str(n.gate_passing),
        ),
        ("… of them maintainer includes", str(n.includes)),
        (
            "include precision: gate-passing papers called include that maintainers include "
            "(target ≥ 90 %)",
            share(n.include_right, n.include_calls),
        ),
        ("include recall: maintainer includes called include", share(n.include_right, n.includes)),
        ("includes excluded (target 0)", str(n.includes_excluded)),
        ("gate-passing papers sent to review (target ≤ 40 %)", share(n.reviews, n.gate_passing)),
        (
            "gate-passing papers excluded (each by a proven rule)",
            share(n.exclude_calls, n.gate_passing),
        ),
        ('discover: includes in "likely exclude" (target 0)', str(n.likely_exclude_includes)),
        (
            f"includes failing the gate ({GATE_CHANGE}; excluded by it, not rule errors)",
            str(n.gate_failing_includes),
        ),
        ("gate disagrees with the policy's lexical rule", str(n.gate_disagreements)),
    ]


def _table(head: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(head) + " |", "|---" * len(head) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def _compare(p: Points, aps: tuple[float, float]) -> list[str]:
    """The engine and the baseline at each operating point."""
    base_k = f"{p.base_right}/{p.k}" + (f" = {100 * p.base_right / p.k:.0f} %" if p.k else "")
    rows = [
        (
            "include precision at the engine's include count",
            share(p.ours_right, p.k),
            share(p.base_right, p.k) if p.k else base_k,
        ),
        (
            "includes among the papers each excludes (the engine's exclude count)",
            f"{p.ours_wrong_excluded} of {p.e}",
            f"{p.base_wrong_excluded} of {p.e}",
        ),
        (
            "review share at the engine's errors (baseline cuts set on the test part, "
            "in its favour)",
            share(p.ours_reviews, p.gate_passing),
            share(p.base_reviews, p.gate_passing),
        ),
        (
            "with its own cuts from training (same targets): include precision",
            share(p.ours_right, p.k),
            share(p.deploy_right, p.deploy_calls),
        ),
        ("… includes excluded", str(p.ours_wrong_excluded), str(p.deploy_wrong_excluded)),
        (
            "… review share",
            share(p.ours_reviews, p.gate_passing),
            share(p.deploy_reviews, p.gate_passing),
        ),
        ("average precision of P(include) (threshold-free)", f"{aps[0]:.3f}", f"{aps[1]:.3f}"),
    ]
    return _table(("operating point", "curator", "TF-IDF + LR, same training records"), rows)


def _views(parts: Sequence[Measured], rules: ScopeRules) -> list[str]:
    """Each view alone and the two stacked, on the same test papers."""
    alone = [c for m in parts for c in m.alone]
    both = [c for m in parts for c in m.cases]
    gated = [c for c in both if c.passes_gate]
    words = [(_lexical(c), c.include) for c in gated]
    base = [(c.baseline or 0.0, c.include) for c in gated]

    def row(name: str, items: Sequence[Case]) -> tuple[str, ...]:
        n = counts(items, rules)
        ap = average_precision((c.score, c.include) for c in items if c.passes_gate)
        return (
            name,
            share(n.include_right, n.include_calls),
            share(n.reviews, n.gate_passing),
            str(n.includes_excluded),
            f"{ap:.3f}",
        )

    rows = [
        row("signal view alone (round 1's rule: strong evidence + its own threshold)", alone),
        ("lexical view alone (words and word pairs)", "–", "–", "–", _ap(words)),
        row("both views stacked (round 2: what `curator check` runs)", both),
        ("TF-IDF + LR (scikit-learn baseline)", "–", "–", "–", _ap(base)),
    ]
    head = ("view", "include precision", "review share", "includes excluded", "AP of P(include)")
    return _table(head, rows)


def _lexical(case: Case) -> float:
    """The lexical view's P(include) of a weighed paper (0 when it has none)."""
    scorer = case.decision.scorer
    return (scorer.lexical_score or 0.0) if scorer is not None else 0.0


def _ap(pairs: Sequence[tuple[float, bool]]) -> str:
    return f"{average_precision(pairs):.3f}"


def _matrix(items: Sequence[Case]) -> list[str]:
    rows: dict[str, Counter[Verdict]] = {}
    for case in items:
        rows.setdefault(case.row, Counter())[case.decision.verdict] += 1
    return _table(
        ("maintainer", *(v.value for v in VERDICTS)),
        ([row, *(str(c[v]) for v in VERDICTS)] for row, c in sorted(rows.items())),
    )


def _errors(items: Sequence[Case]) -> list[str]:
    """Negatives called include and includes excluded, with the deciding quote."""
    out = []
    for c in items:
        v = c.decision.verdict
        wrong = (v is Verdict.INCLUDE and not c.include) or (
            v is Verdict.EXCLUDE and c.include and c.passes_gate
        )
        if wrong:
            quote = c.decision.quotes[0].text if c.decision.quotes else c.decision.reason
            quote = quote if len(quote) <= 160 else quote[:157] + "..."
            # A record's ID and text are input (a batch's above all): inert in the page.
            out.append(
                f"- {sanitize.code(c.record.id)} maintainers **{c.record.decision}**, curator "
                f'**{v.value}** (score {c.score:.3f}): "{sanitize.text(quote, 400)}"'
            )
    return out or ["None."]


#: The maintainers' reason templates of records without a `reason_code` (the list's
#: 2026-10-03 batch), mapped to the reason-code taxonomy of the 2026-09-30 records.
REASON_TEMPLATES = (
    ("计算资源、缓存、硬件或部署效率", "efficiency"),
    ("计算系统、物理存储器", "efficiency"),
    ("数学、物理或材料", "non_language_model"),
    ("空间数值算法、物理模拟或数学理论", "non_language_model"),
    ("专业领域预测、表示或分布式学习", "non_language_model"),
    ("视觉生成、感知或视觉状态", "perception"),
    ("空间感知、视觉生成或机器人状态", "perception"),
    ("机器人控制、动作或具身任务", "non_llm_control"),
    ("学习、优化或策略训练", "training_method"),
    ("推理深度、采样、模型压缩或优化几何", "training_method"),
    ("一般评测、可靠性或安全", "general_benchmark"),
    ("技能包、提示或整体系统优化", "skill_optimization"),
    ("流程技能额外门槛", "skill_optimization"),
    ("用户交互、社会行为或领域语言处理", "general_harness"),
    ("科学发现或专业领域工作流", "general_harness"),
    ("RAG", "generic_rag"),
)


def reason_code(record: Record) -> str:
    """The maintainers' reason class of a record: `reason_code`, else its reason's template."""
    code = record.data.get("reason_code")
    if isinstance(code, str) and code:
        return code
    if record.decision == "include":
        return "direct"
    reason = str(record.data.get("reason", ""))
    return next((c for phrase, c in REASON_TEMPLATES if phrase in reason), "other")


def _signal_rows(items: Sequence[Case], rules: ScopeRules) -> list[str]:
    """How often each signal fires on gate-passing includes and negatives (development)."""
    from curator.scope.signals import MEANING, read, rule_hits

    bare = replace(rules, scorer=None)
    seen: list[tuple[Case, dict[str, float]]] = []
    for c in items:
        if not c.passes_gate:
            continue
        paper = PaperText(str(c.record.data.get("title", "")), c.record.abstract)
        seen.append((c, read(paper, bare, rule_hits(bare.gate, paper)).features()))
    inc = [f for c, f in seen if c.include]
    neg = [(c, f) for c, f in seen if not c.include]
    names = [
        *MEANING,
        *(
            r.id
            for r in rules.rules
            if r.kind in (Kind.CORE, Kind.EXCLUSION, Kind.SKILL) and not r.memory_sense
        ),
    ]
    rows = []
    for name in names:
        rule = rules.by_id(name)
        what = MEANING.get(name) or (rule.en.split(":")[0][:90] if rule else name)
        codes = set(rule.reason_codes) - {"direct"} if rule else set()
        agree = "–"
        if codes and rule is not None and rule.kind is not Kind.CORE:
            fired = [c for c, f in neg if f.get(name)]
            mine = [c for c, _ in neg if reason_code(c.record) in codes]
            agree = (
                f"{sum(reason_code(c.record) in codes for c in fired)}/{len(fired)} "
                f"fired; {sum(1 for c in mine if c in fired)}/{len(mine)} found"
            )
        rows.append((f"`{name}`", what, _mean(inc, name), _mean([f for _, f in neg], name), agree))
    return _table(
        (
            "signal",
            "what it reads",
            "mean on includes",
            "mean on exclude/hold",
            "agreement with the maintainers' reason class (on exclude/hold)",
        ),
        rows,
    )


def _mean(found: Sequence[dict[str, float]], name: str) -> str:
    return f"{sum(f.get(name, 0.0) for f in found) / len(found):.2f}" if found else "–"


def _tracks(items: Sequence[Case]) -> list[str]:
    """The engine's track of each gate-passing include against the maintainers' track."""
    pairs = Counter(
        (str(c.record.data.get("track") or "–"), c.decision.track or "–")
        for c in items
        if c.include and c.passes_gate
    )
    return _table(
        ("maintainers' track", "curator's track", "includes"),
        ([a, b, str(n)] for (a, b), n in sorted(pairs.items())),
    )


def load_all(paths: Sequence[Path]) -> tuple[list[Record], list[str]]:
    """Every record of the files (folders: their `*-review.json`), and the file names."""
    from curator.scope.train import record_files

    files = record_files([p.as_posix() for p in paths])
    records: list[Record] = []
    for path in files:
        records += load_records(path)
    return records, [p.name for p in files]


@dataclass(frozen=True)
class Report:
    """Everything the evaluation measured."""

    rules: ScopeRules
    files: tuple[str, ...]
    records: int
    development: tuple[Record, ...]
    chained: tuple[Measured, ...]
    sealed: Measured | None
    #: inputs_digest of the record files, the rules file and the evaluation's code.
    digest: str = ""


def run(rules_path: Path, paths: Sequence[Path], open_lock_box: bool = False) -> Report:
    """Forward chaining on the development records, and the lock box when asked."""
    rules = replace(load_rules(rules_path), scorer=None)  # never the shipped scorer
    records, names = load_all(paths)
    development, box = lock_box(records)
    chained = tuple(measure(s.name, s.train, s.test, rules) for s in forward_chain(development))
    sealed = measure("lock box", development, box, rules) if open_lock_box and box else None
    digest = inputs_digest(rules_path, paths)
    return Report(rules, tuple(names), len(records), tuple(development), chained, sealed, digest)


#: The code the figures follow from, inside the package (explain, memo and the pipeline's
#: stage only present or keep decisions).
EVALUATED_CODE = (
    "scope/baseline.py",
    "core/decision.py",
    "scope/engine.py",
    "scope/evaluate.py",
    "scope/lexical.py",
    "scope/matching.py",
    "scope/records.py",
    "scope/rules.py",
    "scope/scorer.py",
    "scope/signals.py",
    "scope/splits.py",
    "scope/train.py",
    "scope/screen.py",
)


def inputs_digest(rules_path: Path, paths: Sequence[Path]) -> str:
    """sha256 of the record files (name and bytes), the rules file and EVALUATED_CODE: what
    the evaluation's figures are a function of (with the baseline's library)."""
    from curator.scope.train import record_files

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


def short_path(path: str) -> str:
    """`rules/scope.yaml` whatever folder the file was read from, so the doc is stable."""
    p = Path(path)
    return f"{p.parent.name}/{p.name}" if p.parent.name else p.name


def render(report: Report) -> str:
    """The Markdown report."""
    rules = report.rules
    usable = sum(len(m.cases) for m in report.chained)
    lines = [
        "# Scope verdicts: evaluation on labelled screening records",
        "",
        f"Generated by `curator scope evaluate` (or `python -m curator.cli.evaluate`) from "
        f"{', '.join(report.files)} ({report.records} records) with `{short_path(rules.path)}` "
        f"(policy {rules.policy}). The engine reads the recorded official title and abstract, "
        "nothing else; records without an abstract are not scored.",
        "",
        *_METHOD,
        "",
    ]
    lines += _rounds(report, rules)
    if report.sealed is not None:
        lines += _lock_box_section(report.sealed, rules)
    else:
        lines += ["## Lock box", "", "Sealed: run with `--lock-box` once the rules are frozen.", ""]
    lines += _chained_section(report, rules, usable)
    lines += _signals_section(report, rules)
    lines += [
        "## Inputs",
        "",
        f"sha256 `{report.digest}` of the record files, `{short_path(rules.path)}` and the "
        "evaluation's code (curator/scope, discover's grouping): "
        "tests/scope/test_evaluation.py checks that this page was generated from what is "
        f"committed. The baseline ran on scikit-learn {_library('scikit-learn')}.",
    ]
    return "\n".join(lines) + "\n"


def _library(name: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "(absent)"


_METHOD = (
    "## How it is measured",
    "",
    "- **Order.** arXiv IDs are given in submission order, so the records with an abstract "
    "are sorted by ID. The latest "
    f"{round(100 * LOCK_BOX)} % are the **lock box**; the rest are the development records.",
    f"- **Forward chaining.** The development records are cut into {PARTS} consecutive parts; "
    "each part after the first is scored by a scorer trained on the parts before it only "
    "(both views, their stack and the include threshold, chosen on out-of-fold scores of "
    "that training part). The rules (`rules/scope.yaml`) are the same for every step: they "
    "were written from the policy while reading development records, so these figures are "
    "what the learned part generalises to, not an unseen test of the rules.",
    "- **Lock box.** Scored by a scorer trained on all development records, after the rules, "
    "the signals and the training procedure were committed: the commit that froze them "
    "precedes the commit that wrote the lock-box figures "
    "(`git log -- rules/scope.yaml curator/scope docs/scope-evaluation.md`). Round 1 opened "
    "it once; round 2 is a **second look** (below).",
    "- **Definitions** (as in issue 21). *Include precision*: of the gate-passing papers "
    "called `include`, the share the maintainers include. *Includes excluded*: maintainer "
    "includes that pass the gate and are called `exclude`. *Review share*: gate-passing papers "
    "called `review`, over all gate-passing papers. *Likely exclude*: the group "
    "`curator discover` puts a paper in (only a proven `exclude`). Brackets are 95 % Wilson "
    "intervals.",
    "- **Baseline.** TF-IDF (word uni- and bigrams) + logistic regression (class-balanced, "
    "regularisation by cross-validation on the training part), trained on exactly the records "
    "the scorer is trained on, scored on the same test papers. It is compared at the "
    "engine's operating points: its precision when it includes as many papers as the engine; "
    "the includes among as many papers as the engine excludes; the review share it needs to "
    "make no more errors than the engine (its cuts set on the test part itself, which favours "
    "it); and with cuts chosen on its own training scores by the engine's targets.",
    "- **Views.** P(include) stacks two views, each fitted in pure Python at `curator scope "
    "train`: the signal view (one weight per policy signal) and the lexical view (logistic "
    "regression on the title's and abstract's words and word pairs, the heaviest kept). Each "
    "view alone is shown beside the stack on the same test papers; the signal view alone with "
    "its own threshold is round 1's combination rule.",
)

#: Round 1's committed figures (docs/scope-evaluation.md at fa02ed3): the engine frozen at
#: 070ee95, forward chaining on the development records and the first look at the lock box.
ROUND_1 = {
    "include precision": ("30/31 = 97 % [84–99]", "8/10 = 80 % [49–94]"),
    "include recall": ("30/42 = 71 % [56–83]", "8/14 = 57 % [33–79]"),
    "includes excluded": ("0", "0"),
    "gate-passing papers sent to review": ("58/166 = 35 % [28–42]", "26/81 = 32 % [23–43]"),
    "gate-passing papers excluded (proven rule)": ("77/166 = 46 % [39–54]", "45/81 = 56 % [45–66]"),
    "average precision of P(include), curator / TF-IDF + LR": ("0.864 / 0.753", "0.843 / 0.895"),
    "TF-IDF + LR's precision at curator's include count": (
        "26/31 = 84 % [67–93]",
        "10/10 = 100 % [72–100]",
    ),
}

_SECOND_LOOK = (
    "## Round 2 and the second look at the lock box",
    "",
    "Round 1 (engine frozen at 070ee95, lock box opened once at fa02ed3) missed the include "
    "precision target on the lock box: 8/10. Its two false includes were memory named as one "
    "component of a larger LLM system, and forgetting in LLM post-training (general "
    "continual learning); on that lock box TF-IDF + LR ranked better (AP 0.895 against "
    "0.843). Round 2 was designed **after** those results were known: the policy's two "
    "classes as signals (`memory-one-component`: memory one item of a list of components in "
    "the contribution sentence, not in the title, in at most a third of the sentences; "
    "`continual-learning`: general continual learning, fine-tuning or post-training against "
    "forgetting, which blocks include), and a lexical view stacked with the signal view. "
    "Every choice (the signals, the stack against requiring both views to agree, the lexical "
    "regularisation and size) was made on forward chaining over the development records "
    'only, and committed before the lock box was scored again (the commit says "frozen '
    'before the second look at the lock box"). **The round-2 lock-box figures are a second '
    "look, not an unseen test**: whoever designed round 2 knew which kinds of paper round 1 "
    "got wrong there and that the lexical view ranked better. The unseen test is the list's "
    "next screening batch: `curator scope evaluate RECORDS --batch NEXT-review.json` scores "
    "it with the shipped rules and scorer, as `curator check` runs them, the baseline beside "
    "them, with these definitions.",
    "",
)


def _rounds(report: Report, rules: ScopeRules) -> list[str]:
    """Round 1's committed figures beside round 2's, forward chaining and lock box."""
    chained = sum((counts(m.cases, rules) for m in report.chained), Counts())
    chained_ap = ap_pair(report.chained)
    chained_p = sum((points(m) for m in report.chained), Points())
    now = [_round_column(chained, chained_ap, chained_p)]
    if report.sealed is not None:
        m = report.sealed
        now.append(_round_column(counts(m.cases, rules), ap_pair([m]), points(m)))
    else:
        now.append(["sealed"] * len(ROUND_1))
    rows = [
        (name, first[0], now[0][i], first[1], now[1][i])
        for i, (name, first) in enumerate(ROUND_1.items())
    ]
    head = (
        "measure",
        "round 1, forward chaining",
        "round 2, forward chaining",
        "round 1, lock box (first look)",
        "round 2, lock box (second look)",
    )
    return [*_SECOND_LOOK, *_table(head, rows), ""]


def _round_column(n: Counts, aps: tuple[float, float], p: Points) -> list[str]:
    """One split's figures in ROUND_1's rows."""
    return [
        share(n.include_right, n.include_calls),
        share(n.include_right, n.includes),
        str(n.includes_excluded),
        share(n.reviews, n.gate_passing),
        share(n.exclude_calls, n.gate_passing),
        f"{aps[0]:.3f} / {aps[1]:.3f}",
        share(p.base_right, p.k),
    ]


def targets(n: Counts, p: Points) -> list[tuple[str, bool]]:
    """Issue 21's done-when targets for one split, met or not (point estimates)."""
    return [
        ("include precision ≥ 90 %", n.include_right >= 0.9 * n.include_calls),
        ("0 includes excluded", n.includes_excluded == 0),
        ("≤ 40 % of gate-passing papers sent to review", n.reviews <= 0.4 * n.gate_passing),
        ("no include in discover's likely exclude", n.likely_exclude_includes == 0),
        (
            "include precision ≥ the baseline's at the same include count",
            p.ours_right >= p.base_right,
        ),
        (
            "includes excluded ≤ the baseline's at the same exclude count",
            p.ours_wrong_excluded <= p.base_wrong_excluded,
        ),
        ("review share ≤ the baseline's at the same errors", p.ours_reviews <= p.base_reviews),
    ]


def _targets(n: Counts, p: Points) -> list[str]:
    met = targets(n, p)
    return [
        "Targets: "
        + "; ".join(f"{name}: {'met' if ok else '**missed**'}" for name, ok in met)
        + "."
    ]


def _lock_box_section(m: Measured, rules: ScopeRules) -> list[str]:
    about = (
        f"Scorer trained on {m.trained_on} gate-passing development records (include "
        f"threshold {m.threshold:.3f}); {len(m.cases)} lock-box records scored "
        f"({m.cases[0].record.id} – {m.cases[-1].record.id})."
    )
    return ["## Lock box", "", *split_figures(m, rules, about, "lock box")]


def split_figures(m: Measured, rules: ScopeRules, about: str, name: str) -> list[str]:
    """One split's targets, the issue's figures, the baseline, each view, the matrix and the
    errors (`about`: what was trained and scored; `name`: what the split is called)."""
    n = counts(m.cases, rules)
    return [
        *_targets(n, points(m)),
        "",
        about,
        "",
        *_table(("measure", name), _issue_rows(n)),
        "",
        f"Against the baseline on the same {name}:",
        "",
        *_compare(points(m), ap_pair([m])),
        "",
        f"Each view alone and the two stacked, on the same {name}:",
        "",
        *_views([m], rules),
        "",
        "Maintainer decision × curator verdict:",
        "",
        *_matrix(m.cases),
        "",
        "Errors (negatives called include, includes excluded):",
        "",
        *_errors(m.cases),
        "",
    ]


def _chained_section(report: Report, rules: ScopeRules, usable: int) -> list[str]:
    parts = report.chained
    each = [counts(m.cases, rules) for m in parts]
    total = sum(each, Counts())
    head = ("measure", "pooled", *(m.name for m in parts))
    rows = [
        (label, pooled, *(dict(_issue_rows(n))[label] for n in each))
        for label, pooled in _issue_rows(total)
    ]
    lines = [
        "## Forward chaining on the development records",
        "",
        *_targets(total, sum((points(m) for m in parts), Points())),
        "",
        f"{usable} development records scored over {len(parts)} steps; trained on "
        + ", ".join(f"{m.trained_on}" for m in parts)
        + " gate-passing records, include thresholds "
        + ", ".join(f"{m.threshold:.3f}" for m in parts)
        + ".",
        "",
        *_table(head, rows),
        "",
        "Against the baseline (each step's counts summed):",
        "",
        *_compare(sum((points(m) for m in parts), Points()), ap_pair(parts)),
        "",
        "Each view alone and the two stacked, on the same test parts (pooled):",
        "",
        *_views(parts, rules),
        "",
        "Maintainer decision × curator verdict (pooled):",
        "",
        *_matrix([c for m in parts for c in m.cases]),
        "",
        "Errors (negatives called include, includes excluded):",
        "",
        *_errors([c for m in parts for c in m.cases]),
        "",
    ]
    return lines


def _signals_section(report: Report, rules: ScopeRules) -> list[str]:
    dev = cases(report.development, rules)
    return [
        "## The signals on the development records",
        "",
        "Each signal is read from the title and abstract with a quote (curator/scope/"
        "signals.py); the scorer weighs them. The maintainers' structured fields check them: "
        "the reason class of each exclude (its `reason_code`, or for records without one the "
        "template of its `reason`) against the exclusion class that fired, and the `track` of "
        "each include against the engine's.",
        "",
        *_signal_rows(dev, rules),
        "",
        *_tracks(dev),
        "",
    ]
