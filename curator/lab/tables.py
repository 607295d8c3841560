"""The tables of the scope evaluation page: the issue's figures, each view, the confusion
matrix, the errors, the signals and the tracks (Markdown lines)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace

from curator.console import sanitize
from curator.core.decision import PaperText
from curator.core.model import Verdict
from curator.lab.measure import (
    GATE_CHANGE,
    VERDICTS,
    Case,
    Counts,
    Measured,
    Points,
    average_precision,
    counts,
    share,
)
from curator.scope.records import Record
from curator.scope.rules import RuleKind, ScopeRules


def issue_rows(n: Counts) -> list[tuple[str, str]]:
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
        ("includes with an error-level finding (target 0)", str(n.includes_erred)),
        (
            "includes called a likely exclude (a warning: below the floor, or a class that no "
            "hard rule makes)",
            str(n.includes_warned),
        ),
        ("gate-passing papers sent to review (target ≤ 40 %)", share(n.reviews, n.gate_passing)),
        (
            "gate-passing papers called exclude or likely exclude",
            share(n.exclude_calls, n.gate_passing),
        ),
        (
            "… of them a likely exclude because the score is under the floor (a warning)",
            share(n.floor_calls, n.gate_passing),
        ),
        (
            'discover: includes in "likely include" (target ≥ 85 %)',
            share(n.likely_include_includes, n.includes),
        ),
        (
            'discover: maintainer includes among its "likely include"',
            share(n.likely_include_includes, n.likely_include),
        ),
        ('discover: includes in "likely exclude" (target 0)', str(n.likely_exclude_includes)),
        (
            f"includes failing the gate ({GATE_CHANGE}; excluded by it, not rule errors)",
            str(n.gate_failing_includes),
        ),
        ("gate disagrees with the policy's lexical rule", str(n.gate_disagreements)),
    ]


def table(head: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(head) + " |", "|---" * len(head) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def compare(p: Points, aps: tuple[float, float]) -> list[str]:
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
    return table(("operating point", "curator", "TF-IDF + LR, same training records"), rows)


def views(parts: Sequence[Measured], rules: ScopeRules) -> list[str]:
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
    return table(head, rows)


def _lexical(case: Case) -> float:
    """The lexical view's P(include) of a weighed paper (0 when it has none)."""
    scorer = case.decision.scorer
    return (scorer.lexical_score or 0.0) if scorer is not None else 0.0


def _ap(pairs: Sequence[tuple[float, bool]]) -> str:
    return f"{average_precision(pairs):.3f}"


def matrix(items: Sequence[Case]) -> list[str]:
    rows: dict[str, Counter[Verdict]] = {}
    for case in items:
        rows.setdefault(case.row, Counter())[case.decision.verdict] += 1
    return table(
        ("maintainer", *(v.value for v in VERDICTS)),
        ([row, *(str(c[v]) for v in VERDICTS)] for row, c in sorted(rows.items())),
    )


def errors(items: Sequence[Case]) -> list[str]:
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


def signal_rows(items: Sequence[Case], rules: ScopeRules) -> list[str]:
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
            if r.kind in (RuleKind.CORE, RuleKind.EXCLUSION, RuleKind.SKILL) and not r.memory_sense
        ),
    ]
    rows = []
    for name in names:
        rule = rules.by_id(name)
        what = MEANING.get(name) or (rule.en.split(":")[0][:90] if rule else name)
        codes = set(rule.reason_codes) - {"direct"} if rule else set()
        agree = "–"
        if codes and rule is not None and rule.kind is not RuleKind.CORE:
            fired = [c for c, f in neg if f.get(name)]
            mine = [c for c, _ in neg if reason_code(c.record) in codes]
            agree = (
                f"{sum(reason_code(c.record) in codes for c in fired)}/{len(fired)} "
                f"fired; {sum(1 for c in mine if c in fired)}/{len(mine)} found"
            )
        rows.append((f"`{name}`", what, _mean(inc, name), _mean([f for _, f in neg], name), agree))
    return table(
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


def tracks(items: Sequence[Case]) -> list[str]:
    """The engine's track of each gate-passing include against the maintainers' track."""
    pairs = Counter(
        (str(c.record.data.get("track") or "–"), c.decision.track or "–")
        for c in items
        if c.include and c.passes_gate
    )
    return table(
        ("maintainers' track", "curator's track", "includes"),
        ([a, b, str(n)] for (a, b), n in sorted(pairs.items())),
    )
