"""The learned scorer: features, scoring, its place after the rules, its file and its quotes."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from curator.errors import InputError
from curator.model import Verdict
from curator.scope import PaperText, decide, explain, load_rules
from curator.scope.engine import SCORER_ID
from curator.scope.evaluate import load_all
from curator.scope.scorer import Scorer, load_scorer, scorer_data, terms
from tests.conftest import SCOPE

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = load_rules(ROOT / "rules" / "scope.yaml")
BARE = replace(SHIPPED, scorer=None)
PAPER = PaperText(
    "Consolidating episodic memory in conversational agents",
    "Conversational agents forget user facts. We propose a memory writer for them.",
)
TOY = Scorer({"writer": 3.0, "propose": 1.0, "episodic": -0.5}, bias=0.0, threshold=0.6)


def test_terms_are_content_words_and_their_bigrams() -> None:
    found = terms("The agents keep long-term memories of users.")
    assert {"agent", "keep", "long", "term", "memory", "user"} <= found
    assert {"long term", "term memory", "agent keep"} <= found
    assert "the" not in found and "of" not in found and "memories" not in found


def test_rules_include_that_the_scorer_flags_becomes_review_with_a_verbatim_quote() -> None:
    assert decide(PAPER, BARE).verdict is Verdict.INCLUDE
    d = decide(PAPER, replace(BARE, scorer=TOY))
    assert d.verdict is Verdict.REVIEW and d.code == "scope-review" and d.severity == "warning"
    assert d.rules[-1] == SCORER_ID and d.rules[0] == "gate-memory-word"
    first = d.quotes[0]
    assert (first.rule, first.field, first.text) == (
        SCORER_ID,
        "abstract",
        "We propose a memory writer for them.",
    )
    assert PAPER.abstract is not None and PAPER.abstract[first.start : first.end] == first.text
    assert d.scorer is not None and d.scorer.flagged and d.scorer.terms[0] == ("writer", 3.0)
    assert "learned scorer gives 0.883" in d.reason
    shape = d.as_dict()["scorer"]
    assert shape["flagged"] is True and shape["terms"][0] == {"term": "writer", "weight": 3.0}
    assert shape["quotes"][0]["text"] == first.text


def test_below_the_threshold_the_include_stands_and_the_score_is_kept() -> None:
    d = decide(PAPER, replace(BARE, scorer=replace(TOY, threshold=0.95)))
    assert d.verdict is Verdict.INCLUDE and SCORER_ID not in d.rules
    assert d.scorer is not None and not d.scorer.flagged and 0.87 < d.scorer.score < 0.89


def test_the_rules_keep_the_last_word() -> None:
    eager = replace(BARE, scorer=Scorer({"gpu": -9.0, "planning": -9.0}, 0.0, 0.01))
    excluded = decide(PaperText("Planning", "We plan with language models."), eager)
    assert excluded.verdict is Verdict.EXCLUDE and excluded.scorer is None
    held = decide(PaperText("Planning with memory", None), eager)
    assert held.verdict is Verdict.HOLD and held.scorer is None
    gpu = PaperText("Fast clustering", "It is slow. We cut GPU memory usage by half.")
    reviewed = decide(gpu, eager)
    assert reviewed.verdict is Verdict.REVIEW and reviewed.rules == ("hardware-memory",)
    assert reviewed.scorer is not None and reviewed.scorer.score < 0.01  # never an include


def test_explain_shows_the_scorer_in_both_languages() -> None:
    rules = replace(BARE, scorer=TOY)
    en = explain("arxiv:2610.00001", PAPER, rules)
    assert "Verdict: review (gate-memory-word, core-agent-memory, scope-scorer)" in en
    assert "4. Learned scorer (scope-scorer): score 0.883 >= threshold 0.600" in en
    assert "terms weighing towards exclusion: writer (+3.000), propose (+1.000)" in en
    assert '(scope-scorer) "We propose a memory writer for them."' in en
    zh = explain("arxiv:2610.00001", PAPER, rules, lang="zh")
    assert "学习型评分器 (scope-scorer): 得分 0.883 >= 阈值 0.600：收录改为人工复核" in zh
    assert "但学习型评分器得分 0.883（阈值 0.600）" in zh
    calm = explain("arxiv:2610.00001", PAPER, replace(rules, scorer=replace(TOY, threshold=0.95)))
    assert "score 0.883 < threshold 0.950: no effect on the verdict" in calm
    assert 'weighs most: [abstract 41-77] "We propose a memory writer for them."' in calm
    assert "not used: no scorer beside the rules" in explain("arxiv:2610.00001", PAPER, BARE)


def test_every_review_of_the_shipped_scorer_quotes_the_abstract_verbatim() -> None:
    records, _ = load_all(SCOPE)
    reviews = 0
    for record in records:
        if not record.abstract:
            continue
        paper = PaperText(str(record.data["title"]), record.abstract)
        d = decide(paper, SHIPPED)
        if SCORER_ID not in d.rules:
            continue
        reviews += 1
        mine = [q for q in d.quotes if q.rule == SCORER_ID]
        assert mine, record.id
        assert all(record.abstract[q.start : q.end] == q.text for q in mine)
    assert reviews > 0


def test_shipped_rules_name_their_scorer_and_it_loads() -> None:
    assert SHIPPED.scorer_file == "scope-scorer.json" and SHIPPED.scorer is not None
    assert 0 < SHIPPED.scorer.threshold < 1 and len(SHIPPED.scorer.weights) > 100
    assert SHIPPED.scorer.provenance["policy"] == SHIPPED.policy


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
        ({"format": "other"}, "not a scope scorer"),
        ({"weights": {}}, "`weights` must map"),
        ({"weights": {"a": "1"}}, "weight of 'a' is not a finite number"),
        ({"weights": {"a": float("nan")}}, "invalid JSON: NaN is not a JSON number"),
        ({"weights": {"a": True}}, "weight of 'a' is not a finite number"),
        ({"threshold": 1.5}, "`threshold` must be a probability"),
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
