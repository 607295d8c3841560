"""The document reader's speed: a generated 5,000-entry list in each common layout, read and
timed in CPU seconds (the best of three: a shared machine slows single runs)."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

#: The layouts generated: dated bullets, a Markdown table, badge bullets, the two-row HTML table.
LAYOUTS = ("bullets", "table", "badges", "html")
#: The issue's target for 5,000 entries, CPU seconds.
TARGET_SECONDS = 2.0


def layout_document(kind: str, n: int) -> str:
    """A generated list of `n` papers with code links in one layout."""
    rows = ["# A generated list", ""]
    if kind == "table":
        rows += ["| Date | Title | Links |", "| --- | --- | --- |"]
    for i in range(n):
        aid, repo = f"{23 + i % 3}{1 + i % 12:02d}.{10000 + i:05d}", f"https://github.com/o{i}/r{i}"
        title = f"A Paper Title Number {i} About Memory"
        rows.append(
            {
                "bullets": f"- [2023/{1 + i % 12:02d}] **{title}** *A. Author et al. ACL.* "
                f"[[paper](https://arxiv.org/abs/{aid})] [[code]({repo})]",
                "table": f"| 2023-{1 + i % 12:02d} | {title} | [arXiv](https://arxiv.org/abs/{aid})"
                f" · [Code]({repo}) |",
                "badges": f"  - Paper: [{title}](https://arxiv.org/abs/{aid}) "
                f"[![stars](https://img.shields.io/github/stars/o{i}/r{i})]({repo}) (ICML 2024)",
                "html": f'<tr><td rowspan="2">2023-{1 + i % 12:02d}-01</td><td><strong>{title}'
                '</strong></td><td><img src="https://img.shields.io/badge/Memory-blue" '
                'alt="Memory"></td><td>'
                f'<a href="https://arxiv.org/abs/{aid}"><img alt="Paper"></a> '
                f'<a href="{repo}"><img alt="Code"></a></td></tr>\n'
                f'<tr><td colspan="3">• A summary of paper {i}.</td></tr>',
            }[kind]
        )
    if kind == "html":
        rows[2:] = ["<table>", *rows[2:], "</table>"]
    return "\n".join(rows) + "\n"


def parse_seconds(kind: str, n: int = 5000, repeats: int = 3) -> float:
    """The best CPU time of `repeats` reads of an `n`-entry list in `kind` layout."""
    from curator.sources.document import DocumentSource

    with tempfile.TemporaryDirectory(prefix="curator-layout-") as tmp:
        doc = Path(tmp) / "README.md"
        doc.write_text(layout_document(kind, n), encoding="utf-8")
        best = float("inf")
        for _ in range(repeats):
            started = time.process_time()
            DocumentSource().load(doc)
            best = min(best, time.process_time() - started)
    return best
