"""`curator comment`, `audit` and `report`: publishing a report to GitHub, or re-rendering it."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from curator.cli.check import (
    FAIL_ON_CHOICES,
    FORMAT_CHOICES,
    add_check_options,
    add_display_options,
)
from curator.core.model import FailOn, Format

if TYPE_CHECKING:
    from curator.config.options import Options
    from curator.core.model import Report
    from curator.fix.model import FileFix


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
    p.add_argument(
        "--suggest",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="post the report's `fixes` as one review of one-click suggestions (default: on)",
    )
    p.set_defaults(run=run_comment)


def run_comment(args: argparse.Namespace) -> int:
    """Post the suggestions and upsert the comment; print what happened to each."""
    from curator.console.terminal import inert
    from curator.publish.comment import comment_from_env

    result = comment_from_env(
        args.repo,
        args.pr,
        args.body_file,
        os.environ,
        head_sha=args.head_sha or "",
        suggest=args.suggest,
    )
    if result.review is not None:
        review = result.review
        url = f": {review.url}" if review.url else ""
        many = "s" if review.posted != 1 else ""
        said = f"review {review.action}: {review.posted} suggestion{many}, {review.left} left{url}"
        print(inert(said))  # the URL is GitHub's answer
    if result.review_error:
        error = inert(result.review_error)
        print(f"curator: warning: no suggestions posted: {error}", file=sys.stderr)
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
    p.add_argument(
        "--fix",
        action="store_true",
        help="also apply the safe fixes on one branch and open or update one pull request",
    )
    p.add_argument(
        "--fix-branch",
        default="curator/fixes",
        metavar="NAME",
        help="the fix pull request's branch (default: curator/fixes; never the default branch)",
    )
    add_check_options(p)
    p.set_defaults(run=run_audit)


def run_audit(args: argparse.Namespace) -> int:
    """Check everything (never PR mode), then publish the issue; exit by --fail-on (given on
    the command line only; the audit's default is never: its result is the issue)."""
    from curator.cli.check import exit_status, options_from
    from curator.console.terminal import inert
    from curator.publish.audit import audit_from_env
    from curator.report import json as json_report
    from curator.report.text import summary_line
    from curator.run import pipeline

    options = options_from(args)
    files: tuple[FileFix, ...] = ()
    if args.fix:
        from curator.fix.run import prepare
        from curator.publish.fix_branch import check_branch

        check_branch(args.fix_branch)
        prepared = prepare(options)
        report, files = prepared.report, prepared.plan.files  # the safe fixes only
    else:
        report = pipeline.check(options)
    if args.output:
        Path(args.output).write_text(json_report.render(report), encoding="utf-8")
    result = audit_from_env(args.repo, report, os.environ, args.label)
    where = f" #{result.number}" if result.number else ""
    print(inert(f"audit issue {result.action}{where}{': ' + result.url if result.url else ''}"))
    if args.fix:
        _fix_pr(args.repo, files, args.fix_branch, verified_all(report, options))
    print(summary_line(report))
    return exit_status(report, FailOn(args.fail_on or FailOn.NEVER))


def verified_all(report: Report, options: Options) -> bool:
    """Whether the audit asked every service a fix can come from and none of them failed as
    a whole: only then do fewer fixes mean the list got better. A single link that could
    not be checked (a bot wall, a timeout) yields no fix for that link, nothing more."""
    from curator.core.model import Service

    asked = not any(options.skips(s) for s in (Service.ARXIV, Service.GITHUB, Service.WEB))
    return asked and not report.outages


def _fix_pr(repo: str, files: tuple[FileFix, ...], branch: str, complete: bool) -> None:
    """Open, update, keep or close the fix pull request; print what happened."""
    from curator.console.terminal import inert
    from curator.publish.fixpr import fixpr_from_env

    fixed = fixpr_from_env(repo, files, os.environ, branch, complete=complete)
    where = f" #{fixed.number}" if fixed.number else ""
    url = f": {fixed.url}" if fixed.url else ""
    print(inert(f"fix pull request {fixed.action}{where} ({fixed.fixes} fixes){url}"))
    if fixed.why:
        print(f"fix pull request {inert(fixed.why)}")
    for reason in fixed.left:
        print(f"fix left out: {inert(reason)}")


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
    emit(report, Format(args.format), args.output or "", display_of(args))
    return exit_status(report, FailOn(args.fail_on))
