"""The nightly fix pull request: one branch rebuilt on the default branch's head, one pull
request opened, updated, closed when clean, never reopened once declined; the default branch
is never written."""

from __future__ import annotations

import codecs
from dataclasses import replace
from pathlib import Path

import pytest

from curator.core.errors import UsageError
from curator.fix.model import FileFix
from curator.publish.api import GitHubAPI
from curator.publish.fix_branch import check_branch, writes
from curator.publish.fixpr import CLOSED, MARKER, pr_body, run_fix_pr
from curator.report.render_context import RenderContext
from tests.doubles.github_pulls import FakeGitHubPulls, git_blob_sha
from tests.publish.world import HEAD, REPO, RIGHT_TITLE, assert_inert, commit, head_fixes, list_repo

CTX = RenderContext(repository=REPO, title="curator audit")
BRANCH = "curator/fixes"


@pytest.fixture
def folder(tmp_path: Path, pulls: FakeGitHubPulls) -> Path:
    """The list on main holds the faults the pull request of test_review brought in."""
    where = tmp_path / "list"
    list_repo(where, base=HEAD, head=None)
    pulls.load_git(REPO, where)
    return where


def main_head(pulls: FakeGitHubPulls) -> str:
    sha = pulls.branch(REPO, "main")
    assert sha is not None
    return sha


def fix_prs(pulls: FakeGitHubPulls, state: str = "all") -> list[dict[str, object]]:
    return [p for p in pulls.pulls_of(REPO, state) if str(p["body"]).startswith(MARKER)]


@pytest.mark.slow
def test_two_runs_one_branch_one_pull_request(
    folder: Path, pulls: FakeGitHubPulls, pulls_api: GitHubAPI
) -> None:
    main = main_head(pulls)
    first = run_fix_pr(pulls_api, REPO, [head_fixes()], CTX)
    assert (first.action, first.files, first.fixes) == ("opened", 1, 2)
    tip = pulls.branch(REPO, BRANCH)
    assert tip is not None and pulls.git_commits[tip]["parents"] == [main]
    fixed = pulls.file_at(tip, "README.md")
    assert fixed == head_fixes().after.encode() and RIGHT_TITLE.encode() in fixed
    second = run_fix_pr(pulls_api, REPO, [head_fixes()], CTX)
    assert (second.action, second.number) == ("unchanged", first.number)
    assert pulls.branch(REPO, BRANCH) == tip  # same tree on the same parent: not rebuilt
    (pull,) = fix_prs(pulls)
    assert pull["state"] == "open" and pull["head"]["ref"] == BRANCH
    assert pull["base"]["ref"] == "main" and pull["user"]["login"] == "github-actions[bot]"
    assert pulls.ref_writes == [("POST", f"heads/{BRANCH}")]
    assert main_head(pulls) == main


@pytest.mark.slow
def test_a_new_default_head_rebuilds_the_branch_by_force(
    folder: Path, pulls: FakeGitHubPulls, pulls_api: GitHubAPI
) -> None:
    run_fix_pr(pulls_api, REPO, [head_fixes()], CTX)
    moved = commit(folder, {"CONTRIBUTING.md": "Be kind.\n"}, "a new file on main")
    pulls.load_git(REPO, folder)
    result = run_fix_pr(pulls_api, REPO, [head_fixes()], CTX)
    assert result.action == "updated"  # the rows link the new base commit
    tip = pulls.branch(REPO, BRANCH)
    assert tip is not None and pulls.git_commits[tip]["parents"] == [moved]
    assert pulls.file_at(tip, "CONTRIBUTING.md") == b"Be kind.\n"
    assert pulls.ref_writes == [("POST", f"heads/{BRANCH}"), ("PATCH", f"heads/{BRANCH}")]
    patched = pulls.server.received(f"/repos/{REPO}/git/refs/heads/{BRANCH}", method="PATCH")
    assert patched[0].json() == {"sha": tip, "force": True}
    assert len(fix_prs(pulls)) == 1


@pytest.mark.slow
def test_a_clean_list_closes_the_pull_request_and_deletes_the_branch(
    folder: Path, pulls: FakeGitHubPulls, pulls_api: GitHubAPI
) -> None:
    opened = run_fix_pr(pulls_api, REPO, [head_fixes()], CTX)
    result = run_fix_pr(pulls_api, REPO, [], CTX)
    assert (result.action, result.number) == ("closed", opened.number)
    (pull,) = fix_prs(pulls)
    assert pull["state"] == "closed" and CLOSED in str(pull["body"])
    assert pulls.branch(REPO, BRANCH) is None
    assert run_fix_pr(pulls_api, REPO, [], CTX).action == "none"
    # Fixes needed again later: a new pull request (curator closed the last one itself).
    assert run_fix_pr(pulls_api, REPO, [head_fixes()], CTX).action == "opened"
    assert [p["state"] for p in fix_prs(pulls)] == ["closed", "open"]
    assert all(ref == f"heads/{BRANCH}" for _, ref in pulls.ref_writes)


