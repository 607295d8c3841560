"""Edits of a link's fragment: a broken in-page anchor replaced by the one clearly meant.

Pure. An `anchor-missing` finding names its line, the link as written (`evidence`:
`#products-and-projects`, `other.md#setup`) and, only when one anchor is clearly meant, that
anchor (`suggestion`: `#products--projects`). The link is found on its own line as a link
target (after `(`, `<`, a quote or `=`; before `)`, `>`, a quote, a space or a title) and only
the fragment's characters are replaced. A link not found there as written (escaped, split by
a reference definition on another line) is left as it is: nothing is guessed.
"""

from __future__ import annotations

import re

from curator.core.model import Finding
from curator.fix.model import Edit, code_spans, line_starts

# What a GitHub heading anchor is made of: word characters (any script) and hyphens, and
# percent-encoded bytes (an emoji's invisible variation selector is written `%EF%B8%8F`).
_SLUG = re.compile(r"(?:[\w-]|%[0-9A-Fa-f]{2})+")


def anchor_edits(
    file: str, text: str, finding: Finding, starts: list[int] | None = None
) -> list[Edit]:
    """The edits that point `finding`'s link at its suggested anchor; [] when there is none."""
    written, new = finding.evidence, finding.suggestion.removeprefix("#")
    if finding.code != "anchor-missing" or "#" not in written or not _SLUG.fullmatch(new):
        return []
    old = written.split("#", 1)[1]
    lines = starts if starts is not None else line_starts(text)
    line = finding.source.line
    if not 0 < line <= len(lines):
        return []
    begin = lines[line - 1]
    end = lines[line] if line < len(lines) else len(text)
    target = re.compile(r"(?<=[(<\"'=])" + re.escape(written) + r"(?=[)>\"'\s])")
    code = code_spans(text, begin, end)  # a link quoted as code is text, not a link
    edits = []
    for m in target.finditer(text, begin, end):
        if any(first <= m.start() < last for first, last in code):
            continue
        at = m.end() - len(old)
        edits.append(Edit(file, at, m.end(), old, new, finding))
    return edits
