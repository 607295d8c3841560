"""`curator explain ID`: the decision trail for one paper, in English or Chinese, as text."""

from __future__ import annotations

from dataclasses import replace

from curator.core.decision import Weighed
from curator.core.model import Verdict
from curator.scope.decided import Recorded, settle
from curator.scope.engine import SCORER_ID, Decision, PaperText, decide, strong
from curator.scope.rules import Pattern, RuleKind, ScopeRules
from curator.scope.signals import read, rule_hits

_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "verdict": "Verdict",
        "read": "read",
        "why": "Why",
        "trail": "Decision trail",
        "gate_pass": "passed: a standalone memory word is in the official {where}",
        "gate_fail": "not passed",
        "gate_unknown": "cannot be checked: metadata unavailable",
        "quotes": "Evidence (verbatim from the official title/abstract)",
        "no_quote": "No quote: {reason}",
        "judge": "Still for a maintainer to judge",
        "summary_note": "Note",
        "none": "none",
        "signals": "Exclusion and skill signals",
        "core": "Core-scope signals",
        "missing": "lifecycle not shown: {items}",
        "proof": "Exclusion proven by a rule",
        "strong": "Strong evidence for include",
        "lacking": "not strong: {items}",
        "all_there": "all there (memory is the contribution, in an LM/agent sense, owner named)",
        "scorer": "Learned scorer",
        "combined": "P(include) = logistic({bias:+.2f} {sum}) = {score:.3f}; "
        "include at >= {th:.3f}, a proven exclusion stands below {veto:.3f}",
        "scorer_off": "not used: no scorer beside the rules",
        "brief": "P(include) {score:.3f}, include at >= {th:.3f} (-v: formulas and weights)",
        "floor": "; below {floor:.3f} (under nearly every include) a likely exclude",
        "decided": "Decided by the maintainers",
        "likely_task": "A likely exclude, no hard rule: decide, and record it once "
        "(rules/scope-decisions.yaml).",
        "engine": "The rules alone would say",
        "signal_rows": "Signals (value x weight = effect on the log-odds)",
        "signal_view": "signal view P = logistic({bias:+.2f} {sum}) = {score:.3f}",
        "stacked": "P(include) = logistic({bias:+.2f} {ws:+.2f} x logit({sp:.3f}) "
        "{wl:+.2f} x logit({lp:.3f})) = {score:.3f}; include at >= {th:.3f}, a proven "
        "exclusion stands below {veto:.3f} (combined and signal view)",
        "term_rows": "Lexical view P = {lp:.3f}; heaviest words "
        "(value x weight = effect on its log-odds, bias {bias:+.2f})",
    },
    "zh": {
        "verdict": "结论",
        "read": "阅读范围",
        "why": "理由",
        "trail": "判定过程",
        "gate_pass": "通过：官方{where}中有独立的 memory/memories",
        "gate_fail": "未通过",
        "gate_unknown": "无法检查：元数据缺失",
        "quotes": "证据（官方标题/摘要原文）",
        "no_quote": "无引文：{reason}",
        "judge": "仍需维护者判断",
        "summary_note": "备注",
        "none": "无",
        "signals": "排除信号与技能门槛",
        "core": "核心范围信号",
        "missing": "未说明的生命周期环节：{items}",
        "proof": "规则证明的排除",
        "strong": "收录所需的强证据",
        "lacking": "不足：{items}",
        "all_there": "齐备（记忆是贡献、属语言模型/智能体意义、有明确主体）",
        "scorer": "学习型评分器",
        "combined": "收录概率 = logistic({bias:+.2f} {sum}) = {score:.3f}；>= {th:.3f} 可收录，"
        "低于 {veto:.3f} 时规则证明的排除才成立",
        "scorer_off": "未使用：规则旁没有评分器",
        "brief": "收录概率 {score:.3f}，>= {th:.3f} 可收录（-v：公式与权重）",
        "floor": "；低于 {floor:.3f}（几乎所有已收录论文都更高）为可能排除",
        "decided": "维护者已决定",
        "likely_task": "可能排除，但非硬性规则：请判断，并记录一次决定"
        "（rules/scope-decisions.yaml）。",
        "engine": "仅按规则的结论",
        "signal_rows": "信号（取值 x 权重 = 对对数几率的影响）",
        "signal_view": "信号视角概率 = logistic({bias:+.2f} {sum}) = {score:.3f}",
        "stacked": "收录概率 = logistic({bias:+.2f} {ws:+.2f} x logit({sp:.3f}) "
        "{wl:+.2f} x logit({lp:.3f})) = {score:.3f}；>= {th:.3f} 可收录，"
        "合并概率与信号视角概率都低于 {veto:.3f} 时规则证明的排除才成立",
        "term_rows": "词汇视角概率 = {lp:.3f}；权重最大的词（取值 x 权重 = 对其对数几率的影响，"
        "偏置 {bias:+.2f}）",
    },
}