@pytest.mark.slow
def test_a_pull_request_a_maintainer_closed_is_not_opened_again(
    folder: Path, pulls: FakeGitHubPulls, pulls_api: GitHubAPI
) -> None:
    run_fix_pr(pulls_api, REPO, [head_fixes()], CTX)
    (pull,) = fix_prs(pulls)
    pull["state"] = "closed"  # closed by hand, not merged
    result = run_fix_pr(pulls_api, REPO, [head_fixes()], CTX)
    assert result.action == "declined" and len(fix_prs(pulls)) == 1
    assert pulls.branch(REPO, BRANCH) is None
    other = FileFix("README.md", HEAD, head_fixes().edits[:1])
    assert run_fix_pr(pulls_api, REPO, [other], CTX).action == "opened"


def test_a_file_changed_since_it_was_read_is_left_out(
    folder: Path, pulls: FakeGitHubPulls, pulls_api: GitHubAPI
) -> None:
    commit(folder, {"README.md": HEAD + "- one more line\n"}, "edited meanwhile")
    pulls.load_git(REPO, folder)
    result = run_fix_pr(pulls_api, REPO, [head_fixes()], CTX)
    assert result.action == "none"
    assert result.left == ("README.md: changed on the default branch since it was read",)
    assert pulls.ref_writes == [] and fix_prs(pulls) == []


def test_writes_keep_a_byte_order_mark_and_refuse_links_and_strangers() -> None:
    fix = head_fixes()
    bom = git_blob_sha(codecs.BOM_UTF8 + HEAD.encode())
    tree = {
        "README.md": ("blob", "100644", bom),
        "link.md": ("blob", "120000", "x"),
        "data/x.yaml": ("blob", "100644", "0" * 40),
    }
    done, left = writes(
        [fix, FileFix("link.md", "a", ()), FileFix("../x", "a", ()), FileFix("gone.md", "", ())],
        tree,
    )
    assert [w.data for w in done] == [codecs.BOM_UTF8 + fix.after.encode()]
    assert left == [
        "link.md: not a plain file (a link or a submodule)",
        "../x: not a file of the default branch",
        "gone.md: not a file of the default branch",
    ]


@pytest.mark.parametrize(
    "name",
    [
        "main",
        "HEAD",
        "a..b",
        "-x",
        "x/.hidden",
        "x.lock",
        "a b",
        "refs/heads/x\n",
        "a//b",
        "x/",
        "é",
        "refs/heads/x",
    ],
)
def test_odd_branch_names_are_refused(name: str, folder: Path, pulls_api: GitHubAPI) -> None:
    with pytest.raises(UsageError):
        if name == "main":
            run_fix_pr(pulls_api, REPO, [head_fixes()], CTX, branch=name)
        check_branch(name)


def test_the_body_is_inert_and_fits() -> None:
    """Evidence and titles come from services: no ping, link, HTML or table break escapes."""
    fix = head_fixes()
    hostile = "@org/team | <img src=x> [x](javascript:alert(1)) ```"
    edits = tuple(
        replace(e, new=hostile, finding=replace(e.finding, evidence=hostile * 50))
        for e in fix.edits
    )
    done, _ = writes(
        [FileFix("README.md", HEAD, edits)],
        {"README.md": ("blob", "100644", git_blob_sha(HEAD.encode()))},
    )
    body = pr_body(done * 400, [], CTX, "a" * 40, "main")
    assert len(body) <= 65_536 and body.startswith(MARKER)
    assert_inert(body)
    assert "more |" in body


@pytest.mark.slow
def test_an_incomplete_audit_keeps_the_open_pull_request(
    folder: Path, pulls: FakeGitHubPulls, pulls_api: GitHubAPI
) -> None:
    opened = run_fix_pr(pulls_api, REPO, [head_fixes()], CTX)
    kept = run_fix_pr(pulls_api, REPO, [], CTX, complete=False)
    assert (kept.action, kept.number) == ("kept", opened.number)
    assert [p["state"] for p in fix_prs(pulls)] == ["open"]
    assert pulls.branch(REPO, BRANCH) is not None
    assert run_fix_pr(pulls_api, REPO, [], CTX).action == "closed"


def test_a_file_never_written_does_not_hold_the_pull_request_back(
    folder: Path, pulls: FakeGitHubPulls, pulls_api: GitHubAPI
) -> None:
    """A file whose blob never matches what was read (its fixes were never in the pull
    request) is left out as before; the pull request still follows the other fixes."""
    other = "- [Wrong](https://arxiv.org/abs/2305.10250) (2023-01)\n"
    commit(folder, {"docs/other.md": other}, "a second list")
    pulls.load_git(REPO, folder)
    opened = run_fix_pr(pulls_api, REPO, [head_fixes()], CTX)
    read = "\ufeff" + other.replace("\n", "\r\n")  # not the blob: a checkout that differs
    start = read.index("2023-01")
    stray = FileFix(
        "docs/other.md",
        read,
        (replace(head_fixes().edits[1], file="docs/other.md", start=start, end=start + 7),),
    )
    only = FileFix("README.md", HEAD, head_fixes().edits[:1])
    result = run_fix_pr(pulls_api, REPO, [only, stray], CTX)
    assert (result.action, result.number) == ("updated", opened.number) and not result.why
    assert result.left == ("docs/other.md: changed on the default branch since it was read",)
