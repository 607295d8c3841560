"""The lexical view: words and word pairs, a pure-Python logistic regression, its heaviest words."""

from __future__ import annotations

import random

import pytest

from curator.core.decision import PaperText
from curator.scope.lexical import Lexical, Settings, features, fit

PAPER = PaperText(
    "Long-term memory for LLM agents",
    "Agents forget. We propose a long-term memory store. It helps agents.",
)


def test_features_are_words_and_pairs_within_each_field() -> None:
    seen = features(PAPER)
    assert {"long", "term", "memory", "long term", "term memory", "llm agents"} <= set(seen.terms)
    assert "agents agents" not in seen.terms  # no pair across the title and the abstract
    assert "forget we" in seen.terms  # pairs do cross sentences, like the baseline's
    field, start, end = seen.terms["long term"]
    assert field == "title" and PAPER.title is not None
    assert PAPER.title[start:end] == "Long-term"
    assert seen.value == pytest.approx(len(seen.terms) ** -0.5)


def test_a_term_is_quoted_where_it_is_when_lower_case_is_longer() -> None:
    # "İ" lower-cases to two characters: places in the lower-cased text run ahead of the text.
    paper = PaperText("Memory", "İstanbul İzmir study. We propose agent memory for long tasks.")
    seen = features(paper)
    assert {"memory", "agent memory", "i", "stanbul"} <= set(seen.terms)  # the terms as before
    abstract = paper.abstract or ""
    for term in ("agent memory", "long", "tasks"):
        field, start, end = seen.terms[term]
        assert field == "abstract" and abstract[start:end].lower() == term
    assert abstract[slice(*seen.terms["stanbul"][1:])] == "stanbul"
    view = Lexical({"agent memory": 1.0}, 0.0)
    (weighed,) = view.terms(paper, seen)
    assert weighed.quote is not None
    assert weighed.quote.text == "We propose agent memory for long tasks."
    # Four such characters put a sentence's last word in the next sentence.
    paper = PaperText("Memory", "İİİİ go. Agents remember.")
    (weighed,) = Lexical({"go": 1.0}, 0.0).terms(paper, features(paper))
    assert weighed.quote is not None and weighed.quote.text == "İİİİ go."


def _corpus(n: int = 60) -> tuple[list[PaperText], list[int]]:
    rng = random.Random(7)
    filler = ["model", "data", "task", "results", "method", "study", "large", "new"]
    papers, labels = [], []
    for i in range(n):
        label = i % 3 == 0
        words = rng.sample(filler, 5) + (["agent", "memory"] if label else ["gpu", "cache"])
        if rng.random() < 0.2:  # noise: the other class's words too
            words += ["gpu"] if label else ["memory"]
        papers.append(PaperText(f"Paper {i}", " ".join(words) + "."))
        labels.append(int(label))
    return papers, labels


def test_the_fit_is_scikit_learns_logistic_regression() -> None:
    # Same objective: 0.5 |w|^2 + C * sum of class-balanced log-losses, bias not penalised.
    linear = pytest.importorskip("sklearn.linear_model", reason="scikit-learn: the eval extra")
    papers, labels = _corpus()
    docs = [features(p) for p in papers]
    settings = Settings(c=5.0, top=10_000, min_count=1, iterations=2000)
    weights, bias = fit(docs, labels, settings)
    names = sorted(weights)
    rows = [[d.value if t in d.terms else 0.0 for t in names] for d in docs]
    theirs = linear.LogisticRegression(
        C=5.0, class_weight="balanced", tol=1e-10, max_iter=10_000
    ).fit(rows, labels)
    assert bias == pytest.approx(theirs.intercept_[0], abs=2e-3)
    for name, weight in zip(names, theirs.coef_[0], strict=True):
        assert weights[name] == pytest.approx(weight, abs=2e-3)


def test_only_the_heaviest_terms_are_kept_and_they_point_the_right_way() -> None:
    papers, labels = _corpus()
    weights, _ = fit([features(p) for p in papers], labels, Settings(c=10.0, top=4))
    # "memory" and "gpu" are noisy (each also in the other class): the clean words are kept.
    assert sorted(weights) == ["agent", "agent memory", "cache", "gpu cache"]
    assert weights["agent memory"] > 0 > weights["gpu cache"]


def test_the_heaviest_words_of_a_paper_quote_their_sentence() -> None:
    view = Lexical({"memory": 2.0, "term memory": 1.0, "forget": -3.0, "absent": 9.0}, -0.5)
    seen = features(PAPER)
    terms = view.terms(PAPER, seen, n=2)
    assert [t.name for t in terms] == ["memory", "term memory", "forget"]
    forget = terms[-1]
    assert forget.weight == -3.0 and forget.value == pytest.approx(seen.value)
    assert forget.quote is not None and forget.quote.text == "Agents forget."
    assert terms[0].quote is not None and terms[0].quote.text == PAPER.title
    assert view.logit(seen) == pytest.approx(-0.5 + seen.value * (2.0 + 1.0 - 3.0))
