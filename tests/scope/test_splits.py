"""The splits: submission order, a sealed lock box, forward chaining that never looks ahead."""

from __future__ import annotations

from curator.core.model import Source
from curator.lab.splits import arxiv_order, forward_chain, lock_box
from curator.scope.records import Record


def _record(rid: str, abstract: str = "An abstract.", decision: str = "exclude") -> Record:
    data = {"id": rid, "title": "A title", "decision": decision, "source_abstract": abstract}
    return Record(data, Source("r.json", 1))


def test_arxiv_order_is_by_month_then_number_other_ids_last() -> None:
    ids = ["2610.00002", "hep-th/9901001", "2609.99999", "2610.00001"]
    ordered = sorted((_record(i) for i in ids), key=arxiv_order)
    assert [r.id for r in ordered] == ["2609.99999", "2610.00001", "2610.00002", "hep-th/9901001"]


def test_the_lock_box_is_the_latest_quarter_of_the_records_with_an_abstract() -> None:
    records = [_record(f"2610.{i:05d}") for i in range(20, 0, -1)]
    records += [_record("2611.00001", abstract=""), _record("2611.00002", decision="")]
    records += [_record("2611.00003", abstract=" \n")]  # blank: held by the engine, not learned
    development, box = lock_box(records)
    assert [r.id for r in box] == [f"2610.{i:05d}" for i in range(16, 21)]
    assert len(development) == 15 and max(map(arxiv_order, development)) < arxiv_order(box[0])


def test_forward_chaining_trains_only_on_earlier_papers() -> None:
    records = [_record(f"2610.{i:05d}") for i in range(1, 41)]
    steps = forward_chain(records, parts=4)
    assert [len(s.train) for s in steps] == [10, 20, 30]
    assert [len(s.test) for s in steps] == [10, 10, 10]
    for step in steps:
        assert max(map(arxiv_order, step.train)) < min(map(arxiv_order, step.test))
    assert steps[0].name == "part 2 (2610.00011 – 2610.00020)"
