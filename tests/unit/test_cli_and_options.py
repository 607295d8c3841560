"""Exit codes, --fail-on, configuration precedence and the JSON report shape."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from curator.cli import exit_status, main
from curator.config.options import build
from curator.core.errors import UsageError
from curator.core.model import FailOn, Finding, Format, Report, Severity, Source

OFFLINE = ["--skip", "arxiv,github,web,scope"]
SRC = Source("data/x.yaml", 3)


def _report(*codes: tuple[str, Severity]) -> Report:
    return Report((), tuple(Finding(c, s, "arxiv:2305.10250", SRC, "m") for c, s in codes))


def test_exit_status_thresholds() -> None:
    warn = _report(("repo-archived", Severity.WARNING))
    err = _report(("arxiv-not-found", Severity.ERROR))
    assert exit_status(_report(), FailOn.ERROR) == 0
    assert exit_status(warn, FailOn.ERROR) == 0
    assert exit_status(warn, FailOn.WARNING) == 1
    assert exit_status(err, FailOn.ERROR) == 1
    assert exit_status(err, FailOn.NEVER) == 0


def test_outage_never_fails_by_itself() -> None:
    outage = _report(
        ("arxiv-unverified", Severity.WARNING),
        ("repo-unverified", Severity.WARNING),
        ("link-unverified", Severity.WARNING),
    )
    assert exit_status(outage, FailOn.WARNING) == 0


def test_env_wins_over_pyproject(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.curator]\narxiv-delay = 5\nfail_on = "warning"\nskip = ["web"]\n'
    )
    opts = build({}, {"CURATOR_ARXIV_DELAY": "0.5"}, tmp_path)
    assert opts.arxiv_delay == 0.5
    assert opts.fail_on is FailOn.WARNING
    assert {s.value for s in opts.skip} == {"web"}
    cli = build({"fail_on": "never"}, {}, tmp_path)
    assert cli.fail_on is FailOn.NEVER
    assert (cli.format, build({"format": "json"}, {}, tmp_path).format) == (
        Format.TEXT,
        Format.JSON,
    )


def test_defaults_are_the_real_services(tmp_path: Path) -> None:
    opts = build({}, {}, tmp_path)
    assert opts.arxiv_api_url == "https://export.arxiv.org/api/query"
    assert opts.github_api_url == "https://api.github.com"
    assert opts.github_graphql_url == "https://api.github.com/graphql"
    assert opts.arxiv_delay == 3.0
    assert opts.resolved_cache_path() == tmp_path / ".curator" / "cache.sqlite"
    assert not opts.allow_private_hosts


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ("colour = 1", "unknown setting"),
        ('fail_on = "sometimes"', "--fail-on"),
        ('arxiv_delay = "soon"', "bad setting"),
        ('skip = ["ftp"]', "--skip"),
        ('severity = {"no-such-code" = "error"}', "unknown finding code"),
        ('severity = {"repo-stail" = "info"}', r"repo-stail \(did you mean repo-stale\?\)"),
        ('format = "html"', "format must be one of"),
        ("rules_dir = 3", "rules_dir must be a string"),
        ("date_tolerance_days = -1", "must not be negative"),
    ],
)
def test_bad_configuration(tmp_path: Path, table: str, words: str) -> None:
    (tmp_path / "pyproject.toml").write_text(f"[tool.curator]\n{table}\n")
    with pytest.raises(UsageError, match=words):
        build({}, {}, tmp_path)


def test_toml_values_keep_their_meaning(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.curator]\npaths = "data"\noffline = false\nno_cache = "yes"\n'
    )
    opts = build({}, {}, tmp_path)
    assert opts.paths == ("data",)
    assert opts.offline is False
    assert opts.no_cache is True


def test_format_names_match_the_renderers() -> None:
    from curator.config.options import FORMATS
    from curator.report.interface import Format

    assert tuple(f.value for f in Format) == FORMATS


def test_severity_override_applies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.curator]\nseverity = {entry-duplicate = "info"}\n'
    )
    (tmp_path / "a.yaml").write_text(
        'section: A\npapers:\n  - {title: x, arxiv: "2310.08560", date: "2023-10-12"}\n'
        '  - {title: y, arxiv: "2310.08560v2", date: "2023-10-12"}\n'
    )
    monkeypatch.chdir(tmp_path)
    assert main(["check", "a.yaml", *OFFLINE, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {f["severity"] for f in report["findings"]} == {"info"}


def test_json_report_shape(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "a.yaml").write_text(
        'section: A\npapers:\n  - {title: x, arxiv: "2310.08560", date: "2023-10-12"}\n'
    )
    monkeypatch.chdir(tmp_path)
    assert main(["check", "a.yaml", *OFFLINE, "--format", "json", "--output", "out/r.json"]) == 0
    assert capsys.readouterr().out == ""
    report = json.loads((tmp_path / "out" / "r.json").read_text())
    assert report["schema"] == 1
    assert set(report["summary"]) == {"entries", "errors", "warnings", "infos"}
    assert set(report["requests"]) == {
        "arxiv",
        "github_graphql",
        "github_rest",
        "web",
        "cache_hits",
    }
    entry = report["entries"][0]
    assert entry["subject"] == "arxiv:2310.08560"
    assert entry["kind"] == "paper"
    assert entry["source"] == {"file": "a.yaml", "line": 3}


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["check", "missing-folder"], "missing-folder: no such file or folder"),
        (["check", "x.txt"], "not a catalogue folder"),
        (["check", "--skip", "everything"], "--skip takes names"),
        # A report that cannot be written, a file that cannot be read: one line, no traceback.
        (["check", "a.yaml", *OFFLINE, "--output", "."], ".: Is a directory"),
        (["check", "a.yaml", *OFFLINE, "--output", "x.txt/r.json"], "x.txt: File exists"),
        (["import", "x.txt", "--out", "x.txt"], "x.txt: File exists"),
        (
            ["comment", "--repo", "o/r", "--pr", "1", "--body-file", "gone.json"],
            "gone.json: no such file or folder",
        ),
        (["comment", "--repo", "o/r", "--pr", "1", "--body-file", "bad.json"], "not UTF-8"),
    ],
)
def test_usage_errors_exit_2(
    argv: list[str],
    words: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "x.txt").write_text("hello")
    (tmp_path / "a.yaml").write_text("section: A\npapers: []\n")
    (tmp_path / "bad.json").write_bytes(b"\xff{}")
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err
    assert "Traceback" not in err


def test_no_path_checks_data_else_the_readme(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing named: data/, else (an awesome-list repository) README.md; neither: an error."""
    monkeypatch.chdir(tmp_path)
    assert main(["check", *OFFLINE]) == 2
    assert capsys.readouterr().err == "curator: error: data: no such file or folder\n"
    (tmp_path / "README.md").write_text(
        "# Awesome memory\n- [MemGPT](https://arxiv.org/abs/2310.08560)\n"
    )
    # With no data/, the README is the list (what nothing names is checked).
    assert main(["check", *OFFLINE, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["entries"][0]["source"]["file"] == "README.md"
    (tmp_path / "data").mkdir()
    assert main(["check", *OFFLINE, "--format", "json"]) == 2
    assert capsys.readouterr().err.startswith("curator: error: data: no catalogue files")


@pytest.mark.parametrize(
    ("argv", "usage", "error"),
    [
        (["check", "README.md", "--skp", "web"], "usage: curator check ",
         "curator check: error: unrecognized arguments: --skp web"),
        (["fix", "--onyl", "repo-moved"], "usage: curator fix ",
         "curator fix: error: unrecognized arguments: --onyl"),
        (["--bogus"], "usage: curator [-h]", "curator: error: unrecognized arguments: --bogus"),
    ],
)  # fmt: skip
def test_an_unknown_option_shows_the_usage_of_its_subcommand(
    argv: list[str], usage: str, error: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A typo'd option: the usage that lists the subcommand's options, then one error line."""
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(usage) and err.endswith(error + "\n")
    assert "--skip LIST" in err or argv[0] != "check"


def test_version_and_module_entry_point() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "curator", "--version"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0
    assert done.stdout.startswith("curator ")


def test_text_format_is_one_line_per_finding_and_a_summary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.yaml").write_text(
        "section: A\npapers:\n"
        '  - {title: "[bold]x[/bold]", arxiv: "9999.99999", date: "2023-10-12"}\n'
    )
    monkeypatch.chdir(tmp_path)
    assert main(["check", "a.yaml", *OFFLINE]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("a.yaml:3: error arxiv-bad-id ")
    assert out[-1].startswith("Found 1 error in 1 entry (no requests) in ")


def test_progress_lines_read_the_counter(monkeypatch: pytest.MonkeyPatch) -> None:
    from curator.console.progress import ServiceProgress, wanted
    from curator.core.model import Service
    from curator.core.outcomes import Counter

    counter = Counter()
    state = ServiceProgress({Service.ARXIV: 500, Service.GITHUB: 100}, counter)
    counter.add("arxiv", 3)
    counter.add("github_rest", 2)
    counter.add("github_graphql", 1)
    state.finish(Service.ARXIV)
    lines = state.lines()
    assert lines[0].startswith("✓ arxiv") and "3 requests" in lines[0]
    assert lines[1].startswith("… github") and "3 requests" in lines[1]
    monkeypatch.setenv("CI", "true")
    assert not wanted()
