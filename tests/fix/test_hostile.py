"""Hostile answers from the doubles: titles with Markdown, HTML, pipes, backticks, line breaks,
control and bidi characters, redirect targets with quotes and brackets. Each is escaped for
where it lands or refused; the document always reads back as the same entries."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from curator.core.model import Entry, EntryResult, Finding, Report, Severity
from curator.fix import verify
from curator.fix.plan import MAX_READINGS, plan_fixes
from curator.fix.verify import read_entries
from curator.sources.document import DocumentSource
from tests.doubles.server import LoopbackServer
from tests.fix.world import findings, make_world, seed

TITLES = {
    "2401.00001": (
        "Memory for LLM Agents in Long Conversations",
        "Memory for LLM Agents in `rm` Long Conversations",
    ),
    "2401.00002": (
        "Memory for LLM Agents in Deep Conversations",
        "Memory for LLM Agents | Pipe Deep Conversations",
    ),
    "2401.00003": (
        "Memory for LLM Agents in Star Conversations",
        "Memory for **LLM** Agents in Star Conversations Now!",
    ),
    "2401.00004": (
        "Memory for LLM Agents in Link Conversations",
        "[Memory](javascript:alert) for LLM Agents in Link Conversations",
    ),
    "2401.00005": (
        "Memory for LLM Agents in Broken Conversations",
        "Memory for LLM Agents in\nBroken\n\n## Conversations Today",
    ),
    "2401.00006": (
        "Memory for LLM Agents in Control Conversations",
        "Memory for LLM Agents in \x9b2J Control Conversations",
    ),
    "2401.00007": (
        "Memory for LLM Agents in Bidi Conversations",
        "Memory for LLM Agents in \u202eBidi Conversations Today",
    ),
    "2401.00008": (
        "Memory for LLM Agents in HTML Conversations",
        "Memory for LLM Agents in <i>HTML</i> Conversations",
    ),
    "2401.00009": (
        "Memory for LLM Agents in Block Conversations",
        "Memory for LLM Agents in </td><td>Block Conversations",
    ),
}
REFUSED = {"2401.00006", "2401.00007"}


def document(site: str) -> str:
    rows = [
        f"| {TITLES[i][0]} | [arXiv](https://arxiv.org/abs/{i}) | [site]({site}/r/{n}) |"
        for n, i in enumerate(["2401.00001", "2401.00002", "2401.00003", "2401.00004",
                               "2401.00005", "2401.00006", "2401.00007"])
    ]  # fmt: skip
    html = [
        f'<tr><td><b>{TITLES[i][0]}</b></td><td><a href="https://arxiv.org/abs/{i}">arXiv</a></td></tr>'
        for i in ("2401.00008", "2401.00009")
    ]
    return "\n".join(
        ["# Hostile", "", "| Title | Paper | Site |", "| --- | --- | --- |", *rows, "",
         "<table>", *html, "</table>", ""]
    )  # fmt: skip


@pytest.mark.slow
def test_hostile_answers_are_escaped_or_refused(
    loopback: LoopbackServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = f"http://127.0.0.1:{loopback.url.rsplit(':', 1)[1]}"
    world = make_world(loopback, tmp_path, monkeypatch, document(site))
    entries = DocumentSource().load(world.file).entries
    seed(world, entries)
    for base, (_, official) in TITLES.items():
        world.arxiv.papers[base].title = official
    targets = ['/t/a"><script>x</script>', "/t/b c)[x](javascript:y)", "/t/`|`", "/r/3/"]
    for n, target in enumerate(targets):
        world.web.redirect(f"/r/{n}", target, status=301)
        world.web.page(httpx.URL(site + target).raw_path.decode("ascii"))  # as it is asked
    before = world.check()
    mismatched = {s for c, s in findings(before) if c == "arxiv-title-mismatch"}
    assert mismatched == {f"arxiv:{b}" for b in TITLES}
    ran = world.fix()
    assert ran.status == 1, ran.err
    text = world.text()
    after = DocumentSource().load(world.file).entries
    assert [(e.source.line, e.kind, e.subject) for e in after] == [
        (e.source.line, e.kind, e.subject) for e in entries
    ]
    left = {s for c, s in findings(world.check()) if c == "arxiv-title-mismatch"}
    assert left == {f"arxiv:{b}" for b in REFUSED}
    for bad in ("\x9b", "\u202e", "<script", "<i>", "</td><td>Block"):
        assert bad not in text, bad
    assert "\\[Memory\\](javascript:alert)" in text  # text, never a link
    assert "\\`rm\\`" in text and "\\| Pipe" in text and "\\*\\*LLM\\*\\*" in text
    assert "&lt;i&gt;HTML&lt;/i&gt;" in text and "&lt;/td&gt;&lt;td&gt;Block" in text
    assert "Memory for LLM Agents in Broken ## Conversations Today" in text
    rows = [line for line in text.splitlines() if "arxiv.org/abs" in line and line[0] == "|"]
    assert len(rows) == 7 and all(line.count(" | ") == 2 for line in rows)
    # Targets with quotes, spaces, brackets or pipes are refused (left as they were: other
    # pages, and unsafe to write); the same page with a slash added is written.
    links = re.findall(r"\[site\]\(([^)]*)\)", text)
    assert [u.removeprefix(site) for u in links[:4]] == ["/r/0", "/r/1", "/r/2", "/r/3/"]
    redirects = {s for c, s in findings(world.check()) if c == "link-redirect"}
    assert redirects == {f"{site}/r/{n}" for n in range(3)}
    assert "\x9b" not in ran.out and "\u202e" not in ran.out


def test_answers_that_each_fail_their_proof_cost_a_bounded_number_of_readings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """64 answers each fail their proof: their rewritten links read back as another entry (a
    redirect to a GitHub repository did so, turning a link into a project, before such
    targets were refused as another page; here the reading is made to fail). The proof
    reads the file a bounded number of times (it read it twice per answer: 127 readings,
    41 s of CPU on a 2,000-entry list), leaves those 64, and still proves and keeps the
    honest redirects of other entries."""
    rows = [f"- [Tool number {i}](https://site{i}.example/p) a tool" for i in range(300)]
    text = "# Tools\n\n" + "\n".join(rows) + "\n"
    entries = read_entries("README.md", text)
    assert entries is not None and len(entries) == 300

    def redirect(entry: Entry, target: str) -> Finding:
        return Finding("link-redirect", Severity.WARNING, entry.subject, entry.source, "m",
                       "301", target)  # fmt: skip

    hostile = [redirect(e, f"https://www.site{n}.example/p") for n, e in enumerate(entries[:64])]
    honest = [redirect(e, f"https://site{n}.example/p/") for n, e in enumerate(entries)][64:67]
    report = Report(tuple(EntryResult(e) for e in entries), (*hostile, *honest))
    readings = []
    counted = verify.read_entries

    def spy(file: str, text: str) -> list[Entry] | None:
        readings.append(file)
        # each hostile answer, read back, is a GitHub project: not the entry it was
        return counted(file, text.replace("https://www.site", "https://github.com/site"))

    monkeypatch.setattr(verify, "read_entries", spy)
    plan = plan_fixes(report, {"README.md": text}, entries=entries)
    assert plan.fixed() == tuple(honest) and set(plan.left) == set(hostile)
    assert len(readings) <= MAX_READINGS


def test_an_unsafe_answer_that_fails_its_proof_costs_no_safe_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The title search proposes another ID for one paper (unsafe: applied only with
    --unsafe), and the file with that ID written no longer reads. The 39 honest redirects
    proven without it are all kept (proving all 40 together halved them: about half were
    left)."""
    rows = [f"- [Tool number {i}](https://site{i}.example/p) a tool" for i in range(39)]
    paper = "- [Memory for LLM Agents](https://arxiv.org/abs/2401.00001) (2024-01)"
    text = "# Tools\n\n" + "\n".join([paper, *rows]) + "\n"
    entries = read_entries("README.md", text)
    assert entries is not None and len(entries) == 40
    redirects = [
        Finding(
            "link-redirect",
            Severity.WARNING,
            e.subject,
            e.source,
            "m",
            "301",
            f"https://site{n}.example/p/",
        )
        for n, e in enumerate(entries[1:])
    ]
    wrong_id = Finding("arxiv-not-found", Severity.ERROR, entries[0].subject, entries[0].source,
                       "m", "", "arXiv:2401.09999")  # fmt: skip
    report = Report(tuple(EntryResult(e) for e in entries), (wrong_id, *redirects))
    counted = verify.read_entries

    def breaks_on_the_new_id(file: str, text: str) -> list[Entry] | None:
        return None if "2401.09999" in text else counted(file, text)

    monkeypatch.setattr(verify, "read_entries", breaks_on_the_new_id)
    plan = plan_fixes(report, {"README.md": text}, entries=entries)
    assert set(plan.fixed()) == set(redirects)
    assert plan.fixed(unsafe=True) == plan.fixed()
