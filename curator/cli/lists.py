"""`curator import`, `render` and `init`: turning a list into a catalogue, and back, and set-up."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from curator.core.errors import UsageError
from curator.presets import PRESET_HELP


def add_import(sub: Any) -> None:
    """`curator import DOCUMENT --out DIR [--zh README_cn.md]`."""
    p = sub.add_parser("import", help="turn an awesome-list document into catalogue YAML")
    p.add_argument("document", metavar="DOCUMENT")
    p.add_argument("--out", required=True, metavar="DIR", help="catalogue folder to write")
    p.add_argument("--zh", metavar="README_cn.md", help="Chinese document for summary_zh")
    p.set_defaults(run=run_import)


def run_import(args: argparse.Namespace) -> int:
    """Write the catalogue; list what could not be read completely; never drop an entry."""
    from curator.console.sanitize import terminal
    from curator.tools.import_ import import_document

    result = import_document(args.document, args.out, zh=args.zh)
    for line in result.warnings:  # one line per finding of the document
        print(f"warning: {terminal(line)}", file=sys.stderr)
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
    p.add_argument(
        "--append",
        action="store_true",
        help="add whole sections, in the document's own layout, to a document without markers",
    )
    p.set_defaults(run=run_render)


def run_render(args: argparse.Namespace) -> int:
    """Rewrite the marked sections (or, with --check, only compare)."""
    from curator.tools.render import render

    result = render(args.data, args.readme, check=args.check, append=args.append)
    if args.check:
        if result.changed:
            print(f"{args.readme} is not what `curator render` would write", file=sys.stderr)
            return 1
        print(f"{args.readme} is current ({result.papers} papers, {result.projects} projects)")
        return 0
    state = "updated" if result.changed else "already current"
    print(f"{args.readme} {state}: {result.papers} papers, {result.projects} projects")
    return 0


def add_init(sub: Any) -> None:
    """`curator init [DIR] [--ref REF] [--paths PATHS] [--scope-preset NAME] [--force]`."""
    p = sub.add_parser("init", help="write curator's workflows and starter rules into a list")
    p.add_argument("dir", nargs="?", default=".", metavar="DIR", help="the list repository")
    p.add_argument(
        "--ref",
        metavar="REF",
        help="pin the Action to this commit (or tag); default: the running curator's commit",
    )
    p.add_argument("--paths", metavar="PATHS", help="what to check (default: data/ or README.md)")
    p.add_argument("--scope-preset", metavar="NAME", help=PRESET_HELP)
    p.add_argument(
        "--force",
        action="store_true",
        help="overwrite curator's existing workflows (never the list's rules files)",
    )
    p.set_defaults(run=run_init)


def run_init(args: argparse.Namespace) -> int:
    """Pin the Action (offline), write the files, list what was written."""
    from curator.console.sanitize import terminal
    from curator.presets import ALIASES, SCOPE_PRESETS
    from curator.tools import init

    root = Path(args.dir)
    if args.scope_preset and args.scope_preset not in (*SCOPE_PRESETS, *ALIASES):
        raise UsageError(f"--scope-preset takes {', '.join((*SCOPE_PRESETS, *ALIASES))}")
    inputs = {"paths": args.paths or init.detect_paths(root), "scope-preset": args.scope_preset}
    pinned = init.running_pin(args.ref)
    result = init.init(root, pinned.uses, init.check_inputs(inputs), force=args.force)
    for name in result.written:
        print(f"wrote {name}")
    for name in result.kept:
        print(f"kept {name} (curator's starter: {name}{init.EXAMPLE})")
    print(f"uses: {terminal(result.uses)}")
    if not pinned.commit:
        print(
            "note: this curator's install records no commit (an editable or local install), "
            "so the workflows name a tag; give --ref COMMIT to pin a commit"
        )
    print("\n".join(terminal(line) for line in init.next_steps(args.dir, args.scope_preset or "")))
    return 0
