"""Splits that cannot flatter the scope engine: forward chaining by submission, and a lock box.

arXiv IDs are given in submission order (yymm.number), so ID order is submission order. The
records that carry an abstract are ordered so; the latest `LOCK_BOX` of them are the lock box,
scored once, after the rules and the training procedure are frozen. The rest (development)
are cut into `PARTS` consecutive parts: each part after the first is scored by a scorer
trained on the parts before it only, as a list meets next week's papers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from curator.core.normalize import parse_arxiv_id
from curator.scope.records import Record

#: The latest share of the records with an abstract, kept sealed until the rules are frozen.
LOCK_BOX = 0.25
#: Consecutive parts of the development records: train on the earlier, test on the next.
PARTS = 4
DECISIONS = ("include", "exclude", "hold")


def arxiv_order(record: Record) -> tuple[int, int, str]:
    """Sort key: new-style IDs by (yymm, number); anything else after them, by text."""
    parsed = parse_arxiv_id(record.id)
    head, _, tail = record.id.partition(".")
    if parsed is None or not head.isdigit() or not tail.isdigit():
        return (1 << 30, 0, record.id)
    return (int(head), int(tail), record.id)


def usable(record: Record) -> bool:
    """A record that can be scored and learned from: a title, an abstract and a decision
    (a blank title or abstract is a missing one, as the engine holds it)."""
    title, abstract = str(record.data.get("title", "")), record.abstract or ""
    return bool(title.strip() and abstract.strip()) and record.decision in DECISIONS


def scored(records: Sequence[Record]) -> list[Record]:
    """The records an evaluation scores: the usable ones, in ID order."""
    return sorted(filter(usable, records), key=arxiv_order)


def lock_box(records: Sequence[Record]) -> tuple[list[Record], list[Record]]:
    """(development, lock box): the lock box is the latest LOCK_BOX of the scored records."""
    ordered = scored(records)
    cut = len(ordered) - round(LOCK_BOX * len(ordered))
    return ordered[:cut], ordered[cut:]


@dataclass(frozen=True)
class Step:
    """One forward-chaining step: train on `train`, test on `test` (all later than train)."""

    name: str
    train: tuple[Record, ...]
    test: tuple[Record, ...]


def forward_chain(development: Sequence[Record], parts: int = PARTS) -> list[Step]:
    """Steps 2..parts: each part scored by what the parts before it teach."""
    ordered = sorted(development, key=arxiv_order)
    bounds = [round(i * len(ordered) / parts) for i in range(parts + 1)]
    steps = []
    for k in range(1, parts):
        test = ordered[bounds[k] : bounds[k + 1]]
        if not test:
            continue
        name = f"part {k + 1} ({test[0].id} – {test[-1].id})"
        steps.append(Step(name, tuple(ordered[: bounds[k]]), tuple(test)))
    return steps
