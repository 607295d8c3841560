"""Issue 31's floor, attacked as a pull request would: nothing in the checked tree moves a
paper the base's scorer ranks under its floor out of its likely exclude (a `scope-review`
warning), and the decision memo never serves a verdict of another floor."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from curator.cli import main
from curator.scope import load_rules
from curator.scope.memo import DecisionMemo, engine_digest
from tests.conftest import SCOPE
from tests.doubles.server import LoopbackServer
from tests.integration.test_scope_scorer_cli import FLAGGED, KEPT, serve_records

ROOT = Path(__file__).resolve().parents[2]


def git(cwd: Path, *args: str) -> str:
    ident = ["-c", "user.email=t@example.invalid", "-c", "user.name=t"]
    done = subprocess.run(["git", *ident, *args], cwd=cwd, check=True, capture_output=True)
    return done.stdout.decode().strip()


def row(record: dict[str, Any]) -> str:
    return f'  - {{title: "{record["title"]}", arxiv: "{record["id"]}", date: "2026-09-23"}}\n'


@pytest.fixture
def listing(
    loopback: LoopbackServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[tuple[Path, str, dict[str, dict[str, Any]]]]:
    """A list whose base holds KEPT, the shipped rules and scorer; arXiv's double knows both."""
    chosen = serve_records(loopback, monkeypatch)
    root = tmp_path / "list"
    (root / "data").mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    shutil.copytree(ROOT / "rules", root / "rules")
    (root / "pyproject.toml").write_text("[tool.curator]\narxiv_delay = 0\n", encoding="utf-8")
    (root / "data" / "p.yaml").write_text(
        "section: A\npapers:\n" + row(chosen[KEPT]), encoding="utf-8"
    )
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    monkeypatch.chdir(root)
    yield root, git(root, "rev-parse", "HEAD"), chosen


def _scorer(change: Callable[[dict[str, Any]], object]) -> Callable[[Path], None]:
    def plant(root: Path) -> None:
        path = root / "rules" / "scope-scorer.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        change(data)
        path.write_text(json.dumps(data, indent=1), encoding="utf-8")

    return plant


def _no_scorer_line(root: Path) -> None:
    path = root / "rules" / "scope.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("scorer: scope-scorer.json\n", ""), encoding="utf-8")


def _decisions(root: Path) -> None:
    text = f"- id: 'arxiv:{FLAGGED}'\n  decision: include\n"
    (root / "rules" / "scope-decisions.yaml").write_text(text, encoding="utf-8")


def _records(root: Path) -> None:
    (root / "screening").mkdir()
    shutil.copy(SCOPE / "2026-10-03-review.json", root / "screening" / "x-review.json")


PLANTS: dict[str, Callable[[Path], None]] = {
    "nothing": lambda root: None,
    "floor dropped": _scorer(lambda d: (d.pop("floor"), d.pop("recall"))),
    "floor 1e-6": _scorer(lambda d: d.update(floor=1e-6)),
    "threshold 0.02": _scorer(lambda d: d.update(threshold=0.02, floor=0.01)),
    "no scorer line": _no_scorer_line,
    "decisions file": _decisions,
    "screening records": _records,
}


@pytest.mark.slow
@pytest.mark.parametrize("plant", list(PLANTS))
@pytest.mark.parametrize("marker", [False, True], ids=["", "marker"])
def test_a_pull_request_cannot_lift_a_likely_exclude_under_the_floor(
    listing: tuple[Path, str, dict[str, dict[str, Any]]], plant: str, marker: bool
) -> None:
    root, base, chosen = listing
    line = row(chosen[FLAGGED])
    if marker:
        line = line.rstrip("\n") + "  # curator: scope-include\n"
    text = "section: A\npapers:\n" + row(chosen[KEPT]) + line
    (root / "data" / "p.yaml").write_text(text, encoding="utf-8")
    PLANTS[plant](root)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "pull request")
    out = root.parent / "r.json"
    for _ in range(2):  # cold, then warm: the memo serves the same verdict
        args = ["check", "data", "--changed-since", base, "--skip", "github,web"]
        main([*args, "--format", "json", "--output", str(out), "--fail-on", "never"])
        report = json.loads(out.read_text(encoding="utf-8"))
        entry = {e["subject"]: e for e in report["entries"]}[f"arxiv:{FLAGGED}"]
        assert entry["verdict"] == "exclude", entry["scope"]["reason"]
        assert entry["scope"]["code"] == "scope-review" and "decided_by" not in entry["scope"]
        assert entry["scope"]["reason"].startswith("likely exclude: passes the entry gate")
        if plant not in ("nothing", "screening records"):  # rules/ changed: a finding says so
            assert "config-changed" in {f["code"] for f in report["findings"]}


def test_the_decision_memo_key_moves_with_the_floor_and_its_share() -> None:
    rules = load_rules(ROOT / "rules" / "scope.yaml")
    scorer = rules.scorer
    assert scorer is not None and scorer.floor is not None
    variants = [
        rules,
        replace(rules, scorer=replace(scorer, floor=None, recall=None)),
        replace(rules, scorer=replace(scorer, floor=0.2)),
        replace(rules, scorer=replace(scorer, recall=0.9)),
    ]
    engine = engine_digest() or ""
    salts = {DecisionMemo(None, r, engine).salt for r in variants}  # type: ignore[arg-type]
    assert len(salts) == len(variants)
