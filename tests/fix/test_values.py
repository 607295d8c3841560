"""The parts of a fix: what a finding asks (`want_of`), new values refused, URLs rewritten,
text escaped where it lands, YAML scalars in their style, and the read-back proof."""

from __future__ import annotations

import html as html_module

import pytest

from curator.core.model import Entry, EntryResult, Finding, Kind, Report, Severity, Source
from curator.fix import doc_edits
from curator.fix.doc_edits import DocText, edits_for, escape_text, title_pattern
from curator.fix.model import apply
from curator.fix.plan import plan_fixes
from curator.fix.values import Change, Want, clean_title, rewrite_url, safe_url, want_of
from curator.fix.verify import read_entries
from curator.fix.yaml_edits import plain_reads_back, scalar

SRC = Source("README.md", 3)
PAPER = Entry(
    "arxiv:2310.08560", Kind.PAPER, SRC, title="MemGPT: Towards LLMs as Operating System",
    date="2023-10",
)  # fmt: skip


def finding(
    code: str, suggestion: str, subject: str = PAPER.subject, evidence: str = ""
) -> Finding:
    return Finding(code, Severity.ERROR, subject, SRC, "m", evidence, suggestion)


@pytest.mark.parametrize(
    ("code", "suggestion", "want"),
    [
        ("arxiv-title-mismatch", "MemGPT: Towards LLMs as Operating Systems",
         Want(Change.TITLE, "MemGPT: Towards LLMs as Operating Systems")),
        ("arxiv-title-mismatch", "Quantum Chromodynamics on a Lattice", None),  # another paper
        ("arxiv-title-mismatch", "arXiv:2310.99999",
         Want(Change.ARXIV_ID, "2310.99999", "2310.08560", unsafe=True)),
        ("arxiv-not-found", "arXiv:2310.99999v3",
         Want(Change.ARXIV_ID, "2310.99999", "2310.08560", unsafe=True)),
        ("arxiv-not-found", "", None),
        ("arxiv-date-mismatch", "2023-11", Want(Change.DATE, "2023-11")),
        ("arxiv-date-mismatch", "Nov 2023", None),
        ("arxiv-withdrawn", "anything", None),
        ("entry-duplicate", "anything", None),
        ("repo-archived", "https://github.com/a/b", None),
        ("repo-not-found", "https://github.com/a/b", None),
        ("scope-exclude", "x", None),
        ("arxiv-unverified", "x", None),
    ],
)  # fmt: skip
def test_what_each_finding_asks(code: str, suggestion: str, want: Want | None) -> None:
    assert want_of(finding(code, suggestion), PAPER) == want


def test_links_and_forms_are_wanted_only_with_a_safe_url() -> None:
    project = Entry("github:old/x", Kind.PROJECT, SRC)
    moved = finding("repo-moved", "https://github.com/New/x", "github:old/x")
    assert want_of(moved, project) == Want(Change.REPO, "New/x")
    assert (
        want_of(finding("repo-moved", 'https://github.com/a/b" x', "github:old/x"), project) is None
    )
    redirect = finding("link-redirect", "https://www.a.example/x", "http://a.example/x")
    assert want_of(redirect, project) == Want(Change.URL, "https://www.a.example/x")
    elsewhere = finding("link-redirect", "https://b.example/y", "https://a.example/x")
    assert want_of(elsewhere, project) is None  # another page: reported, never written
    form = finding(
        "arxiv-link-form",
        "https://arxiv.org/abs/2310.08560",
        evidence="https://arxiv.org/pdf/2310.08560",
    )
    assert want_of(form, PAPER) == Want(
        Change.FORM, "https://arxiv.org/abs/2310.08560", "https://arxiv.org/pdf/2310.08560"
    )


@pytest.mark.parametrize(
    ("title", "cleaned"),
    [
        ("MemGPT:\n  Towards   LLMs", "MemGPT: Towards LLMs"),
        ("Memory \u202eevil", ""),  # bidi override
        ("Memory \x1b[31m red", ""),  # escape sequence
        ("Memory\u2028Line", "Memory Line"),  # a line separator is whitespace: one space
        ("H$_2$O memory", ""),  # TeX
        ("The \\emph{memory}", ""),
        ("Visit https://evil.example now", ""),
        ("Visit www.evil.example now", ""),
        ("Cite arXiv:2401.12345 here", ""),
        ("x" * 501, ""),
        ("Memory & <Reasoning> | `code` [x]", "Memory & <Reasoning> | `code` [x]"),
    ],
)
def test_a_new_title_is_cleaned_or_refused(title: str, cleaned: str) -> None:
    assert clean_title(title) == cleaned


