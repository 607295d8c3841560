"""Scope decisions remembered in the cache: exact round trip, content-addressed keys, and a
warm `curator check` that decides no paper again yet reports what a cold one does."""

from __future__ import annotations

import ast
import json
import shutil
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from curator.cli import main
from curator.core.decision import PaperText
from curator.net.cache import Cache
from curator.scope import memo
from curator.scope.engine import decide
from curator.scope.rules import ScopeRules, load_rules
from tests.conftest import ROOT, SCOPE
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.server import LoopbackServer


@pytest.fixture(scope="module")
def rules() -> ScopeRules:
    return load_rules(ROOT / "rules" / "scope.yaml")


def _papers(limit: int = 400) -> list[PaperText]:
    records = json.loads((SCOPE / "2026-10-03-review.json").read_text(encoding="utf-8"))
    return [
        PaperText(r["title"], r["source_abstract"], "cs.CL", ("Memory",), "a summary")
        for r in [r for r in records if r.get("source_abstract")][:limit]
    ]


@pytest.mark.slow
def test_a_kept_decision_reads_back_as_the_same_decision(rules: ScopeRules) -> None:
    papers = _papers()
    decisions = [decide(p, rules) for p in papers]
    assert any(d.scorer is not None for d in decisions)  # the scorer's numbers are covered
    for paper, decision in zip(papers, decisions, strict=True):
        text = json.dumps(memo.stored(decision, paper))  # as the cache writes it
        assert memo.restored(json.loads(text), paper) == decision


def test_a_kept_row_holds_no_sentence_of_the_paper(rules: ScopeRules) -> None:
    # The quotes' texts are cut from the paper again; only their places are kept.
    paper = next(p for p in _papers() if (d := decide(p, rules)).scorer and d.scorer.terms)
    decision = decide(paper, rules)
    row = json.dumps(memo.stored(decision, paper))
    sentences = {q.text for q in decision.quotes if q.field == "abstract" and len(q.text) > 40}
    assert sentences and not any(json.dumps(s)[1:-1] in row for s in sentences)
    assert memo.restored(json.loads(row), paper) == decision


def test_a_quote_that_is_not_the_papers_text_is_kept_whole(rules: ScopeRules) -> None:
    paper = next(p for p in _papers() if decide(p, rules).quotes)
    decision = decide(paper, rules)
    first = replace(decision.quotes[0], text="not the paper's words")
    odd = replace(decision, quotes=(first, *decision.quotes[1:]))
    row = json.loads(json.dumps(memo.stored(odd, paper)))
    assert row["quotes"][0]["text"] == "not the paper's words"
    assert memo.restored(row, paper) == odd


@pytest.mark.parametrize("place", [("abstract", "0", 5), ("no-such-field", 0, 5), (3, 0, 5)])
def test_a_row_with_a_quote_at_no_place_is_a_miss(
    rules: ScopeRules, place: tuple[object, object, object]
) -> None:
    paper = next(p for p in _papers() if decide(p, rules).quotes)
    row = memo.stored(decide(paper, rules), paper)
    row["quotes"][0] = dict(zip(("field", "start", "end", "rule"), (*place, "r"), strict=True))
    assert memo.restored(row, paper) is None


def test_keys_follow_the_paper_the_rules_and_the_engine(rules: ScopeRules, tmp_path: Path) -> None:
    cache = Cache(tmp_path / "c.sqlite")
    paper = _papers(1)[0]
    one = memo.DecisionMemo(cache, rules, "engine-1")
    assert one.key(paper) == memo.DecisionMemo(cache, rules, "engine-1").key(paper)
    others = {
        memo.DecisionMemo(cache, rules, "engine-2").key(paper),
        memo.DecisionMemo(cache, replace(rules, policy=rules.policy + " "), "engine-1").key(paper),
        one.key(replace(paper, tags=("Memory", "Agents"))),
        one.key(replace(paper, abstract=(paper.abstract or "") + " More.")),
    }
    assert one.key(paper) not in others and len(others) == 4


def test_keys_follow_every_weight_of_both_views(rules: ScopeRules, tmp_path: Path) -> None:
    scorer = rules.scorer
    assert scorer is not None and scorer.lexical is not None and scorer.stack is not None
    cache, paper = Cache(tmp_path / "c.sqlite"), _papers(1)[0]
    term, weight = next(iter(scorer.lexical.weights.items()))
    words = replace(scorer.lexical, weights={**scorer.lexical.weights, term: weight + 1e-6})
    changed = [
        replace(scorer, lexical=words),
        replace(scorer, stack=replace(scorer.stack, lexical=scorer.stack.lexical + 1e-6)),
    ]
    keys = {memo.DecisionMemo(cache, replace(rules, scorer=s), "e").key(paper) for s in changed}
    assert memo.DecisionMemo(cache, rules, "e").key(paper) not in keys and len(keys) == 2
    assert "scope/lexical.py" in memo.ENGINE_FILES  # the lexical view's code is the engine's too


