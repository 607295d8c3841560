"""`curator scope train`: refuses records that fail the policy's checks, trains, writes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from curator.cli import main
from curator.core.decision import PaperText
from curator.lab.evaluate import load_all
from curator.lab.splits import lock_box
from curator.lab.train import (
    Example,
    Settings,
    fit,
    floor,
    folds,
    lexical_out_of_fold,
    out_of_fold,
    threshold,
    train,
)
from curator.scope import load_rules
from curator.scope.lexical import Lexical, features
from curator.scope.lexical import Settings as LexicalSettings
from curator.scope.lexical import fit as fit_lexical
from curator.scope.scorer import load_scorer, scorer_data
from tests.conftest import SCOPE

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "rules" / "scope-scorer.json"
PRESET = ROOT / "curator" / "presets" / "scope-scorer.json"
RULES = ROOT / "rules" / "scope.yaml"


def _records() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(
        (SCOPE / "2026-10-03-review.json").read_text(encoding="utf-8")
    )
    return data


def _write(tmp_path: Path, records: list[dict[str, Any]]) -> Path:
    path = tmp_path / "2026-11-01-review.json"
    path.write_text(json.dumps(records, indent=1, ensure_ascii=False), encoding="utf-8")
    return path


def _train(*args: str) -> int:
    return main(["scope", "train", *args, "--rules", str(RULES)])


@pytest.mark.slow
def test_the_shipped_scorer_is_what_the_documented_command_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "scorer.json"
    assert _train(str(SCOPE), "--out", str(out)) == 0
    said = capsys.readouterr().out
    assert "lexical terms from 296 gate-passing records (76 include), include threshold" in said
    fresh, shipped = load_scorer(out), load_scorer(SHIPPED)
    # Both views, the stack and the thresholds (provenance names where this run wrote).
    fresh_data, shipped_data = scorer_data(fresh), scorer_data(shipped)
    del fresh_data["provenance"], shipped_data["provenance"]
    assert fresh_data == shipped_data
    assert PRESET.read_bytes() == SHIPPED.read_bytes()
    about = shipped.provenance
    assert about["command"] == (
        "curator scope train tests/fixtures/shared/scope --out rules/scope-scorer.json"
    )
    files = {r["file"]: r for r in about["records"]}
    assert files["2026-10-03-review.json"]["records"] == 646
    assert files["2026-10-03-review.json"]["sha256"] == fresh.provenance["records"][1]["sha256"]
    assert about["examples"] == 296 and about["settings"]["l2"] == Settings().l2


def test_a_record_failing_the_policy_checks_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = _records()
    include = next(r for r in records if r["decision"] == "include")
    del include["target"]
    out = tmp_path / "scorer.json"
    assert _train(str(_write(tmp_path, records)), "--out", str(out)) == 2
    err = capsys.readouterr().err
    assert "2026-11-01-review.json:" in err and "record-fields-missing" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_a_focus_quote_that_is_not_in_the_abstract_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = _records()
    include = next(r for r in records if r["decision"] == "include" and r.get("source_abstract"))
    include.update(
        policy_version="2026-10-09",
        memory_focus_quote="a memory sentence the abstract does not hold",
        memory_focus_reason="made up",
    )
    assert _train(str(_write(tmp_path, records)), "--out", str(tmp_path / "s.json")) == 2
    assert "record-quote-missing" in capsys.readouterr().err


def test_contradicting_records_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = _records()
    include = next(r for r in records if r["decision"] == "include")
    records.append(dict(include, decision="exclude"))
    assert _train(str(_write(tmp_path, records)), "--out", str(tmp_path / "s.json")) == 2
    assert "is exclude here but include at" in capsys.readouterr().err


@pytest.mark.slow
def test_training_needs_both_decisions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    only = [r for r in _records() if r["decision"] == "exclude"]
    assert _train(str(_write(tmp_path, only)), "--out", str(tmp_path / "s.json")) == 2
    assert "both include and exclude/hold" in capsys.readouterr().err


def test_an_empty_folder_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _train(str(tmp_path), "--out", str(tmp_path / "s.json")) == 2
    assert "no *-review.json record files" in capsys.readouterr().err


def _development(step: int) -> list[Any]:
    """Every `step`-th development record (never the lock box)."""
    development, _ = lock_box(load_all([SCOPE])[0])
    return development[::step]


@pytest.mark.slow
def test_training_fits_both_views_and_their_stack_or_the_signals_alone() -> None:
    records, rules = _development(3), load_rules(RULES)
    both = train(records, rules)
    assert both.lexical is not None and both.stack is not None
    assert 0 < len(both.lexical.weights) <= Settings().lexical.top  # type: ignore[union-attr]
    assert scorer_data(both)["format"] == "curator-scope-scorer/3"
    assert both.provenance["settings"]["lexical"]["c"] == 10.0
    alone = train(records, rules, Settings(lexical=None))
    assert alone.lexical is None and scorer_data(alone)["format"] == "curator-scope-scorer/2"
    assert alone.weights == both.weights  # the signal view is the same fit either way


def test_both_views_are_scored_out_of_the_callers_folds() -> None:
    words = ["agent memory", "gpu cache", "agent cache", "memory gpu"]
    items = [
        Example(
            str(i),
            {"memory-lm-sense": float(i % 4 == 0)},
            int(i % 4 == 0),
            True,
            features(PaperText(f"Paper {i}", f"{words[i % 4]} study {i % 3}.")),
        )
        for i in range(12)
    ]
    lexical = LexicalSettings(min_count=1)
    settings = Settings(folds=3)
    expected = [0.0] * len(items)
    for kept, held in folds(len(items), settings):
        view = Lexical(
            *fit_lexical([items[i].words for i in kept], [items[i].label for i in kept], lexical)
        )
        for i in held:
            expected[i] = view.probability(items[i].words)
    assert lexical_out_of_fold(items, settings, lexical) == expected
    # The five default folds score differently: the folds asked for are the ones used.
    assert lexical_out_of_fold(items, Settings(), lexical) != expected
    assert out_of_fold(items, settings) != out_of_fold(items, Settings())


def test_fit_learns_the_direction_of_a_signal() -> None:
    items = [Example(f"i{i}", {"memory-lm-sense": 1.0, "noise": i % 2}, 1, True) for i in range(6)]
    items += [
        Example(f"e{i}", {"memory-other-sense": 1.0, "noise": i % 2}, 0, False) for i in range(6)
    ]
    weights, _ = fit(items, Settings())
    assert weights["memory-lm-sense"] > 0 > weights["memory-other-sense"]
    assert abs(weights["noise"]) < 0.1


def test_the_threshold_is_the_lowest_score_at_the_precision() -> None:
    items = [Example(str(i), {}, label, True) for i, label in enumerate([1, 1, 0, 1, 0, 0])]
    probs = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]
    assert threshold(items, probs, 0.95) == 0.8
    assert threshold(items, probs, 0.7) == 0.6
    assert threshold(items, [0.1] * 6, 0.95) == 0.99  # never reached: include nothing


def test_the_floor_is_the_score_the_share_of_includes_reaches() -> None:
    labels = [1, 1, 0, 1, 0, 1, 0, 0, 1, 0]
    items = [Example(str(i), {}, label, True) for i, label in enumerate(labels)]
    probs = [0.95, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1]
    # Five includes: 80 % of them (four) reach 0.5; all five reach 0.2.
    assert floor(items, probs, 0.8, 0.9) == 0.5
    assert floor(items, probs, 0.95, 0.9) == 0.2
    assert floor(items, probs, 0.8, 0.45) == 0.45  # never above the include threshold
    assert floor([], [], 0.95, 0.9) == 0.01


@pytest.mark.slow
def test_the_default_rules_are_found_like_the_check_finds_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "scope.yaml").write_text(RULES.read_text(encoding="utf-8"))
    (tmp_path / "pyproject.toml").write_text("[tool.curator]\n")
    monkeypatch.chdir(tmp_path)
    path = _write(tmp_path, [r.data for r in _development(3)])
    assert main(["scope", "train", str(path), "--out", "rules/scope-scorer.json"]) == 0
    assert load_rules(tmp_path / "rules" / "scope.yaml").scorer is not None
    assert "rules/scope-scorer.json:" in capsys.readouterr().out