_QUESTIONS: dict[str, tuple[str, ...]] = {
    "en": (
        "Who uses the memory (which language model or agent)?",
        "What is stored?",
        "How is it written, retrieved, updated or maintained?",
        "Why is memory the central contribution rather than an incidental module?",
        "Which experiment, analysis or argument supports it?",
    ),
    "zh": (
        "谁使用记忆（哪个语言模型或智能体）？",
        "保存什么？",
        "如何写入、召回、更新或维护？",
        "记忆为什么是核心贡献，而非附带模块？",
        "用什么实验、分析或论证支持？",
    ),
}

_VERDICT_TASK: dict[str, dict[Verdict, str]] = {
    "en": {
        Verdict.INCLUDE: "Confirm the answers below from the abstract before publishing.",
        Verdict.REVIEW: "Weigh the evidence for and against quoted below, then decide.",
        Verdict.EXCLUDE: "Re-adding needs a reassessment with new evidence, not a new reading.",
        Verdict.HOLD: "Fetch the official title and abstract, then decide.",
    },
    "zh": {
        Verdict.INCLUDE: "发布前依据摘要确认下列问题。",
        Verdict.REVIEW: "权衡下列支持与反对的引文，再作判断。",
        Verdict.EXCLUDE: "重新收录须附带新证据的 reassessment，不能仅凭重新阅读。",
        Verdict.HOLD: "先获取官方标题和摘要，再作判断。",
    },
}


_FIELD_ZH = {"title": "标题", "abstract": "摘要"}


def _reason(d: Decision, lang: str, gate: str = "") -> str:
    """The decision's reason; in Chinese, rebuilt from the verdict and the rule ids."""
    if lang != "zh":
        return d.reason
    rules = "、".join(d.rules)
    if d.verdict is Verdict.HOLD:
        return "官方标题或摘要缺失，无法检查入口门槛，因此没有引文"
    # An exclusion no hard rule makes is a likely exclude: for a maintainer to judge.
    likely = "可能排除（非硬性规则，由维护者判断）：" if d.code == "scope-review" else ""
    if d.verdict is Verdict.EXCLUDE and d.rules == (gate,):
        return likely + "官方标题和摘要中没有独立的 memory/memories，因此没有可引用的记忆句"
    if d.by_floor and d.scorer is not None and d.scorer.floor is not None:
        return (
            f"可能排除：通过入口门槛，但收录概率 {d.scorer.score:.3f} 低于 "
            f"{d.scorer.floor:.3f}，几乎所有维护者收录的论文都更高（{rules}）"
        )
    if d.verdict is Verdict.EXCLUDE:
        return f"{likely}通过入口门槛，但规则（{rules}）由引文证明排除"
    if d.verdict is Verdict.INCLUDE:
        return f"通过入口门槛，记忆是核心贡献且证据充分（{rules}）"
    extra = f"；未说明：{'、'.join(d.missing)}" if d.missing else ""
    fired = "、".join(r for r in d.rules if r not in (gate, SCORER_ID))
    score = f"；收录概率 {d.scorer.score:.3f}" if d.scorer is not None else ""
    return f"通过入口门槛，证据不足以收录或排除（{fired or '无排除信号'}）{extra}{score}"


