"""The evaluation: forward chaining, the lock box, the two views, the baseline, the committed doc.

The fast tier checks the committed doc by the digest of what it was generated from (record
files, rules, the evaluation's code) and runs the evaluation end to end on a small slice of the
development records; the whole suite also regenerates the whole doc (about 30 s, `slow`) and
compares it byte for byte.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from curator.cli import main as curator_main
from curator.core.model import Verdict
from curator.lab import evaluate as evaluation
from curator.lab.crosslist import section_of, splice
from curator.lab.evaluate import inputs_digest, load_all, run
from curator.lab.measure import Evaluation, average_precision, counts, share, wilson
from curator.lab.page import render
from curator.lab.splits import arxiv_order, lock_box
from curator.scope import load_rules
from tests.conftest import SCOPE

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules" / "scope.yaml"
DOC = ROOT / "docs" / "scope-evaluation.md"
MEMORY = re.compile(r"(?i)\bmemor(y|ies)\b")
REGENERATE = (
    "curator scope evaluate tests/fixtures/shared/scope --out docs/scope-evaluation.md --lock-box"
)


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Evaluation:
    # Every fourth development record (never the lock box): 95 records, three forward-chaining
    # steps with both views, the signal view alone and the baseline, in about 15 s. The slice's
    # own lock box is the same `measure` once more; its rendering is checked with a step.
    development, _ = lock_box(load_all([SCOPE])[0])
    folder = tmp_path_factory.mktemp("slice")
    sliced = [r.data for r in development[::4]]
    (folder / "2026-11-01-review.json").write_text(json.dumps(sliced), encoding="utf-8")
    chained = run(RULES, [folder])
    return replace(chained, sealed=chained.chained[-1])


def test_the_committed_doc_was_generated_from_what_is_committed() -> None:
    doc = DOC.read_text(encoding="utf-8")
    found = re.search(r"^sha256 `([0-9a-f]{64})` of the record files", doc, re.MULTILINE)
    assert found is not None, f"regenerate: {REGENERATE}"
    assert found.group(1) == inputs_digest(RULES, [SCOPE]), f"regenerate: {REGENERATE}"


def _rows(doc: str, label: str) -> list[list[str]]:
    """The cells after the label of every table row that starts with it."""
    return [
        [c.strip() for c in line.split("|")[2:-1]]
        for line in doc.splitlines()
        if line.startswith(f"| {label} |")
    ]


def test_the_committed_doc_meets_the_hard_targets_and_says_it_is_a_second_look() -> None:
    doc = DOC.read_text(encoding="utf-8")
    erred = _rows(doc, "includes with an error-level finding (target 0)")
    assert erred and all(cell == "0" for row in erred for cell in row)
    likely = _rows(doc, 'discover: includes in "likely exclude" (target 0)')
    assert likely and all(cell == "0" for row in likely for cell in row)
    assert all(
        c == "0" for row in _rows(doc, "gate disagrees with the policy's lexical rule") for c in row
    )
    assert "**The round-2 lock-box figures are a second look, not an unseen test**" in doc
    assert "the lock-box figures of round 3 are a third look, not an unseen test" in doc
    rounds = _rows(doc, "include precision")
    assert rounds[0][0] == "30/31 = 97 % [84–99]" and rounds[0][3] == "8/10 = 80 % [49–94]"


@pytest.mark.slow  # about 30 s: the whole evaluation, the lock box included
def test_the_whole_committed_doc_regenerates_byte_for_byte() -> None:
    # The page also holds the relevance section (tests/scope/test_crosslist.py checks it).
    doc = DOC.read_text(encoding="utf-8")
    assert doc == splice(render(run(RULES, [SCOPE], True)), section_of(doc)), REGENERATE


@pytest.mark.slow
def test_no_include_is_excluded_or_in_likely_exclude(small: Evaluation) -> None:
    rules = load_rules(RULES)
    assert small.sealed is not None
    for measured in (*small.chained, small.sealed):
        n = counts(measured.cases, rules)
        assert n.includes_erred == 0 and n.likely_exclude_includes == 0
        assert n.gate_disagreements == 0


def test_every_verdict_quotes_verbatim_and_excludes_only_with_a_quote(small: Evaluation) -> None:
    assert small.sealed is not None
    for measured in (*small.chained, small.sealed):
        for case in (*measured.cases, *measured.alone):
            d = case.decision
            assert d.quotes or d.reason
            if case.passes_gate:
                # Include and review open on the memory sentence; a proof quotes it too.
                first = d.quotes[:1] if d.verdict is not Verdict.EXCLUDE else d.quotes
                assert any(MEMORY.search(q.text) for q in first)
            terms = d.scorer.terms if d.scorer is not None else ()
            for q in (*d.quotes, *(t.quote for t in terms if t.quote is not None)):
                text = case.record.data["title"] if q.field == "title" else case.record.abstract
                assert text[q.start : q.end] == q.text
            if d.verdict is Verdict.EXCLUDE and case.passes_gate:
                assert "gate-memory-word" not in d.rules


def test_the_training_never_sees_its_test_part(small: Evaluation) -> None:
    # Each step is tested on papers later than every paper of the steps before it (which it
    # was trained on, with the first part), and trained on more records than the one before.
    for before, after in zip(small.chained, small.chained[1:], strict=False):
        latest = max(arxiv_order(c.record) for c in before.cases)
        assert all(arxiv_order(c.record) > latest for c in after.cases)
        assert before.trained_on < after.trained_on
    for measured in small.chained:
        # The signal view alone decided the same papers; the stack weighed both views.
        assert [c.record.id for c in measured.alone] == [c.record.id for c in measured.cases]
        weighed = [c.decision.scorer for c in measured.cases if c.decision.scorer is not None]
        assert weighed and all(s.lexical_score is not None for s in weighed)


def test_the_report_shows_both_rounds_each_view_and_its_inputs(
    small: Evaluation, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The command line end to end on the slice's report (the run itself is the fixture's).
    monkeypatch.setattr(evaluation, "run", lambda *args: small)
    out = tmp_path / "eval.md"
    args = ["scope", "evaluate", str(SCOPE), "--rules", str(RULES), "--out", str(out)]
    assert curator_main([*args, "--lock-box"]) == 0
    text = out.read_text(encoding="utf-8")
    assert text == render(small)
    for heading in (
        "## Rounds 2 and 3, and the later looks at the lock box",
        "## Lock box",
        "## Forward chaining on the development records",
        "## Inputs",
    ):
        assert f"\n{heading}\n" in text
    assert "| signal view alone (round 1's rule: strong evidence + its own threshold) |" in text
    assert "| lexical view alone (words and word pairs) |" in text
    assert "TF-IDF + LR, same training records" in text
    assert f"sha256 `{small.digest}`" in text


def test_a_sealed_lock_box_stays_sealed(small: Evaluation) -> None:
    text = render(replace(small, sealed=None))
    assert "Sealed: run with `--lock-box` once the rules are frozen." in text
    assert _rows(text, "include precision")[0][5] == "sealed"


def test_wilson_interval_and_average_precision() -> None:
    lo, hi = wilson(8, 10)
    assert 0.49 < lo < 0.50 and 0.94 < hi < 0.95
    assert share(0, 0) == "0/0" and share(1, 2).startswith("1/2 = 50 % [")
    assert average_precision([(0.9, True), (0.8, False), (0.7, True)]) == pytest.approx(5 / 6)
    assert average_precision([(0.5, True), (0.5, False)]) == pytest.approx(0.5)  # ties: against


def test_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "x-review.json").write_text("[{", encoding="utf-8")
    args = ["scope", "evaluate", str(tmp_path), "--rules", str(RULES), "--out", "-"]
    assert curator_main(args) == 2
    err = capsys.readouterr().err
    assert "x-review.json" in err and "Traceback" not in err
