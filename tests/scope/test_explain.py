"""`explain`: the decision trail for one paper in English and Chinese."""

from __future__ import annotations

from pathlib import Path

from curator.scope import PaperText, explain, load_rules, parse_rules
from curator.scope.decided import parse_decisions

RULES_PATH = Path(__file__).resolve().parents[2] / "rules" / "scope.yaml"
RULES = load_rules(RULES_PATH)
RULES_TEXT = RULES_PATH.read_text(encoding="utf-8")
MEMORY_PAPER = PaperText(
    "Consolidating episodic memory in conversational agents",
    "Conversational agents forget user facts. We propose a memory writer for them.",
)
GPU_PAPER = PaperText("Fast clustering", "It is slow. We cut GPU memory usage by half.")


def test_include_trail_in_english() -> None:
    text = explain("arxiv:2610.00001", MEMORY_PAPER, RULES)
    assert text.startswith("arxiv:2610.00001 — Consolidating episodic memory")
    assert "Verdict: include (gate-memory-word, core-agent-memory" in text
    assert "read: abstract" in text
    assert "passed: a standalone memory word is in the official title, abstract" in text
    assert "Exclusion and skill signals: none" in text
    assert '[title 0-54] (gate-memory-word) "Consolidating episodic memory' in text
    assert "Who uses the memory" in text


def test_proven_exclusion_trail_in_chinese() -> None:
    text = explain("arxiv:2610.00002", GPU_PAPER, RULES, lang="zh", verbose=True)
    assert "结论: exclude (hardware-memory)" in text
    assert "可能排除（非硬性规则，由维护者判断）：通过入口门槛，但规则（hardware-memory）" in text
    assert "可能排除，但非硬性规则：请判断，并记录一次决定" in text
    assert "所有 memory 均指显存" in text  # the rule's Chinese description
    assert '"We cut GPU memory usage by half."' in text
    assert "规则证明的排除: every memory word" in text
    assert "memory-other-sense: 1.00 x" in text  # how the signals combined


def test_review_trail_shows_the_evidence_for_and_against() -> None:
    paper = PaperText(
        "Planning agents",
        "LLM agents plan with tools. A small memory of past plans helps them a little.",
    )
    text = explain("arxiv:2610.00006", paper, RULES, verbose=True)
    assert "Verdict: review" in text
    assert "Strong evidence for include: not strong: memory is not named in the title" in text
    assert "P(include) = logistic(" in text and "Weigh the evidence for and against" in text


def test_formulas_and_weights_are_behind_verbose() -> None:
    """Issue 31: explain shows the verdict, the reasons and the quotes; the scorer's
    formulas and per-word weights only with -v."""
    paper = PaperText(
        "Planning agents",
        "LLM agents plan with tools. A small memory of past plans helps them a little.",
    )
    text = explain("arxiv:2610.00006", paper, RULES)
    assert "Verdict: review" in text and "Why: passes the entry gate" in text
    assert '"A small memory of past plans helps them a little."' in text
    assert "logistic(" not in text and " x " not in text and "Signals (value" not in text
    assert "P(include) 0." in text and "(-v: formulas and weights)" in text
    assert RULES.scorer is not None and RULES.scorer.floor is not None
    assert f"; below {RULES.scorer.floor:.3f} (under nearly every include) a likely exclude" in text
    verbose = explain("arxiv:2610.00006", paper, RULES, verbose=True)
    assert "logistic(" in verbose and "Signals (value x weight" in verbose


def test_explain_names_the_record_that_decided() -> None:
    recorded = parse_decisions(
        "- id: '2610.00006'\n  decision: include\n  by: '@ada'\n", "rules/scope-decisions.yaml"
    )["arxiv:2610.00006"]
    paper = PaperText("Planning agents", "LLM agents plan with tools. A memory helps a little.")
    text = explain("arxiv:2610.00006", paper, RULES, recorded=recorded)
    lines = text.splitlines()
    assert lines[1].startswith("Verdict: include")
    assert lines[2] == (
        "Decided by the maintainers: include by @ada, recorded at rules/scope-decisions.yaml:1"
    )
    assert lines[3] == "The rules alone would say: review"


def test_exclude_and_hold_say_why_there_is_no_quote() -> None:
    text = explain("arxiv:2610.00003", PaperText("Planning", "We plan."), RULES)
    assert "Verdict: exclude" in text and "No quote: no standalone memory/memories" in text
    assert "reassessment" in text and "Who uses the memory" not in text
    held = explain("arxiv:2610.00004", PaperText("Planning", None), RULES, lang="zh")
    assert "结论: hold" in held and "无引文：官方标题或摘要缺失" in held


def test_summary_matches_are_notes_not_evidence() -> None:
    text = RULES_TEXT.replace(
        "  - id: physical-memory", "  - id: physical-memory\n    fields: [title, abstract, summary]"
    )
    text = text.replace(
        "  - id: hardware-memory", "  - id: hardware-memory\n    fields: [title, abstract, summary]"
    )
    rules = parse_rules(text)
    paper = PaperText("Agent memory", "LLM agents with memory.", summary="Cuts GPU memory usage.")
    out = explain("arxiv:2610.00005", paper, rules)
    assert "Verdict: include" in out
    assert "Note: hardware-memory matches the entry's own summary (not evidence)" in out
