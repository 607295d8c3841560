"""The PR comment's scope rows are rendered from the engine's real Decision, end to end."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from curator.config.context import CheckContext
from curator.config.options import Options
from curator.core.decision import SCORER_ID, Contribution, Decision
from curator.core.errors import InputError
from curator.core.meta import PaperMeta
from curator.core.model import Entry, Kind, Report, Source, Verdict
from curator.core.outcomes import Found
from curator.report import markdown
from curator.report.json import render as render_json
from curator.report.reader import load_report, read_saved
from curator.scope import ScopeRules, load_rules
from curator.scope.stage import apply_scope
from tests.conftest import ROOT, SCOPE
from tests.report.sample import CTX

#: A real record the maintainers excluded (general self-evolution): the engine reviews it.
FLAGGED = "2609.38639"
HARDWARE = "Our method reduces GPU memory usage by half."


@pytest.fixture(scope="module")
def rules() -> ScopeRules:
    return load_rules(ROOT / "rules" / "scope.yaml")


def _report(rules: ScopeRules, title: str, abstract: str) -> Report:
    """One paper through the pipeline's scope stage, as `curator check` runs it."""
    entry = Entry("arxiv:2401.00001", Kind.PAPER, Source("data/papers.yaml", 4), title)
    outcome = Found(
        entry.subject,
        PaperMeta(title=title, abstract=abstract, primary_category="cs.LG"),
    )
    ctx = CheckContext(Options())
    results, findings = apply_scope([entry], {entry.subject: outcome}, ctx, policy=rules)
    return Report(tuple(results), tuple(findings))


def test_the_comment_names_the_rule_and_quotes_the_sentence(rules: ScopeRules) -> None:
    report = _report(
        rules,
        "Faster clustering at scale",
        f"Clustering is slow. {HARDWARE} It scales well.",
    )
    decision = report.entries[0].scope
    assert isinstance(decision, Decision) and "hardware-memory" in decision.rules
    body = markdown.render(report, CTX)
    # A class of the policy, not a hard rule: a likely exclude for a maintainer.
    row = next(line for line in body.splitlines() if "**likely exclude**" in line)
    assert "`hardware-memory`" in row
    assert f"“{HARDWARE}”" in row


def test_the_comment_shows_the_learned_scorer(rules: ScopeRules) -> None:
    records = json.loads((SCOPE / "2026-10-03-review.json").read_text(encoding="utf-8"))
    record = next(r for r in records if r["id"] == FLAGGED)
    report = _report(rules, record["title"], record["source_abstract"])
    decision = report.entries[0].scope
    assert decision is not None and decision.scorer is not None
    lines = markdown.render(report, CTX).splitlines()
    row = next(line for line in lines if "**likely exclude**" in line)
    assert "`scope-scorer`" in row
    score, floor = decision.scorer.score, decision.scorer.floor
    assert floor is not None and score < floor
    assert f"P(include) {score:.3f}, under the floor {floor:.3f}" in row
    assert decision.quotes[0].text[:60] in row
    # Without a floor the same paper is a near miss to review, against the include threshold.
    assert rules.scorer is not None
    bare = replace(rules, scorer=replace(rules.scorer, floor=None, recall=None))
    again = _report(bare, record["title"], record["source_abstract"])
    row = next(line for line in markdown.render(again, CTX).splitlines() if "**review**" in line)
    assert f"P(include) {score:.2f}, include at {decision.scorer.threshold:.2f}" in row


def test_a_saved_report_renders_the_same_comment(rules: ScopeRules) -> None:
    report = _report(
        rules,
        "Faster clustering at scale",
        f"Clustering is slow. {HARDWARE} It scales well.",
    )
    again = load_report(json.loads(render_json(report)))
    before, after = report.entries[0].scope, again.entries[0].scope
    assert before is not None and after is not None
    assert (after.verdict, after.rules, after.quotes) == (
        before.verdict,
        before.rules,
        before.quotes,
    )
    assert markdown.render(again, CTX) == markdown.render(report, CTX)


SAVED = Path(__file__).resolve().parents[2] / "docs" / "images" / "review-report.json"


@pytest.mark.parametrize(
    ("floor", "message"),
    [
        ("1" + "0" * 400, "out of range"),  # float() of it would raise OverflowError
        ("2", "floor"),  # not a probability
        ("-1", "floor"),
    ],
)
def test_a_hostile_floor_in_a_saved_report_is_refused_in_one_line(
    tmp_path: Path, floor: str, message: str
) -> None:
    text = SAVED.read_text(encoding="utf-8")
    assert '"floor": 0.4014' in text
    path = tmp_path / "r.json"
    path.write_text(text.replace('"floor": 0.4014', f'"floor": {floor}', 1), encoding="utf-8")
    with pytest.raises(InputError, match=message):
        read_saved(path)


def test_a_saved_report_says_what_the_run_said_at_the_floor() -> None:
    # Score and floor round to the same four places in the JSON report; the verdict and its
    # note come from the decision, never from the rounded numbers.
    weighed = Contribution(0.40136, 0.625812, 0.5, (), floor=0.401389)
    live = Decision(
        Verdict.EXCLUDE,
        (SCORER_ID,),
        (),
        "abstract",
        "likely exclude: …",
        "scope-review",
        "warning",
        scorer=weighed,
    )
    saved = Decision.from_dict(json.loads(json.dumps(live.as_dict())))
    assert saved.scorer is not None and not saved.scorer.below_floor  # rounded: 0.4014 each
    assert live.by_floor and saved.by_floor
    assert "(P(include) 0.401, under the floor 0.401)" in markdown.scope_evidence(saved)
    # A hard rule's or the maintainers' exclusion never shows the scorer's floor.
    hard = replace(live, code="scope-exclude", rules=("gate-memory-word",))
    declined = replace(live, decided_by="rules/scope-decisions.yaml:3")
    assert not hard.by_floor and not declined.by_floor
    assert "under the floor" not in markdown.scope_evidence(hard)
    # A decided entry's Scope row names the record that decided, not the engine's rules.
    evidence = markdown.scope_evidence(declined)
    assert "recorded at rules/scope-decisions.yaml:3" in evidence
    assert "scope-scorer" not in evidence and "under the floor" not in evidence
