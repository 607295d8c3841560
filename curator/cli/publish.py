"""`curator comment`, `audit` and `report`: publishing a report to GitHub, or re-rendering it."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from curator.cli.check import (
    FAIL_ON_CHOICES,
    FORMAT_CHOICES,
    add_check_options,
    add_display_options,
)
from curator.model import FailOn


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
    from curator.report.terminal import inert

    result = comment_from_env(
        args.repo, args.pr, args.body_file, os.environ, head_sha=args.head_sha or ""
    )
    deleted = f", deleted duplicates {list(result.deleted)}" if result.deleted else ""
    print(inert(f"comment {result.action}{': ' + result.url if result.url else ''}{deleted}"))
    return 0


def add_audit(sub: Any) -> None:
    """`curator audit [PATH ...] --repo OWNER/NAME [--label curator-audit]` + check's options."""
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
    from curator.cli.check import exit_status, options_from
    from curator.publish.audit import audit_from_env
    from curator.report import json as json_report
    from curator.report.terminal import inert
    from curator.report.text import summary_line

    options = options_from(args)
    report = pipeline.check(options)
    if args.output:
        Path(args.output).write_text(json_report.render(report), encoding="utf-8")
    result = audit_from_env(args.repo, report, os.environ, args.label)
    where = f" #{result.number}" if result.number else ""
    print(inert(f"audit issue {result.action}{where}{': ' + result.url if result.url else ''}"))
    print(summary_line(report))
    return exit_status(report, args.fail_on or "never")


def add_report(sub: Any) -> None:
    """`curator report FILE --format FMT [--output FILE]`: re-render a saved JSON report."""
    p = sub.add_parser("report", help="render a saved JSON report in another format")
    p.add_argument("file", metavar="FILE", help="a JSON report written by `check --format json`")
    p.add_argument("--format", required=True, choices=FORMAT_CHOICES)
    p.add_argument("--output", metavar="FILE")
    p.add_argument("--fail-on", default=FailOn.NEVER.value, choices=FAIL_ON_CHOICES)
    add_display_options(p)
    p.set_defaults(run=run_report)


def run_report(args: argparse.Namespace) -> int:
    """Load the JSON report (as untrusted data) and render it; exit by --fail-on."""
    from curator.cli.check import display_of, emit, exit_status
    from curator.report.reader import read_report

    report = read_report(args.file)
    emit(report, args.format, args.output or "", display_of(args))
    return exit_status(report, args.fail_on)
