"""`curator explain ID` in a list without a scope policy: the paper against the list's papers.

Pure. The same relevance model and verdict `check` uses in a pull request
(`curator.scope.relevant`: `decision_of`, settled by a recorded decision), as text: the
verdict, the nearest listed papers and their section, the maintainers' record when there is
one, and what `check` would report. The numbers (affinity, standing, P(relevant)) only with
`verbose`.
"""

from __future__ import annotations

from dataclasses import dataclass

from curator.core.model import Entry, Verdict
from curator.scope.decided import Recorded, settle
from curator.scope.relevance import MIN_LISTED, UNLIKE, Relevance
from curator.scope.relevant import decision_of

_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "verdict": "Verdict",
        "in_scope": "in scope: like the papers the list holds",
        "unlike": "unlike anything in the list",
        "decided": "Decided by the maintainers",
        "include": "accepted by the maintainers",
        "exclude": "declined by the maintainers",
        "alone": "The list alone would say",
        "held": 'The list holds it already, in section "{section}" (left out of the list it '
        "is compared with)",
        "held_nowhere": "The list holds it already (left out of the list it is compared with)",
        "why": "Why",
        "nearest": "Nearest listed papers",
        "no_near": "none: it shares no word with any listed paper",
        "section": 'section "{section}"',
        "report": "What check reports on a pull request that adds only it",
        "no_finding": "no scope finding",
        "warning": "a scope-review warning (unlike anything in the list: a maintainer decides)",
        "error": "a scope-exclude error (the maintainers declined it)",
        "task": "To settle it for good, record a decision once (rules/scope-decisions.yaml "
        "or an inline marker `<!-- curator: scope-include -->` on its line).",
        "numbers": "Numbers",
        "measure": "affinity {affinity:+.3f} (mean log-odds of its title's words being the "
        "list's rather than the background's); standing {standing:.1%} (as like the list as "
        "that share of the list's own papers are like the rest; under {unlike:.0%} is unlike "
        "anything in it)",
        "probability": "; P(relevant) {p:.2f} against papers the list did not take",
        "brief": "(-v: affinity, standing and P(relevant))",
        "offline": "arXiv could not be asked ({reason}): explained on the title the list gives",
        "absent": "arXiv answered: {reason}; check reports that as an arxiv-* finding, not a "
        "scope one",
        "nothing": "Nothing to compare with the list: no title.",
        "unknown": "Nothing is known of this paper: arXiv could not be asked ({reason}) and the "
        "list does "
        "not hold it, so there is no title to compare with the list. Ask again online (or "
        "with a cache that holds it).",
        "few": "The list holds {n} papers: too few to learn its scope from ({least} needed). "
        "check reports no scope finding for it.",
        "policy": "No scope policy: the list's own papers are its scope.",
    },
    "zh": {
        "verdict": "结论",
        "in_scope": "在范围内：与列表已收录的论文相近",
        "unlike": "与列表中任何论文都不相近",
        "decided": "维护者已决定",
        "include": "维护者已接受",
        "exclude": "维护者已拒绝",
        "alone": "仅按列表的结论",
        "held": "列表已收录此论文，位于“{section}”一节（比较时不计入列表）",
        "held_nowhere": "列表已收录此论文（比较时不计入列表）",
        "why": "理由",
        "nearest": "最相近的已收录论文",
        "no_near": "无：与任何已收录论文都没有共同的词",
        "section": "“{section}”一节",
        "report": "只添加此论文的拉取请求中 check 的报告",
        "no_finding": "无范围问题",
        "warning": "scope-review 警告（与列表中任何论文都不相近：由维护者判断）",
        "error": "scope-exclude 错误（维护者已拒绝收录）",
        "task": "如需一次定论，请记录一次决定（rules/scope-decisions.yaml，或在其所在行加上 "
        "`<!-- curator: scope-include -->`）。",
        "numbers": "数值",
        "measure": "亲和度 {affinity:+.3f}（标题中的词属于本列表而非背景论文的平均对数几率）；"
        "相对位置 {standing:.1%}（与列表的相近程度等同于该比例的已收录论文与其余论文的相近"
        "程度；低于 {unlike:.0%} 即与任何论文都不相近）",
        "probability": "；相对于列表未收录论文的相关概率 {p:.2f}",
        "brief": "（-v：亲和度、相对位置与相关概率）",
        "offline": "无法访问 arXiv（{reason}）：按列表给出的标题说明",
        "absent": "arXiv 的回答：{reason}；check 以 arxiv-* 问题报告，而非范围问题",
        "nothing": "没有标题，无法与列表比较。",
        "unknown": "对此论文一无所知：无法访问 arXiv（{reason}），列表也未收录它，"
        "没有可与列表比较的标题。"
        "请联网后再试（或使用已缓存它的缓存）。",
        "few": "列表只收录了 {n} 篇论文：不足以学习其范围（至少需要 {least} 篇）。"
        "check 不会对它报告范围问题。",
        "policy": "没有范围政策：列表已收录的论文就是它的范围。",
    },
}


