"""The learned scorer through the CLI: `check` JSON and findings, `explain` in both languages."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from curator.cli import main
from tests.conftest import SCOPE
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.server import LoopbackServer

ROOT = Path(__file__).resolve().parents[2]
#: A real record the maintainers excluded (general self-evolution): the engine ranks it under
#: the scorer's floor, a likely exclude.
FLAGGED = "2609.38639"
#: A real include with strong evidence that the scorer lets through.
KEPT = "2610.00238"


def serve_records(
    loopback: LoopbackServer, monkeypatch: pytest.MonkeyPatch
) -> dict[str, dict[str, Any]]:
    """FLAGGED's and KEPT's screening records, their papers served by arXiv's double."""
    records = json.loads((SCOPE / "2026-10-03-review.json").read_text(encoding="utf-8"))
    chosen = {r["id"]: r for r in records if r["id"] in (FLAGGED, KEPT)}
    papers = {
        i: Paper(i, r["title"], abstract=r["source_abstract"], published="2026-09-23T05:49:58Z")
        for i, r in chosen.items()
    }
    monkeypatch.setenv("CURATOR_ARXIV_API_URL", ArxivDouble(papers).install(loopback))
    return chosen


@pytest.fixture
def listed(
    loopback: LoopbackServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> dict[str, dict[str, Any]]:
    chosen = serve_records(loopback, monkeypatch)
    shutil.copytree(ROOT / "rules", tmp_path / "rules")
    (tmp_path / "pyproject.toml").write_text("[tool.curator]\n")
    Path(tmp_path / "data").mkdir()
    rows = "".join(
        f'  - {{title: "{r["title"]}", arxiv: "{i}", date: "2026-09-23"}}\n'
        for i, r in chosen.items()
    )
    (tmp_path / "data" / "p.yaml").write_text("section: A\npapers:\n" + rows, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return chosen


def _check(capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    args = ["check", "data", "--skip", "github,web", "--format", "json", "--fail-on", "never"]
    args += extra
    assert main(args) == 0
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return report


def test_check_reports_the_scorer_review_with_its_quote(
    listed: dict[str, dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    report = _check(capsys)
    entries = {e["subject"]: e for e in report["entries"]}
    flagged = entries[f"arxiv:{FLAGGED}"]
    # Under the floor: ranked below nearly every include, a likely exclude (a warning).
    assert flagged["verdict"] == "exclude"
    assert flagged["scope"]["reason"].startswith("likely exclude: ")
    assert flagged["scope"]["rules"][-1] == "scope-scorer"
    assert "self-evolution-optimisation" in flagged["scope"]["rules"]
    scorer = flagged["scope"]["scorer"]
    assert 0 <= scorer["score"] < scorer["floor"] < scorer["threshold"]
    assert scorer["veto"] == 0.5
    assert scorer["signals"] == [] and "terms" not in scorer  # the trail: --scope-trail
    trail = {e["subject"]: e for e in _check(capsys, "--scope-trail")["entries"]}
    named = {s["name"]: s for s in trail[f"arxiv:{FLAGGED}"]["scope"]["scorer"]["signals"]}
    assert named["self-evolution-optimisation"]["value"] == 1
    quote = flagged["scope"]["quotes"][0]  # the memory sentence comes first
    abstract = listed[FLAGGED]["source_abstract"]
    assert abstract[quote["start"] : quote["end"]] == quote["text"] and "memory" in quote["text"]
    finding = next(f for f in report["findings"] if f["subject"] == f"arxiv:{FLAGGED}")
    assert finding["code"] == "scope-review" and finding["severity"] == "warning"
    assert finding["evidence"].startswith(f'abstract: "{quote["text"]}"')
    # The rules that decided are evidence; the suggestion holds only a value to write.
    assert finding["evidence"].endswith("rules: " + ", ".join(flagged["scope"]["rules"]))
    assert "scope-scorer" in finding["evidence"] and not finding.get("suggestion")
    kept = entries[f"arxiv:{KEPT}"]
    assert kept["verdict"] == "include"
    assert kept["scope"]["scorer"]["score"] >= kept["scope"]["scorer"]["threshold"]


def test_without_the_scorer_line_the_rules_alone_decide(
    listed: dict[str, dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    rules = Path("rules/scope.yaml")
    text = rules.read_text(encoding="utf-8")
    rules.write_text(text.replace("scorer: scope-scorer.json\n", ""), encoding="utf-8")
    entries = {e["subject"]: e for e in _check(capsys)["entries"]}
    # Without a scorer to weigh it, any exclusion class keeps a paper from include.
    assert entries[f"arxiv:{FLAGGED}"]["verdict"] == "review"
    assert "scorer" not in entries[f"arxiv:{FLAGGED}"]["scope"]
    assert entries[f"arxiv:{KEPT}"]["verdict"] in ("include", "review")


def test_a_broken_scorer_file_is_one_line_and_exit_2(
    listed: dict[str, dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    Path("rules/scope-scorer.json").write_text('{"format": "x"}', encoding="utf-8")
    assert main(["check", "data", "--skip", "github,web"]) == 2
    err = capsys.readouterr().err
    assert "scope-scorer.json: not a scope scorer" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("lang", "step"),
    [
        ("en", "6. Learned scorer (scope-scorer): P(include) = logistic("),
        ("zh", "6. 学习型评分器 (scope-scorer): 收录概率 = logistic("),
    ],
)
def test_explain_shows_the_rule_path_and_the_scorer(
    listed: dict[str, dict[str, Any]], lang: str, step: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["explain", FLAGGED, "--lang", lang, "-v"]) == 0  # -v: the formulas
    out = capsys.readouterr().out
    assert "gate-memory-word" in out and "core-model-memory" in out
    assert step in out and "- self-evolution-optimisation: 1.00 x " in out
