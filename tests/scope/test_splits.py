"""Issue 14's done-when figures: time split and random split, scorer trained on 70 % only."""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.model import Source
from curator.scope import load_rules
from curator.scope.evaluate import load_all
from curator.scope.records import Record
from curator.scope.splits import (
    Held,
    arxiv_order,
    both_splits,
    random_split,
    targets_met,
    time_split,
)
from tests.conftest import SCOPE

ROOT = Path(__file__).resolve().parents[2]
RULES = load_rules(ROOT / "rules" / "scope.yaml")
RECORDS, _ = load_all(SCOPE)


def _record(arxiv_id: str) -> Record:
    return Record({"id": arxiv_id, "source_abstract": "x"}, Source("r.json", 1))


def test_arxiv_order_is_by_month_then_number_other_ids_last() -> None:
    ids = ["2610.00001", "1412.9999", "2609.10000", "cs/0112017", "2609.09999"]
    ordered = [r.id for r in sorted(map(_record, ids), key=arxiv_order)]
    assert ordered == ["1412.9999", "2609.09999", "2609.10000", "2610.00001", "cs/0112017"]


def test_time_split_holds_out_the_latest_30_percent() -> None:
    train, test = time_split(RECORDS)
    assert (len(train), len(test)) == (353, 151)
    assert max(map(arxiv_order, train)) < min(map(arxiv_order, test))
    assert all(r.abstract for r in train + test)
    again, held = random_split(RECORDS, 1)
    assert (len(again), len(held)) == (353, 151)
    assert not {r.id for r in again} & {r.id for r in held}
    assert {r.id for r in held} != {r.id for r in test}


@pytest.fixture(scope="module")
def splits() -> tuple[Held, Held]:
    return both_splits(RECORDS, RULES)


def test_time_split_meets_every_target(splits: tuple[Held, Held]) -> None:
    timed, _ = splits
    print(f"\ntime split, rules + scorer: {timed.both}")
    assert targets_met(timed.both) == dict.fromkeys(targets_met(timed.both), True)
    assert timed.trained_on + timed.tested_on == 504
    assert timed.scorer_reviews > 0 and timed.unquoted == 0


def test_random_split_does_not_beat_the_time_split_by_more_than_a_few_points(
    splits: tuple[Held, Held],
) -> None:
    timed, rnd = splits
    assert rnd.unquoted == 0 and rnd.tested_on == 3 * 151

    def share(part: int, whole: int) -> float:
        return part / whole

    alone = share(rnd.flagged_neg, rnd.both.negative_pass) - share(
        timed.flagged_neg, timed.both.negative_pass
    )
    both = share(rnd.both.negative_pass_caught, rnd.both.negative_pass) - share(
        timed.both.negative_pass_caught, timed.both.negative_pass
    )
    print(f"\nrandom minus time: scorer alone {alone:+.3f}, rules + scorer {both:+.3f}")
    assert alone <= 0.05 and both <= 0.05
