"""Hostile input suite: malicious catalogues, titles and URLs through the whole CLI.

Inputs that cannot be read are refused with exit 2 and one `curator: error:` line naming the
file, never a traceback. Inputs that can be read are reported in every format with nothing
live in them (no HTML, links, pings or workflow commands from the input). Hostile URLs never
cause a request: a loopback server listens on the port they name and counts what reaches it,
and name lookups are answered by a fake that sends every name to that server.
"""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt

from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.server import LoopbackServer, Reply
from tests.doubles.world import World
from tests.reliability.conftest import Record
from tests.reliability.world import Run, pyproject, run_cli

FORMATS = ("text", "markdown", "json", "sarif", "github")
ENTRY = '  - title: "{title}"\n    url: "{url}"\n    date: "2024-01-01"\n'


def _alias_bomb() -> bytes:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 9):
        prev = chr(ord("a") + i - 1)
        cur = chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [{','.join(['*' + prev] * 9)}]")
    return ("section: Bomb\n" + "\n".join(lines) + "\npapers: []\n").encode()


def _deep() -> bytes:
    return b"section: Deep\npapers: " + b"[" * 1000 + b"]" * 1000 + b"\n"


def _huge() -> bytes:
    entry = ENTRY.format(title="x" * 900, url="https://example.org/a")
    body = "section: Huge\npapers:\n" + entry * (10 * 1024 * 1024 // len(entry) + 1)
    return body.encode()


def _not_utf8() -> bytes:
    return b'section: "Caf\xe9"\npapers: []\n'


def _nul() -> bytes:
    return b'section: Nul\npapers:\n  - title: "a\x00b"\n    arxiv: "2305.10250"\n'


def _deep_document() -> bytes:
    return (
        b"# List\n\n"
        + b"<div>" * 1000
        + b"text"
        + b"</div>" * 1000
        + b"\n"
        + b"> " * 1000
        + b"quote\n"
    )


#: case -> (file name, content); each must be refused with exit 2 and a located message.
REFUSED: dict[str, tuple[str, Callable[[], bytes]]] = {
    "yaml-alias-bomb": ("papers.yaml", _alias_bomb),
    "yaml-1000-deep-nesting": ("papers.yaml", _deep),
    "yaml-10-mb-document": ("papers.yaml", _huge),
    "yaml-invalid-utf8": ("papers.yaml", _not_utf8),
    "yaml-nul-byte": ("papers.yaml", _nul),
    "markdown-10-mb-document": ("README.md", lambda: b"# x\n" + b"a" * (10 * 1024 * 1024)),
}
#: Titles (entry and arXiv's answer) and summaries that try to render something live.
TRICKS = (
    '<script>alert("x")</script>',
    '<img src=x onerror="alert(1)">',
    "<iframe src=https://evil.example/></iframe>",
    "[click me](javascript:alert(1))",
    "![tracker](https://evil.example/p.png)",
    "<a href='https://evil.example'>link</a>",
    "<!-- hidden comment -->",
    "@octocat and @org/team please look",
    "fixes #1 and GH-2 and owner/repo#3",
    "| broken | table |",
    "```\ncode fence",
    "<details open><summary>x</summary>",
    "\n::error file=x::injected\n::add-mask::secret",
    "\x1b[31mred\x1b[0m \u202eevil\u202c",
    "https://evil.example/autolink www.evil.example",
    "$$\\unicode{x1F600}$$ &lt;b&gt;entity&lt;/b&gt;",
)
#: URL spellings of a refused address, or refused outright; {port} is the counting server's.
URLS = {
    "url-javascript-scheme": "javascript:alert(document.domain)",
    "url-data-scheme": "data:text/html,<script>alert(1)</script>",
    "url-file-scheme": "file:///etc/passwd",
    "url-credentials-in-authority": "http://user:secret@127.0.0.1:{port}/creds",
    "url-credentials-before-public-host": "https://github.com@127.0.0.1:{port}/creds",
    "url-idn-homograph-of-github": "https://gіthub.com/owner/repo",
    "url-punycode-homograph-of-github": "https://xn--gthub-n4a.com/owner/repo",
    "url-loopback-127.0.0.1": "http://127.0.0.1:{port}/a",
    "url-loopback-127.1": "http://127.1:{port}/a",
    "url-loopback-hex-0x7f000001": "http://0x7f000001:{port}/a",
    "url-loopback-integer-2130706433": "http://2130706433:{port}/a",
    "url-loopback-octal-0177.0.0.1": "http://0177.0.0.1:{port}/a",
    "url-loopback-ipv6-[::1]": "http://[::1]:{port}/a",
    "url-loopback-ipv4-mapped-ipv6": "http://[::ffff:127.0.0.1]:{port}/a",
    "url-loopback-localhost": "http://localhost:{port}/a",
    "url-loopback-sub.localhost": "http://api.localhost:{port}/a",
}
CASES = {
    **dict.fromkeys(REFUSED, "hostile"),
    "injection-in-titles-and-summaries": "hostile",
    "title-100-kb": "hostile",
    **dict.fromkeys(URLS, "hostile"),
    "redirect-from-allowed-host-to-refused": "hostile",
}


# -- set-up --------------------------------------------------------------------------------
@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository root with short budgets; the CLI runs in it."""
    settings = {"timeout": 0.5, "service_budget": 2.0, "arxiv_delay": 0.0}
    (tmp_path / "pyproject.toml").write_text(pyproject(settings), encoding="utf-8")
    (tmp_path / "data").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def counter() -> Iterator[LoopbackServer]:
    """A loopback server that must never be reached: it counts every request."""
    with LoopbackServer() as server:
        server.route("*", "/", lambda req: Reply(200, {}, b"reached"))
        yield server


@pytest.fixture
def lookups(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every host name curator asks the system resolver about is sent to 127.0.0.1.

    So no test ever asks a real DNS server, and a guard that let a name through would
    deliver its request to the counting server, where the test sees it.
    """
    asked: list[str] = []
    real = socket.getaddrinfo

    def fake(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        text = host.decode() if isinstance(host, bytes) else str(host)
        try:
            socket.inet_pton(socket.AF_INET6 if ":" in text else socket.AF_INET, text)
        except OSError:
            asked.append(text)
            text = "127.0.0.1"
        return real(text, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", fake)
    return asked


def _all_formats(args: list[str], capsys: pytest.CaptureFixture[str], root: Path) -> dict[str, Run]:
    """The same check in every format, each written to a file."""
    runs: dict[str, Run] = {}
    for fmt in FORMATS:
        out = root / f"report.{fmt}.{'json' if fmt in {'json', 'sarif'} else 'txt'}"
        runs[fmt] = run_cli(["check", *args, "--format", fmt, "--output", str(out)], capsys, out)
        assert "Traceback" not in runs[fmt].stderr
    return runs


def _inert(runs: dict[str, Run], markers: tuple[str, ...] = ()) -> None:
    """Nothing in any format renders live: no tags, links, pings, commands or escapes."""
    md = runs["markdown"].output
    html = re.sub(r"<!-- curator:[a-z-]+ -->", "", md)
    html = MarkdownIt("commonmark", {"html": True}).enable("table").render(html)
    for bad in (
        "<script",
        "<img",
        "<iframe",
        "<a href='https://evil",
        "<!--",
        "<details open",
        'href="javascript:',
        'href="data:',
        'href="file:',
    ):
        assert bad not in html, bad
    assert not re.search(r"<[^<>]*\bonerror\s*=", html)
    # GitHub finds pings, references and autolinks in rendered text outside code spans.
    prose = re.sub(r"<code>.*?</code>", "", html, flags=re.DOTALL)
    for bad in ("@octocat", "#1 ", "GH-2", "repo#3", "https://evil", "www.evil"):
        assert bad not in prose, bad
    lines = runs["github"].output.splitlines()
    assert all(line.startswith(("::error ", "::warning ", "::notice ")) for line in lines)
    assert "::add-mask::" not in "".join(line.split("::", 2)[1] for line in lines)
    for fmt in ("text", "markdown", "github"):
        assert "\x1b" not in runs[fmt].output and "\u202e" not in runs[fmt].output, fmt
    for fmt in ("json", "sarif"):
        json.loads(runs[fmt].output)
    for marker in markers:
        assert all(marker not in run.output for run in runs.values())


# -- refused inputs ------------------------------------------------------------------------
@pytest.mark.parametrize("case", list(REFUSED))
def test_unreadable_input_is_refused_with_one_located_line(
    case: str, root: Path, capsys: pytest.CaptureFixture[str], record: Record
) -> None:
    name, content = REFUSED[case]
    path = root / "data" / name
    path.write_bytes(content())
    run = run_cli(["check", str(path), "--skip", "arxiv,github,web,scope"], capsys)
    if case == "markdown-10-mb-document" or run.status != 2:
        assert run.status == 2, (run.status, run.stderr[:300])
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("curator: error:"), run.stderr[:300]
    assert name in lines[0] and "Traceback" not in run.stderr
    record(
        case,
        f"exit 2: {lines[0].split(': ', 3)[-1][:70]}",
        hostile=1,
        refused=1,
        seconds=run.elapsed,
    )


# -- rendered inputs -----------------------------------------------------------------------
def test_injection_in_titles_and_summaries_is_inert_in_every_format(
    root: Path,
    loopback: LoopbackServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    record: Record,
) -> None:
    arxiv = ArxivDouble()
    World.start(loopback, root, arxiv=arxiv, cache="").point(monkeypatch)
    lines = ["section: Tricks", "papers:"]
    for i, trick in enumerate(TRICKS):
        base = f"2401.{10000 + i}"
        # arXiv's answer is untrusted too: it gives another hostile title (a mismatch).
        # (XML 1.0 cannot carry control characters, so arXiv never sends them.)
        official = "".join(ch for ch in trick if ch >= " " or ch == "\n")
        arxiv.papers[base] = Paper(base, f"Official {official} {i}", abstract=official)
        lines += [
            f"  - title: {json.dumps(trick + ' ' + str(i))}",
            f'    arxiv: "{base}"',
            '    date: "2024-01-01"',
            f"    summary: {json.dumps(trick)}",
        ]
    (root / "data" / "papers.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    runs = _all_formats(["data", "--skip", "github,web,scope"], capsys, root)
    report = json.loads(runs["json"].output)
    assert {run.status for run in runs.values()} == {1}, report["findings"]
    mismatches = [f for f in report["findings"] if f["code"] == "arxiv-title-mismatch"]
    assert len(mismatches) == len(TRICKS)
    _inert(runs)
    record(
        "injection-in-titles-and-summaries",
        f"exit 1, {len(TRICKS)} arxiv-title-mismatch; inert in {len(FORMATS)} formats",
        hostile=len(TRICKS),
        refused=len(TRICKS),
        seconds=sum(r.elapsed for r in runs.values()),
    )


def test_100_kb_title_is_refused_by_the_schema_and_not_echoed(
    root: Path, capsys: pytest.CaptureFixture[str], record: Record
) -> None:
    title = "Memory " * (100 * 1024 // 7)
    entry = ENTRY.format(title=title, url="https://example.org/paper")
    (root / "data" / "papers.yaml").write_text("section: Long\npapers:\n" + entry, "utf-8")
    runs = _all_formats(["data", "--skip", "arxiv,github,web,scope"], capsys, root)
    assert {run.status for run in runs.values()} == {1}
    codes = {f["code"] for f in json.loads(runs["json"].output)["findings"]}
    assert codes == {"entry-invalid"}
    # The finding quotes the title cut short; only JSON's entry data carries all of it.
    assert all(len(runs[fmt].output) < 5_000 for fmt in ("text", "markdown", "github"))
    (finding,) = json.loads(runs["json"].output)["findings"]
    assert len(finding["message"] + finding["evidence"] + finding["suggestion"]) < 2_000
    _inert(runs)
    record(
        "title-100-kb",
        "exit 1, entry-invalid; report under 20 KB in every format",
        hostile=1,
        refused=1,
        seconds=sum(r.elapsed for r in runs.values()),
    )


@pytest.mark.parametrize("case", list(URLS))
def test_hostile_url_is_refused_without_a_request(
    case: str,
    root: Path,
    counter: LoopbackServer,
    lookups: list[str],
    capsys: pytest.CaptureFixture[str],
    record: Record,
) -> None:
    port = counter.url.rsplit(":", 1)[1]
    url = URLS[case].format(port=port)
    entry = ENTRY.format(title="A paper", url=url.replace('"', '\\"'))
    (root / "data" / "papers.yaml").write_text("section: Links\npapers:\n" + entry, "utf-8")
    runs = _all_formats(["data", "--skip", "arxiv,github,scope"], capsys, root)
    assert {run.status for run in runs.values()} == {1}
    findings = json.loads(runs["json"].output)["findings"]
    codes = {f["code"] for f in findings}
    assert codes and codes <= {"link-blocked", "entry-invalid"}, findings
    _inert(runs)
    assert counter.requests == []
    assert lookups == []
    assert all(run.report.get("requests", {}).get("web", 0) == 0 for run in runs.values())
    record(
        case,
        f"exit 1, {', '.join(sorted(codes))}; 0 lookups",
        hostile=1,
        refused=1,
        refused_requests=len(counter.requests),
        seconds=runs["json"].elapsed,
    )


def test_redirect_from_allowed_host_to_refused_one_is_not_followed(
    root: Path,
    monkeypatch: pytest.MonkeyPatch,
    counter: LoopbackServer,
    lookups: list[str],
    capsys: pytest.CaptureFixture[str],
    record: Record,
) -> None:
    refused = f"{counter.url}/landing"
    with LoopbackServer("127.0.0.2") as allowed:
        allowed.route("*", "/go", lambda req: Reply(301, {"Location": refused}))
        monkeypatch.setenv("CURATOR_GUARD_ALLOW", "127.0.0.2")
        entry = ENTRY.format(title="A paper", url=f"{allowed.url}/go")
        (root / "data" / "papers.yaml").write_text("section: Links\npapers:\n" + entry, "utf-8")
        run = run_cli(
            [
                "check",
                "data",
                "--skip",
                "arxiv,github,scope",
                "--format",
                "json",
                "--output",
                str(root / "r.json"),
            ],
            capsys,
            root / "r.json",
        )
        reached_allowed = len(allowed.requests)
    assert run.status == 1, run.stderr
    (finding,) = run.report["findings"]
    assert finding["code"] == "link-blocked"
    assert "after redirect" in finding["message"] + finding["evidence"]
    assert reached_allowed >= 1
    assert counter.requests == [] and lookups == []
    record(
        "redirect-from-allowed-host-to-refused",
        f"exit 1, link-blocked after the redirect; {reached_allowed} request to the allowed host",
        hostile=1,
        refused=1,
        refused_requests=len(counter.requests),
        seconds=run.elapsed,
    )