def explain(
    paper_id: str,
    paper: PaperText,
    rules: ScopeRules,
    lang: str = "en",
    decision: Decision | None = None,
    verbose: bool = False,
    recorded: Recorded | None = None,
) -> str:
    """The decision trail for one paper as plain text; `lang` is "en" or "zh". The verdict,
    the reasons and the quotes; the scorer's formulas and weights only when `verbose`. A
    maintainer's `recorded` decision settles the verdict and is named first."""
    lang = "zh" if lang == "zh" else "en"
    t = _TEXT[lang]
    engine = decision or decide(paper, rules)
    d = settle(engine, recorded) if recorded is not None else engine
    lines = [
        f"{paper_id} — {_one_line(paper.title) or '?'}",
        f"{t['verdict']}: {d.verdict.value} ({', '.join(d.rules)}); {t['read']}: {d.reading_scope}",
    ]
    if recorded is not None:
        lines.append(f"{t['decided']}: {recorded.describe()}")
        lines.append(f"{t['engine']}: {engine.verdict.value}")
    lines += [
        f"{t['why']}: {_reason(engine, lang, rules.gate.id)}",
        "",
        f"{t['trail']}:",
    ]
    lines += _trail(engine, paper, rules, lang, verbose)
    lines += ["", f"{t['quotes']}:"]
    lines += [f'  [{q.field} {q.start}-{q.end}] ({q.rule}) "{_one_line(q.text)}"' for q in d.quotes]
    if not d.quotes:
        lines.append("  " + t["no_quote"].format(reason=_reason(d, lang, rules.gate.id)))
    likely = d.verdict is Verdict.EXCLUDE and d.code == "scope-review"
    task = t["likely_task"] if likely else _VERDICT_TASK[lang][d.verdict]
    lines += ["", f"{t['judge']}:", f"  - {task}"]
    if d.verdict in (Verdict.INCLUDE, Verdict.REVIEW):
        lines += [f"  - {q}" for q in _QUESTIONS[lang]]
    lines += [f"{t['summary_note']}: {n}" for n in d.notes]
    return "\n".join(lines) + "\n"


def _one_line(text: str | None) -> str:
    """arXiv's text on one line: a title or quote never starts a line of the trail."""
    return " ".join((text or "").split())


def _has(patterns: tuple[Pattern, ...], text: str) -> bool:
    return any(p.regex.search(text) for p in patterns)


def _trail(
    d: Decision, paper: PaperText, rules: ScopeRules, lang: str, verbose: bool = False
) -> list[str]:
    """Numbered steps: gate, signals, proof, strong evidence, scorer."""
    t = _TEXT[lang]
    gate = rules.gate
    if d.verdict is Verdict.HOLD:
        state = t["gate_unknown"]
    elif d.verdict is Verdict.EXCLUDE and d.rules == (gate.id,):
        state = t["gate_fail"]
    else:
        fields = [f for f in ("title", "abstract") if _has(gate.patterns, paper.field(f))]
        where = ", ".join(_FIELD_ZH[f] if lang == "zh" else f for f in fields)
        state = t["gate_pass"].format(where=where)
    lines = [f"  1. {gate.id}: {gate.describe(lang)}", f"     -> {state}"]
    if d.verdict is Verdict.HOLD or d.rules == (gate.id,):
        return lines
    reading = read(paper, replace(rules, scorer=None), rule_hits(gate, paper))
    names = {s.rule for s in reading.signals if s.value}
    signals = [r for r in rules.rules if r.id in names and r.kind in _SIGNAL_KINDS]
    core = [r for r in rules.rules if r.id in names and r.kind is RuleKind.CORE]
    lines.append(f"  2. {t['signals']}: " + (", ".join(r.id for r in signals) or t["none"]))
    lines += [f"     - {r.id}: {r.describe(lang)}" for r in signals]
    if d.missing:
        lines.append("     -> " + t["missing"].format(items=", ".join(d.missing)))
    lines.append(f"  3. {t['core']}: " + (", ".join(r.id for r in core) or t["none"]))
    lines += [f"     - {r.id}: {r.describe(lang)}" for r in core]
    proof = reading.proof
    lines.append(f"  4. {t['proof']}: " + (proof.reason if proof else t["none"]))
    lacking = strong(reading, rules, rules.scorer is not None)
    state = t["lacking"].format(items="; ".join(lacking)) if lacking else t["all_there"]
    lines.append(f"  5. {t['strong']}: {state}")
    return lines + (_scorer_step(d, rules, lang) if verbose else _scorer_brief(d, lang))


