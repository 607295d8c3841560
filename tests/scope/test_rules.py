"""rules/scope.yaml: phrase matching, validation with file:line errors, editing without Python."""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.core.codes import CODES
from curator.core.errors import InputError
from curator.core.model import Verdict
from curator.scope import PaperText, RuleKind, decide, load_rules, parse_rules
from curator.scope.rules import compile_phrase

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules" / "scope.yaml"

MINIMAL = """\
policy: "2026-10-09"
rules:
  - id: gate
    kind: gate
    description: {en: gate, zh: 门槛}
    patterns: [memory, memories]
  - id: gpu-words
    kind: exclusion
    description: {en: gpu, zh: 显存}
    patterns: [gpu memory]
  - id: agents
    kind: core
    description: {en: agents, zh: 智能体}
    patterns: [agent*]
"""


def test_repository_rules_load_and_cover_every_kind() -> None:
    rules = load_rules(RULES)
    assert rules.policy == "2026-10-09"
    assert rules.gate.id == "gate-memory-word"
    for kind in (RuleKind.EXCLUSION, RuleKind.SKILL, RuleKind.CORE, RuleKind.FALLBACK):
        assert rules.of_kind(kind), kind
    for rule in rules.rules:
        assert rule.en and rule.zh and rule.line > 0
        if rule.code:
            assert rule.code in CODES


def test_every_exclusion_rule_maps_to_reason_codes() -> None:
    rules = load_rules(RULES)
    for rule in (*rules.of_kind(RuleKind.EXCLUSION), *rules.of_kind(RuleKind.SKILL)):
        assert rule.reason_codes, f"{rule.id} has no reason_codes mapping"


@pytest.mark.parametrize(
    ("phrase", "text", "hit"),
    [
        ("memory efficient", "a Memory -Efficient method", True),
        ("memory efficient", "memory-efficient", True),
        ("memory", "memory-based agents", True),
        ("memory", "memorization", False),
        ("memory", "MemoryBank", False),
        ("memory", "memory_bank", False),
        ("quantum*", "quantumly secure", True),
        ("gpu memory", "GPU  memory", True),
        ("llm", "LLMs", False),
    ],
)
def test_phrases_match_whole_words_case_insensitively(phrase: str, text: str, hit: bool) -> None:
    assert bool(compile_phrase(phrase).search(text)) is hit


def test_a_maintainer_edit_in_yaml_changes_the_verdict() -> None:
    paper = PaperText("Agents", "We cut GPU memory for agents.")
    sense = MINIMAL.replace("kind: exclusion", "kind: exclusion\n    memory_sense: true")
    assert decide(paper, parse_rules(sense)).verdict is Verdict.EXCLUDE
    edited = sense.replace("patterns: [gpu memory]", "patterns: [tpu memory]")
    assert decide(paper, parse_rules(edited)).verdict is Verdict.REVIEW


@pytest.mark.parametrize(
    ("broken", "message", "line"),
    [
        (MINIMAL.replace("kind: exclusion", "kind: exclusoin"), "`kind` must be one of", 7),
        (MINIMAL.replace("    patterns: [gpu memory]\n", ""), "`patterns` must list", 7),
        (MINIMAL.replace("id: agents", "id: gpu-words"), "used twice", 11),
        (MINIMAL.replace("{en: agents, zh: 智能体}", "{en: agents}"), "both `en` and `zh`", 13),
        (
            MINIMAL.replace("kind: exclusion", "kind: exclusion\n    verdict: include"),
            "only core rules give",
            9,
        ),
        (MINIMAL.replace("kind: gate", "kind: core"), "exactly one rule of kind gate", 1),
        (
            MINIMAL.replace("    patterns: [agent*]", "    patterns: [agent*]\n    colour: red"),
            "unknown key 'colour'",
            15,
        ),
        (
            MINIMAL.replace("patterns: [gpu memory]", "patterns: [gpu memory, 3]"),
            "entries must be text",
            10,
        ),
        (MINIMAL.replace("patterns: [gpu memory]", "patterns: ['*']"), "bad phrase", 10),
        (
            MINIMAL.replace("    kind: exclusion", "    kind: exclusion\n    kind: core"),
            "duplicate key 'kind'",
            9,
        ),
        (
            MINIMAL.replace("kind: core", "kind: core\n    blocks_include: true"),
            "only rules of kind exclusion take `blocks_include`",
            13,
        ),
        (MINIMAL.replace("rules:\n", "rules: [\n"), "invalid YAML", 3),
        ("- just a list\n", "expected a mapping", 1),
    ],
)
def test_malformed_rules_name_file_and_line(broken: str, message: str, line: int) -> None:
    with pytest.raises(InputError) as info:
        parse_rules(broken, "rules/scope.yaml")
    assert message in info.value.message
    assert info.value.file == "rules/scope.yaml"
    assert info.value.line == line
    assert str(info.value).startswith(f"rules/scope.yaml:{line}: ")


def test_missing_rules_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_rules(tmp_path / "scope.yaml")


def test_yaml_tags_are_refused() -> None:
    evil = MINIMAL.replace('policy: "2026-10-09"', "policy: !!python/object/apply:os.getcwd []")
    with pytest.raises(InputError, match="invalid YAML"):
        parse_rules(evil)


