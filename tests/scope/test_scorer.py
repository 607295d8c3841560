"""The signal scorer: weighing signals, its two thresholds, its file, and its place in a verdict."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from curator.core.errors import InputError
from curator.core.model import Verdict
from curator.scope import PaperText, decide, explain, load_rules
from curator.scope.engine import SCORER_ID
from curator.scope.lexical import Lexical, features, logistic, logit
from curator.scope.scorer import FORMAT, Scorer, Stack, load_scorer, scorer_data

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = load_rules(ROOT / "rules" / "scope.yaml")
BARE = replace(SHIPPED, scorer=None)
PAPER = PaperText(
    "Consolidating episodic memory in conversational agents",
    "Conversational agents forget user facts. We propose a memory writer for them.",
)
GPU = PaperText("Fast clustering", "It is slow. We cut GPU memory usage by half.")
TOY = Scorer({"memory-lm-sense": 3.0, "memory-other-sense": -3.0}, 0.0, 0.9, 0.5)
WORDS = Lexical({"conversational agents": 30.0, "memory writer": 20.0, "gpu": -40.0}, -1.0)
BOTH = replace(TOY, lexical=WORDS, stack=Stack(1.0, 0.5, -0.2))


def test_the_score_is_the_logistic_of_the_weighed_signals() -> None:
    d = decide(PAPER, replace(BARE, scorer=TOY))
    assert d.scorer is not None
    assert d.scorer.score == pytest.approx(logistic(3.0))
    lm = next(w for w in d.scorer.signals if w.name == "memory-lm-sense")
    assert (lm.value, lm.weight, lm.effect) == (1.0, 3.0, 3.0)
    assert lm.quote is not None and lm.quote.text == PAPER.title


def test_strong_evidence_includes_only_at_the_threshold() -> None:
    assert decide(PAPER, replace(BARE, scorer=TOY)).verdict is Verdict.INCLUDE
    high = replace(TOY, threshold=0.99)
    d = decide(PAPER, replace(BARE, scorer=high))
    assert d.verdict is Verdict.REVIEW and d.rules[-1] == SCORER_ID
    assert "score 0.953 (include at 0.990)" in d.reason
    assert d.quotes[0].rule == "gate-memory-word" and "memory" in d.quotes[0].text


def test_a_high_score_vetoes_a_proven_exclusion() -> None:
    assert decide(GPU, replace(BARE, scorer=TOY)).verdict is Verdict.EXCLUDE
    eager = replace(TOY, weights={"memory-other-sense": 9.0}, veto=0.5)
    d = decide(GPU, replace(BARE, scorer=eager))
    assert d.verdict is Verdict.REVIEW
    assert "but the score is too high to exclude" in d.reason


def test_a_score_under_the_floor_is_a_likely_exclude_warning_not_a_review() -> None:
    # PAPER scores 0.953 with TOY: strong evidence, but the threshold is out of reach.
    # The veto at 0.99: no view leans to include (a view at or above it keeps the review).
    high = replace(TOY, threshold=0.99, veto=0.99, floor=0.97, recall=0.95)
    d = decide(PAPER, replace(BARE, scorer=high))
    assert d.verdict is Verdict.EXCLUDE and (d.code, d.severity) == ("scope-review", "warning")
    assert d.rules == (SCORER_ID,)  # the scorer decided; the gate let the paper through
    assert d.reason.startswith("likely exclude: passes the entry gate but ranks below nearly")
    assert "(score 0.953, under 0.970, which 95 % of their includes reach)" in d.reason
    assert d.quotes[0].rule == "gate-memory-word" and "memory" in d.quotes[0].text
    assert d.scorer is not None and d.scorer.below_floor
    # At the floor, or with no floor, it is a near miss to review; above the threshold, include.
    for scorer in (replace(high, floor=0.95), replace(high, floor=None, recall=None)):
        assert decide(PAPER, replace(BARE, scorer=scorer)).verdict is Verdict.REVIEW
    assert decide(PAPER, replace(BARE, scorer=replace(high, threshold=0.95))).verdict is (
        Verdict.INCLUDE
    )


def test_a_view_leaning_to_include_sends_a_paper_under_the_floor_to_review() -> None:
    # The lexical view drags the combined score under the floor; the signal view leans to
    # include (its own score at or above the veto): a near miss, not a likely exclude.
    eager = replace(BOTH, weights={"memory-other-sense": 9.0}, stack=Stack(0.1, 3.0, -2.0))
    floored = replace(eager, floor=0.6, recall=0.95)
    d = decide(GPU, replace(BARE, scorer=floored))
    assert d.scorer is not None and d.scorer.below_floor and d.scorer.vetoes
    assert d.verdict is Verdict.REVIEW and not d.by_floor


def test_a_floor_without_its_share_still_says_why() -> None:
    high = replace(TOY, threshold=0.99, veto=0.99, floor=0.97, recall=None)
    d = decide(PAPER, replace(BARE, scorer=high))
    assert d.by_floor and "which nearly all of their includes reach" in d.reason


def test_explain_names_the_floor_in_both_languages_and_with_v() -> None:
    floored = replace(TOY, threshold=0.99, veto=0.99, floor=0.97, recall=0.95)
    high = replace(BARE, scorer=floored)
    en = explain("arxiv:2610.00001", PAPER, high, verbose=True)
    assert "below 0.970 (under nearly every include) a likely exclude" in en
    zh = explain("arxiv:2610.00001", PAPER, high, lang="zh")
    assert "可能排除：通过入口门槛，但收录概率 0.953 低于 0.970" in zh
    assert "由引文证明排除" not in zh  # no rule proved it: the score decided


def test_a_hard_rule_still_decides_below_the_floor(tmp_path: Path) -> None:
    # No memory word: the gate's own exclusion, an error; the floor never weighs it.
    low = replace(TOY, bias=-9.0, floor=0.5, recall=0.95)
    d = decide(PaperText("Planning", "We plan with language models."), replace(BARE, scorer=low))
    assert d.verdict is Verdict.EXCLUDE and d.code == "scope-exclude" and d.scorer is None


def test_the_scorer_never_decides_before_the_gate_or_without_metadata() -> None:
    eager = replace(BARE, scorer=replace(TOY, bias=9.0))
    excluded = decide(PaperText("Planning", "We plan with language models."), eager)
    assert excluded.verdict is Verdict.EXCLUDE and excluded.scorer is None
    held = decide(PaperText("Planning with memory", None), eager)
    assert held.verdict is Verdict.HOLD and held.scorer is None


def test_explain_shows_how_the_signals_combined() -> None:
    en = explain("arxiv:2610.00001", PAPER, replace(BARE, scorer=TOY), verbose=True)
    assert "P(include) = logistic(+0.00 +3.00) = 0.953" in en
    assert "- memory-lm-sense: 1.00 x +3.00 = +3.00 [title 0-54]" in en
    zh = explain("arxiv:2610.00001", PAPER, replace(BARE, scorer=TOY), lang="zh", verbose=True)
    assert "收录概率 = logistic(+0.00 +3.00) = 0.953" in zh
    assert "not used: no scorer beside the rules" in explain("arxiv:2610.00001", PAPER, BARE)


def test_two_views_stack_into_the_score() -> None:
    d = decide(PAPER, replace(BARE, scorer=BOTH))
    assert d.scorer is not None and d.scorer.signal_score is not None
    words = WORDS.probability(features(PAPER))
    assert d.scorer.signal_score == pytest.approx(logistic(3.0))
    assert d.scorer.lexical_score == pytest.approx(words)
    stacked = logistic(-0.2 + logit(logistic(3.0)) + 0.5 * logit(words))
    assert d.scorer.score == pytest.approx(stacked)
    assert [t.name for t in d.scorer.terms] == ["conversational agents", "memory writer"]
    for term in d.scorer.terms:
        assert term.quote is not None and term.name in term.quote.text.lower()
    back = type(d).from_dict(json.loads(json.dumps(d.as_dict(exact=True))))
    assert back == d


def test_the_signal_view_alone_can_veto_an_exclusion() -> None:
    # The lexical view drags the combined score down; the signals lean to include: review.
    eager = replace(BOTH, weights={"memory-other-sense": 9.0}, stack=Stack(0.1, 3.0, -2.0))
    d = decide(GPU, replace(BARE, scorer=eager))
    assert d.scorer is not None and d.scorer.score < 0.5 <= (d.scorer.signal_score or 0)
    assert d.verdict is Verdict.REVIEW


def test_explain_shows_both_views_and_the_heaviest_words() -> None:
    en = explain("arxiv:2610.00001", PAPER, replace(BARE, scorer=BOTH), verbose=True)
    assert "P(include) = logistic(-0.20 +1.00 x logit(0.953) +0.50 x logit(" in en
    assert "signal view P = logistic(+0.00 +3.00) = 0.953" in en
    assert "Lexical view P = " in en and "bias -1.00" in en
    assert '- "conversational agents": ' in en and "x +30.00 = " in en
    assert '= +3.65 [abstract 41-77] "We propose a memory writer for them."' in en
    zh = explain("arxiv:2610.00001", PAPER, replace(BARE, scorer=BOTH), lang="zh", verbose=True)
    assert "词汇视角概率 = " in zh and "信号视角概率 = " in zh


def test_a_two_view_scorer_round_trips_and_a_signals_only_file_still_reads(
    tmp_path: Path,
) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scorer_data(BOTH)), encoding="utf-8")
    back = load_scorer(path)
    assert scorer_data(back)["format"] == FORMAT
    assert (back.lexical, back.stack) == (WORDS, BOTH.stack)
    path.write_text(json.dumps(scorer_data(TOY)), encoding="utf-8")
    old = load_scorer(path)
    assert scorer_data(TOY)["format"] == "curator-scope-scorer/2"
    assert old.lexical is None and old.weights == TOY.weights
    assert old.floor is None and "floor" not in scorer_data(TOY)  # a file without one reads
    floored = replace(BOTH, floor=0.4, recall=0.95)
    path.write_text(json.dumps(scorer_data(floored)), encoding="utf-8")
    assert (load_scorer(path).floor, load_scorer(path).recall) == (0.4, 0.95)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"lexical": None}, "`lexical` must map"),
        ({"stack": [1, 2]}, "`stack` must map"),
        ({"stack": {"signals": 1, "lexical": "x", "bias": 0}}, "`lexical` must be a finite"),
        ({"lexical": {"bias": 0, "weights": {}}}, "`lexical.weights` must map"),
        ({"lexical": {"weights": {"a": 1}}}, "`bias` must be a finite number"),
    ],
)
def test_a_malformed_two_view_file_is_one_located_error(
    tmp_path: Path, change: dict[str, object], message: str
) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({**scorer_data(BOTH), **change}), encoding="utf-8")
    with pytest.raises(InputError, match=message) as caught:
        load_scorer(path)
    assert caught.value.file == path.as_posix()


def test_shipped_rules_name_their_scorer_and_it_loads() -> None:
    scorer = SHIPPED.scorer
    assert SHIPPED.scorer_file == "scope-scorer.json" and scorer is not None
    assert 0 < scorer.threshold < 1 and scorer.veto == 0.5
    assert scorer.weights["memory-lm-sense"] > 0 > scorer.weights["memory-other-sense"]
    assert scorer.provenance["policy"] == SHIPPED.policy
    assert scorer.lexical is not None and scorer.stack is not None
    assert 0 < len(scorer.lexical.weights) <= 400
    assert scorer.stack.signals > 0 and scorer.stack.lexical > 0  # both views count
    assert scorer.floor is not None and 0 < scorer.floor < scorer.threshold
    assert scorer.recall == 0.95


def _rules_dir(tmp_path: Path, scorer_line: str) -> Path:
    text = (ROOT / "rules" / "scope.yaml").read_text(encoding="utf-8")
    text = text.replace("scorer: scope-scorer.json", scorer_line)
    (tmp_path / "scope.yaml").write_text(text, encoding="utf-8")
    return tmp_path / "scope.yaml"


def test_the_scorer_is_found_beside_the_rules(tmp_path: Path) -> None:
    (tmp_path / "mine.json").write_text(json.dumps(scorer_data(TOY)), encoding="utf-8")
    rules = load_rules(_rules_dir(tmp_path, "scorer: mine.json"))
    assert rules.scorer is not None and rules.scorer.weights == TOY.weights
    assert load_rules(_rules_dir(tmp_path, "")).scorer is None


@pytest.mark.parametrize("name", ["../scope-scorer.json", "/etc/passwd", "x.yaml", "[1]"])
def test_a_scorer_outside_the_rules_folder_is_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(InputError) as caught:
        load_rules(_rules_dir(tmp_path, f"scorer: {name}"))
    assert "`scorer` must be a .json file name" in str(caught.value)
    assert caught.value.line > 0


def test_a_symlinked_scorer_is_refused(tmp_path: Path) -> None:
    (tmp_path / "real.json").write_text(json.dumps(scorer_data(TOY)), encoding="utf-8")
    (tmp_path / "link.json").symlink_to(tmp_path / "real.json")
    with pytest.raises(InputError, match="not a symlink"):
        load_rules(_rules_dir(tmp_path, "scorer: link.json"))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "curator-scope-scorer/1"}, "not a scope scorer"),
        ({"weights": {}}, "`weights` must map"),
        ({"weights": {"a": "1"}}, "weight of 'a' is not a finite number"),
        ({"weights": {"a": float("nan")}}, "invalid JSON: NaN is not a JSON number"),
        ({"weights": {"a": True}}, "weight of 'a' is not a finite number"),
        ({"weights": {"a": 10**400}}, "is out of range"),
        ({"threshold": 1.5}, "`threshold` must be a probability"),
        ({"veto": 0}, "`veto` must be a probability"),
        ({"bias": None}, "`bias` must be a finite number"),
        ({"provenance": []}, "`provenance` must be a mapping"),
        ({"floor": 0.5}, "`floor` and `recall` must both be probabilities"),
        ({"floor": 0, "recall": 0.95}, "`floor` and `recall` must both be probabilities"),
        ({"floor": 0.5, "recall": 1.5}, "`floor` and `recall` must both be probabilities"),
        ({"floor": 0.95, "recall": 0.95}, "`floor` must not be above `threshold`"),
    ],
)
def test_a_malformed_scorer_file_is_one_located_error(
    tmp_path: Path, change: dict[str, object], message: str
) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({**scorer_data(TOY), **change}), encoding="utf-8")
    with pytest.raises(InputError, match=message) as caught:
        load_scorer(path)
    assert caught.value.file == path.as_posix()
    path.write_text("{", encoding="utf-8")
    with pytest.raises(InputError, match="invalid JSON"):
        load_scorer(path)
