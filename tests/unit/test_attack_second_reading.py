"""Attacks on the pull-request run's shared base reading (select.Comparison, InlineParses).

A pull request controls the head's text, hence which inline parses the run keeps; the base
is trusted. For each case the run's selection (the base read after the head, taking over its
parses, one comparison shared by load and select) must be the selection of a run whose base
reading parses everything afresh, and every entry the base did not have must be selected.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.config.options import Options
from curator.core.model import Entry
from curator.run.pipeline import load, select
from curator.sources.doc_parse import InlineParses, parse
from curator.sources.reading import entries_of
from curator.sources.select import Comparison, new_entries
from tests.unit.test_select_references import _git

A, B, C = (f"https://arxiv.org/abs/2501.0000{n}" for n in (1, 2, 3))
ITEMS = "- [Agent Memory Paper One][m]\n- [Agent Memory Paper Two][M]\n"
CELL = "[Agent Memory Paper One][m]"
TABLE = f"| Paper |\n| --- |\n| {CELL} |\n"

#: name -> (base, head) of README.md.
CASES: dict[str, tuple[str, str]] = {
    # The head defines the label the base's commented-out links use, to another target.
    "comment-reveal-under-other-definitions": (
        f"# L\n\n- [Kept](https://github.com/o/r)\n<!--\n{ITEMS}-->\n\n[m]: {A}\n",
        f"# L\n\n- [Kept](https://github.com/o/r)\n{ITEMS}\n[m]: {B}\n",
    ),
    # Duplicate definitions: the first wins; the head swaps their order.
    "duplicate-definitions-swapped": (
        f"# L\n\n{ITEMS}\n[m]: {A}\n[m]: {B}\n",
        f"# L\n\n{ITEMS}\n[m]: {B}\n[m]: {A}\n",
    ),
    # Labels that fold to one (ß/SS, the Kelvin sign, ǅ): the base's and head's keys agree
    # only when markdown-it's lookups do.
    "unicode-case-folding": (
        f"# L\n\n- [Paper][Straße]\n- [Other][K]\n\n[STRASSE]: {A}\n[k]: {B}\n",
        f"# L\n\n- [Paper][Straße]\n- [Other][K]\n\n[strasse]: {C}\n[\u212a]: {A}\n",
    ),
    "title-only-differs": (
        f'# L\n\n{ITEMS}\n[m]: {A} "One"\n',
        f'# L\n\n{ITEMS}\n[m]: {A} "Two"\n',
    ),
    "definition-in-blockquote-vs-top": (
        f"# L\n\n{ITEMS}\n> [m]: {A}\n",
        f"# L\n\n{ITEMS}\n[m]: {B}\n> [m]: {A}\n",
    ),
    "definition-in-list-item": (
        f"# L\n\n{ITEMS}\n- [m]: {A}\n",
        f"# L\n\n{ITEMS}\n",
    ),
    "definition-only-in-head": (f"# L\n\n{ITEMS}", f"# L\n\n{ITEMS}\n[m]: {A}\n"),
    "definition-only-in-base": (f"# L\n\n{ITEMS}\n[m]: {A}\n", f"# L\n\n{ITEMS}"),
    # The same text as a cell, a heading, a paragraph, a quote: one parse shared by all.
    "table-cell-vs-paragraph": (
        f"# L\n\n<!--\n{TABLE}-->\n\n{CELL}\n\n[m]: {A}\n",
        f"# L\n\n{TABLE}\n{CELL}\n\n[m]: {A}\n",
    ),
    "heading-vs-paragraph": (
        f"# L\n\n```\n## {CELL}\n```\n\n> {CELL}\n\n[m]: {A}\n",
        f"# L\n\n## {CELL}\n\n> {CELL}\n\n[m]: {A}\n",
    ),
    # Deep nesting past markdown-it's maxNesting (20): block parsing stops, inline does not.
    "deep-blockquote": (
        "# L\n\n" + "> " * 25 + f"{CELL}\n\n[m]: {A}\n",
        "# L\n\n" + "> " * 3 + f"{CELL}\n\n" + "> " * 25 + f"{CELL}\n\n[m]: {A}\n",
    ),
    # Lone "\r"s and NULs normalised by markdown-it: the head's text is not the base's.
    "line-endings": (
        f"# L\n\n{ITEMS}\n[m]: {A}\n",
        f"# L\r\r{ITEMS.replace(chr(10), chr(13))}\r[m]: {A}\r- [New](https://github.com/o/n)\r",
    ),
    # Escapes and entities whose text_join result equals another run's raw text.
    "escapes-and-entities": (
        "# L\n\n- [A \\* B](https://github.com/o/a) &amp; x\n<!--\n- [A * B][m] &#42;\n-->\n"
        f"\n[m]: {A}\n",
        "# L\n\n- [A \\* B](https://github.com/o/a) &amp; x\n- [A * B][m] &#42;\n"
        f"- [A \\* B][m] &amp; x\n\n[m]: {B}\n",
    ),
    "emphasis-and-html-inline": (
        f"# L\n\n<!--\n- **[Bold Paper][m]** <b>x</b> <a href='{B}'>y</a>\n-->\n\n[m]: {A}\n",
        f"# L\n\n- **[Bold Paper][m]** <b>x</b> <a href='{B}'>y</a>\n\n[m]: {C}\n",
    ),
    "image-alt-with-reference": (
        f"# L\n\n- [![Paper *one*][m]](https://github.com/o/r)\n\n[m]: {A}\n",
        f"# L\n\n- [![Paper *one*][m]](https://github.com/o/r)\n- ![x][m]\n\n[m]: {B}\n",
    ),
}


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    _git(tmp_path, "init", "-q", "-b", "main")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _commit(repo: Path, files: dict[str, str], message: str) -> None:
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_bytes(text.encode("utf-8"))
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", message)


def _keys(entries: list[Entry]) -> list[tuple[str, int, str, str]]:
    return sorted((e.source.file, e.source.line, e.subject, e.title) for e in entries)


def _selections(paths: list[str]) -> tuple[list[Entry], list[Entry]]:
    """The run's selection (shared comparison) and a selection with a fresh base reading."""
    options = Options(paths=tuple(paths), changed_since="HEAD~1")
    comparison = Comparison("HEAD~1", Path.cwd())
    shared = select(load(paths, None, None, comparison), options, comparison).entries
    fresh = select(load(paths), options).entries  # a new comparison: no parses to take over
    return shared, fresh