def test_decide_all_decides_each_paper_once_across_runs(
    rules: ScopeRules, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    papers = _papers(50)
    cache = Cache(tmp_path / "c.sqlite")
    first = memo.decide_all(papers + papers[:5], rules, memo.DecisionMemo(cache, rules, "e"))
    assert len(first) == 50

    def refuse(paper: PaperText, rules: ScopeRules) -> None:
        raise AssertionError("decided again")

    monkeypatch.setattr(memo, "decide", refuse)
    again = memo.decide_all(papers, rules, memo.DecisionMemo(cache, rules, "e"))
    assert again == first


def test_a_row_that_is_not_a_decision_is_decided_again(rules: ScopeRules, tmp_path: Path) -> None:
    paper = _papers(1)[0]
    path = tmp_path / "c.sqlite"
    kept = memo.DecisionMemo(Cache(path), rules, "e")
    kept.keep({paper: decide(paper, rules)})
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE kept SET value=? WHERE service='scope'", ('{"verdict": 7}',))
    db.close()
    assert kept.recall([paper]) == {}
    assert memo.decide_all([paper], rules, kept) == {paper: decide(paper, rules)}


# -- end to end ------------------------------------------------------------------------------
CASES = ("2610.00238", "2609.38639")


@pytest.fixture
def lst(loopback: LoopbackServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A two-paper list whose arXiv answers are real screened records."""
    records = json.loads((SCOPE / "2026-10-03-review.json").read_text(encoding="utf-8"))
    chosen = [r for r in records if r["id"] in CASES]
    double = ArxivDouble(
        {
            r["id"]: Paper(
                r["id"],
                r["title"],
                abstract=r["source_abstract"],
                published=f"20{r['id'][:2]}-{r['id'][2:4]}-01T00:00:00Z",
            )
            for r in chosen
        }
    )
    monkeypatch.setenv("CURATOR_ARXIV_API_URL", double.install(loopback))
    monkeypatch.setenv("CURATOR_CACHE", str(tmp_path / "cache.sqlite"))
    shutil.copytree(ROOT / "rules", tmp_path / "rules")
    (tmp_path / "pyproject.toml").write_text("[tool.curator]\narxiv_delay = 0.0\n")
    items = "".join(
        f'  - title: "{r["title"]}"\n    arxiv: "{r["id"]}"\n    date: "20{r["id"][:2]}-'
        f'{r["id"][2:4]}"\n'
        for r in chosen
    )
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "papers.yaml").write_text(f"section: Methods\npapers:\n{items}")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _scope_of(out: Path) -> list[object]:
    report = json.loads(out.read_text(encoding="utf-8"))
    return [(e["subject"], e["scope"]) for e in report["entries"]] + [
        (f["code"], f["subject"], f["evidence"]) for f in report["findings"]
    ]


def _run(name: str) -> Path:
    out = Path(name)
    status = main(["check", "data", "--skip", "github,web", "--format", "json", "--output", name])
    assert status in (0, 1)
    return out


def test_a_warm_check_reports_the_same_scope_without_deciding(
    lst: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cold = _scope_of(_run("cold.json"))
    assert len(cold) >= 2 and all(scope for _, scope in cold[:2])  # type: ignore[misc]

    def refuse(paper: PaperText, rules: ScopeRules) -> None:
        raise AssertionError("decided again")

    with monkeypatch.context() as m:
        m.setattr(memo, "decide", refuse)
        assert _scope_of(_run("warm.json")) == cold
    # A maintainer edits the policy: the next run decides again under the new rules.
    rules = lst / "rules" / "scope.yaml"
    text = rules.read_text(encoding="utf-8")
    rules.write_text(text.replace("patterns: [memory, memories]", "patterns: [engram]", 1))
    edited = _scope_of(_run("edited.json"))
    assert edited != cold
    assert all("gate-memory-word" in str(scope) for _, scope in edited[:2])  # type: ignore[misc]


def test_no_cache_keeps_no_decision(lst: Path) -> None:
    assert main(["check", "data", "--skip", "github,web", "--no-cache", "--format", "json",
                 "--output", "n.json"]) in (0, 1)  # fmt: skip
    assert not (lst / "cache.sqlite").exists()


def test_the_engine_digest_covers_every_scope_module_the_engine_reads() -> None:
    # A kept decision must be dropped when any code it follows from changes: every module of
    # scope/ that engine.py imports, directly or through another, is in the digest (rules.py
    # reads each rule with rule_item.py, which holds the verdict codes).
    root = Path(memo.__file__).resolve().parents[1]
    seen, todo = set(), ["scope/engine.py"]
    while todo:
        rel = todo.pop()
        if rel in seen:
            continue
        seen.add(rel)
        for node in ast.walk(ast.parse((root / rel).read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "curator.scope."
            ):
                todo.append(node.module.removeprefix("curator.").replace(".", "/") + ".py")
    assert {"scope/rule_item.py", "scope/rules.py"} <= seen
    assert seen <= set(memo.ENGINE_FILES)