@dataclass(frozen=True)
class Asked:
    """What explain knows of the asked paper: its subject, the title compared (arXiv's, else
    the list's; '' if none), the list's entry for it (None when the list does not hold it),
    why arXiv could not be asked ('' when it answered), and its reason when it said there is
    no such paper."""

    subject: str
    title: str
    held: Entry | None
    unasked: str
    #: arXiv's answer that it has no such paper ('' unless it said so).
    absent: str = ""


def explain_against_list(
    asked: Asked,
    rel: Relevance | None,
    listed: int,
    recorded: Recorded | None = None,
    lang: str = "en",
    verbose: bool = False,
) -> str:
    """The trail of a paper against a list without a policy: `rel` is the model's reading
    (None when there is nothing to compare or too few listed papers), `listed` how many
    papers the model was learned from."""
    t = _TEXT["zh" if lang == "zh" else "en"]
    lines = [f"{asked.subject} — {_one_line(asked.title) or '?'}", t["policy"]]
    if asked.held is not None:
        section = asked.held.section
        lines.append(t["held"].format(section=section) if section else t["held_nowhere"])
    if asked.absent:
        lines.append(t["absent"].format(reason=asked.absent))
    elif asked.title and asked.unasked:
        lines.append(t["offline"].format(reason=asked.unasked))
    if recorded is not None:
        lines.append(f"{t['decided']}: {recorded.describe()}")
    if not asked.title:
        why = t["nothing"] if asked.absent else t["unknown"].format(reason=asked.unasked)
        return "\n".join([*lines, why]) + "\n"
    if rel is None:
        return "\n".join([*lines, t["few"].format(n=listed, least=MIN_LISTED)]) + "\n"
    return "\n".join(lines + _verdict(rel, recorded, t, verbose)) + "\n"


def _verdict(
    rel: Relevance, recorded: Recorded | None, t: dict[str, str], verbose: bool
) -> list[str]:
    """Verdict, why, the nearest papers, what check reports, and the numbers with -v."""
    alone = decision_of(rel)
    d = settle(alone, recorded) if recorded is not None else alone
    state = _state(alone.verdict, t) if recorded is None else t[d.verdict.value]
    lines = [f"{t['verdict']}: {d.verdict.value} — {state}"]
    if recorded is not None:
        lines.append(f"{t['alone']}: {alone.verdict.value} — {_state(alone.verdict, t)}")
    lines.append(f"{t['why']}: {_like(rel, t)}")
    lines.append(f"{t['nearest']}:")
    lines += [
        f'  - "{_one_line(n.title)}"'
        + (f" ({t['section'].format(section=n.section)})" if n.section else "")
        + (f" [cosine {n.cosine:.2f}]" if verbose else "")
        for n in rel.nearest
    ] or [f"  {t['no_near']}"]
    report = t["error"] if d.code == "scope-exclude" else t["warning"] if d.code else ""
    lines.append(f"{t['report']}: {report or t['no_finding']}")
    if recorded is None and d.verdict is Verdict.REVIEW:
        lines.append(t["task"])
    lines.append(f"{t['numbers']}: {_numbers(rel, t)}" if verbose else t["brief"])
    return lines


def _state(verdict: Verdict, t: dict[str, str]) -> str:
    return t["unlike"] if verdict is Verdict.REVIEW else t["in_scope"]


def _like(rel: Relevance, t: dict[str, str]) -> str:
    """`most like "X" and "Y"; likeliest section "S"`, in the trail's language."""
    if t is _TEXT["en"]:
        return rel.like()
    names = "、".join(f"“{_one_line(n.title)}”" for n in rel.nearest[:2])
    if not names:
        return t["no_near"]
    where = f"（{t['section'].format(section=rel.section)}）" if rel.section else ""
    return f"最接近 {names}{where}"


def _numbers(rel: Relevance, t: dict[str, str]) -> str:
    text = t["measure"].format(affinity=rel.affinity, standing=rel.standing, unlike=UNLIKE)
    if rel.probability is not None:
        text += t["probability"].format(p=rel.probability)
    return text


def _one_line(text: str) -> str:
    """A title on one line: it never starts a line of the trail."""
    return " ".join(text.split())
