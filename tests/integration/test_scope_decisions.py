"""Issue 31: a scope decision sticks, and one problem is one finding.

A Markdown list with its own small policy (a hard memory gate, one semantic class) against
the arXiv double. A maintainer's recorded decision (rules/scope-decisions.yaml, an inline
marker) settles its entry for good; in a pull request only the base's records count. A paper
arXiv does not know, or has withdrawn, gets its `arxiv-*` finding and no scope finding.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from curator.cli import main
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.server import LoopbackServer

POLICY = """\
policy: "1"
rules:
  - id: gate
    kind: gate
    description: {en: gate, zh: 门槛}
    patterns: [memory, memories]
    hard: true
  - id: gpu-words
    kind: exclusion
    memory_sense: true
    description: {en: gpu, zh: 显存}
    patterns: [gpu memory]
  - id: agents
    kind: core
    description: {en: agents, zh: 智能体}
    patterns: [agent*]
"""
#: No memory word: the hard gate's error.
PLAIN = Paper("2501.00001", "Planning agents", abstract="We plan with language agents.")
#: Every memory word is GPU memory: a semantic class, a likely exclude.
GPU = Paper("2501.00002", "Fast kernels", abstract="Our kernels cut GPU memory by half.")
WITHDRAWN = Paper(
    "2501.00003",
    "A withdrawn paper",
    version=2,
    abstract="This paper has been withdrawn by the authors due to an error.",
    comment="This paper has been withdrawn",
)
UNKNOWN = "2501.99999"


def row(paper_id: str, title: str, marker: str = "") -> str:
    return f"- [{title}](https://arxiv.org/abs/{paper_id}){marker}\n"


def git(cwd: Path, *args: str) -> str:
    ident = ["-c", "user.email=t@example.invalid", "-c", "user.name=t"]
    done = subprocess.run(["git", *ident, *args], cwd=cwd, check=True, capture_output=True)
    return done.stdout.decode().strip()


@pytest.fixture
def root(tmp_path: Path, loopback: LoopbackServer, monkeypatch: pytest.MonkeyPatch) -> Path:
    arxiv = ArxivDouble({p.id: p for p in (PLAIN, GPU, WITHDRAWN)})
    monkeypatch.setenv("CURATOR_ARXIV_API_URL", arxiv.install(loopback))
    root = tmp_path / "list"
    (root / "rules").mkdir(parents=True)
    (root / "rules" / "scope.yaml").write_text(POLICY, encoding="utf-8")
    (root / "pyproject.toml").write_text("[tool.curator]\narxiv_delay = 0\n", encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def check(*extra: str) -> tuple[int, dict[str, Any]]:
    out = Path("..") / "report.json"
    status = main(["check", "README.md", "--format", "json", "--output", str(out), *extra])
    return status, json.loads(out.read_text(encoding="utf-8"))


def scope_findings(report: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {
        f["subject"]: (f["code"], f["severity"])
        for f in report["findings"]
        if f["code"].startswith("scope-")
    }


def test_only_the_hard_gate_fails_and_a_semantic_class_is_a_review(root: Path) -> None:
    Path("README.md").write_text(row(PLAIN.id, PLAIN.title) + row(GPU.id, GPU.title))
    status, report = check()
    assert status == 1
    assert scope_findings(report) == {
        f"arxiv:{PLAIN.id}": ("scope-exclude", "error"),
        f"arxiv:{GPU.id}": ("scope-review", "warning"),
    }
    gpu = next(f for f in report["findings"] if f["subject"] == f"arxiv:{GPU.id}")
    assert gpu["message"].startswith("likely exclude: gpu-words; ")
    # The rule ids are evidence; the suggestion holds only a value to write (none here).
    assert gpu["evidence"].endswith("rules: gpu-words") and "GPU memory" in gpu["evidence"]
    assert not gpu.get("suggestion")


def test_a_recorded_decision_settles_its_entry(root: Path) -> None:
    Path("README.md").write_text(
        row(PLAIN.id, PLAIN.title, " <!-- curator: scope-include -->") + row(GPU.id, GPU.title)
    )
    Path("rules/scope-decisions.yaml").write_text(
        f"- id: arxiv:{GPU.id}\n  decision: include\n  by: '@maintainer'\n  note: kernels\n",
        encoding="utf-8",
    )
    status, report = check()
    assert status == 0 and scope_findings(report) == {}
    decided = {e["subject"]: e["scope"] for e in report["entries"]}
    assert decided[f"arxiv:{PLAIN.id}"]["decided_by"].endswith("README.md:1")
    assert decided[f"arxiv:{GPU.id}"]["decided_by"].endswith("rules/scope-decisions.yaml:1")
    assert {e["verdict"] for e in report["entries"]} == {"include"}


def test_a_declined_paper_is_the_lists_own_error(root: Path) -> None:
    Path("README.md").write_text(row(GPU.id, GPU.title))
    Path("rules/scope-decisions.yaml").write_text(f"- id: '{GPU.id}'\n  decision: exclude\n")
    status, report = check()
    assert status == 1
    assert scope_findings(report) == {f"arxiv:{GPU.id}": ("scope-exclude", "error")}


def test_a_pull_request_cannot_accept_its_own_paper(root: Path) -> None:
    git(root, "init", "-q", "-b", "main")
    Path("README.md").write_text(row(GPU.id, GPU.title, " <!-- curator: scope-include -->"))
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    # The pull request adds the plain paper, with a marker and a decision of its own.
    Path("README.md").write_text(
        row(GPU.id, GPU.title, " <!-- curator: scope-include -->")
        + row(PLAIN.id, PLAIN.title, " <!-- curator: scope-include -->")
    )
    Path("rules/scope-decisions.yaml").write_text(f"- id: '{PLAIN.id}'\n  decision: include\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "pull request")
    status, report = check("--changed-since", "main~1")
    assert status == 1
    assert scope_findings(report) == {f"arxiv:{PLAIN.id}": ("scope-exclude", "error")}
    assert "config-changed" in {f["code"] for f in report["findings"]}


def test_a_marker_the_base_holds_counts_in_a_pull_request(root: Path) -> None:
    git(root, "init", "-q", "-b", "main")
    Path("README.md").write_text(row(PLAIN.id, PLAIN.title, " <!-- curator: scope-include -->"))
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    # The pull request edits the entry's line (its title): the base's marker still decides.
    Path("README.md").write_text(
        row(PLAIN.id, "Planning agents!", " <!-- curator: scope-include -->")
    )
    git(root, "commit", "-qam", "pull request")
    status, report = check("--changed-since", "main~1")
    assert status == 0 and scope_findings(report) == {}
    assert report["entries"][0]["scope"]["decided_by"] == "main~1:README.md:1"


def test_a_missing_or_withdrawn_paper_is_one_finding(root: Path) -> None:
    Path("README.md").write_text(row(UNKNOWN, "Not a paper") + row(WITHDRAWN.id, WITHDRAWN.title))
    status, report = check()
    assert status == 1  # the two arxiv-* errors
    codes = sorted((f["subject"], f["code"]) for f in report["findings"])
    assert codes == [
        (f"arxiv:{WITHDRAWN.id}", "arxiv-withdrawn"),
        (f"arxiv:{UNKNOWN}", "arxiv-not-found"),
    ]
    assert [e["verdict"] for e in report["entries"]] == [None, None]
    assert all("scope" not in e for e in report["entries"])


def test_a_screening_record_that_includes_the_paper_settles_it(root: Path) -> None:
    Path("README.md").write_text(row(PLAIN.id, PLAIN.title))
    Path("screening").mkdir()
    record = {"id": PLAIN.id, "title": PLAIN.title, "decision": "include"}
    Path("screening/2026-10-10-review.json").write_text(json.dumps([record], indent=1))
    _status, report = check()
    assert scope_findings(report) == {}
    assert report["entries"][0]["scope"]["decided_by"].endswith("2026-10-10-review.json:2")


def test_a_pull_requests_own_screening_record_does_not_settle_its_paper(root: Path) -> None:
    git(root, "init", "-q", "-b", "main")
    Path("README.md").write_text(row(GPU.id, GPU.title))
    Path("screening").mkdir()
    Path("screening/2026-10-01-review.json").write_text("[]")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    Path("README.md").write_text(row(GPU.id, GPU.title) + row(PLAIN.id, PLAIN.title))
    record = {"id": PLAIN.id, "title": PLAIN.title, "decision": "include"}
    Path("screening/2026-10-10-review.json").write_text(json.dumps([record]))
    git(root, "add", "-A")
    git(root, "commit", "-qm", "pull request")
    _status, report = check("--changed-since", "main~1")
    assert scope_findings(report) == {f"arxiv:{PLAIN.id}": ("scope-exclude", "error")}
