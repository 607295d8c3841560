"""`curator check`: options → pipeline → renderer → exit status; what audit and report share."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from curator.core.codes import UNVERIFIED
from curator.core.model import FailOn, Format, Report, Severity
from curator.presets import PRESET_HELP

if TYPE_CHECKING:
    from curator.config.options import Options
    from curator.console.terminal import Display
    from curator.fix.run import Prepared
    from curator.fix.suggest import Suggestion
    from curator.report.render_context import RenderContext
    from curator.report.text import Preview

#: The `choices` of `--format` and `--fail-on`, from their enums.
FORMAT_CHOICES = [f.value for f in Format]
FAIL_ON_CHOICES = [f.value for f in FailOn]


def add_check(sub: Any) -> None:
    """`curator check [PATH ...]` with the report and check options."""
    p = sub.add_parser("check", help="check the catalogue or an awesome-list document")
    p.add_argument("paths", nargs="*", metavar="PATH", help="catalogue folder, YAML file or README")
    p.add_argument("--changed-since", metavar="REF", help="only entries changed since git REF")
    p.add_argument("--format", choices=FORMAT_CHOICES, help="report format")
    p.add_argument("--output", metavar="FILE", help="write the report to FILE")
    p.add_argument(
        "--suggest",
        action="store_true",
        help="search arXiv by title for wrong IDs and plan the fixes: listed in text and "
        "markdown, the `fixes` array of JSON (one-click suggestions for `curator comment`); "
        "on by default with --changed-since but for JSON's `fixes`",
    )
    p.add_argument(
        "--scope-trail",
        action="store_true",
        help="json: keep every signal and word the scope scorer weighed (large; `curator "
        "explain -v ID` shows one paper's)",
    )
    add_display_options(p)
    add_check_options(p)
    p.set_defaults(run=run_check)


def add_display_options(p: argparse.ArgumentParser) -> None:
    """`--verbose` and `--color`: how `--format text` looks (other formats ignore them)."""
    from curator.console.terminal import ColorChoice

    p.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="text: add each finding's evidence and the entries per file",
    )
    p.add_argument(
        "--color",
        choices=[c.value for c in ColorChoice],
        default=ColorChoice.AUTO.value,
        help="text: colour on a terminal unless NO_COLOR is set (default: auto)",
    )


def add_check_options(p: argparse.ArgumentParser) -> None:
    """The options `check` shares with `audit`: what to ask, which rules, when to fail."""
    p.add_argument("--offline", action="store_true", default=None, help="use only the cache")
    p.add_argument("--no-cache", action="store_true", default=None, help="ignore the cache")
    p.add_argument("--fail-on", choices=FAIL_ON_CHOICES, help="exit 1 threshold")
    p.add_argument("--skip", metavar="LIST", help="comma list of arxiv,github,web,scope")
    p.add_argument(
        "--zh", metavar="DOCUMENT", help="the list's Chinese document: report entries in one only"
    )
    p.add_argument("--rules", metavar="DIR", help="rules folder (default: rules/ beside the list)")
    p.add_argument("--scope-preset", metavar="NAME", help=PRESET_HELP)


def options_from(args: argparse.Namespace) -> Options:
    """Options for a check-like subcommand: CLI over environment over [tool.curator]."""
    from curator.config.options import from_environment

    cli: dict[str, Any] = {
        "paths": tuple(args.paths) if getattr(args, "paths", None) else None,
        "changed_since": getattr(args, "changed_since", None),
        "format": getattr(args, "format", None),
        "output": getattr(args, "output", None),
        "offline": getattr(args, "offline", None),
        "no_cache": getattr(args, "no_cache", None),
        "fail_on": getattr(args, "fail_on", None),
        "skip": getattr(args, "skip", None),
        "zh": getattr(args, "zh", None),
        "rules_dir": getattr(args, "rules", None),
        "scope_preset": getattr(args, "scope_preset", None),
    }
    return from_environment(cli)


def run_check(args: argparse.Namespace) -> int:
    """`curator check`: run the pipeline, write the report, return the exit status.

    In pull-request mode (`--changed-since`), and with `--suggest`, the run is the one the
    pull request's job makes: arXiv's title search names the right ID of a wrong one, and
    the fixes are planned. Every format then shows what the pull request gets: text lists
    each suggested fix, markdown is the comment (with its count of one-click suggestions),
    and `--suggest` adds the `fixes` array to JSON."""
    from curator.run import pipeline

    options = options_from(args)
    if not (args.suggest or options.changed_since):
        report = pipeline.check(options)
        emit(report, options.format, options.output, display_of(args), trail=args.scope_trail)
        return exit_status(report, options.fail_on)
    from curator.fix.run import prepare
    from curator.fix.suggest import suggestions

    prepared = prepare(options)
    fixes = suggestions(prepared.plan.fixes(unsafe=True), prepared.plan.unsafe)
    form = options.format
    if form is Format.JSON:
        fixes_shown = fixes if args.suggest else None
        _write_json(prepared.report, options.output, fixes_shown, args.scope_trail)
    else:
        # The review's count is the comment's (markdown) alone: text lists every fix.
        ref = options.changed_since if form is Format.MARKDOWN else None
        preview = _preview(prepared, fixes, ref)
        emit(prepared.report, options.format, options.output, display_of(args), preview)
    return exit_status(prepared.report, options.fail_on)


def _preview(prepared: Prepared, fixes: Sequence[Suggestion], ref: str | None) -> Preview:
    """What the pull request gets besides the report: each planned fix as a line
    (`path:line: code old → new`) and, in pull-request mode, the review's count."""
    from curator.fix.output import change_lines
    from curator.report.text import Preview

    lines = change_lines(prepared.plan.fixes(unsafe=True))
    risky = {id(e) for fix in prepared.plan.unsafe for e in fix.edits}
    marks = [
        "unsafe" if id(edit) in risky else ""
        for fix in prepared.plan.fixes(unsafe=True)
        for edit in sorted(fix.edits, key=lambda e: e.start)
    ]
    suggested = None
    if ref and fixes:
        from curator.publish.preview import review_preview

        suggested = review_preview(fixes, ref, Path.cwd())
    return Preview(tuple(lines), tuple(marks), suggested)


