"""Issue 31, item 3 end to end: another list of the field, no policy of its own.

A real list (the LLM-agents survey list of tests/fixtures/shared/samples) is set up with
`curator init` as the README says, in a git repository, and committed. A pull request adds
two papers in the list's own format, answered by the loopback arXiv double: an off-topic one
(protein structure) gets a `scope-review` warning naming its nearest listed papers; an
on-topic one whose abstract never says "memory" gets no scope finding. No scope error at all.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from curator.cli import main
from curator.scope import relevant
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.server import LoopbackServer

SAMPLE = (
    Path(__file__).resolve().parents[1]
    / "fixtures/shared/samples/woooodyy-llm-agent-paper-list.README.md"
)
OFF = Paper(
    "2501.00011",
    "Equivariant Diffusion Models for Protein Structure Prediction",
    abstract="We predict the three-dimensional structure of proteins from their amino-acid "
    "sequences with an equivariant diffusion model trained on crystallographic data.",
    published="2025-01-09T10:00:00Z",
    categories=("q-bio.BM",),
)
ON = Paper(
    "2501.00012",
    "Self-Improving LLM Agents for Web Navigation with Tool Use and Planning",
    abstract="Large language model agents plan multi-step tasks on websites. We let an agent "
    "reflect on failed episodes and improve its plans, using tools through an API.",
    published="2025-01-09T11:00:00Z",
)


def git(cwd: Path, *args: str) -> str:
    ident = ["-c", "user.email=t@example.invalid", "-c", "user.name=t"]
    done = subprocess.run(["git", *ident, *args], cwd=cwd, check=True, capture_output=True)
    return done.stdout.decode().strip()


def line(paper: Paper) -> str:
    """A new item in the list's own format."""
    return (
        f"- [2025/01] **{paper.title}** *A. Author et al. arXiv.* "
        f"[[paper](https://arxiv.org/abs/{paper.id})]\n"
    )


@pytest.fixture
def pull_request(
    tmp_path: Path, loopback: LoopbackServer, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, str]:
    """The list set up with `curator init` and committed, then the pull request's commit."""
    root = tmp_path / "list"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    shutil.copyfile(SAMPLE, root / "README.md")
    assert main(["init", str(root), "--ref", "0" * 40]) == 0
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    base = git(root, "rev-parse", "HEAD")
    arxiv = ArxivDouble()
    arxiv.papers.update({OFF.id: OFF, ON.id: ON})
    monkeypatch.setenv("CURATOR_ARXIV_API_URL", arxiv.install(loopback))
    monkeypatch.setenv("CURATOR_ARXIV_DELAY", "0")
    monkeypatch.setenv("CURATOR_CACHE", str(tmp_path / "cache.sqlite"))
    monkeypatch.chdir(root)
    text = (root / "README.md").read_text(encoding="utf-8")
    at = text.index("##### Planning")
    at = text.index("\n", at) + 1
    text = text[:at] + "\n" + line(OFF) + line(ON) + text[at:]
    (root / "README.md").write_text(text, encoding="utf-8")
    git(root, "commit", "-qam", "pull request")
    return root, base


def check(root: Path, base: str) -> dict[str, Any]:
    out = root.parent / "report.json"
    main(["check", "README.md", "--changed-since", base, "--format", "json",
          "--output", str(out), "--skip", "github,web"])  # fmt: skip
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


def test_an_off_topic_paper_is_a_warning_naming_its_nearest_listed_papers(
    pull_request: tuple[Path, str],
) -> None:
    report = check(*pull_request)
    scope = [f for f in report["findings"] if f["code"].startswith("scope-")]
    assert not [f for f in report["findings"] if f["severity"] == "error"]
    assert [f["subject"] for f in scope] == [f"arxiv:{OFF.id}"]
    (warning,) = scope
    assert warning["code"] == "scope-review" and warning["severity"] == "warning"
    assert "unlike anything in the list" in warning["message"]
    # Two listed titles, as the list gives them, and the section the paper likely belongs in.
    assert warning["evidence"].startswith('most like "')
    assert '; likeliest section "' in warning["evidence"]
    verdicts = {e["subject"]: e["verdict"] for e in report["entries"]}
    assert verdicts[f"arxiv:{ON.id}"] == "include"
    assert verdicts[f"arxiv:{OFF.id}"] == "review"


def test_a_second_run_reads_the_model_from_the_cache(
    pull_request: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    first = check(*pull_request)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the model was learned again")

    monkeypatch.setattr(relevant, "build", refuse)
    second = check(*pull_request)
    assert first["findings"] == second["findings"]
    assert [f["code"] for f in second["findings"]] == ["scope-review"]


def test_a_full_run_scores_no_listed_paper(pull_request: tuple[Path, str]) -> None:
    """The papers a list holds are its scope: outside a pull request, no relevance finding."""
    root, _ = pull_request
    out = root.parent / "full.json"
    main(["check", "README.md", "--format", "json", "--output", str(out),
          "--skip", "arxiv,github,web"])  # fmt: skip
    report = json.loads(out.read_text(encoding="utf-8"))
    assert not [f for f in report["findings"] if f["code"].startswith("scope-")]


def test_with_a_policy_its_findings_gain_the_nearest_papers_and_none_is_added(
    pull_request: tuple[Path, str],
) -> None:
    root, base = pull_request
    out = root.parent / "policy.json"
    main(["check", "README.md", "--changed-since", base, "--format", "json", "--output",
          str(out), "--skip", "github,web", "--scope-preset", "llm-memory"])  # fmt: skip
    report = json.loads(out.read_text(encoding="utf-8"))
    scope = [f for f in report["findings"] if f["code"].startswith("scope-")]
    subjects = [f["subject"] for f in scope]
    assert scope and len(subjects) == len(set(subjects))  # one finding a paper at most
    assert all("most like " in f["evidence"] for f in scope)
