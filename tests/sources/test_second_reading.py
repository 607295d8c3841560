"""A document read a second time in one run (a pull request's base revision of it) reads as
if read alone, while taking over the inline parses of the first reading it shares."""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.sources.doc_parse import InlineParses, _parser, parse
from curator.sources.document import DocumentSource
from curator.sources.reading import entries_of
from tests.conftest import SAMPLES

CASES = Path(__file__).resolve().parent.parent / "cases" / "documents"
DOCUMENTS = sorted([*CASES.glob("*.md"), *SAMPLES.glob("*.md")])


def _base_of(text: str) -> str:
    """A base revision of `text` unlike it in the ways pull requests are: lines gone, an
    entry-shaped block hidden in a comment, a line edited, a reference definition added."""
    lines = text.split("\n")
    third = len(lines) // 3
    del lines[third : third + 2]
    lines.insert(2 * third, "<!--")
    lines.insert(2 * third + 8, "-->")
    lines[-2:-2] = ["", "[memory]: https://arxiv.org/abs/2305.10250"]
    if len(lines) > 10:
        lines[10] = lines[10].replace("](", "] (", 1)
    return "\n".join(lines)


@pytest.mark.slow
@pytest.mark.parametrize("doc", DOCUMENTS, ids=lambda p: p.name)
def test_entries_are_those_of_the_full_reading(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    for version in (text, text.replace("\n", "\r")):  # lone "\r"s: git's line numbers too
        full = DocumentSource().read(version, "README.md").entries
        assert DocumentSource().entries(version, "README.md") == list(full)
        assert entries_of("README.md", version) == sorted(full, key=lambda e: e.source.line)


@pytest.mark.slow
@pytest.mark.parametrize("doc", DOCUMENTS, ids=lambda p: p.name)
def test_a_base_read_after_its_head_reads_as_when_read_alone(doc: Path) -> None:
    head = doc.read_text(encoding="utf-8")
    base = _base_of(head)
    parses = InlineParses()
    DocumentSource(inlines=parses).read(head, "README.md")
    alone = DocumentSource().read(base, "README.md")
    shared = DocumentSource(inlines=parses).read(base, "README.md")
    assert shared == alone
    assert entries_of("README.md", base, parses) == entries_of("README.md", base)


def test_parses_are_shared_only_under_the_same_reference_definitions() -> None:
    entry = "- [MemoryBank: Long-Term Memory for LLMs][bank]\n- [Other][gone]\n"
    head = f"# L\n\n{entry}\n[bank]: https://arxiv.org/abs/2305.10250\n"
    retargeted = f"# L\n\n{entry}\n[bank]: https://arxiv.org/abs/2306.07174\n"
    titled = f'# L\n\n{entry}\n[bank]: https://arxiv.org/abs/2305.10250 "A title"\n'
    undefined = f"# L\n\n{entry}"
    parses = InlineParses()
    DocumentSource(inlines=parses).read(head, "README.md")
    for base in (retargeted, titled, undefined, head):
        shared = DocumentSource(inlines=parses).entries(base, "README.md")
        assert shared == DocumentSource().entries(base, "README.md")
    assert [e.subject for e in DocumentSource(inlines=parses).entries(retargeted, "R")] == [
        "arxiv:2306.07174"
    ]
    assert DocumentSource(inlines=parses).entries(undefined, "R") == []


def test_the_second_reading_parses_only_the_runs_that_changed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    head = "".join(
        f"- [Paper {n} on memory](https://arxiv.org/abs/2501.0000{n})\n" for n in range(8)
    )
    base = head.replace("Paper 3 on", "Paper three on")
    parser = _parser().inline
    parsed: list[str] = []
    real = parser.parse

    def counted(src: str, *args: object) -> None:
        parsed.append(src)
        real(src, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(parser, "parse", counted)
    parses = InlineParses()
    DocumentSource(inlines=parses).entries(head, "README.md")
    assert len(parsed) == 8
    parsed.clear()
    DocumentSource(inlines=parses).entries(base, "README.md")
    assert parsed == ["[Paper three on memory](https://arxiv.org/abs/2501.00003)"]
    parsed.clear()
    DocumentSource().entries(base, "README.md")  # without the run's parses: all of them
    assert len(parsed) == 8


def test_tokens_taken_over_are_those_a_fresh_parse_gives() -> None:
    body = '- [MemoryBank][bank] *and* **Memo** `code` <b>x</b> &amp; \\* ![i](p.png "t")\n'
    head = f'{body}\n[bank]: https://arxiv.org/abs/2305.10250 "One"\n'
    for base in (
        head,
        head.replace('"One"', '"Two"'),
        head.replace("2305.10250", "2306.07174"),
        body,
        f"> {body}\n| a |\n| - |\n| {body.strip()} |\n",
    ):
        parses = InlineParses()
        parse(head, parses)
        shared, _ = parse(base, parses)
        fresh, _ = parse(base)
        assert [t.as_dict() for t in shared] == [t.as_dict() for t in fresh]
