"""Issue 12, defects 3, 10 and 11, and issue 23, hole 3: the comment job's input is a fork's
artifact.

`curator comment` posts only what it renders itself from a valid curator JSON report;
hostile JSON is one line and exit 2; a report too large is shortened by whole rows, says
so, and points to the full report. A report forged in every field renders inert in every
format, and its request counters are known names or plain words, with bounded values.
"""

from __future__ import annotations

import json
import re
import socket
import unicodedata
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from curator.cli import main
from curator.core.decision import Decision, Quote
from curator.core.errors import InputError
from curator.core.model import Entry, EntryResult, Kind, Report, RequestCounts, Source, Verdict
from curator.publish.comment import read_body
from curator.report import json as json_report
from curator.report import markdown
from curator.report import text as text_report
from tests.doubles.github_issues import FakeGitHub
from tests.publish.conftest import REPO
from tests.report.sample import CTX, HOSTILE, realistic_report

MD = MarkdownIt("commonmark").enable("table")


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


@pytest.mark.slow
def test_a_huge_scope_section_is_shortened_by_whole_rows() -> None:
    limit = 20_000
    body = markdown.render(held_report(2000), CTX, limit=limit)
    assert len(body) <= limit
    rows = [line for line in body.splitlines() if line.startswith("| ")]
    assert all(line.endswith("|") for line in rows)
    assert any("more |" in line for line in rows)
    assert "shortened to fit" in body and "artifacts" in body
    assert body.rstrip().endswith("</sub>")  # the footer survived


# -- issue 23, hole 3: every field of the report forged ------------------------------------------
#: What a fork can put in any string of its report artifact: pings, references, links, images,
#: HTML, a heading, table and fence breaks, workflow commands, terminal escapes (colour,
#: clear screen, an OSC 8 hyperlink), bidi overrides and line separators.
FORGED = (
    HOSTILE + " ## Heading [x](https://evil.example/a) GH-7 a@b.example \x1b[2J\x1b[31mred"
    " \x1b]8;;https://evil.example\x07click\x1b]8;;\x07 \u202egnp.exe\u202c \x85::notice::nel"
    " \u2028::warning::ls \r\n::add-mask::x %0A::error::y /../../../../../attacker/repo"
)
#: String fields whose values the schema fixes (enums, patterns): forged elsewhere.
FIXED = {"kind", "verdict", "code", "severity"}
REPO_URL = "https://github.com/acme/awesome-llm-memory/"


