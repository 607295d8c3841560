"""`curator scope evaluate RECORDS --batch FILE`: a new screening batch scored by the shipped
scorer, the baseline trained on the scorer's own records beside it.

The records of the list's 2026-10-03 batch, in submission order, stand in for a list's
history (the earlier 220) and its next batch (the 80 after them).
"""

from __future__ import annotations

import json
import random
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from curator.cli import main as curator_main
from curator.core.decision import Decision
from curator.core.model import Source, Verdict
from curator.lab.batch import Batch, evaluate_batch, render_batch
from curator.lab.measure import Case, counts, measure, points
from curator.lab.splits import arxiv_order, scored
from curator.lab.tables import errors
from curator.scope.records import Record, load_records
from curator.scope.rules import load_rules
from tests.conftest import SCOPE

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules" / "scope.yaml"


@dataclass(frozen=True)
class World:
    """A list's history, its next batch and the rules folder with a scorer trained on it."""

    history: Path
    batch: Path
    rules: Path
    known: tuple[str, ...]
    result: Batch


def _write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(records, indent=1, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    root = tmp_path_factory.mktemp("batch")
    data = json.loads((SCOPE / "2026-10-03-review.json").read_text(encoding="utf-8"))
    # Shuffled within the file: the scorer must not depend on the records' order.
    ordered = sorted(data, key=lambda r: tuple(int(x) for x in r["id"].split(".")))
    history, new = ordered[:220], ordered[220:300]
    known = (history[5]["id"], history[7]["id"])
    shuffled = list(history)
    random.Random(7).shuffle(shuffled)
    history_file = _write(root / "history" / "2026-10-03-review.json", shuffled)
    batch_file = _write(root / "2026-11-01-review.json", [history[5], *new, history[7]])
    rules = root / "rules" / "scope.yaml"
    rules.parent.mkdir()
    shutil.copy(RULES, rules)
    scorer = str(rules.parent / "scope-scorer.json")
    args = ["scope", "train", str(history_file.parent), "--out", scorer, "--rules", str(rules)]
    assert curator_main(args) == 0
    result = evaluate_batch(rules, [history_file.parent], [batch_file])
    return World(history_file.parent, batch_file, rules, known, result)


@pytest.mark.slow
def test_the_shipped_scorer_scores_the_batch_as_the_lock_box_would(world: World) -> None:
    # The same figures as the evaluation's own procedure: trained here, in ID order, on the
    # same history, scored on the same new records.
    rules = load_rules(world.rules)
    history = sorted(load_records(world.history / "2026-10-03-review.json"), key=arxiv_order)
    fresh = [r for r in load_records(world.batch) if r.id not in world.known]
    again = measure("again", history, scored(fresh), rules)
    got = world.result.measured
    assert got.threshold == pytest.approx(again.threshold)
    assert counts(got.cases, rules) == counts(again.cases, rules)
    assert points(got) == points(again)
    assert [c.decision.verdict for c in got.cases] == [c.decision.verdict for c in again.cases]
    assert [c.baseline for c in got.cases] == [c.baseline for c in again.cases]
    n = counts(got.cases, rules)
    # The slice is a real test: papers of every kind were scored.
    assert n.gate_passing > 20 and n.includes > 3 and n.include_calls and n.exclude_calls


def test_records_the_history_holds_are_left_out_by_name(world: World) -> None:
    result = world.result
    assert result.known == tuple(sorted(world.known))
    assert not {c.record.id for c in result.measured.cases} & set(world.known)
    assert result.records == 82
    page = render_batch(result)
    assert all(f"`{i}`" in page for i in world.known)
    assert page.startswith("# Scope verdicts on a new screening batch\n")
    for heading in ("## Batch", "## Inputs"):
        assert f"\n{heading}\n" in page
    assert "| include precision at the engine's include count |" in page
    assert f"sha256 `{result.digest}` of the batch files." in page


@pytest.mark.slow
def test_the_batch_is_decided_by_the_scorer_file_not_a_retrained_one(
    world: World,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(world.rules.parent, rules)
    scorer = rules / "scope-scorer.json"
    data = json.loads(scorer.read_text(encoding="utf-8"))
    data["threshold"] = 0.999
    scorer.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # where the evaluation page's default path would be
    args = ["scope", "evaluate", str(world.history), "--rules", str(rules / "scope.yaml")]
    assert curator_main([*args, "--batch", str(world.batch)]) == 0
    page = capsys.readouterr().out
    assert "(include threshold 0.999)" in page
    assert not (tmp_path / "docs").exists()  # --batch writes to standard output by default
    before = counts(world.result.measured.cases, load_rules(world.rules))
    row = next(line for line in page.splitlines() if line.startswith("| include precision: "))
    calls = int(row.split("|")[2].split("/")[1].split()[0])
    assert before.include_calls > 0 and calls < before.include_calls


def test_a_scorer_trained_on_other_records_is_refused(
    world: World, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    history = tmp_path / "history"
    shutil.copytree(world.history, history)
    path = history / "2026-10-03-review.json"
    path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    args = ["scope", "evaluate", str(history), "--rules", str(world.rules)]
    assert curator_main([*args, "--batch", str(world.batch)]) == 2
    err = capsys.readouterr().err
    assert "scope-scorer.json" in err and "was not trained on these records" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_rules_without_a_scorer_cannot_score_a_batch(
    world: World, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = tmp_path / "scope.yaml"
    text = world.rules.read_text(encoding="utf-8")
    rules.write_text(text.replace("scorer: scope-scorer.json\n", ""), encoding="utf-8")
    args = ["scope", "evaluate", str(world.history), "--rules", str(rules)]
    assert curator_main([*args, "--batch", str(world.batch)]) == 2
    err = capsys.readouterr().err
    assert "names no scorer" in err and "Traceback" not in err


def test_a_batch_with_nothing_new_is_bad_input(
    world: World, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = json.loads((world.history / "2026-10-03-review.json").read_text(encoding="utf-8"))
    batch = _write(tmp_path / "2026-11-02-review.json", old[:3])
    args = ["scope", "evaluate", str(world.history), "--rules", str(world.rules)]
    assert curator_main([*args, "--batch", str(batch)]) == 2
    assert "no new record" in capsys.readouterr().err


def test_the_lock_box_and_a_batch_are_not_asked_together(world: World) -> None:
    args = ["scope", "evaluate", str(world.history), "--lock-box", "--batch", str(world.batch)]
    with pytest.raises(SystemExit) as stop:
        curator_main(args)
    assert stop.value.code == 2


def _history(world: World) -> list[dict[str, Any]]:
    """The training records, as written."""
    path = world.history / "2026-10-03-review.json"
    records: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return sorted(records, key=lambda r: tuple(int(x) for x in r["id"].split(".")))


def test_training_records_under_invisible_or_other_spellings_are_still_known(
    world: World, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """60 of the scorer's own training records, their IDs spelled with a zero-width space, a
    byte-order mark, full-width digits or an `arXiv:` prefix, are no unseen batch (they
    scored 100 % precision as one, none named as known): nothing new is left to score."""
    spellings = ("{}\u200b", "\ufeff{}", "arXiv:{}", "{}\u2060")
    old = [
        {**r, "id": spellings[i % 4].format(r["id"])} for i, r in enumerate(_history(world)[:59])
    ]
    wide = dict(_history(world)[59])
    wide["id"] = wide["id"].translate({ord(d): 0xFF10 + int(d) for d in "0123456789"})
    batch = _write(tmp_path / "2026-11-03-review.json", [*old, wide])
    args = ["scope", "evaluate", str(world.history), "--rules", str(world.rules)]
    assert curator_main([*args, "--batch", str(batch)]) == 2
    assert "no new record" in capsys.readouterr().err


def test_a_training_record_under_another_id_is_known_by_its_title(
    world: World, tmp_path: Path
) -> None:
    """A training record with its ID hidden by a zero-width space, and one under an ID of its
    own with its title in other case and punctuation: both left out and named."""
    history = [r for r in _history(world) if r.get("source_abstract") and r.get("title")]
    new = json.loads(world.batch.read_text(encoding="utf-8"))[1:31]
    hidden = {**history[0], "id": history[0]["id"] + "\u200b"}
    retitled = {**history[1], "id": "2612.99999", "title": history[1]["title"].upper() + "!"}
    batch = _write(tmp_path / "2026-11-04-review.json", [hidden, retitled, *new])
    result = evaluate_batch(world.rules, [world.history], [batch])
    assert result.known == tuple(sorted((history[0]["id"], "2612.99999")))
    scored_ids = [c.record.id for c in result.measured.cases]
    assert scored_ids == [r.id for r in scored(load_records(world.batch)[1:31])]
    page = render_batch(result)
    assert ", ".join(f"`{i}`" for i in result.known) in page
    assert "\u200b" not in page.replace("&#8203;", "")


def test_an_id_that_is_no_arxiv_id_is_refused_with_its_file_and_line(
    world: World, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Evaluation input it cannot tell from a training record: exit 2, one line naming the
    file, the record's line and the ID with its invisible character shown."""
    new = json.loads(world.batch.read_text(encoding="utf-8"))[1:4]
    bad = {**new[1], "id": "memgpt\u200b\x1b[31m"}
    batch = tmp_path / "2026-11-05-review.json"
    batch.write_text(json.dumps([new[0], bad, new[2]], indent=1), encoding="utf-8")
    line = next(
        n for n, text in enumerate(batch.read_text(encoding="utf-8").splitlines(), 1)
        if text == " {"
        and n > 2
    )  # fmt: skip
    args = ["scope", "evaluate", str(world.history), "--rules", str(world.rules)]
    assert curator_main([*args, "--batch", str(batch)]) == 2
    err = capsys.readouterr().err
    assert f"{batch.as_posix()}:{line}: the record's id" in err and "is not an arXiv ID" in err
    assert len(err.strip().splitlines()) == 1 and "\x1b" not in err and "\u200b" not in err


def test_what_the_page_prints_of_a_record_is_inert() -> None:
    """An error row quotes the record's own text: Markdown, HTML, pings and invisible
    characters in it are shown, never read."""
    record = Record({"id": "2401.00001", "decision": "exclude"}, Source("b.json", 2))
    reason = "[click](javascript:x) <img src=x> @team \u200b`"
    decision = Decision(Verdict.INCLUDE, ("r",), (), "abstract", reason)
    (row,) = errors([Case(record, decision, True)])
    assert row.startswith("- `2401.00001` maintainers **exclude**, curator **include**")
    for raw in ("[click]", "<img", "@team", "\u200b", '`"'):
        assert raw not in row, raw