def test_a_rule_can_be_made_to_exclude_in_yaml() -> None:
    paper = PaperText("Agents", "Intro. We cut GPU memory for agents.")
    strict = MINIMAL.replace("kind: exclusion", "kind: exclusion\n    verdict: exclude")
    # Not hard: the list's rule makes a likely exclude, a review for a maintainer.
    d = decide(paper, parse_rules(strict))
    assert d.verdict is Verdict.EXCLUDE and d.code == "scope-review" and d.severity == "warning"
    assert d.rules == ("gpu-words",) and d.reason.startswith("likely exclude: gpu-words; ")
    assert [q.text for q in d.quotes] == ["We cut GPU memory for agents."]
    # Hard: the list's own hard rule, proven by the quote, is an error.
    hard = strict.replace("patterns: [gpu memory]", "patterns: [gpu memory]\n    hard: true")
    d = decide(paper, parse_rules(hard))
    assert d.verdict is Verdict.EXCLUDE and d.code == "scope-exclude" and d.severity == "error"
    assert d.rules == ("gpu-words",) and "likely" not in d.reason
    assert [q.text for q in d.quotes] == ["We cut GPU memory for agents."]
    # ... at its own severity when it says one.
    softer = hard.replace("hard: true", "hard: true\n    severity: warning")
    d = decide(paper, parse_rules(softer))
    assert d.code == "scope-exclude" and d.severity == "warning"


def test_only_a_hard_gate_excludes_with_an_error() -> None:
    """The gate's exclusion is an error only where the policy marks it hard."""
    paper = PaperText("Agents that plan", "We plan with agents.")
    soft = decide(paper, parse_rules(MINIMAL))
    assert soft.verdict is Verdict.EXCLUDE
    assert (soft.code, soft.severity) == ("scope-review", "warning")
    assert soft.reason.startswith("likely exclude: gate; no standalone memory/memories")
    words = "patterns: [memory, memories]"
    hard_gate = MINIMAL.replace(words, words + "\n    hard: true")
    hard = decide(paper, parse_rules(hard_gate))
    assert (hard.code, hard.severity) == ("scope-exclude", "error")
    assert hard.reason.startswith("no standalone memory/memories")


GPU = "patterns: [gpu memory]"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        # A class the signals read (not a rule that excludes on its own) is never hard.
        ((GPU, GPU + "\n    hard: true"), "takes `hard`"),
        (("patterns: [agent*]", "patterns: [agent*]\n    hard: true"), "takes `hard`"),
        ((GPU, GPU + "\n    hard: yes please"), "true or false"),
        # An error only from a hard rule: a review rule cannot be made to fail the check.
        ((GPU, GPU + "\n    severity: error"), "only a hard rule"),
    ],
)
def test_hard_and_error_are_refused_where_the_policy_states_no_hard_rule(
    change: tuple[str, str], message: str
) -> None:
    with pytest.raises(InputError, match=message):
        parse_rules(MINIMAL.replace(*change), "rules/scope.yaml")


def test_the_shipped_policy_has_one_hard_rule_its_memory_gate() -> None:
    rules = load_rules(RULES)
    assert rules.gate.hard
    assert [r.id for r in rules.rules if r.hard] == []


@pytest.mark.parametrize(
    ("records", "message"),
    [
        ("records: [a]", "`records` must be a mapping"),
        ("records:\n  reading_scopes: abstract", "`reading_scopes` must be a list"),
        ("records:\n  colour: red", "unknown key 'colour'"),
        ("records:\n  required:\n    '2026-10-09': [id]", "must map decisions to field lists"),
    ],
)
def test_malformed_records_section(records: str, message: str) -> None:
    with pytest.raises(InputError, match=message) as info:
        parse_rules(MINIMAL + records + "\n", "rules/scope.yaml")
    assert info.value.line >= 15


def test_a_hard_rule_proven_by_its_quote_is_not_the_scorers_to_veto(tmp_path: Path) -> None:
    """The list's own hard rule excludes on its quote even where the scorer leans to include
    (a rule that is not hard steps aside then, as before)."""
    import shutil

    shutil.copytree(RULES.parent, tmp_path / "rules")
    paper = PaperText(
        "MemoryBank: Enhancing Large Language Models with Long-Term Memory",
        "We propose MemoryBank, a long-term memory mechanism for large language model agents. "
        "It lets the agent recall relevant memories and update them over time.",
    )
    assert decide(paper, load_rules(tmp_path / "rules" / "scope.yaml")).verdict is Verdict.INCLUDE
    rule = (
        "  - id: no-memorybank\n    kind: exclusion\n    verdict: exclude\n{hard}"
        "    description: {{en: a banned name, zh: 禁用的名称}}\n    patterns: [memorybank]\n"
    )
    text = RULES.read_text(encoding="utf-8")
    for hard, verdict, code in (
        ("    hard: true\n", Verdict.EXCLUDE, "scope-exclude"),
        ("", Verdict.INCLUDE, None),
    ):
        edited = text.replace("\nrules:\n", "\nrules:\n" + rule.format(hard=hard), 1)
        (tmp_path / "rules" / "scope.yaml").write_text(edited, encoding="utf-8")
        d = decide(paper, load_rules(tmp_path / "rules" / "scope.yaml"))
        assert d.rules[0] == "no-memorybank" if code else "no-memorybank" not in d.rules
        assert (d.verdict, d.code) == (verdict, code)
