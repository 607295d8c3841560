"""Held-out evaluation of the rules and the learned scorer: a time split and a random split.

Time split: the records that carry an abstract, ordered by arXiv ID (announcement order), the
latest 30 % held out — the question a list faces every week (does it hold on next week's
papers?). Random split: the same share held out at random, over a few fixed seeds, pooled.
The scorer is trained on the training part only, its threshold chosen there too; the held-out
part is never seen before it is scored.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace

from curator.normalize import parse_arxiv_id
from curator.scope.engine import SCORER_ID
from curator.scope.evaluate import Case, Metrics, cases, metrics
from curator.scope.records import Record
from curator.scope.rules import ScopeRules
from curator.scope.train import Settings, train

HELD_OUT = 0.3
SEEDS = (1, 2, 3)


def arxiv_order(record: Record) -> tuple[int, int, str]:
    """Sort key: new-style IDs by (yymm, number); anything else after them, by text."""
    parsed = parse_arxiv_id(record.id)
    head, _, tail = record.id.partition(".")
    if parsed is None or not head.isdigit() or not tail.isdigit():
        return (1 << 30, 0, record.id)
    return (int(head), int(tail), record.id)


def time_split(records: Sequence[Record]) -> tuple[list[Record], list[Record]]:
    """(earlier 70 %, latest 30 %) of the records with an abstract, by arXiv ID."""
    ordered = sorted((r for r in records if r.abstract), key=arxiv_order)
    cut = len(ordered) - round(HELD_OUT * len(ordered))
    return ordered[:cut], ordered[cut:]


def random_split(records: Sequence[Record], seed: int) -> tuple[list[Record], list[Record]]:
    """The same sizes as the time split, records drawn at random with `seed`."""
    shuffled = sorted((r for r in records if r.abstract), key=arxiv_order)
    random.Random(seed).shuffle(shuffled)  # noqa: S311 - a reproducible split, not a secret
    cut = len(shuffled) - round(HELD_OUT * len(shuffled))
    return shuffled[:cut], shuffled[cut:]


@dataclass(frozen=True)
class Held:
    """What one split measured on its held-out records."""

    name: str
    trained_on: int
    tested_on: int
    thresholds: tuple[float, ...]
    rules: Metrics
    both: Metrics
    flagged_inc: int  # the scorer alone: gate-passing includes at or above its threshold
    flagged_neg: int  # ... gate-passing exclude/hold at or above it
    scorer_reviews: int  # reviews the scorer gave (includes of the rules it turned)
    unquoted: int  # ... of them without a verbatim quote of the abstract


def held_out(
    name: str,
    train_part: Sequence[Record],
    test_part: Sequence[Record],
    rules: ScopeRules,
    settings: Settings | None = None,
) -> Held:
    """Train on `train_part`, then measure rules alone and rules + scorer on `test_part`."""
    bare = replace(rules, scorer=None)
    scorer = train(train_part, bare, settings)
    alone = cases(test_part, bare)
    both = cases(test_part, replace(bare, scorer=scorer))
    gated = [c for c in both if c.decision.scorer is not None]
    turned = [c for c in both if SCORER_ID in c.decision.rules]
    return Held(
        name,
        len(train_part),
        len(test_part),
        (scorer.threshold,),
        metrics(alone),
        metrics(both),
        sum(_flagged(c) for c in gated if c.record.decision == "include"),
        sum(_flagged(c) for c in gated if c.record.decision != "include"),
        len(turned),
        sum(not any(q.rule == SCORER_ID for q in c.decision.quotes) for c in turned),
    )


def _flagged(case: Case) -> bool:
    return case.decision.scorer is not None and case.decision.scorer.flagged


def pooled(name: str, parts: Sequence[Held]) -> Held:
    """Several splits as one: counts summed, thresholds listed."""

    def total(metric: str) -> Metrics:
        each = [getattr(p, metric) for p in parts]
        return Metrics(**{f.name: sum(getattr(m, f.name) for m in each) for f in fields(Metrics)})

    return Held(
        name,
        parts[0].trained_on,  # the same size for every seed
        sum(p.tested_on for p in parts),
        tuple(t for p in parts for t in p.thresholds),
        total("rules"),
        total("both"),
        sum(p.flagged_inc for p in parts),
        sum(p.flagged_neg for p in parts),
        sum(p.scorer_reviews for p in parts),
        sum(p.unquoted for p in parts),
    )


def both_splits(records: Sequence[Record], rules: ScopeRules) -> tuple[Held, Held]:
    """(time split, random splits pooled over SEEDS)."""
    timed = held_out("time split", *time_split(records), rules)
    randoms = [held_out(f"seed {s}", *random_split(records, s), rules) for s in SEEDS]
    return timed, pooled(f"random split (seeds {', '.join(map(str, SEEDS))}, pooled)", randoms)


def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f} %)" if whole else f"{part}/0"


def _cells(m: Metrics) -> tuple[str, ...]:
    """One column of the split table, in _LABELS order."""
    return (
        str(m.n),
        str(m.include_pass_excluded),
        _pct(m.include_pass_review, m.include_pass),
        _pct(m.negatives_caught, m.negatives),
        _pct(m.negative_pass_caught, m.negative_pass),
    )


_LABELS = (
    "held-out records with an abstract",
    "gate-passing includes excluded (must be 0)",
    "gate-passing includes sent to review (≤ 15 %)",
    "exclude/hold flagged: exclude, hold or review (≥ 90 %)",
    "gate-passing exclude/hold flagged (≥ 80 %)",
)


def targets_met(m: Metrics) -> dict[str, bool]:
    """Each done-when target of the combined verdict, met or not."""
    return {
        "no gate-passing include excluded": m.include_pass_excluded == 0,
        "≤ 15 % of gate-passing includes to review": m.include_pass_review <= 0.15 * m.include_pass,
        "≥ 90 % of exclude/hold flagged": m.negatives_caught >= 0.9 * m.negatives,
        "≥ 80 % of gate-passing exclude/hold flagged": m.negative_pass_caught
        >= 0.8 * m.negative_pass,
    }


def render(timed: Held, rnd: Held) -> list[str]:
    """The Markdown section: both splits, rules alone and with the scorer, and the verdict."""
    cols = [(timed, timed.rules), (timed, timed.both), (rnd, rnd.rules), (rnd, rnd.both)]
    heads = [f"{h.name}: {'rules alone' if m is h.rules else 'rules + scorer'}" for h, m in cols]
    cells = [_cells(m) for _, m in cols]
    lines = [
        "| held-out measure (target) | " + " | ".join(heads) + " |",
        "|---" * (len(cols) + 1) + "|",
    ]
    for i, label in enumerate(_LABELS):
        lines.append(f"| {label} | " + " | ".join(col[i] for col in cells) + " |")
    lines.append(
        "| reviews given by the scorer / of them without a verbatim abstract quote (must be 0) "
        f"| – | {timed.scorer_reviews} / {timed.unquoted} "
        f"| – | {rnd.scorer_reviews} / {rnd.unquoted} |"
    )
    lines += [
        "",
        "The learned scorer alone, on the gate-passing held-out records (no rules in front of it):",
        "",
        "| split | trained on | threshold | gate-passing includes flagged "
        "| gate-passing exclude/hold flagged |",
        "|---|---|---|---|---|",
    ]
    for h in (timed, rnd):
        th = ", ".join(f"{t:.3f}" for t in h.thresholds)
        inc = _pct(h.flagged_inc, h.both.include_pass)
        neg = _pct(h.flagged_neg, h.both.negative_pass)
        each = " each" if len(h.thresholds) > 1 else ""
        lines.append(f"| {h.name} | {h.trained_on} records{each} | {th} | {inc} | {neg} |")
    return lines + _verdict(timed, rnd)


def _verdict(timed: Held, rnd: Held) -> list[str]:
    """Which targets the time split meets, and how far the random split is from it."""
    missed = [k for k, ok in targets_met(timed.both).items() if not ok]
    alone = _points(
        (rnd.flagged_neg, rnd.both.negative_pass), (timed.flagged_neg, timed.both.negative_pass)
    )
    both = _points(
        (rnd.both.negative_pass_caught, rnd.both.negative_pass),
        (timed.both.negative_pass_caught, timed.both.negative_pass),
    )
    return [
        "",
        "On the time split, rules + scorer: "
        + ("every target met." if not missed else "missed: " + "; ".join(missed) + "."),
        "Random minus time split, gate-passing exclude/hold flagged: "
        f"{alone} by the scorer alone, {both} by rules + scorer.",
    ]


def _points(a: tuple[int, int], b: tuple[int, int]) -> str:
    """The difference of two shares (part, whole) in percentage points, signed."""
    if not a[1] or not b[1]:
        return "n/a"
    return f"{100 * (a[0] / a[1] - b[0] / b[1]):+.1f} points"
