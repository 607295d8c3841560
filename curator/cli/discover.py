"""The `discover` subcommand's arguments and runner (implementation imported lazily)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from curator.presets import PRESET_HELP

#: The categories asked by default (curator.discover.window.DEFAULT_CATEGORIES, kept light).
CATEGORIES = "cs.CL,cs.AI,cs.IR,cs.LG,cs.MA"


def add_discover(sub: Any) -> None:
    """`curator discover [--since D] [--until D] [--categories L] [--format F] [PATH ...]`."""
    p = sub.add_parser("discover", help="new arXiv papers the list should consider, screened")
    p.add_argument("paths", nargs="*", metavar="PATH", help="the list: catalogue or README")
    p.add_argument("--since", metavar="DATE", help="first submission day (YYYY-MM-DD)")
    p.add_argument("--until", metavar="DATE", help="last submission day (default: yesterday)")
    p.add_argument(
        "--categories",
        metavar="LIST",
        help=f"arXiv categories (default: {CATEGORIES}; for a list without a scope policy, "
        "those its papers are filed under)",
    )
    p.add_argument("--format", choices=["text", "markdown", "json"], help="report format")
    p.add_argument("--output", metavar="FILE", help="write the report to FILE")
    p.add_argument("--drafts", metavar="FILE", help="write the draft screening records to FILE")
    p.add_argument("--repo", metavar="OWNER/NAME", help="keep one new-papers issue per window")
    p.add_argument("--label", default="curator-discover", help="label of the new-papers issues")
    p.add_argument("--offline", action="store_true", default=None, help="use only the cache")
    p.add_argument("--no-cache", action="store_true", default=None, help="ignore the cache")
    p.add_argument("--rules", metavar="DIR", help="rules folder (default: rules/ beside the list)")
    p.add_argument("--scope-preset", metavar="NAME", help=PRESET_HELP)
    p.set_defaults(run=run_discover)


def run_discover(args: argparse.Namespace) -> int:
    """Discover, write the report (and drafts), publish the issue; 1 when incomplete."""
    import json

    from curator.cli.check import options_from
    from curator.discover import render, window
    from curator.discover.run import Request, discover

    options = options_from(args)
    request = Request(
        since=window.parse_day(args.since, "--since") if args.since else None,
        until=window.parse_day(args.until, "--until") if args.until else None,
        # () lets discover choose: the defaults, or a list's own without a policy.
        categories=window.parse_categories(args.categories) if args.categories else (),
    )
    report = discover(options, request)
    text = render.RENDERERS[args.format or "text"](report)
    if not args.output and (args.format or "text") == "text":
        from curator.console.terminal import fit, terminal_width

        text = fit(text, terminal_width(sys.stdout))
    _write(args.output, text)
    if args.drafts:
        _write(args.drafts, json.dumps(list(report.drafts), ensure_ascii=False, indent=2) + "\n")
    if args.repo:
        if not report.complete:
            print(
                "curator: the window is incomplete; the issue was left as it was", file=sys.stderr
            )
            return 1
        from curator.discover.publish import publish_from_env

        result = publish_from_env(args.repo, report, os.environ, args.label)
        where = f" #{result.number}" if result.number else ""
        print(f"new-papers issue {result.action}{where}{': ' + result.url if result.url else ''}")
    return 0 if report.complete else 1


def _write(output: str | None, text: str) -> None:
    """Write to FILE (creating its folder), or to stdout."""
    if not output:
        sys.stdout.write(text)
        return
    path = Path(output)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