def _scorer_brief(d: Decision, lang: str) -> list[str]:
    """Step 6 without formulas or weights: P(include) against the include threshold."""
    t = _TEXT[lang]
    head = f"  6. {t['scorer']} ({SCORER_ID}): "
    if d.scorer is None:
        return [head + t["scorer_off"]]
    seen = d.scorer
    line = head + t["brief"].format(score=seen.score, th=seen.threshold)
    if seen.floor is not None:
        line += t["floor"].format(floor=seen.floor)
    return [line]


_SIGNAL_KINDS = (RuleKind.EXCLUSION, RuleKind.SKILL)


def _scorer_step(d: Decision, rules: ScopeRules, lang: str) -> list[str]:
    """Step 6: every signal with its weight, the lexical view's heaviest words, and how the
    views combined into P(include)."""
    t = _TEXT[lang]
    head = f"  6. {t['scorer']} ({SCORER_ID}): "
    seen, scorer = d.scorer, rules.scorer
    if seen is None or scorer is None:
        return [head + t["scorer_off"]]
    total = " ".join(f"{w.effect:+.2f}" for w in seen.signals if w.effect)
    cuts = {"score": seen.score, "th": seen.threshold, "veto": seen.veto}
    stack = scorer.stack
    if stack is None or seen.signal_score is None or seen.lexical_score is None:
        lines = [head + t["combined"].format(bias=scorer.bias, sum=total, **cuts)]
    else:
        sp, lp = seen.signal_score, seen.lexical_score
        lines = [
            head
            + t["stacked"].format(
                bias=stack.bias, ws=stack.signals, sp=sp, wl=stack.lexical, lp=lp, **cuts
            ),
            "     " + t["signal_view"].format(bias=scorer.bias, sum=total, score=sp),
        ]
    if seen.floor is not None:
        lines.append("     " + t["floor"].format(floor=seen.floor).lstrip("; ；"))
    lines.append(f"     {t['signal_rows']}:")
    lines += [
        _weighed_line(w) for w in sorted(seen.signals, key=lambda w: -abs(w.effect)) if w.value
    ]
    if seen.terms and scorer.lexical is not None and seen.lexical_score is not None:
        bias = scorer.lexical.bias
        lines.append("     " + t["term_rows"].format(lp=seen.lexical_score, bias=bias) + ":")
        lines += [_weighed_line(w, quoted=True) for w in seen.terms]
    return lines


def _weighed_line(w: Weighed, quoted: bool = False) -> str:
    """One signal or word: value x weight = effect, and the sentence it comes from."""
    q = w.quote
    where = f' [{q.field} {q.start}-{q.end}] "{_one_line(q.text)}"' if q else ""
    name = f'"{w.name}"' if quoted else w.name
    return f"     - {name}: {w.value:.2f} x {w.weight:+.2f} = {w.effect:+.2f}{where}"
