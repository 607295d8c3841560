"""The signal scorer: weighing signals, its two thresholds, its file, and its place in a verdict."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from curator.errors import InputError
from curator.model import Verdict
from curator.scope import PaperText, decide, explain, load_rules
from curator.scope.engine import SCORER_ID
from curator.scope.scorer import Scorer, load_scorer, logistic, scorer_data

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = load_rules(ROOT / "rules" / "scope.yaml")
BARE = replace(SHIPPED, scorer=None)
PAPER = PaperText(
    "Consolidating episodic memory in conversational agents",
    "Conversational agents forget user facts. We propose a memory writer for them.",
)
GPU = PaperText("Fast clustering", "It is slow. We cut GPU memory usage by half.")
TOY = Scorer({"memory-lm-sense": 3.0, "memory-other-sense": -3.0}, 0.0, 0.9, 0.5)


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


def test_the_scorer_never_decides_before_the_gate_or_without_metadata() -> None:
    eager = replace(BARE, scorer=replace(TOY, bias=9.0))
    excluded = decide(PaperText("Planning", "We plan with language models."), eager)
    assert excluded.verdict is Verdict.EXCLUDE and excluded.scorer is None
    held = decide(PaperText("Planning with memory", None), eager)
    assert held.verdict is Verdict.HOLD and held.scorer is None


def test_explain_shows_how_the_signals_combined() -> None:
    en = explain("arxiv:2610.00001", PAPER, replace(BARE, scorer=TOY))
    assert "P(include) = logistic(+0.00 +3.00) = 0.953" in en
    assert "- memory-lm-sense: 1.00 x +3.00 = +3.00 [title 0-54]" in en
    zh = explain("arxiv:2610.00001", PAPER, replace(BARE, scorer=TOY), lang="zh")
    assert "收录概率 = logistic(+0.00 +3.00) = 0.953" in zh
    assert "not used: no scorer beside the rules" in explain("arxiv:2610.00001", PAPER, BARE)


def test_shipped_rules_name_their_scorer_and_it_loads() -> None:
    scorer = SHIPPED.scorer
    assert SHIPPED.scorer_file == "scope-scorer.json" and scorer is not None
    assert 0 < scorer.threshold < 1 and scorer.veto == 0.5
    assert scorer.weights["memory-lm-sense"] > 0 > scorer.weights["memory-other-sense"]
    assert scorer.provenance["policy"] == SHIPPED.policy


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
        ({"weights": {"a": 10**400}}, "weight of 'a' is not a finite number"),
        ({"threshold": 1.5}, "`threshold` must be a probability"),
        ({"veto": 0}, "`veto` must be a probability"),
        ({"bias": None}, "`bias` must be a finite number"),
        ({"provenance": []}, "`provenance` must be a mapping"),
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