@pytest.mark.parametrize(
    ("url", "ok"),
    [
        ("https://example.org/a?b=1&c=2#d", True),
        ("http://example.org/a%20b", True),
        ("javascript:alert(1)", False),
        ("https://example.org/a b", False),
        ('https://example.org/"x', False),
        ("https://example.org/a)b", False),
        ("https://example.org/<x>", False),
        ("https://example.org/\\x", False),
    ],
)
def test_only_plain_http_urls_are_written(url: str, ok: bool) -> None:
    assert safe_url(url) is ok


@pytest.mark.parametrize(
    ("written", "new"),
    [
        ("https://github.com/old/tool", "https://github.com/New/tool2"),
        ("http://www.github.com/old/tool.git", "http://www.github.com/New/tool2.git"),
        ("https://github.com/old/tool/tree/main/docs/", "https://github.com/New/tool2/tree/main/docs/"),
        ("https://github.com/OLD/Tool#readme", "https://github.com/New/tool2#readme"),
        ("https://github.com/old/other", None),
    ],
)  # fmt: skip
def test_a_moved_repository_keeps_the_rest_of_its_url(written: str, new: str | None) -> None:
    assert rewrite_url(Want(Change.REPO, "New/tool2"), written, "github:old/tool") == new


def test_a_redirect_keeps_the_old_fragment_unless_the_target_has_one() -> None:
    want = Want(Change.URL, "https://b.example/y")
    assert rewrite_url(want, "http://a.example/x#part", "http://a.example/x") == (
        "https://b.example/y#part"
    )
    assert rewrite_url(Want(Change.URL, "https://b.example/y#top"), "http://a.example/x#p",
                       "http://a.example/x") == "https://b.example/y#top"  # fmt: skip
    assert rewrite_url(want, "http://c.example/x", "http://a.example/x") is None


def test_a_title_is_found_as_written() -> None:
    pattern = title_pattern("Memory & Reasoning: A_Survey")
    for written in (
        "Memory & Reasoning: A_Survey",
        "Memory &amp; Reasoning: A\\_Survey",
        "Memory&nbsp;&#38; Reasoning&#x3a;  A_Survey",
    ):
        assert pattern.fullmatch(written), written
    assert not pattern.search("Memory & Reasoning: A_Surveys")
    assert not pattern.search("XMemory & Reasoning: A_Survey")


@pytest.mark.parametrize(
    ("text", "html", "start", "written"),
    [
        ("A | B * C _ D [E] `F` <G> \\ ~", False, False,
         "A \\| B \\* C \\_ D \\[E\\] \\`F\\` \\<G\\> \\\\ \\~"),
        ("R&D &amp; more", False, False, "R&D \\&amp; more"),
        ("# Not a heading", False, True, "\\# Not a heading"),
        ("1. Not a list", False, True, "\\1. Not a list"),
        ("# in a line", False, False, "# in a line"),
        ("A & <b> | *", True, False, "A &amp; &lt;b&gt; | *"),
    ],
)  # fmt: skip
def test_new_text_is_escaped_for_where_it_lands(
    text: str, html: bool, start: bool, written: str
) -> None:
    assert escape_text(text, html, start) == written


@pytest.mark.parametrize(
    ("value", "style", "written"),
    [
        ("plain words", "", "plain words"),
        ("needs: quotes", "", '"needs: quotes"'),
        ("a # comment", "", '"a # comment"'),
        ("2023-09", "", "2023-09"),  # a string for the catalogue's reader (no timestamps)
        ("123", "", '"123"'),
        ("true", "", '"true"'),
        ("- item", "", '"- item"'),
        ("it's", "'", "'it''s'"),
        ('say "hi" \\o/', '"', '"say \\"hi\\" \\\\o/"'),
        ("two\nlines", "", None),
        ("block", "|", None),
    ],
)
def test_yaml_scalars_keep_their_style_or_are_quoted(
    value: str, style: str, written: str | None
) -> None:
    assert scalar(value, style) == written


def test_plain_in_a_flow_collection_is_stricter() -> None:
    assert plain_reads_back("https://a.example/x,y")
    assert not plain_reads_back("https://a.example/x,y", flow=True)
    assert scalar("https://a.example/x,y", "", flow=True) == '"https://a.example/x,y"'


def test_an_escape_that_breaks_the_document_is_caught_by_reading_it_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = (
        "| Title | Paper |\n| --- | --- |\n"
        "| MemGPT: Towards LLMs as Operating System | [arXiv](https://arxiv.org/abs/2310.08560) |\n"
        "| MemoryBank: Enhancing LLMs with Long-Term Memory | [arXiv](https://arxiv.org/abs/2305.10250)"
        " |\n"
    )
    entries = read_entries("README.md", text)
    assert entries is not None and len(entries) == 2
    broken = Finding("arxiv-title-mismatch", Severity.ERROR, entries[0].subject, entries[0].source,
                     "m", "", "MemGPT: Towards | LLMs as Operating Systems")  # fmt: skip
    fine = Finding("arxiv-title-mismatch", Severity.ERROR, entries[1].subject, entries[1].source,
                   "m", "", "MemoryBank: Enhancing LLMs with Long-Term Memories")  # fmt: skip
    report = Report(tuple(EntryResult(e) for e in entries), (broken, fine))
    assert len(plan_fixes(report, {"README.md": text}).fixed()) == 2
    # Were the `|` not escaped, the row would gain a cell: that edit alone is dropped.
    monkeypatch.setattr(doc_edits, "escape_text", lambda new, html, start=False: new)
    plan = plan_fixes(report, {"README.md": text})
    assert plan.fixed() == (fine,) and plan.left == (broken,)


