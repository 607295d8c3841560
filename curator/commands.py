"""Subcommands beyond `check`: each adds its parser and a runner returning the exit status.

Runners import their implementation lazily, so `curator --version` stays fast.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
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
    from curator.report.sanitize import terminal
    from curator.tools.import_ import import_document, warning

    result = import_document(args.document, args.out, zh=args.zh)
    for line in result.warnings:
        print(f"warning: {terminal(line)}", file=sys.stderr)
    for finding in result.findings:
        print(f"warning: {terminal(warning(finding))}", file=sys.stderr)
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


def add_comment(sub: Any) -> None:
    """`curator comment --repo OWNER/NAME (--pr N | --head-sha SHA) --body-file FILE`."""
    p = sub.add_parser("comment", help="create or update the one curator comment on a PR")
    p.add_argument("--repo", required=True, metavar="OWNER/NAME")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--pr", type=int, metavar="N", help="pull request number")
    which.add_argument("--head-sha", metavar="SHA", help="find the open PR by its head commit")
    p.add_argument(
        "--body-file",
        required=True,
        metavar="FILE",
        help="curator JSON report",
    )
    p.set_defaults(run=run_comment)


def run_comment(args: argparse.Namespace) -> int:
    """Upsert the comment; print what happened (created, updated, unchanged, skipped)."""
    from curator.publish.comment import comment_from_env

    result = comment_from_env(
        args.repo, args.pr, args.body_file, os.environ, head_sha=args.head_sha or ""
    )
    deleted = f", deleted duplicates {list(result.deleted)}" if result.deleted else ""
    print(f"comment {result.action}{': ' + result.url if result.url else ''}{deleted}")
    return 0


def add_audit(sub: Any) -> None:
    """`curator audit [PATH ...] --repo OWNER/NAME [--label curator-audit]`."""
    p = sub.add_parser("audit", help="full check; open, update or close the tracking issue")
    p.add_argument("paths", nargs="*", metavar="PATH")
    p.add_argument("--repo", required=True, metavar="OWNER/NAME")
    p.add_argument("--label", default="curator-audit", help="label of the tracking issue")
    p.add_argument("--output", metavar="FILE", help="also write the JSON report to FILE")
    p.set_defaults(run=run_audit)


def run_audit(args: argparse.Namespace) -> int:
    """Check everything (never PR mode), then publish the issue; exit 0 unless publishing fails."""
    from curator import pipeline
    from curator.cli import options_from
    from curator.publish.audit import audit_from_env
    from curator.report import json as json_report

    options = options_from(args)
    report = pipeline.check(options)
    if args.output:
        Path(args.output).write_text(json_report.render(report), encoding="utf-8")
    result = audit_from_env(args.repo, report, os.environ, args.label)
    where = f" #{result.number}" if result.number else ""
    print(f"audit issue {result.action}{where}{': ' + result.url if result.url else ''}")
    return 0


def add_report(sub: Any) -> None:
    """`curator report FILE --format FMT [--output FILE]`: re-render a saved JSON report."""
    p = sub.add_parser("report", help="render a saved JSON report in another format")
    p.add_argument("file", metavar="FILE", help="a JSON report written by `check --format json`")
    p.add_argument(
        "--format", required=True, choices=["text", "markdown", "json", "sarif", "github"]
    )
    p.add_argument("--output", metavar="FILE")
    p.add_argument("--fail-on", default="never", choices=["error", "warning", "never"])
    p.set_defaults(run=run_report)


def run_report(args: argparse.Namespace) -> int:
    """Load the JSON report (as untrusted data) and render it; exit by --fail-on."""
    from curator.cli import emit, exit_status
    from curator.report.reader import read_report

    report = read_report(args.file)
    emit(report, args.format, args.output or "")
    return exit_status(report, args.fail_on)


def add_explain(sub: Any) -> None:
    """`curator explain ARXIV_ID [--lang en|zh]`."""
    p = sub.add_parser("explain", help="the scope decision trail for one arXiv paper")
    p.add_argument("arxiv_id", metavar="ARXIV_ID", help="e.g. 2305.10250 or an arXiv URL")
    p.add_argument("--lang", default="en", choices=["en", "zh"], help="language of the trail")
    p.add_argument("--offline", action="store_true", default=None, help="use only the cache")
    p.set_defaults(run=run_explain)


def run_explain(args: argparse.Namespace) -> int:
    """Resolve one paper (cache first), apply rules/scope.yaml, print the trail."""
    from curator.cli import options_from
    from curator.errors import UsageError
    from curator.model import Entry, Kind, Service, Source
    from curator.normalize import link_for, parse_arxiv_id
    from curator.pipeline import load_rules, paper_text, resolve
    from curator.report.sanitize import terminal
    from curator.resolvers.interface import Unverified
    from curator.scope.explain import explain

    parsed = parse_arxiv_id(args.arxiv_id)
    if parsed is None:
        raise UsageError(f"{args.arxiv_id!r} is not a valid arXiv identifier")
    options = options_from(args)
    rules = load_rules(options)
    if "scope" not in rules:
        raise UsageError(f"no scope rules at {Path(options.root) / options.rules_dir}/scope.yaml")
    link = link_for("paper", f"https://arxiv.org/abs/{parsed.base}")
    entry = Entry(parsed.subject, Kind.PAPER, Source("<command line>", 1), links=(link,))
    outcomes = {} if options.skips(Service.ARXIV) else resolve([entry], options, rules).outcomes
    outcome = outcomes.get(parsed.subject)
    if isinstance(outcome, Unverified):
        # Without the official title and abstract the trail below decides on nothing.
        print(f"note: arXiv could not be asked ({terminal(outcome.reason)}); no official metadata")
    paper = paper_text(entry, outcome)
    print(explain(parsed.subject, paper, rules["scope"], lang=args.lang))
    return 0


#: Functions that add one subcommand to the argparse sub-parsers object.
REGISTER: list[Callable[[Any], None]] = [
    add_import,
    add_render,
    add_comment,
    add_audit,
    add_report,
    add_explain,
]
