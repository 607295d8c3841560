"""Issue 12, defects 3, 10 and 11: the comment job's input is a fork's artifact.

`curator comment` posts only what it renders itself from a valid curator JSON report;
hostile JSON is one line and exit 2; a report too large is shortened by whole rows, says
so, and points to the full report.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from curator.cli import main
from curator.errors import InputError
from curator.model import Entry, EntryResult, Kind, Report, Source, Verdict
from curator.publish.comment import read_body
from curator.report import json as json_report
from curator.report import markdown
from curator.scope.decision import Decision, Quote
from tests.report.sample import CTX, realistic_report


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def no_github(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A GitHub API nobody answers: a request would fail loudly, not silently post."""
    monkeypatch.setenv("GITHUB_API_URL", f"http://127.0.0.1:{closed_port()}")
    monkeypatch.setenv("GITHUB_TOKEN", "t")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    return err


# -- defect 3: forged comments -----------------------------------------------------------------
def test_markdown_body_file_is_refused_not_posted(
    no_github: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    forged = no_github / "report.json"
    forged.write_text("## ✅ All good\n\n@maintainers please merge ![x](https://evil/)\n", "utf-8")
    status = main(["comment", "--repo", "o/r", "--pr", "7", "--body-file", str(forged)])
    assert status == 2
    assert "not a curator JSON report" in one_line(capsys)


# -- defect 10: hostile JSON -------------------------------------------------------------------
def valid() -> dict[str, object]:
    return json.loads(json_report.render(realistic_report()))


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,
        json.dumps(valid()).replace('"elapsed_seconds": ', '"elapsed_seconds": 1e400, "x": '),
        json.dumps({**valid(), "elapsed_seconds": float("inf")}),  # Python writes Infinity
        json.dumps({**valid(), "elapsed_seconds": float("nan")}),
        '{"schema": 1, "x": ' + "[" * 5000 + "]" * 5000 + "}",
    ],
    ids=["deep-array", "1e400", "Infinity", "NaN", "deep-inside"],
)
def test_hostile_json_is_one_line_and_exit_2(
    no_github: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    path = no_github / "r.json"
    path.write_text(text, encoding="utf-8")
    assert main(["report", str(path), "--format", "markdown"]) == 2
    assert one_line(capsys).startswith("curator: error: ")
    assert main(["comment", "--repo", "o/r", "--pr", "7", "--body-file", str(path)]) == 2
    one_line(capsys)


def test_1e400_is_refused_not_read_as_infinity(tmp_path: Path) -> None:
    data = json.dumps(valid()).replace('"elapsed_seconds": ', '"elapsed_seconds": 1e400, "x": ')
    path = tmp_path / "r.json"
    path.write_text(data, encoding="utf-8")
    with pytest.raises(InputError, match="out of range"):
        read_body(path, CTX)


# -- defect 11: shortened by whole rows --------------------------------------------------------
def held_report(n: int) -> Report:
    """`n` excluded papers with long evidence: the scope section alone is huge."""
    results = tuple(
        EntryResult(
            Entry(f"arxiv:2401.{i:05d}", Kind.PAPER, Source("data/papers.yaml", i + 1), f"P{i}"),
            {},
            Verdict.EXCLUDE,
            Decision(
                Verdict.EXCLUDE,
                ("off-topic",),
                (Quote("abstract", 0, 270, "evidence " * 30, "off-topic"),),
                "abstract",
                "off-topic matched",
            ),
        )
        for i in range(n)
    )
    return Report(results, ())


def test_a_huge_scope_section_is_shortened_by_whole_rows() -> None:
    limit = 20_000
    body = markdown.render(held_report(2000), CTX, limit=limit)
    assert len(body) <= limit
    rows = [line for line in body.splitlines() if line.startswith("| ")]
    assert all(line.endswith("|") for line in rows)
    assert any("more |" in line for line in rows)
    assert "shortened to fit" in body and "artifacts" in body
    assert body.rstrip().endswith("</sub>")  # the footer survived
