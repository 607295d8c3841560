"""The workflows and the composite action: zizmor-clean, pinned, least privilege, no
expressions inside run: scripts."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
ACTION = ROOT / ".github" / "actions" / "curator" / "action.yml"
SELF = "$/.github/actions/curator"
PINNED = re.compile(r"^[\w.-]+/[\w./-]+@[0-9a-f]{40}$")
#: The real commits of the tags these workflows use (looked up, never invented).
KNOWN_SHAS = {
    "actions/checkout": "11bd71901bbe5b1630ceea73d27597364c9af683",  # v4.2.2
    "actions/setup-python": "a26af69be951a213d495a4c3e4e4022e16d87065",  # v5.6.0
    "actions/cache": "0057852bfaa89a56745cba8c7296529d2fc39830",  # v4.3.0
    "actions/upload-artifact": "ea165f8d65b6e75b540449e92b4886f43607fa02",  # v4.6.2
    "actions/download-artifact": "d3f86a106a0bac45b974a628896c90dbdf5c8093",  # v4.3.0
    "github/codeql-action": "fca7ace96b7d713c7035871441bd52efbe39e27e",  # v3.28.19
    "pypa/gh-action-pypi-publish": "81e9d935c883d0b210363ab89cf05f3894778450",  # v1.8.14
}


def load(path: Path) -> dict[Any, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def steps(doc: dict[Any, Any]) -> list[dict[str, Any]]:
    """Every step of every job (or of the composite action)."""
    if "runs" in doc:
        return list(doc["runs"]["steps"])
    return [step for job in doc["jobs"].values() for step in job.get("steps", [])]


def zizmor(folder: Path) -> subprocess.CompletedProcess[str]:
    """zizmor, offline with the pedantic persona, on `folder`."""
    found = Path(sys.executable).with_name("zizmor")
    program = str(found) if found.exists() else (shutil.which("zizmor") or "zizmor")
    return subprocess.run(
        [program, "--offline", "--persona=pedantic", "--format=plain", str(folder)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_zizmor_reports_nothing() -> None:
    """zizmor (offline, pedantic persona) finds nothing in .github/."""
    out = zizmor(ROOT / ".github")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "No findings to report" in out.stdout


def test_the_four_workflows_exist() -> None:
    """ci, curator-pr, curator-comment and curator-nightly."""
    names = {p.stem for p in WORKFLOWS}
    assert {"ci", "curator-pr", "curator-comment", "curator-nightly"} <= names


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.stem)
def test_no_default_permissions_and_job_scopes(path: Path) -> None:
    """permissions: {} at the top; each job names its own, never write-all."""
    doc = load(path)
    assert doc["permissions"] == {}
    for job in doc["jobs"].values():
        assert isinstance(job.get("permissions"), dict) and job["permissions"]
        assert "write-all" not in str(job["permissions"])


@pytest.mark.parametrize("path", [*WORKFLOWS, ACTION], ids=lambda p: p.stem)
def test_actions_pinned_to_known_shas(path: Path) -> None:
    """Every `uses:` is a full commit SHA, and the SHA is the looked-up one for that action;
    only curator's own Action is referenced from this repository's commit (`$/`)."""
    for step in steps(load(path)):
        uses = step.get("uses")
        if uses == SELF:
            continue
        if uses:
            assert PINNED.match(uses), uses
            repo = "/".join(uses.split("@")[0].split("/")[:2])
            assert uses.endswith("@" + KNOWN_SHAS[repo]), uses


@pytest.mark.parametrize("path", [*WORKFLOWS, ACTION], ids=lambda p: p.stem)
def test_no_expressions_in_run_and_no_persisted_credentials(path: Path) -> None:
    """Untrusted values reach scripts via env: only; checkout never keeps the token."""
    for step in steps(load(path)):
        assert "${{" not in step.get("run", "")
        if step.get("uses", "").startswith("actions/checkout@"):
            assert step["with"]["persist-credentials"] is False


def test_comment_workflow_runs_no_pr_code() -> None:
    """curator-comment checks out nothing and runs only the Action (this repository's commit
    on the default branch), which downloads the report under runner.temp as data."""
    doc = load(ROOT / ".github" / "workflows" / "curator-comment.yml")
    job = doc["jobs"]["comment"]
    assert job["permissions"] == {"pull-requests": "write", "actions": "read"}
    assert job["steps"] == [{"uses": SELF, "with": {"mode": "comment"}}]
    download = next(s for s in steps(load(ACTION)) if "download-artifact" in s.get("uses", ""))
    assert download["with"]["path"].startswith("${{ runner.temp }}")
    assert download["if"] == "inputs.mode == 'comment'"


def test_pr_workflow_with_concurrency_and_no_write_for_forks() -> None:
    """curator-pr: contents read, pull-requests write (a fork's token is read-only anyway),
    per-PR concurrency, only pull requests that change the list, its rules or settings."""
    doc = load(ROOT / ".github" / "workflows" / "curator-pr.yml")
    assert doc["jobs"]["check"]["permissions"] == {"contents": "read", "pull-requests": "write"}
    assert "pull_request.number" in doc["concurrency"]["group"]
    # PyYAML reads the key `on` as True.
    assert doc[True] == {"pull_request": {"paths": ["data/**", "rules/**", "pyproject.toml"]}}


def test_action_inputs_and_outputs() -> None:
    """The composite action's interface (issues 13, 16 and 20)."""
    doc = load(ACTION)
    assert set(doc["inputs"]) == {
        "mode", "paths", "rules", "scope-preset", "skip", "fail-on", "token", "label",
        "python-version", "since", "until", "categories", "discover-label", "suggest", "fix",
    }  # fmt: skip
    assert set(doc["outputs"]) == {
        "errors", "warnings", "report", "sarif", "issue-url", "review-url", "fix-url",
    }  # fmt: skip
    # Suggestions are offers a contributor commits or not: on unless turned off. The fix
    # pull request writes a branch: off unless asked.
    assert (doc["inputs"]["suggest"]["default"], doc["inputs"]["fix"]["default"]) == (
        "true",
        "false",
    )
    assert doc["runs"]["using"] == "composite"


def test_action_installs_itself_and_keeps_the_cache_out_of_the_checkout() -> None:
    """curator comes from the action's own commit; the cache is under runner.temp, restored
    in every checking mode and saved only outside pull requests."""
    by_name = {s.get("name", s.get("uses", "")): s for s in steps(load(ACTION))}
    install = next(s for n, s in by_name.items() if n.startswith("install curator"))
    assert install["env"] == {"ACTION_PATH": "${{ github.action_path }}"}
    assert '"$ACTION_PATH/../../.."' in install["run"] and "GITHUB_WORKSPACE" not in install["run"]
    # curator's environment: restored by a key of its own files and the Python version; the
    # install runs only on a miss, and only runs outside pull requests save it.
    venv = by_name["restore curator's environment"]
    assert venv["with"] == {
        "path": "${{ runner.temp }}/curator-venv", "key": "${{ steps.venv-key.outputs.key }}",
    }  # fmt: skip
    assert install["if"] == "steps.venv.outputs.cache-hit != 'true'"
    key = by_name["the key of curator's environment"]
    assert key["env"]["PYTHON_VERSION"] == "${{ steps.python.outputs.python-version }}"
    assert "curator-venv-$RUNNER_OS-$RUNNER_ARCH-py$PYTHON_VERSION-$digest" in key["run"]
    saved = by_name["save curator's environment (never from a pull request)"]
    assert "inputs.mode == 'pr'" not in saved["if"] and "inputs.mode == 'audit'" in saved["if"]
    restore, save = (
        by_name["restore the cache"],
        by_name["save the cache (never from a pull request)"],
    )
    assert restore["uses"].startswith("actions/cache/restore@")
    assert save["uses"].startswith("actions/cache/save@")
    assert save["if"] == (
        "(inputs.mode == 'check' || inputs.mode == 'audit' || inputs.mode == 'discover') && "
        "github.event_name != 'pull_request' && github.event_name != 'pull_request_target'"
    )
    for step in (restore, save):
        assert step["with"]["path"] == "${{ runner.temp }}/curator-cache"


def test_the_nightly_offers_the_fix_pull_request_commented_out() -> None:
    """Off by default: read-only contents, no pull-requests permission, `fix` commented; the
    lines to uncomment say what each is for."""
    text = (ROOT / ".github" / "workflows" / "curator-nightly.yml").read_text(encoding="utf-8")
    job = load(ROOT / ".github" / "workflows" / "curator-nightly.yml")["jobs"]["audit"]
    assert job["permissions"] == {"contents": "read", "issues": "write"}
    assert "fix" not in job["steps"][1]["with"]
    assert "          # fix: true\n" in text
    assert "      # pull-requests: write # with `fix: true`" in text
    assert "contents: read # write with `fix: true`" in text


def test_the_nightly_with_the_fix_turned_on_is_zizmor_clean(tmp_path: Path) -> None:
    """What a maintainer gets after uncommenting: write permissions on that job only."""
    text = (ROOT / ".github" / "workflows" / "curator-nightly.yml").read_text(encoding="utf-8")
    on = text.replace("          # fix: true", "          fix: true")
    on = on.replace("      # pull-requests: write", "      pull-requests: write")
    on = on.replace("contents: read # write", "contents: write #")
    folder = tmp_path / ".github"
    (folder / "workflows").mkdir(parents=True)
    (folder / "workflows" / "curator-nightly.yml").write_text(on, encoding="utf-8")
    job = load(folder / "workflows" / "curator-nightly.yml")["jobs"]["audit"]
    assert job["permissions"] == {
        "contents": "write", "issues": "write", "pull-requests": "write",
    }  # fmt: skip
    assert job["steps"][1]["with"]["fix"] is True
    shutil.copytree(ROOT / ".github" / "actions", folder / "actions")
    out = zizmor(folder)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "completed" in out.stderr and "curator-nightly.yml" in out.stderr
    assert "No findings to report" in out.stdout


def test_curator_runs_through_the_environments_python_so_a_moved_one_still_works(
    tmp_path: Path,
) -> None:
    """A restored environment may sit at another path than where it was built (a self-hosted
    runner's temp folder): its scripts' `#!` lines would name the old path, its `python`
    finds its packages wherever it is. The Action only ever runs `bin/python -m curator`."""
    import venv

    text = ACTION.read_text(encoding="utf-8")
    assert "curator-venv/bin/curator" not in text
    assert text.count('"$RUNNER_TEMP/curator-venv/bin/python" -m curator comment') == 2
    assert text.count('curator=("$RUNNER_TEMP/curator-venv/bin/python" -m curator)') == 2
    venv.create(tmp_path / "built", with_pip=False)
    (site,) = (tmp_path / "built" / "lib").glob("python3*/site-packages")
    (site / "planted_module.py").write_text("WHERE = 'inside'\n")
    (tmp_path / "built").rename(tmp_path / "restored")
    done = subprocess.run(
        [str(tmp_path / "restored" / "bin" / "python"), "-c",
         "import planted_module, sys; print(planted_module.WHERE, sys.prefix)"],
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    assert done.stdout.split() == ["inside", str(tmp_path / "restored")]
