"""`python -m curator.cli.evaluate`: write the scope evaluation Markdown; exit 2 on bad input."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from curator.core.errors import CuratorError


def write(text: str, out: str) -> None:
    """The report to `out` ('-': standard output). A page regenerated from the screening
    records keeps the relevance section `curator scope evaluate --list` wrote into it."""
    if out == "-":
        sys.stdout.write(text)
        return
    from curator.scope.crosslist import section_of, splice

    kept = section_of(Path(out).read_text(encoding="utf-8")) if Path(out).is_file() else ""
    if kept and not section_of(text):
        text = splice(text, kept)
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(text, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: write the evaluation Markdown; exit 2 on bad input."""
    parser = argparse.ArgumentParser(prog="python -m curator.cli.evaluate")
    parser.add_argument("--records", default="screening", help="folder of *-review.json files")
    parser.add_argument("--rules", default="rules/scope.yaml")
    parser.add_argument(
        "--out", help="'-' for stdout (default: docs/scope-evaluation.md; with --batch, '-')"
    )
    sealed = parser.add_mutually_exclusive_group()
    sealed.add_argument("--lock-box", action="store_true", help="also score the lock box")
    sealed.add_argument(
        "--batch", action="append", metavar="FILE", help="score a new batch (shipped scorer)"
    )
    args = parser.parse_args(argv)
    try:
        text = _text(args)
    except CuratorError as exc:
        from curator.console.sanitize import terminal

        print(f"error: {terminal(exc)}", file=sys.stderr)  # names and IDs from the input
        return 2
    write(text, args.out or ("-" if args.batch else "docs/scope-evaluation.md"))
    return 0


def _text(args: argparse.Namespace) -> str:
    """The evaluation page, or with --batch the page of the new batch."""
    from curator.scope.evaluate import evaluation

    rules, records = Path(args.rules), [Path(args.records)]
    if args.batch:
        from curator.scope.batch import evaluate_batch, render_batch

        return render_batch(evaluate_batch(rules, records, [Path(b) for b in args.batch]))
    return evaluation(rules, records, args.lock_box)


if __name__ == "__main__":
    raise SystemExit(main())
