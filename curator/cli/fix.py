"""`curator fix`: apply the findings that have one safe answer, in place (or show the diff)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace
from typing import Any

from curator.cli.check import add_check_options
from curator.core.errors import UsageError
from curator.core.model import Service

#: The codes `fix` may write that each service's findings can hold (`fix` asks no service
#: that has none of them: scope decides no value it writes). arxiv-link-form needs none.
SERVICE_FIXES: dict[Service, frozenset[str]] = {
    Service.ARXIV: frozenset({"arxiv-title-mismatch", "arxiv-date-mismatch", "arxiv-not-found"}),
    Service.GITHUB: frozenset({"repo-moved"}),
    Service.WEB: frozenset({"link-redirect"}),
}


def add_fix(sub: Any) -> None:
    """`curator fix [PATH ...] [--diff] [--only CODES] [--unsafe]` + check's options."""
    p = sub.add_parser("fix", help="fix the findings that have one safe answer, in place")
    p.add_argument("paths", nargs="*", metavar="PATH", help="catalogue folder, YAML file or README")
    p.add_argument("--changed-since", metavar="REF", help="only entries changed since git REF")
    p.add_argument(
        "--diff",
        action="store_true",
        help="show the changes, write nothing: changed words marked in their lines on a "
        "terminal, a unified diff (a patch for `git apply`) when piped",
    )
    p.add_argument(
        "--word-diff",
        action="store_true",
        help="--diff with the changed words marked ([-old-]{+new+}), piped too",
    )
    p.add_argument("--only", metavar="CODES", help="comma list of finding codes to fix")
    p.add_argument(
        "--unsafe", action="store_true", help="also replace wrong arXiv IDs arXiv's search names"
    )
    p.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="also one line per change: old → new (the default on a terminal)",
    )
    p.add_argument(
        "--all-checks",
        action="store_true",
        help="also ask the services no fix can come from (scope; with --only, the others)",
    )
    add_check_options(p)
    p.set_defaults(run=run_fix)


def only_codes(text: str | None) -> frozenset[str] | None:
    """The codes of `--only`; UsageError naming an unknown one."""
    if text is None:
        return None
    from curator.core.codes import CODES, unknown

    codes = frozenset(c.strip() for c in text.split(",") if c.strip())
    wrong = sorted(codes - CODES.keys())
    if wrong or not codes:
        raise UsageError(f"--only: {'; '.join(unknown(c) for c in wrong or [repr(text)])}")
    return codes


def run_fix(args: argparse.Namespace) -> int:
    """Plan, then write (or print the diff); exit as `check` would on what is left."""
    from curator.cli.check import exit_status, options_from
    from curator.console import terminal
    from curator.fix import output
    from curator.fix.run import prepare
    from curator.fix.write import write_fixes

    started = time.monotonic()
    only = only_codes(args.only)
    options = options_from(args)
    if not args.all_checks:
        options = replace(options, skip=options.skip | unfixable_services(only))
    prepared = prepare(options, only=only)
    plan = prepared.plan
    fixes = [f for f in plan.fixes(args.unsafe) if f.edits]
    cwd = os.getcwd()
    lines = output.notes(list(prepared.search_notes))
    shown = terminal.detect(sys.stdout)
    on_terminal = terminal.is_terminal(sys.stdout)
    diff = args.diff or args.word_diff
    if args.word_diff or (args.diff and on_terminal):
        wrapped = [part for line in output.word_diff(fixes, cwd, shown.color)
                   for part in terminal.wrap(line, shown.width)]  # fmt: skip
        sys.stdout.write(terminal.write(wrapped, shown))
    elif diff:
        sys.stdout.write(output.diff(fixes))
    else:
        write_fixes(fixes, options.paths)
        lines = [*output.file_lines(fixes, cwd), *lines]
    # One line per change: asked for, or on a terminal where no word diff shows them already.
    if args.verbose or (on_terminal and not diff):
        lines = [*output.change_lines(fixes, cwd), *lines]
    elapsed = time.monotonic() - started
    requests = prepared.report.requests
    lines += [
        *output.waiting(plan, args.unsafe),
        output.summary(plan, args.unsafe, diff, requests, elapsed),
    ]
    stream = sys.stderr if diff else sys.stdout
    stream.write(terminal.fit("\n".join(lines), terminal.terminal_width(stream)))
    left = replace(prepared.report, findings=plan.remaining(args.unsafe))
    return exit_status(left, options.fail_on)


def unfixable_services(only: frozenset[str] | None) -> frozenset[Service]:
    """The services whose findings hold none of the codes `fix` may write (of `only`, when
    given): asking them would only cost time (scope decides no value `fix` writes)."""
    from curator.fix.values import FIXABLE

    wanted = FIXABLE if only is None else FIXABLE & only
    return frozenset(s for s in Service if not SERVICE_FIXES.get(s, frozenset()) & wanted)
