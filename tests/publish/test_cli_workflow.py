"""The workflows' command lines, end to end through `curator.cli.main` against the double:
check → report (annotations, summary) → comment, twice; then audit opens and closes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curator.cli import main
from curator.report import markdown
from tests.doubles.github_issues import FakeGitHub
from tests.publish.conftest import REPO

HEAD = "0123456789abcdef0123456789abcdef01234567"
BAD = 'section: A\npapers:\n  - {title: "x @maintainer", arxiv: "9999.99999", date: "2023-10-12"}\n'
GOOD = 'section: A\npapers:\n  - {title: "MemGPT", arxiv: "2310.08560", date: "2023-10-12"}\n'


@pytest.fixture
def workdir(tmp_path: Path, fake: FakeGitHub, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.curator]\nskip = ["arxiv", "github", "web", "scope"]\n'
    )
    (tmp_path / "data").mkdir()
    event = {"workflow_run": {"head_sha": HEAD, "pull_requests": []}}
    (tmp_path / "event.json").write_text(json.dumps(event))
    for key, value in {
        "GITHUB_EVENT_PATH": tmp_path / "event.json",
        "GITHUB_REPOSITORY": REPO,
        "GITHUB_API_URL": fake.api,
        "GITHUB_TOKEN": "ghs_cli_token",
        "GITHUB_STEP_SUMMARY": tmp_path / "summary.md",
        "GITHUB_OUTPUT": tmp_path / "out.txt",
    }.items():
        monkeypatch.setenv(key, str(value))
    fake.user_forbidden = True
    fake.add_pull(REPO, 7, HEAD, fork=True)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _pr_run(folder: Path, data: str, capsys: pytest.CaptureFixture[str]) -> str:
    (folder / "data" / "a.yaml").write_text(data)
    main(["check", "data", "--format", "json", "--output", "report.json"])
    assert main(["report", "report.json", "--format", "github"]) == 0
    annotations = capsys.readouterr().out
    assert main(["comment", "--repo", REPO, "--head-sha", HEAD, "--body-file", "report.json"]) == 0
    return annotations + capsys.readouterr().out


@pytest.mark.slow
def test_workflow_commands(
    workdir: Path, fake: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    first = _pr_run(workdir, BAD, capsys)
    assert "::error file=data/a.yaml,line=3" in first
    assert "comment created" in first
    assert "@maintainer" not in (workdir / "summary.md").read_text().replace(
        "@\u200bmaintainer", ""
    )
    second = _pr_run(workdir, BAD.replace("x @", "y @"), capsys)
    assert "comment updated" in second
    third = _pr_run(workdir, GOOD, capsys)
    assert "comment updated" in third
    ours = [c for c in fake.comments_on(REPO, 7) if markdown.MARKER in c["body"]]
    assert len(ours) == 1
    assert "Resolved" in ours[0]["body"]


def test_audit_opens_then_closes(
    workdir: Path, fake: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    (workdir / "data" / "a.yaml").write_text(BAD)
    assert main(["audit", "data", "--repo", REPO, "--output", "audit.json"]) == 0
    assert "audit issue opened" in capsys.readouterr().out
    assert json.loads((workdir / "audit.json").read_text())["summary"]["errors"] == 1
    (workdir / "data" / "a.yaml").write_text(GOOD)
    assert main(["audit", "data", "--repo", REPO]) == 0
    assert "audit issue closed" in capsys.readouterr().out


def test_report_refuses_other_json(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "x.json").write_text('{"hello": 1}')
    assert main(["report", "x.json", "--format", "markdown"]) == 2
    assert "not a curator JSON report" in capsys.readouterr().err
