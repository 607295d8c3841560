"""`curator explain ID`: the decision trail for one paper, in English or Chinese, as text."""

from __future__ import annotations

from curator.model import Verdict
from curator.scope.engine import SCORER_ID, Decision, PaperText, decide
from curator.scope.rules import Kind, Pattern, ScopeRules

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
        "scorer": "Learned scorer",
        "scorer_flag": "score {score:.3f} >= threshold {th:.3f}: the include becomes review",
        "scorer_below": "score {score:.3f} < threshold {th:.3f}: no effect on the verdict",
        "scorer_after": "score {score:.3f} (threshold {th:.3f}); the rules already gave {verdict}",
        "scorer_off": "not used: no scorer beside the rules",
        "terms": "terms weighing towards exclusion: {terms}",
        "weighs": "weighs most",
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
        "scorer": "学习型评分器",
        "scorer_flag": "得分 {score:.3f} >= 阈值 {th:.3f}：收录改为人工复核",
        "scorer_below": "得分 {score:.3f} < 阈值 {th:.3f}：不影响结论",
        "scorer_after": "得分 {score:.3f}（阈值 {th:.3f}）；规则已给出 {verdict}",
        "scorer_off": "未使用：规则旁没有评分器",
        "terms": "倾向排除的词项：{terms}",
        "weighs": "权重最高的句子",
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
        Verdict.REVIEW: "Decide whether the quoted signal really puts the paper out of scope.",
        Verdict.EXCLUDE: "Re-adding needs a reassessment with new evidence, not a new reading.",
        Verdict.HOLD: "Fetch the official title and abstract, then decide.",
    },
    "zh": {
        Verdict.INCLUDE: "发布前依据摘要确认下列问题。",
        Verdict.REVIEW: "判断引文中的信号是否确实使论文超出范围。",
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
    if d.verdict is Verdict.EXCLUDE:
        return "官方标题和摘要中没有独立的 memory/memories，因此没有可引用的记忆句"
    if d.verdict is Verdict.INCLUDE:
        return f"通过入口门槛，有核心范围信号（{rules}），无排除信号"
    if SCORER_ID in d.rules and d.scorer is not None:
        core = "、".join(r for r in d.rules if r not in (gate, SCORER_ID))
        return (
            f"通过入口门槛，有核心范围信号（{core}），但学习型评分器得分 {d.scorer.score:.3f}"
            f"（阈值 {d.scorer.threshold:.3f}），引用权重最高的摘要句子"
        )
    extra = f"；未说明：{'、'.join(d.missing)}" if d.missing else ""
    fired = "、".join(r for r in d.rules if r != gate)
    return f"通过入口门槛，但命中 {fired}{extra}"


def explain(
    paper_id: str,
    paper: PaperText,
    rules: ScopeRules,
    lang: str = "en",
    decision: Decision | None = None,
) -> str:
    """The decision trail for one paper as plain text; `lang` is "en" or "zh"."""
    lang = "zh" if lang == "zh" else "en"
    t = _TEXT[lang]
    d = decision or decide(paper, rules)
    lines = [
        f"{paper_id} — {_one_line(paper.title) or '?'}",
        f"{t['verdict']}: {d.verdict.value} ({', '.join(d.rules)}); {t['read']}: {d.reading_scope}",
        f"{t['why']}: {_reason(d, lang, rules.gate.id)}",
        "",
        f"{t['trail']}:",
    ]
    lines += _trail(d, paper, rules, lang)
    lines += ["", f"{t['quotes']}:"]
    lines += [f'  [{q.field} {q.start}-{q.end}] ({q.rule}) "{_one_line(q.text)}"' for q in d.quotes]
    if not d.quotes:
        lines.append("  " + t["no_quote"].format(reason=_reason(d, lang, rules.gate.id)))
    lines += ["", f"{t['judge']}:", f"  - {_VERDICT_TASK[lang][d.verdict]}"]
    if d.verdict in (Verdict.INCLUDE, Verdict.REVIEW):
        lines += [f"  - {q}" for q in _QUESTIONS[lang]]
    lines += [f"{t['summary_note']}: {n}" for n in d.notes]
    return "\n".join(lines) + "\n"


def _one_line(text: str | None) -> str:
    """arXiv's text on one line: a title or quote never starts a line of the trail."""
    return " ".join((text or "").split())


def _has(patterns: tuple[Pattern, ...], text: str) -> bool:
    return any(p.regex.search(text) for p in patterns)


def _trail(d: Decision, paper: PaperText, rules: ScopeRules, lang: str) -> list[str]:
    """Numbered steps: gate, exclusion and skill signals, core signals."""
    t = _TEXT[lang]
    gate = rules.gate
    if d.verdict is Verdict.HOLD:
        state = t["gate_unknown"]
    elif d.verdict is Verdict.EXCLUDE:
        state = t["gate_fail"]
    else:
        fields = [f for f in ("title", "abstract") if _has(gate.patterns, paper.field(f))]
        where = ", ".join(_FIELD_ZH[f] if lang == "zh" else f for f in fields)
        state = t["gate_pass"].format(where=where)
    lines = [f"  1. {gate.id}: {gate.describe(lang)}", f"     -> {state}"]
    if d.verdict in (Verdict.HOLD, Verdict.EXCLUDE):
        return lines
    signal_kinds = (Kind.EXCLUSION, Kind.SKILL, Kind.FALLBACK)
    fired = [rules.by_id(r) for r in d.rules if r != gate.id]
    signals = [r for r in fired if r is not None and r.kind in signal_kinds]
    core = [r for r in fired if r is not None and r.kind is Kind.CORE]
    lines.append(f"  2. {t['signals']}: " + (", ".join(r.id for r in signals) or t["none"]))
    lines += [f"     - {r.id}: {r.describe(lang)}" for r in signals]
    if d.missing:
        lines.append("     -> " + t["missing"].format(items=", ".join(d.missing)))
    lines.append(f"  3. {t['core']}: " + (", ".join(r.id for r in core) or t["none"]))
    lines += [f"     - {r.id}: {r.describe(lang)}" for r in core]
    return lines + _scorer_step(d, rules, lang)


def _scorer_step(d: Decision, rules: ScopeRules, lang: str) -> list[str]:
    """Step 4: what the learned scorer said and whether it changed the verdict."""
    t = _TEXT[lang]
    head = f"  4. {t['scorer']} ({SCORER_ID}): "
    seen = d.scorer
    if seen is None:
        return [head + t["scorer_off"]] if rules.scorer is None else []
    values = {"score": seen.score, "th": seen.threshold, "verdict": d.verdict.value}
    if SCORER_ID in d.rules:
        state = t["scorer_flag"].format(**values)
    elif d.verdict is Verdict.INCLUDE:
        state = t["scorer_below"].format(**values)
    else:
        state = t["scorer_after"].format(**values)
    terms = ", ".join(f"{term} (+{w:.3f})" for term, w in seen.terms) or t["none"]
    lines = [head + state, "     - " + t["terms"].format(terms=terms)]
    if SCORER_ID not in d.rules:  # otherwise they are among the evidence below
        lines += [
            f'     - {t["weighs"]}: [abstract {q.start}-{q.end}] "{_one_line(q.text)}"'
            for q in seen.quotes
        ]
    return lines
