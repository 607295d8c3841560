"""Hostile or unlucky caches against the scope memo: a row that is not a decision is a miss,
never a traceback, and a cache another process holds costs a run one wait, not one per stage."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest

from curator.net import cache_file
from curator.net.cache import Cache
from curator.scope import memo
from curator.scope.engine import decide
from curator.scope.rules import ScopeRules, load_rules
from tests.conftest import ROOT
from tests.scope.test_memo import _papers, _run, lst  # noqa: F401 - lst is a fixture


@pytest.fixture(scope="module")
def rules() -> ScopeRules:
    return load_rules(ROOT / "rules" / "scope.yaml")


def _overwrite(path: Path, value: str) -> None:
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE kept SET value=? WHERE service='scope'", (value,))
    db.close()


@pytest.mark.parametrize(
    "junk",
    [
        pytest.param(
            lambda good: {**good, "scorer": {**good["scorer"], "score": 10**400}}, id="big-int"
        ),
        pytest.param(
            lambda good: {**good, "scorer": {**good["scorer"], "threshold": -(10**309)}},
            id="big-neg",
        ),
    ],
)
def test_a_row_with_a_number_no_float_holds_is_a_miss(
    rules: ScopeRules, tmp_path: Path, junk: object
) -> None:
    paper = next(p for p in _papers() if decide(p, rules).scorer is not None)
    path = tmp_path / "c.sqlite"
    kept = memo.DecisionMemo(Cache(path), rules, "e")
    kept.keep({paper: decide(paper, rules)})
    _overwrite(path, json.dumps(junk(memo.stored(decide(paper, rules), paper))))  # type: ignore[operator]
    assert kept.recall([paper]) == {}


def test_a_row_nested_past_the_recursion_limit_is_a_miss(rules: ScopeRules, tmp_path: Path) -> None:
    paper = _papers(1)[0]
    path = tmp_path / "c.sqlite"
    kept = memo.DecisionMemo(Cache(path), rules, "e")
    kept.keep({paper: decide(paper, rules)})
    _overwrite(path, "[" * 100_000 + "]" * 100_000)
    assert kept.recall([paper]) == {}


@pytest.mark.slow
def test_a_run_on_a_cache_another_process_holds_waits_once(
    lst: Path,  # noqa: F811 - the fixture imported above
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _run("cold.json")
    monkeypatch.setattr(cache_file, "BUSY_TIMEOUT", 1.0)
    other = sqlite3.connect(lst / "cache.sqlite", isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        start = time.monotonic()
        _run("held.json")
        took = time.monotonic() - start
    finally:
        other.execute("ROLLBACK")
        other.close()
    # Before the load stage and the scope stage opened the cache, a held file cost one wait.
    assert took < 2 * cache_file.BUSY_TIMEOUT, f"{took:.1f} s: one wait per stage"


def test_a_scorer_weight_no_float_holds_is_an_input_error() -> None:
    # The scorer file sits beside the rules: in a pull request it is the contributor's.
    from curator.core.errors import InputError
    from curator.scope.scorer import FORMAT, parse_scorer

    data = {"format": FORMAT, "weights": {"memory": 10**400}, "bias": 0, "threshold": 0.5}
    with pytest.raises(InputError, match="finite number"):
        parse_scorer(data, "rules/scope-scorer.json")
