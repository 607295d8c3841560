"""The evaluation: forward chaining, the lock box, the baseline, and the committed doc."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from curator.cli import main as curator_main
from curator.cli.evaluate import main
from curator.model import Verdict
from curator.scope import load_rules
from curator.scope.evaluate import (
    Report,
    average_precision,
    counts,
    render,
    run,
    share,
    wilson,
)
from tests.conftest import SCOPE

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules" / "scope.yaml"
DOC = ROOT / "docs" / "scope-evaluation.md"
MEMORY = re.compile(r"(?i)\bmemor(y|ies)\b")


@pytest.fixture(scope="module")
def report() -> Report:
    # The whole evaluation once (about a minute): the lock box was opened when the rules were
    # frozen, so its figures are public and this test only keeps the doc honest.
    return run(RULES, [SCOPE], open_lock_box=True)


def test_committed_doc_is_current(report: Report) -> None:
    assert DOC.read_text(encoding="utf-8") == render(report), (
        "run: python -m curator.scope.evaluate --records tests/fixtures/shared/scope --lock-box"
    )


def test_no_include_is_excluded_or_in_likely_exclude(report: Report) -> None:
    rules = load_rules(RULES)
    assert report.sealed is not None
    for measured in (*report.chained, report.sealed):
        n = counts(measured.cases, rules)
        assert n.includes_excluded == 0 and n.likely_exclude_includes == 0
        assert n.gate_disagreements == 0


def test_every_verdict_quotes_verbatim_and_excludes_only_with_a_quote(report: Report) -> None:
    assert report.sealed is not None
    for measured in (*report.chained, report.sealed):
        for case in measured.cases:
            d = case.decision
            assert d.quotes or d.reason
            if case.passes_gate:
                # Include and review open on the memory sentence; a proof quotes it too.
                first = d.quotes[:1] if d.verdict is not Verdict.EXCLUDE else d.quotes
                assert any(MEMORY.search(q.text) for q in first)
            for q in d.quotes:
                text = case.record.data["title"] if q.field == "title" else case.record.abstract
                assert text[q.start : q.end] == q.text
            if d.verdict is Verdict.EXCLUDE and case.passes_gate:
                assert "gate-memory-word" not in d.rules


def test_the_training_never_sees_its_test_part(report: Report) -> None:
    assert report.sealed is not None
    seen = {r.id for r in report.development}
    assert not seen & {c.record.id for c in report.sealed.cases}
    assert [m.trained_on for m in report.chained] == sorted(m.trained_on for m in report.chained)


def test_wilson_interval_and_average_precision() -> None:
    lo, hi = wilson(8, 10)
    assert 0.49 < lo < 0.50 and 0.94 < hi < 0.95
    assert share(0, 0) == "0/0" and share(1, 2).startswith("1/2 = 50 % [")
    assert average_precision([(0.9, True), (0.8, False), (0.7, True)]) == pytest.approx(5 / 6)
    assert average_precision([(0.5, True), (0.5, False)]) == pytest.approx(0.5)  # ties: against


def test_scope_evaluate_subcommand_writes_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = json.loads((SCOPE / "2026-10-03-review.json").read_text(encoding="utf-8"))
    small = [r for r in records if r.get("source_abstract")][:160]
    (tmp_path / "2026-11-01-review.json").write_text(json.dumps(small), encoding="utf-8")
    out = tmp_path / "eval.md"
    code = curator_main(
        ["scope", "evaluate", str(tmp_path), "--rules", str(RULES), "--out", str(out)]
    )
    assert code == 0
    text = out.read_text(encoding="utf-8")
    assert "## Forward chaining on the development records" in text
    assert "Sealed: run with `--lock-box` once the rules are frozen." in text
    assert "TF-IDF + LR, same training records" in text


def test_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "x-review.json").write_text("[{", encoding="utf-8")
    args = ["--records", str(tmp_path), "--rules", str(RULES), "--out", "-"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "x-review.json" in err and "Traceback" not in err