def _must_select(repo: Path, name: str, base: str) -> list[Entry]:
    """What the old rule says: the head's entries that a fresh reading of the base lacks."""
    head = (repo / name).read_bytes().decode("utf-8")
    after = entries_of(name, head) or []
    return new_entries(after, {name: entries_of(name, base)})


@pytest.mark.parametrize("name", list(CASES))
def test_a_base_read_after_a_hostile_head_selects_as_a_fresh_one(repo: Path, name: str) -> None:
    base, head = CASES[name]
    _commit(repo, {"README.md": base}, "base")
    _commit(repo, {"README.md": head}, "pull request")
    shared, fresh = _selections(["README.md"])
    assert _keys(shared) == _keys(fresh)
    assert set(_keys(_must_select(repo, "README.md", base))) <= set(_keys(shared))


def test_two_documents_share_parses_in_either_order(repo: Path) -> None:
    """The head of one document primes parses the other's base then takes over."""
    one_base = f"# L\n\n<!--\n{ITEMS}-->\n\n[m]: {A}\n"
    other_base = f"# O\n\n{ITEMS}\n[m]: {A}\n"
    _commit(repo, {"README.md": one_base, "docs/other.md": other_base}, "base")
    _commit(
        repo,
        {
            "README.md": f"# L\n\n{ITEMS}\n[m]: {A}\n",
            "docs/other.md": f"# O\n\n{ITEMS}\n[m]: {B}\n",
        },
        "pull request",
    )
    for paths in (["README.md", "docs/other.md"], ["docs/other.md", "README.md"]):
        shared, fresh = _selections(paths)
        assert _keys(shared) == _keys(fresh)
        assert len(shared) == 4  # README's two revealed, other.md's two retargeted


def test_the_base_reading_leaves_the_heads_tokens_as_parsed() -> None:
    """Taking over a parse never changes it (text_join runs again on the shared lists)."""
    head = (
        "- a \\* b &amp; ![x *y* \\_](p) [l][m] `c`\n- a \\* b &amp; ![x *y* \\_](p) [l][m] `c`\n"
    )
    base = f"{head}\n{head}"
    parses = InlineParses()
    tokens, _ = parse(head, parses)
    before = [t.as_dict() for t in tokens]
    shared, _ = parse(base, parses)
    assert [t.as_dict() for t in tokens] == before
    assert [t.as_dict() for t in shared] == [t.as_dict() for t in parse(base)[0]]


CATALOGUE = 'section: A\npapers:\n  - title: One\n    arxiv: "2310.08560"\n    date: "2023-10-12"\n'


def test_a_catalogue_and_a_document_in_one_run_share_one_comparison(repo: Path) -> None:
    """The catalogue reader compares its files during load; select compares the rest."""
    readme = f"# L\n\n<!--\n{ITEMS}-->\n\n[m]: {A}\n"
    _commit(repo, {"data/a.yaml": CATALOGUE, "README.md": readme}, "base")
    changed = CATALOGUE.replace("title: One", "title: One (renamed)")
    _commit(repo, {"data/a.yaml": changed, "README.md": readme.replace("<!--\n", "")}, "pr")
    for paths in (["data", "README.md"], ["README.md", "data"]):
        shared, fresh = _selections(paths)
        assert _keys(shared) == _keys(fresh)
        assert {e.source.file for e in shared} == {"data/a.yaml", "README.md"}


@pytest.mark.parametrize(
    "base",
    [
        b"# L\n\n- [Kept](https://github.com/o/r)\n\xff\n",  # not UTF-8 at the base
        b"\xef\xbb\xbf# L\n\n- [Kept](https://github.com/o/r)\n",  # a byte-order mark
        b"# L\n\n- [Kept](https://github.com/o/r)\n" + b"x" * 9_000_000,  # too large
    ],
    ids=["not-utf-8", "byte-order-mark", "too-large"],
)
def test_a_base_that_does_not_read_counts_every_entry(repo: Path, base: bytes) -> None:
    (repo / "README.md").write_bytes(base)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "base")
    _commit(
        repo, {"README.md": f"# L\n\n- [Kept](https://github.com/o/r)\n{ITEMS}[m]: {A}\n"}, "pr"
    )
    shared, fresh = _selections(["README.md"])
    assert _keys(shared) == _keys(fresh)
    assert len(shared) >= 2


def test_a_document_that_is_a_link_in_the_head(repo: Path) -> None:
    """The head's README.md links to a file holding entries the base hid: no traceback."""
    readme = f"# L\n\n<!--\n{ITEMS}-->\n\n[m]: {A}\n"
    _commit(repo, {"README.md": readme, "other.md": readme.replace("<!--\n", "")}, "base")
    (repo / "README.md").unlink()
    (repo / "README.md").symlink_to("other.md")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "pr")
    shared, fresh = _selections(["README.md"])
    assert _keys(shared) == _keys(fresh)
