"""Issue 4's acceptance numbers, measured on every labelled record that carries its abstract."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from curator.cli.evaluate import main
from curator.model import Verdict
from curator.scope import load_rules
from curator.scope.evaluate import (
    Case,
    cases,
    disagreements,
    load_all,
    matrix,
    metrics,
    render_markdown,
    trail,
)
from tests.conftest import SCOPE

ROOT = Path(__file__).resolve().parents[2]
# The rules alone: the shipped scorer was trained on these records (see test_splits.py).
RULES = replace(load_rules(ROOT / "rules" / "scope.yaml"), scorer=None)
DOC = ROOT / "docs" / "scope-evaluation.md"


@pytest.fixture(scope="module")
def evaluated() -> list[Case]:
    records, _ = load_all(SCOPE)
    assert len(records) == 898
    return cases(records, RULES)


def test_prints_matrix_and_disagreements(evaluated: list[Case]) -> None:
    print("\nmaintainer decision x curator verdict")
    for row, counts in matrix(evaluated).items():
        print(f"  {row:24} " + "  ".join(f"{v.value}={counts[v]}" for v in Verdict))
    for case in disagreements(evaluated):
        print("  " + trail(case))
    assert sum(sum(c.values()) for c in matrix(evaluated).values()) == len(evaluated) == 504


def test_gate_agrees_with_the_policy_on_every_record(evaluated: list[Case]) -> None:
    assert metrics(evaluated).gate_disagreements == 0
    assert sum(c.passes_policy_gate for c in evaluated) == 220 + 76


def test_acceptance_numbers(evaluated: list[Case]) -> None:
    m = metrics(evaluated)
    assert m.include_pass == 76 and m.include_pass_excluded == 0
    assert m.include_review_rate <= 0.20
    assert m.include_fail == 42  # decided under policy 2026-09-30, reported in their own row
    assert m.negatives == 386 and m.caught_rate >= 0.90
    assert m.negative_pass == 220 and m.signal_rate >= 0.75
    assert m.unquoted_without_reason == 0


def test_held_out_half_also_meets_the_bar(evaluated: list[Case]) -> None:
    m = metrics([c for c in evaluated if c.held_out])
    assert m.n > 200
    assert m.include_pass_excluded == 0 and m.include_review_rate <= 0.20
    assert m.caught_rate >= 0.90 and m.signal_rate >= 0.75


def test_gate_failing_includes_have_their_own_row(evaluated: list[Case]) -> None:
    row = matrix(evaluated)["include (fails gate)"]
    assert row[Verdict.EXCLUDE] == 42
    text = render_markdown(evaluated, RULES, ["a.json"])
    assert "include (fails gate) — policy 2026-10-09 added the lexical entry gate" in text


def test_every_verdict_quotes_or_says_why(evaluated: list[Case]) -> None:
    for case in evaluated:
        d = case.decision
        assert d.quotes or "quote" in d.reason, case.record.id
        for q in d.quotes:
            text = case.record.data["title"] if q.field == "title" else case.record.abstract
            assert text[q.start : q.end] == q.text


def test_committed_doc_is_current(tmp_path: Path) -> None:
    out = tmp_path / "eval.md"
    code = main(
        ["--records", str(SCOPE), "--rules", str(ROOT / "rules" / "scope.yaml"), "--out", str(out)]
    )
    assert code == 0
    fresh = out.read_text(encoding="utf-8")
    assert DOC.read_text(encoding="utf-8") == fresh, "run: python -m curator.scope.evaluate"


def test_bad_input_exits_2(tmp_path: Path) -> None:
    (tmp_path / "x-review.json").write_text("[{", encoding="utf-8")
    assert (
        main(
            [
                "--records",
                str(tmp_path),
                "--rules",
                str(ROOT / "rules" / "scope.yaml"),
                "--out",
                "-",
            ]
        )
        == 2
    )