def display_of(args: argparse.Namespace) -> Display:
    """How `--format text` is shown on stdout: its width and colour, `--verbose`."""
    from curator.console.terminal import detect

    return detect(sys.stdout, getattr(args, "color", "auto"), bool(getattr(args, "verbose", False)))


def emit(
    report: Report,
    form: Format,
    output: str,
    display: Display | None = None,
    preview: Preview | None = None,
    trail: bool = False,
) -> None:
    """Render `report` as `form` to `output` (or stdout); `github` also writes the summary.
    `display` (a terminal.Display) shapes the text format on stdout; a file gets no colour.
    `preview` (a text.Preview): the planned fixes and the review's count (pull-request mode).
    `trail`: the JSON report keeps the scope scorer's every signal and word."""
    from curator.report.interface import renderer

    if form is Format.JSON:
        _write_json(report, output, trail=trail)
        return
    if form is Format.TEXT:
        _write_text(report, output, display, preview)
        return
    ctx = _render_context(report)
    if preview is not None and preview.suggested is not None:
        from dataclasses import replace

        ctx = replace(ctx, suggested=preview.suggested)
    text = renderer(form)(report, ctx)
    if form is Format.GITHUB:
        _github_summary(report)
        _github_outputs(report)
    if output:
        path = Path(output)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


def _write_text(
    report: Report, output: str, display: Display | None, preview: Preview | None = None
) -> None:
    """The text report on stdout as `display` says, or to `output` plain and unstyled."""
    from dataclasses import replace

    from curator.console import terminal
    from curator.report import text

    shown = display or terminal.detect(sys.stdout)
    if not output:
        sys.stdout.write(text.render(report, None, shown, preview))
        return
    plain = replace(terminal.detect(None, terminal.ColorChoice.NEVER), verbose=shown.verbose)
    path = Path(output)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.render(report, None, plain, preview), encoding="utf-8")


def _write_json(
    report: Report,
    output: str,
    fixes: Sequence[Suggestion] | None = None,
    trail: bool = False,
) -> None:
    """The JSON report (with `fixes` when planned; the scope scorer's trail with `trail`),
    streamed to `output` (or stdout) as it is encoded."""
    from curator.report import json as json_report

    if not output:
        json_report.write(report, sys.stdout, fixes, trail)
        return
    path = Path(output)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as stream:
        json_report.write(report, stream, fixes, trail)


def _render_context(report: Report) -> RenderContext:
    """Context for renderers that link to the repository (markdown, sarif, github)."""
    from curator.report import render_context

    return render_context.from_env(os.environ, changed_only=report.pull_request)


def _github_summary(report: Report) -> None:
    """Append the Markdown report to $GITHUB_STEP_SUMMARY when running in Actions."""
    path = os.environ.get("GITHUB_STEP_SUMMARY")
    if not path:
        return
    from curator.report import github, markdown

    github.write_summary(markdown.render(report, _render_context(report)), Path(path))


def _github_outputs(report: Report) -> None:
    """The step outputs `errors` and `warnings` when running in Actions ($GITHUB_OUTPUT)."""
    from curator.publish import write_output

    write_output("errors", str(report.count(Severity.ERROR)))
    write_output("warnings", str(report.count(Severity.WARNING)))


def exit_status(report: Report, fail_on: FailOn) -> int:
    """1 when a finding reaches `fail_on` (outage warnings never count), else 0."""
    if fail_on is FailOn.NEVER:
        return 0
    floor = Severity.ERROR if fail_on is FailOn.ERROR else Severity.WARNING
    for finding in report.findings:
        if finding.code in UNVERIFIED:
            continue
        if finding.severity.rank >= floor.rank:
            return 1
    return 0
