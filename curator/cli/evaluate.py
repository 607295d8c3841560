"""`python -m curator.scope.evaluate`: write the scope evaluation Markdown; exit 2 on bad input."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from curator.errors import CuratorError


def write(text: str, out: str) -> None:
    """The report to `out` ('-': standard output)."""
    if out == "-":
        sys.stdout.write(text)
        return
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(text, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: write the evaluation Markdown; exit 2 on bad input."""
    from curator.scope.evaluate import evaluation

    parser = argparse.ArgumentParser(prog="python -m curator.scope.evaluate")
    parser.add_argument("--records", default="screening", help="folder of *-review.json files")
    parser.add_argument("--rules", default="rules/scope.yaml")
    parser.add_argument("--out", default="docs/scope-evaluation.md", help="'-' for stdout")
    parser.add_argument("--lock-box", action="store_true", help="also score the lock box")
    args = parser.parse_args(argv)
    try:
        text = evaluation(Path(args.rules), [Path(args.records)], args.lock_box)
    except CuratorError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    write(text, args.out)
    return 0
