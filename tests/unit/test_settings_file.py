"""The list's settings file, rules/curator.yaml (issue 32): read by every command, between
the environment and [tool.curator]; from the base revision in pull-request mode; errors at
file and line; severity `off` drops a code's findings."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from curator.cli import main
from curator.config.config_files import Revision, WorkingTree
from curator.config.options import build, from_environment
from curator.core.errors import InputError
from curator.core.model import Severity


def settings(root: Path, text: str) -> Path:
    (root / "rules").mkdir(exist_ok=True)
    path = root / "rules" / "curator.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_file_sets_options(tmp_path: Path) -> None:
    settings(
        tmp_path,
        "scope_preset: llm-memory\npaths: [README.md]\nskip: [web]\nfail-on: warning\n"
        "severity:\n  repo-stale: info\n  link-redirect: off\n",
    )
    options = build({}, {}, tmp_path)
    assert options.scope_preset == "llm-memory" and options.paths == ("README.md",)
    assert {s.value for s in options.skip} == {"web"} and options.fail_on == "warning"
    assert options.severity == {"repo-stale": Severity.INFO}
    assert options.silenced == frozenset({"link-redirect"})  # YAML reads a bare off as false


def test_precedence_cli_env_file_pyproject(tmp_path: Path) -> None:
    """CLI over environment over the settings file over [tool.curator]; severities are
    merged code by code, the settings file's winning."""
    (tmp_path / "pyproject.toml").write_text(
        '[tool.curator]\narxiv_delay = 9\ntimeout = 5\nfail_on = "never"\n'
        'severity = { "repo-stale" = "error", "repo-archived" = "off" }\n'
    )
    settings(tmp_path, "arxiv_delay: 7\nfail_on: warning\nseverity: {repo-stale: info}\n")
    options = build({}, {}, tmp_path)
    assert (options.arxiv_delay, options.timeout, options.fail_on) == (7.0, 5.0, "warning")
    assert options.severity == {"repo-stale": Severity.INFO}
    assert options.silenced == frozenset({"repo-archived"})  # `off` in [tool.curator] too
    options = build({"fail_on": "error"}, {"CURATOR_ARXIV_DELAY": "1"}, tmp_path)
    assert (options.arxiv_delay, options.fail_on) == (1.0, "error")


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("paths: [data]\nno_such: 1\n", 2, "unknown setting 'no_such'"),
        ("\nguard_allow: [10.0.0.0/8]\n", 2, "may be set only in the environment"),
        ("allow_private_hosts: true\n", 1, "may be set only in the environment"),
        ("github_token: x\n", 1, "unknown setting 'github_token'"),
        ("silenced: [a]\n", 1, "unknown setting 'silenced'"),
        ("paths: [data]\ncache_path: ../elsewhere.sqlite\n", 2, "leaves the repository"),
        ("records_dir: .git/hooks\n", 1, "is inside .git"),
        ("severity:\n  repo-stale: loud\n", 1, "bad severity 'loud' for repo-stale"),
        ("severity:\n  no-such-code: info\n", 1, "severity: unknown"),
        ("timeout: -1\n", 1, "must not be negative"),
        ("- a\n", 1, "the settings file must be a mapping"),
        ("paths: [data\n", 2, "invalid YAML"),
    ],
)
def test_errors_name_the_file_and_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    text: str,
    line: int,
    words: str,
) -> None:
    """One line, exit 2, at the file and line of the key (the one located-YAML reader)."""
    settings(tmp_path, text)
    duplicated_list(tmp_path)
    monkeypatch.chdir(tmp_path)
    code = main(["check", "README.md", "--offline", "--skip", "arxiv,github,web"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1, err
    assert f"rules/curator.yaml:{line}: " in err and words in err, err


def _git(cwd: Path, *args: str) -> None:
    ident = ["-c", "user.email=t@example.invalid", "-c", "user.name=t"]
    subprocess.run(["git", *ident, *args], cwd=cwd, check=True, capture_output=True)


def test_pull_request_mode_reads_the_base(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pull request's own settings file decides nothing of its check."""
    _git(tmp_path, "init", "-q", "-b", "main")
    settings(tmp_path, "fail_on: error\nseverity: {entry-duplicate: error}\n")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "base")
    settings(tmp_path, "fail_on: never\nseverity: {entry-duplicate: off}\n")
    assert build({}, {}, tmp_path, Revision(tmp_path, "main")).fail_on == "error"
    assert build({}, {}, tmp_path, WorkingTree(tmp_path)).fail_on == "never"
    monkeypatch.chdir(tmp_path)
    options = from_environment({"changed_since": "main"})
    assert options.silenced == frozenset() and options.fail_on == "error"


def duplicated_list(root: Path) -> None:
    (root / "README.md").write_text(
        "# A\n\n- [MemGPT](https://arxiv.org/abs/2310.08560)\n"
        "- [MemGPT again](https://arxiv.org/abs/2310.08560)\n"
    )


def test_off_drops_the_finding_from_the_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    duplicated_list(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CURATOR_CACHE", str(tmp_path / "cache.sqlite"))
    args = ["check", "README.md", "--skip", "arxiv,github,web,scope", "--format", "json"]
    assert main(args) == 1
    codes = [f["code"] for f in json.loads(capsys.readouterr().out)["findings"]]
    assert codes == ["entry-duplicate"]
    settings(tmp_path, "severity:\n  entry-duplicate: off\n")
    assert main(args) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["findings"] == []
    # Dropped, never silently: the report says which codes the configuration turned off.
    assert "not reported (severity off in the configuration): entry-duplicate" in report["notes"]


def test_explain_needs_no_flag_after_init(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 32: the README's `curator explain 2305.10250` exited 2 without --scope-preset;
    after init the settings file holds the preset. Without a policy the list's own papers
    are its scope (tests/integration/test_explain_list.py)."""
    duplicated_list(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CURATOR_CACHE", str(tmp_path / "cache.sqlite"))
    assert main(["explain", "2305.10250", "--offline"]) == 0
    assert "No scope policy: the list's own papers are its scope." in capsys.readouterr().out
    sha = "3f1c2b4a5d6e7f8091a2b3c4d5e6f708192a3b4c"
    assert main(["init", "--ref", sha, "--scope-preset", "llm-memory"]) == 0
    assert main(["explain", "2305.10250", "--offline"]) == 0
    assert "No scope policy" not in capsys.readouterr().out


def test_a_settings_file_reached_through_a_link_out_of_the_tree_is_refused(
    tmp_path: Path,
) -> None:
    """A `rules` folder linked outside the repository cannot bring settings in."""
    outside, root = tmp_path / "outside", tmp_path / "list"
    outside.mkdir()
    root.mkdir()
    (outside / "curator.yaml").write_text("skip: [arxiv, github, web, scope]\n")
    (root / "rules").symlink_to(outside)
    with pytest.raises(InputError, match="symbolic link leading outside the repository"):
        build({}, {}, root)
