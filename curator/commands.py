"""Subcommands beyond `check`: each adds its parser and a runner returning the exit status.

Runners import their implementation lazily, so `curator --version` stays fast.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any


def add_import(sub: Any) -> None:
    """`curator import DOCUMENT --out DIR [--zh README_cn.md]`."""
    p = sub.add_parser("import", help="turn an awesome-list document into catalogue YAML")
    p.add_argument("document", metavar="DOCUMENT")
    p.add_argument("--out", required=True, metavar="DIR", help="catalogue folder to write")
    p.add_argument("--zh", metavar="README_cn.md", help="Chinese document for summary_zh")
    p.set_defaults(run=run_import)


def run_import(args: argparse.Namespace) -> int:
    """Write the catalogue; list what could not be read completely; never drop an entry."""
    from curator.tools.import_ import import_document, warning

    result = import_document(args.document, args.out, zh=args.zh)
    for line in result.warnings:
        print(f"warning: {line}", file=sys.stderr)
    for finding in result.findings:
        print(f"warning: {warning(finding)}", file=sys.stderr)
    print(
        f"imported {result.papers} papers and {result.projects} projects "
        f"into {len(result.files)} files under {args.out}"
    )
    return 0


def add_render(sub: Any) -> None:
    """`curator render [--data DIR] [--readme README.md] [--check]`."""
    p = sub.add_parser("render", help="regenerate the list sections of a README from data/")
    p.add_argument("--data", default="data", metavar="DIR", help="catalogue folder")
    p.add_argument("--readme", default="README.md", metavar="FILE", help="document to write")
    p.add_argument("--check", action="store_true", help="exit 1 when the document is not current")
    p.set_defaults(run=run_render)


def run_render(args: argparse.Namespace) -> int:
    """Rewrite the marked sections (or, with --check, only compare)."""
    from curator.tools.render import render

    result = render(args.data, args.readme, check=args.check)
    if args.check:
        if result.changed:
            print(f"{args.readme} is not what `curator render` would write", file=sys.stderr)
            return 1
        print(f"{args.readme} is current ({result.papers} papers, {result.projects} projects)")
        return 0
    state = "updated" if result.changed else "already current"
    print(f"{args.readme} {state}: {result.papers} papers, {result.projects} projects")
    return 0


#: Functions that add one subcommand to the argparse sub-parsers object.
REGISTER: list[Callable[[Any], None]] = [add_import, add_render]
