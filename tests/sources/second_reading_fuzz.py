"""Random pull requests against a document's base revision: the base read after its head
(taking over the head's inline parses) must read as the base read alone.

Not collected by pytest (a long run); `python -m tests.sources.second_reading_fuzz N SEED`.
`tests/sources/test_second_reading_fuzz.py` runs a few hundred of the same cases.
"""

from __future__ import annotations

import random
import sys
from typing import Any

from curator.sources.doc_parse import InlineParses, parse
from curator.sources.document import DocumentSource
from curator.sources.reading import entries_of

LABELS = ["p1", "P1", "Straße", "STRASSE", "strasse", "ǆ", "Ǆ", "K", "k", "ﬀ", "FF", "a  b", "a b"]
URLS = [
    "https://arxiv.org/abs/2501.00001",
    "https://arxiv.org/abs/2501.00002",
    "https://github.com/o/r",
    "https://github.com/o/s",
    "<https://arxiv.org/abs/2501.00003>",
    "https://example.com/x",
    "https://arxiv.org/abs/2501.0000",
]
TITLES = ["", ' "T"', " 'U'", " (V)", ' "T"\n']
INLINE = [
    "Memory Paper {n}",
    "[Title {n}]({url})",
    "[Title {n}][{label}]",
    "[{label}]",
    "[{label}][]",
    '[Title {n}](<{url}> "t")',
    "<https://github.com/o/r{n}>",
    "https://github.com/o/q{n}",
    "arXiv:2501.0{n}001",
    "**Bold Title {n}**",
    "*em {n}*",
    "_under {n}_",
    "`code {n}`",
    "\\[not a link\\]({url})",
    "\\*",
    "&amp;",
    "&#91;x&#93;({url})",
    '<a href="{url}">HTML {n}</a>',
    "<br>",
    "<!-- c {n} -->",
    "![img](x.png)",
    "[![badge](b.svg)]({url})",
    "[**Bold {n}**]({url})",
    "[*{n}*",
    "]",
    "***",
    "|",
    "\\|",
    "(2024)",
    "2024-01-0{n}",
    "[",
    "![alt *{n}*][{label}]",
]
BLOCKS = [
    "{inl}",
    "- {inl}",
    "  - {inl}",
    "* {inl}",
    "1. {inl}",
    "> {inl}",
    "> - {inl}",
    "# {inl}",
    "## {inl}",
    "### {inl}",
    "---",
    "===",
    "",
    "",
    "",
    "[{label}]: {url}{title}",
    "> [{label}]: {url}{title}",
    "- [{label}]: {url}{title}",
    "   [{label}]:\n   {url}",
    "<!--",
    "-->",
    "```",
    "~~~",
    "    {inl}",
    "<details><summary>{inl}</summary>",
    "</details>",
    "<table>",
    "<tr><td>{inl}</td></tr>",
    "</table>",
    "<div>",
    "</div>",
    "| a | b |",
    "| --- | --- |",
    "| {inl} | {inl} |",
    "|---|",
    "\t{inl}",
]


def _inline(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(1, 4)):
        frag = rng.choice(INLINE).format(
            n=rng.randint(0, 9), url=rng.choice(URLS), label=rng.choice(LABELS)
        )
        parts.append(frag)
    return rng.choice([" ", "", " - ", ", "]).join(parts)


def _line(rng: random.Random) -> str:
    return rng.choice(BLOCKS).format(
        inl=_inline(rng),
        label=rng.choice(LABELS),
        url=rng.choice(URLS),
        title=rng.choice(TITLES),
    )


def document(rng: random.Random) -> str:
    """A random awesome-list-ish document."""
    lines = [_line(rng) for _ in range(rng.randint(1, 40))]
    end = rng.choice(["\n", "", "\r\n", "\n\n"])
    return "\n".join(lines) + end


def pull_request(rng: random.Random, base: str) -> str:
    """A random edit of `base`: lines deleted, inserted, changed, labels recased."""
    lines = base.split("\n")
    for _ in range(rng.randint(1, 6)):
        op = rng.randrange(6)
        at = rng.randrange(len(lines) + 1)
        if op == 0 and lines:
            del lines[min(at, len(lines) - 1)]
        elif op == 1:
            lines.insert(at, _line(rng))
        elif op == 2 and lines:
            i = min(at, len(lines) - 1)
            lines[i] = lines[i].replace(rng.choice(LABELS), rng.choice(LABELS))
        elif op == 3 and lines:
            i = min(at, len(lines) - 1)
            for old in URLS:
                if old in lines[i]:
                    lines[i] = lines[i].replace(old, rng.choice(URLS), 1)
                    break
        elif op == 4:
            lines.insert(at, f"[{rng.choice(LABELS)}]: {rng.choice(URLS)}{rng.choice(TITLES)}")
        else:
            lines.insert(at, rng.choice(["<!--", "-->", "```", "", "> ", "|---|"]))
    return "\n".join(lines)


def _dump(tokens: list[Any]) -> list[dict[str, Any]]:
    return [t.as_dict() for t in tokens]


def one_case(rng: random.Random) -> tuple[str, str] | None:
    """One random case; the (base, head) pair when the second reading differs."""
    base = document(rng)
    head = pull_request(rng, base) if rng.random() < 0.8 else document(rng)
    if rng.random() < 0.3:
        base, head = head, base
    parses = InlineParses()
    head_tokens, _ = parse(head, parses)
    head_before = _dump(head_tokens)
    DocumentSource(inlines=parses).read(head, "README.md")
    shared, _ = parse(base, parses)
    fresh, _ = parse(base)
    if _dump(shared) != _dump(fresh):
        return base, head
    if entries_of("README.md", base, parses) != entries_of("README.md", base):
        return base, head
    with_parses = DocumentSource(inlines=parses).read(base, "README.md")
    if with_parses != DocumentSource().read(base, "README.md"):
        return base, head
    # Nothing the base's reading did changed what the head's left behind (the head's
    # children are the parses kept: its parse was the run's first).
    if _dump(head_tokens) != head_before:
        return base, head
    return None


def run(cases: int, seed: int) -> list[tuple[str, str]]:
    """The failing (base, head) pairs among `cases` random ones."""
    rng = random.Random(seed)
    return [bad for _ in range(cases) if (bad := one_case(rng)) is not None]


if __name__ == "__main__":
    count, seed = int(sys.argv[1]), int(sys.argv[2])
    found = run(count, seed)
    print(f"{count} cases, seed {seed}: {len(found)} failing")
    for base, head in found[:3]:
        print("BASE:", repr(base))
        print("HEAD:", repr(head))
