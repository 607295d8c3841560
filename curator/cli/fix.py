"""`curator fix`: apply the findings that have one safe answer, in place (or show the diff)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace
from typing import Any

from curator.cli.check import add_check_options
from curator.errors import UsageError


def add_fix(sub: Any) -> None:
    """`curator fix [PATH ...] [--diff] [--only CODES] [--unsafe]` + check's options."""
    p = sub.add_parser("fix", help="fix the findings that have one safe answer, in place")
    p.add_argument("paths", nargs="*", metavar="PATH", help="catalogue folder, YAML file or README")
    p.add_argument("--changed-since", metavar="REF", help="only entries changed since git REF")
    p.add_argument("--diff", action="store_true", help="print a unified diff; write nothing")
    p.add_argument("--only", metavar="CODES", help="comma list of finding codes to fix")
    p.add_argument(
        "--unsafe", action="store_true", help="also replace wrong arXiv IDs arXiv's search names"
    )
    p.add_argument(
        "-v", "--verbose", action="store_true", help="also one line per change: old → new"
    )
    add_check_options(p)
    p.set_defaults(run=run_fix)


def only_codes(text: str | None) -> frozenset[str] | None:
    """The codes of `--only`; UsageError naming an unknown one."""
    if text is None:
        return None
    from curator.codes import CODES, unknown

    codes = frozenset(c.strip() for c in text.split(",") if c.strip())
    wrong = sorted(codes - CODES.keys())
    if wrong or not codes:
        raise UsageError(f"--only: {'; '.join(unknown(c) for c in wrong or [repr(text)])}")
    return codes


def run_fix(args: argparse.Namespace) -> int:
    """Plan, then write (or print the diff); exit as `check` would on what is left."""
    from curator.cli.check import exit_status, options_from
    from curator.fix import output
    from curator.fix.run import prepare
    from curator.fix.write import write_fixes
    from curator.report.terminal import fit, terminal_width

    started = time.monotonic()
    only = only_codes(args.only)
    options = options_from(args)
    prepared = prepare(options, only=only)
    plan = prepared.plan
    fixes = [f for f in plan.fixes(args.unsafe) if f.edits]
    cwd = os.getcwd()
    lines = output.notes(list(prepared.search_notes))
    if args.diff:
        sys.stdout.write(output.diff(fixes))
    else:
        write_fixes(fixes, options.paths)
        lines = [*output.file_lines(fixes, cwd), *lines]
    if args.verbose:
        lines = [*output.change_lines(fixes, cwd), *lines]
    elapsed = time.monotonic() - started
    requests = prepared.report.requests
    lines += [
        *output.waiting(plan, args.unsafe),
        output.summary(plan, args.unsafe, args.diff, requests, elapsed),
    ]
    stream = sys.stderr if args.diff else sys.stdout
    stream.write(fit("\n".join(lines), terminal_width(stream)))
    left = replace(prepared.report, findings=plan.remaining(args.unsafe))
    return exit_status(left, options.fail_on)
