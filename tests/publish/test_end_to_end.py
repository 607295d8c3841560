"""End to end, as the workflows run it: an event payload file, GITHUB_STEP_SUMMARY and
GITHUB_OUTPUT, against the loopback issues/comments double. Never two comments."""

from __future__ import annotations

import json
import os
import re
from dataclasses import replace
from pathlib import Path

import pytest

from curator.publish.audit import audit_from_env
from curator.publish.comment import comment_from_env
from curator.report import github, markdown, render_context
from curator.report import json as json_report
from tests.doubles.github_issues import FakeGitHub, seed_recorded_comments
from tests.publish.conftest import REPO
from tests.publish.world import actions_variables
from tests.report.sample import clean_report, hostile_report, realistic_report

HEAD = "4f2b1c9d0e8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c"


@pytest.fixture
def actions_env(tmp_path: Path, fake: FakeGitHub, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The variables GitHub Actions sets for a workflow_run job on a fork PR."""
    event = {"workflow_run": {"head_sha": HEAD, "pull_requests": [], "conclusion": "failure"}}
    actions_variables(tmp_path, fake.api, event, monkeypatch)
    fake.user_forbidden = True  # an Actions token cannot read /user
    fake.add_pull(REPO, 42, HEAD, fork=True)
    seed_recorded_comments(fake, REPO, 42)
    return tmp_path


def pr_job(report, folder: Path, n: int) -> Path:
    """curator-pr.yml: the JSON artifact, the annotations and the step summary."""
    ctx = render_context.from_env(os.environ, changed_only=True)
    artifact = folder / f"report-{n}.json"
    artifact.write_text(json_report.render(report), encoding="utf-8")
    assert github.render(report).count("::") >= 2 * len(report.findings)
    github.write_summary(markdown.render(report, ctx))
    return artifact


def outputs(folder: Path) -> list[tuple[str, str]]:
    """name, value pairs written to GITHUB_OUTPUT (heredoc form)."""
    text = (folder / "output.txt").read_text(encoding="utf-8")
    found = re.findall(r"^([\w-]+)<<(\S+)\n(.*?)\n\2$", text, re.M | re.S)
    return [(name, value) for name, _, value in found]


@pytest.mark.slow
def test_comment_created_edited_resolved(actions_env: Path, fake: FakeGitHub) -> None:
    """Run 1 creates, run 2 edits the same comment, clean run 3 marks it resolved."""
    env = os.environ
    results = []
    for n, report in enumerate((realistic_report(), hostile_report(), clean_report()), 1):
        artifact = pr_job(report, actions_env, n)
        results.append(comment_from_env(REPO, None, artifact, env))
        ours = [c for c in fake.comments_on(REPO, 42) if markdown.MARKER in c["body"]]
        assert len(ours) == 1
    assert [r.action for r in results] == ["created", "updated", "updated"]
    assert len({r.comment_id for r in results}) == 1
    final = next(c for c in fake.comments_on(REPO, 42) if markdown.MARKER in c["body"])
    assert "Resolved" in final["body"] and final["user"]["login"] == "github-actions[bot]"
    assert "What is wrong" not in final["body"]
    assert len(fake.comments_on(REPO, 42)) == 5  # the four recorded comments + ours
    names = [name for name, _ in outputs(actions_env)]
    assert names == ["comment-id", "comment-url"] * 3
    summary = (actions_env / "summary.md").read_text(encoding="utf-8")
    assert summary.count(markdown.MARKER) == 3


def test_comment_links_point_at_pr_head(actions_env: Path, fake: FakeGitHub) -> None:
    """Rows link to the head commit from the event payload, on the base repository."""
    comment_from_env(REPO, None, pr_job(realistic_report(), actions_env, 1), os.environ)
    body = next(c for c in fake.comments_on(REPO, 42) if markdown.MARKER in c["body"])["body"]
    assert f"https://github.com/{REPO}/blob/{HEAD}/data/papers/2024.yaml#L12" in body
    assert f"https://github.com/{REPO}/actions/runs/987654321" in body


def test_no_open_pr_means_no_comment(actions_env: Path, fake: FakeGitHub) -> None:
    """A head commit with no open PR (closed meanwhile) posts nothing."""
    fake.pulls.clear()
    result = comment_from_env(REPO, None, pr_job(realistic_report(), actions_env, 1), os.environ)
    assert result.action == "skipped"
    assert not fake.server.received(method="POST")


def test_audit_opened_updated_closed(actions_env: Path, fake: FakeGitHub) -> None:
    """The nightly job: open, update, close one labelled issue; outputs name it."""
    moved = realistic_report()
    entries = (
        *moved.entries[:2],
        replace(moved.entries[2], metadata={"github:mem0ai/mem0": {"stars": 42000, "forks": 4400}}),
    )
    actions = [
        audit_from_env(REPO, report, os.environ, "curator-audit").action
        for report in (realistic_report(), replace(moved, entries=entries), clean_report())
    ]
    assert actions == ["opened", "updated", "closed"]
    (issue,) = fake.issues.values()
    assert issue["state"] == "closed" and issue["state_reason"] == "completed"
    assert [name for name, _ in outputs(actions_env)] == ["issue-url"] * 3
    updates = fake.server.received("/repos/", method="PATCH")
    assert "★ 41,234 → 42,000 (+766)" in json.loads(updates[0].body)["body"]