def forge(value: object, key: str = "") -> object:
    """`value` with every free string, number of metadata and metadata key forged."""
    if isinstance(value, dict):
        return {_forged_key(k): forge(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [forge(v, key) for v in value]
    if isinstance(value, str) and key not in FIXED and key != "schema":
        return FORGED
    return value


def _forged_key(key: str) -> str:
    """Metadata is keyed by subject: the key keeps its prefix, so renderers still read it."""
    for prefix in ("arxiv:", "github:"):
        if key.startswith(prefix):
            return prefix + FORGED
    return key


def forged_report() -> dict[str, object]:
    """A valid report in which every string a renderer may show is FORGED."""
    data = valid()
    entries = data["entries"]
    assert isinstance(entries, list)
    for entry in entries:  # numbers a renderer shows, as strings
        for meta in entry["metadata"].values():
            meta.update(stars=FORGED, forks=FORGED, license=FORGED, archived=FORGED)
    rag = entries[1]["scope"]
    quote = rag["quotes"][0]
    rag.update(track="t", missing=["m"], notes=["n"], code="scope-review", severity="warning")
    signal = {"name": "t", "value": 1.0, "weight": 1.0, "quote": quote}
    rag["scorer"] = {"score": 0.9, "threshold": 0.5, "veto": 0.5, "signals": [signal]}
    forged = forge(data)
    assert isinstance(forged, dict)
    forged["notes"] = [FORGED, FORGED]
    return forged


def inert_markdown(body: str) -> None:
    """GitHub would ping no one, link or show nothing foreign, and keep every table whole."""
    tokens = MD.parse(body)
    html = MD.render(body)
    # GitHub finds no mention, reference or autolink inside <code>: only text outside counts.
    text = re.sub(r"<[^>]+>", "", re.sub(r"<code>.*?</code>", "", html, flags=re.S))
    text = text.replace("&amp;", "&")
    for pattern in (r"@\w", r"#\d", r"(?i)gh-\d", r"(?i)https?://", r"(?i)www\.", "\x1b", "\u202e"):
        assert not re.search(pattern, text), (pattern, text)
    assert "<img" not in html and html.count("<h") == html.count("<hr") + 1  # our title only
    hrefs = re.findall(r'href="([^"]+)"', html)
    assert hrefs and all(h.startswith(REPO_URL) for h in hrefs), hrefs
    assert not [h for h in hrefs if "/../" in h or "/./" in h], hrefs  # no way out of the repo
    html_tokens = (t.content for t in _inline(tokens) if t.type in ("html_inline", "html_block"))
    raw = {tag for content in html_tokens for tag in re.findall(r"<!--.*?-->|<[^>]*>", content)}
    allowed = {"<br>", "<sub>", "</sub>", "<details>", "</details>", "<summary>", "</summary>"}
    assert raw <= allowed | {markdown.MARKER, markdown.CLEAN_MARKER}, raw - allowed
    for table in re.findall(r"<table>.*?</table>", html, re.S):
        rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)
        assert len({len(re.findall(r"<t[hd]", r)) for r in rows}) == 1


def _inline(tokens: list[Token]) -> list[Token]:
    """Every token, inline children included."""
    return [t for tok in tokens for t in (tok, *(tok.children or []))]


def inert_terminal(out: str, commands: bool = False) -> None:
    """No escape sequence, bidi override or line break the terminal did not get from us, and
    no line a workflow runner would read as a command (unless `commands`: then every line is
    one of ours, its properties whole)."""
    assert not [ch for ch in out if unicodedata.category(ch) in {"Cc", "Cf", "Zl", "Zp"}
                and ch != "\n"]  # fmt: skip
    lines = out.splitlines()
    if commands:
        ours = r"::(error|warning|notice) file=[^:,]*(,line=\d+)?,title=curator [a-z-]+::"
        assert all(re.match(ours, line) for line in lines), lines
    else:
        assert not [line for line in lines if line.lstrip().startswith("::")]


@pytest.fixture
def actions(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The variables GitHub Actions sets, so the rendering links entries and the run."""
    monkeypatch.setenv("GITHUB_REPOSITORY", REPO)
    monkeypatch.setenv("GITHUB_SHA", "4f2b1c9d0e8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c")
    monkeypatch.setenv("GITHUB_RUN_ID", "123456789")
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def posting(fake: FakeGitHub, monkeypatch: pytest.MonkeyPatch, actions: None) -> FakeGitHub:
    """The fake GitHub that `curator comment` posts to."""
    monkeypatch.setenv("GITHUB_API_URL", fake.api)
    monkeypatch.setenv("GITHUB_TOKEN", "ghs_hostile_report")
    return fake


def test_a_report_forged_in_every_field_posts_an_inert_comment(
    posting: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("r.json").write_text(json.dumps(forged_report()), encoding="utf-8")
    assert main(["comment", "--repo", REPO, "--pr", "7", "--body-file", "r.json"]) == 0
    inert_terminal(capsys.readouterr().out)
    (comment,) = posting.comments_on(REPO, 7)
    body = comment["body"]
    assert "Metadata of" in body and "notes</summary>" in body  # nothing left out to pass
    inert_markdown(body)


@pytest.mark.parametrize("fmt", ["markdown", "text", "github", "sarif"])
def test_a_report_forged_in_every_field_renders_inert(
    actions: None, tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(forged_report()), encoding="utf-8")
    assert main(["report", str(path), "--format", fmt]) == 0
    out = capsys.readouterr().out
    if fmt == "markdown":
        inert_markdown(out)
        return
    if fmt == "sarif":
        results = json.loads(out)["runs"][0]["results"]
        texts = [r["message"]["text"] for r in results] + [
            r["properties"]["subject"] for r in results
        ]
        assert all("](" not in t for t in texts)  # no SARIF embedded link [text](uri)
        out = "\n".join(texts)
    inert_terminal(out, commands=fmt == "github")
    if fmt == "github":
        assert len(out.splitlines()) == len(valid()["findings"])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "requests",
    [
        {"@org/team fixes #1 ![t](https://evil.example/p.png) [x](https://evil.example)": 1},
        {"## Heading": 1},
        {"web\n::error::x": 1},
        {"Archive": 1},
        {"a" * 33: 1},
        {f"extra_{i}": 1 for i in range(40)},
        {"arxiv": 10**12},
        {"arxiv": -1},
        {"arxiv": "1"},
        {"arxiv": True},
    ],
    ids=[
        "markdown",
        "heading",
        "newline",
        "upper-case",
        "too-long",
        "too-many",
        "huge",
        "negative",
        "string",
        "bool",
    ],
)
def test_forged_request_counters_are_refused(
    no_github: Path, capsys: pytest.CaptureFixture[str], requests: dict[str, object]
) -> None:
    data = valid()
    data["requests"] = {**data["requests"], **requests}  # type: ignore[dict-item]
    path = no_github / "r.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    for fmt in ("markdown", "text"):
        assert main(["report", str(path), "--format", fmt]) == 2
        assert "malformed at requests" in one_line(capsys)
    assert main(["comment", "--repo", "o/r", "--pr", "7", "--body-file", str(path)]) == 2
    assert "malformed at requests" in one_line(capsys)


def test_a_counter_curator_may_add_is_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A service added since CONTRACT.md counts under its own plain name: still read."""
    data = valid()
    data["requests"] = {**data["requests"], "archive_org": 3}  # type: ignore[dict-item]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["report", str(path), "--format", "markdown"]) == 0
    assert "archive org 3 · cache hits" in capsys.readouterr().out
    assert main(["report", str(path), "--format", "text"]) == 0
    assert "3 archive org requests" in " ".join(capsys.readouterr().out.split())


def test_an_elapsed_time_beyond_reason_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps({**valid(), "elapsed_seconds": 1e300}), encoding="utf-8")
    assert main(["report", str(path), "--format", "markdown"]) == 2
    assert "malformed at elapsed_seconds" in one_line(capsys)


def test_the_renderers_escape_counter_names_themselves() -> None:
    """The schema keeps odd names out of a saved report; the footer escapes them anyway."""
    report = Report((), (), RequestCounts({"@org/team fixes #1 [x](https://evil.example)": 1}))
    body = markdown.render(report, CTX)
    assert "@org" not in body and "#1" not in body and "[x](" not in body
    assert "@\u200borg" in MD.render(body).replace("&#64;", "@").replace("&#8203;", "\u200b")
    inert_terminal(text_report.render(Report((), (), RequestCounts({"a\x1b[2Jb\n::x": 1}))))