def test_a_value_outside_the_entrys_own_lines_is_never_touched() -> None:
    link = "[paper](https://arxiv.org/abs/2305.00001)"
    text = f"- [2023-05] **A Title of Four Words** {link}\n\n2023-05 x\n"
    entries = read_entries("README.md", text)
    assert entries is not None
    doc = DocText("README.md", text, [1])
    assert doc.region(1) == (0, text.index("\n") + 1)
    want = Want(Change.DATE, "2023-06")
    edits = edits_for(doc, want, entries[0], finding("arxiv-date-mismatch", "2023-06"))
    assert edits is not None and apply(text, edits).startswith("- [2023-06] **A")
    assert apply(text, edits).endswith("\n\n2023-05 x\n")


def test_only_the_words_that_change_are_rewritten() -> None:
    text = (
        "<table><tr><td><b>Memory &#38; Reasoning&nbsp;for LLM Agents: A Systen</b></td>"
        '<td><a href="https://arxiv.org/abs/2401.00001">arXiv</a></td></tr></table>\n'
    )
    entries = read_entries("README.md", text)
    assert entries is not None and entries[0].title == "Memory & Reasoning for LLM Agents: A Systen"
    wrong = Finding("arxiv-title-mismatch", Severity.ERROR, entries[0].subject, entries[0].source,
                    "m", "", "Memory & Reasoning for LLM Agents: A System")  # fmt: skip
    plan = plan_fixes(Report((EntryResult(entries[0]),), (wrong,)), {"README.md": text})
    (edit,) = plan.files[0].edits
    assert (edit.old, edit.new) == ("n", "m")
    assert plan.files[0].after == text.replace("Systen", "System")


def test_a_report_of_some_entries_still_bounds_each_one_by_the_next() -> None:
    """In pull-request mode the report holds only the chosen entries: the planner reads the
    file for the others, so an entry's own lines still end where the next one starts."""
    text = (
        "- [2023-05] **First Paper About Agent Memory** [paper](https://arxiv.org/abs/2305.00001)\n"
        "- [2023-05] **Second Paper About Agent Memory** [paper](https://arxiv.org/abs/2305.00002)\n"
        "- [2023-05] **Third Paper About Agent Memory** [paper](https://arxiv.org/abs/2305.00003)\n"
    )
    entries = read_entries("README.md", text)
    assert entries is not None and len(entries) == 3
    second = entries[1]
    wrong = Finding("arxiv-date-mismatch", Severity.WARNING, second.subject, second.source, "m",
                    "", "2023-06")  # fmt: skip
    plan = plan_fixes(Report((EntryResult(second),), (wrong,)), {"README.md": text})
    assert plan.files[0].after.splitlines()[1].startswith("- [2023-06] **Second")
    assert plan.files[0].after.count("2023-05") == 2


@pytest.mark.parametrize(
    ("html", "was", "written"),
    [
        ("<table><tr><td><b>{t}</b></td><td><a href='{u}'>code</a></td></tr></table>\n",
         "http://a.example/it&#x27;s?a=1&amp;b=2",
         "https://a.example/it&#x27;s?a=1&amp;b=2"),  # an HTML block
        ("- **{t}** <a href='{u}'>code</a>\n", "http://a.example/it&#x27;s?a=1&amp;b=2",
         "https://a.example/it&#x27;s?a=1&amp;b=2"),  # inline HTML in Markdown
        ("- **{t}** [code]({u})\n", "http://a.example/its?a=1&b=2",
         "https://a.example/its?a=1&b=2"),  # a Markdown target
    ],
)  # fmt: skip
def test_a_redirect_target_is_escaped_wherever_it_lands_in_html(
    html: str, was: str, written: str
) -> None:
    """A redirect target is the answer of an untrusted server: a `'` or `&` in it must not
    close or change the `href='…'` it is written into."""
    old = html_module.unescape(was)
    new = old.replace("http:", "https:", 1)
    text = html.format(t="A Title of Four Words", u=was)
    entries = read_entries("README.md", text)
    assert entries is not None
    (entry,) = entries
    redirect = Finding("link-redirect", Severity.INFO, old, entry.source, "m", "", new)
    plan = plan_fixes(Report((EntryResult(entry),), (redirect,)), {"README.md": text})
    assert plan.fixed() == (redirect,)
    assert plan.files[0].after == text.replace(was, written)
