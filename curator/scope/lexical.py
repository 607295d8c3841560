"""The lexical view of a paper: which words and word pairs of its title and abstract weigh for
include, by an L2-regularised logistic regression fitted in pure Python.

A second, independent reading beside the signals (curator/scope/signals.py): the signals read
what the policy names; this view reads every word the maintainers' past decisions make telling.
A paper's features are the distinct lower-case words and adjacent word pairs of its official
title and abstract, each worth 1/sqrt(their number) (binary, L2-normalised), so a long abstract
weighs no more than a short one. Only the `top` heaviest weights are kept in the scorer file;
the model is refitted on them so the kept weights are the model. Fitting is class-balanced
logistic regression by L-BFGS over sparse rows: a few seconds for a few hundred records, and
scoring a paper is a set of dictionary look-ups.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from curator.core.decision import PaperText, Quote, Weighed
from curator.scope.matching import sentence_of

#: A word: lower-case letters and digits starting with a letter (hyphens and apostrophes split).
_WORD = re.compile(r"[a-z][a-z0-9]*")
#: The rule name lexical quotes carry (Quote.rule).
LEXICAL_ID = "lexical-view"


@dataclass(frozen=True)
class Settings:
    """Fitting knobs: inverse regularisation `c` (as scikit-learn's C), terms kept, min count."""

    c: float = 1.0
    top: int = 400
    min_count: int = 2
    iterations: int = 300


@dataclass(frozen=True)
class Features:
    """A paper's distinct words and word pairs, with where each first occurs."""

    terms: Mapping[str, tuple[str, int, int]]

    @property
    def value(self) -> float:
        """What each present term is worth: 1/sqrt(number of distinct terms)."""
        return 1 / math.sqrt(len(self.terms)) if self.terms else 0.0


def features(paper: PaperText) -> Features:
    """The words and adjacent word pairs of the title and abstract (pairs stay in one field)."""
    found: dict[str, tuple[str, int, int]] = {}
    for name in ("title", "abstract"):
        text = paper.field(name)
        words = _words(text)
        for i, (word, start, end) in enumerate(words):
            found.setdefault(word, (name, start, end))
            if i + 1 < len(words):
                nxt, _, stop = words[i + 1]
                found.setdefault(f"{word} {nxt}", (name, start, stop))
    return Features(found)


def _words(text: str) -> list[tuple[str, int, int]]:
    """The words of the lower-cased text, each with its span in `text` itself."""
    lower = text.lower()
    found = [(m.group(), m.start(), m.end()) for m in _WORD.finditer(lower)]
    if len(lower) == len(text):
        # Every character lower-cases to one (always so for ASCII): the same places.
        return found
    # A character can lower-case to two ("İ" to "i" and a combining dot): map the places in
    # the lower-cased text back to the characters they came from.
    origin = [i for i, c in enumerate(text) for _ in c.lower()]
    return [(word, origin[a], origin[b - 1] + 1) for word, a, b in found]


@dataclass(frozen=True)
class Lexical:
    """The lexical view: kept term weights and a bias."""

    weights: Mapping[str, float]
    bias: float

    def logit(self, seen: Features) -> float:
        """The log-odds of include for a paper with these features."""
        v = seen.value
        return self.bias + v * sum(self.weights.get(t, 0.0) for t in seen.terms)

    def probability(self, seen: Features) -> float:
        """P(include) by the lexical view."""
        return logistic(self.logit(seen))

    def terms(self, paper: PaperText, seen: Features, n: int = 4) -> tuple[Weighed, ...]:
        """The `n` terms that weigh most for and the `n` most against, each with its sentence."""
        v = seen.value
        present = [(t, self.weights[t]) for t in seen.terms if t in self.weights]
        ranked = sorted(present, key=lambda p: (-p[1], p[0]))
        chosen = [p for p in ranked[:n] if p[1] > 0] + [p for p in ranked[::-1][:n] if p[1] < 0]
        return tuple(Weighed(t, v, w, _quote(paper, seen.terms[t])) for t, w in chosen)


def _quote(paper: PaperText, where: tuple[str, int, int]) -> Quote:
    """The sentence of the title or abstract where a term first occurs."""
    name, start, _ = where
    text = paper.field(name)
    a, b = (0, len(text)) if name == "title" else sentence_of(text, start)
    return Quote(name, a, b, text[a:b], LEXICAL_ID)


def logistic(z: float) -> float:
    """1 / (1 + e^-z), without overflow."""
    if z >= 0:
        return 1 / (1 + math.exp(-z))
    e = math.exp(z) if z > -700 else 0.0
    return e / (1 + e)


def logit(p: float) -> float:
    """The log-odds of a probability (clipped away from 0 and 1)."""
    p = min(max(p, 1e-9), 1 - 1e-9)
    return math.log(p / (1 - p))


def fit(
    docs: Sequence[Features], labels: Sequence[int], settings: Settings
) -> tuple[dict[str, float], float]:
    """Term weights and bias: class-balanced, L2-regularised logistic regression, then refitted
    on the `top` heaviest terms (the terms seen in at least `min_count` training papers)."""
    counts = Counter(t for d in docs for t in d.terms)
    vocabulary = sorted(t for t, n in counts.items() if n >= settings.min_count)
    weights, bias = _fit(docs, labels, vocabulary, settings, None)
    if len(weights) > settings.top:
        kept = sorted(weights, key=lambda t: (-abs(weights[t]), t))[: settings.top]
        start = {t: weights[t] for t in kept}
        weights, bias = _fit(docs, labels, sorted(kept), settings, (start, bias))
    return weights, bias


def _fit(
    docs: Sequence[Features],
    labels: Sequence[int],
    vocabulary: Sequence[str],
    settings: Settings,
    start: tuple[Mapping[str, float], float] | None,
) -> tuple[dict[str, float], float]:
    """The fit on one vocabulary (index 0 of the parameters is the unpenalised bias)."""
    index = {t: i + 1 for i, t in enumerate(vocabulary)}
    rows = [([index[t] for t in d.terms if t in index], d.value) for d in docs]
    positives = sum(labels) or 1
    negatives = (len(labels) - sum(labels)) or 1
    # Balanced as scikit-learn's class_weight="balanced": n / (2 * n_class).
    cw = [len(labels) / (2 * (positives if y else negatives)) for y in labels]
    x0 = [0.0] * (len(vocabulary) + 1)
    if start is not None:
        x0[0] = start[1]
        for t, w in start[0].items():
            x0[index[t]] = w

    def loss(w: list[float]) -> tuple[float, list[float]]:
        total = 0.5 * sum(x * x for x in w[1:])
        grad = [0.0, *w[1:]]
        for (idx, v), y, c in zip(rows, labels, cw, strict=True):
            z = w[0] + v * sum(w[j] for j in idx)
            # log(1 + e^-z) for y = 1, log(1 + e^z) for y = 0, without overflow.
            m = -z if y else z
            total += settings.c * c * (max(m, 0.0) + math.log1p(math.exp(-abs(m))))
            g = settings.c * c * (logistic(z) - y)
            grad[0] += g
            gv = g * v
            for j in idx:
                grad[j] += gv
        return total, grad

    found = _lbfgs(loss, x0, settings.iterations)
    return {t: found[index[t]] for t in vocabulary}, found[0]


_Objective = Callable[[list[float]], tuple[float, list[float]]]


def _lbfgs(func: _Objective, x: list[float], iterations: int, memory: int = 10) -> list[float]:
    """Minimise a smooth convex function by L-BFGS with a backtracking (Armijo) line search."""
    value, grad = func(x)
    pairs: list[tuple[list[float], list[float], float]] = []
    for _ in range(iterations):
        direction = _two_loop(grad, pairs)
        slope = _dot(grad, direction)
        if slope >= 0:  # not a descent direction: start the memory over
            pairs.clear()
            direction = [-g for g in grad]
            slope = -_dot(grad, grad)
        step = 1.0
        while True:
            trial = [a + step * d for a, d in zip(x, direction, strict=True)]
            new_value, new_grad = func(trial)
            if new_value <= value + 1e-4 * step * slope or step < 1e-10:
                break
            step *= 0.5
        s = [a - b for a, b in zip(trial, x, strict=True)]
        y = [a - b for a, b in zip(new_grad, grad, strict=True)]
        sy = _dot(s, y)
        if sy > 1e-12:
            pairs.append((s, y, 1 / sy))
            if len(pairs) > memory:
                pairs.pop(0)
        done = abs(value - new_value) <= 1e-9 * max(1.0, abs(value))
        x, value, grad = trial, new_value, new_grad
        if done or max(map(abs, grad)) < 1e-6:
            break
    return x


def _two_loop(
    grad: list[float], pairs: list[tuple[list[float], list[float], float]]
) -> list[float]:
    """The L-BFGS direction -H grad from the remembered (s, y) pairs."""
    q = list(grad)
    alphas = []
    for s, y, rho in reversed(pairs):
        a = rho * _dot(s, q)
        alphas.append(a)
        q = [qi - a * yi for qi, yi in zip(q, y, strict=True)]
    if pairs:
        s, y, _ = pairs[-1]
        gamma = _dot(s, y) / _dot(y, y)
        q = [gamma * qi for qi in q]
    for (s, y, rho), a in zip(pairs, reversed(alphas), strict=True):
        b = rho * _dot(y, q)
        q = [qi + (a - b) * si for qi, si in zip(q, s, strict=True)]
    return [-qi for qi in q]


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))
