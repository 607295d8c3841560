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

from curator.discover.cli import add_discover
from curator.errors import UsageError


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
    p.add_argument(
        "--append", action="store_true", help="add whole sections to a document without markers"
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
    """`curator audit [PATH ...] --repo OWNER/NAME [--label curator-audit]` + check's options."""
    from curator.cli import add_check_options

    p = sub.add_parser("audit", help="full check; open, update or close the tracking issue")
    p.add_argument("paths", nargs="*", metavar="PATH")
    p.add_argument("--repo", required=True, metavar="OWNER/NAME")
    p.add_argument("--label", default="curator-audit", help="label of the tracking issue")
    p.add_argument("--output", metavar="FILE", help="also write the JSON report to FILE")
    add_check_options(p)
    p.set_defaults(run=run_audit)


def run_audit(args: argparse.Namespace) -> int:
    """Check everything (never PR mode), then publish the issue; exit by --fail-on (given on
    the command line only; the audit's default is never: its result is the issue)."""
    from curator import pipeline
    from curator.cli import exit_status, options_from
    from curator.publish.audit import audit_from_env
    from curator.report import json as json_report

    options = options_from(args)
    report = pipeline.check(options)
    if args.output:
        Path(args.output).write_text(json_report.render(report), encoding="utf-8")
    result = audit_from_env(args.repo, report, os.environ, args.label)
    where = f" #{result.number}" if result.number else ""
    print(f"audit issue {result.action}{where}{': ' + result.url if result.url else ''}")
    return exit_status(report, args.fail_on or "never")


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
    from curator.model import Entry, Kind, Service, Source
    from curator.normalize import link_for, parse_arxiv_id
    from curator.pipeline import paper_text, resolve
    from curator.report.sanitize import terminal
    from curator.resolvers.interface import Unverified
    from curator.rulefiles import load_rules
    from curator.scope.explain import explain

    parsed = parse_arxiv_id(args.arxiv_id)
    if parsed is None:
        raise UsageError(f"{args.arxiv_id!r} is not a valid arXiv identifier")
    options = options_from(args)
    rules = load_rules(options)
    if "scope" not in rules:
        from curator.rulefiles import rules_folder

        raise UsageError(
            f"no scope rules at {rules_folder(options)}/scope.yaml (or give --scope-preset)"
        )
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


def add_scope(sub: Any) -> None:
    """`curator scope train RECORDS... --out FILE [--rules FILE]`."""
    p = sub.add_parser("scope", help="maintain the scope policy's learned scorer")
    tasks = p.add_subparsers(dest="scope_command", metavar="TASK", required=True)
    t = tasks.add_parser("train", help="train the scorer from screening records")
    t.add_argument("records", nargs="+", metavar="RECORDS", help="*-review.json files or folders")
    t.add_argument("--out", required=True, metavar="FILE", help="scorer JSON to write")
    t.add_argument("--rules", metavar="FILE", help="scope rules (default: rules/scope.yaml)")
    t.set_defaults(run=run_scope_train)


def run_scope_train(args: argparse.Namespace) -> int:
    """Refuse records that fail the policy's checks, train, write the scorer, say what."""
    from curator.cli import options_from
    from curator.rulefiles import rules_folder
    from curator.scope.train import train_files

    options = options_from(args)
    rules = Path(args.rules or rules_folder(options) / "scope.yaml")
    command = " ".join(["curator scope train", *args.records, "--out", args.out])
    scorer = train_files(args.records, rules, Path(args.out), command)
    about = scorer.provenance
    print(
        f"{args.out}: {len(scorer.weights)} term weights from {about['examples']} gate-passing "
        f"records ({about['excludes']} exclude/hold), threshold {scorer.threshold:.3f}"
    )
    return 0


def add_init(sub: Any) -> None:
    """`curator init [DIR] [--ref REF] [--paths PATHS] [--scope-preset NAME] [--force]`."""
    p = sub.add_parser("init", help="write curator's workflows and starter rules into a list")
    p.add_argument("dir", nargs="?", default=".", metavar="DIR", help="the list repository")
    p.add_argument("--ref", metavar="REF", help="curator tag, branch or commit (default: v<this>)")
    p.add_argument("--paths", metavar="PATHS", help="what to check (default: data/ or README.md)")
    p.add_argument("--scope-preset", metavar="NAME", help="shipped scope policy: llm-memory")
    p.add_argument("--force", action="store_true", help="overwrite existing workflows")
    p.set_defaults(run=run_init)


def run_init(args: argparse.Namespace) -> int:
    """Pin the Action to the commit of --ref, write the files, list what was written."""
    from curator.rulefiles import SCOPE_PRESETS
    from curator.tools import init

    root = Path(args.dir)
    if args.scope_preset and args.scope_preset not in SCOPE_PRESETS:
        raise UsageError(f"--scope-preset takes {', '.join(SCOPE_PRESETS)}")
    ref = args.ref or init.default_ref()
    inputs = {"paths": args.paths or init.detect_paths(root), "scope-preset": args.scope_preset}
    uses = init.action_reference(ref, init.commit_of(ref, os.environ))
    result = init.init(root, uses, init.check_inputs(inputs), force=args.force)
    for name in result.written:
        print(f"wrote {name}")
    for name in result.kept:
        print(f"kept {name}")
    print(f"uses: {result.uses}")
    return 0


#: Functions that add one subcommand to the argparse sub-parsers object.
REGISTER: list[Callable[[Any], None]] = [
    add_discover,
    add_import,
    add_render,
    add_comment,
    add_audit,
    add_report,
    add_explain,
    add_scope,
    add_init,
]
