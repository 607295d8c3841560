"""The command line: argparse → Options → pipeline → renderer. The only place that exits."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from curator import __version__
from curator.errors import CuratorError
from curator.model import Report, Severity

#: Findings that say a service could not be asked: never a failure by themselves.
UNVERIFIED = {"arxiv-unverified", "repo-unverified", "link-unverified", "scope-hold"}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(
        prog="curator", description="Verify a curated list of LLM-memory papers and projects."
    )
    parser.add_argument("--version", action="version", version=f"curator {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_check(sub)
    for add in _extra_subcommands():
        add(sub)
    return parser


def _add_check(sub: Any) -> None:
    p = sub.add_parser("check", help="check the catalogue or an awesome-list document")
    p.add_argument("paths", nargs="*", metavar="PATH", help="catalogue folder, YAML file or README")
    p.add_argument("--changed-since", metavar="REF", help="only entries changed since git REF")
    p.add_argument(
        "--format", choices=["text", "markdown", "json", "sarif", "github"], help="report format"
    )
    p.add_argument("--output", metavar="FILE", help="write the report to FILE")
    add_check_options(p)


def add_check_options(p: Any) -> None:
    """The options `check` shares with `audit`: what to ask, which rules, when to fail."""
    p.add_argument("--offline", action="store_true", default=None, help="use only the cache")
    p.add_argument("--no-cache", action="store_true", default=None, help="ignore the cache")
    p.add_argument("--fail-on", choices=["error", "warning", "never"], help="exit 1 threshold")
    p.add_argument("--skip", metavar="LIST", help="comma list of arxiv,github,web,scope")
    p.add_argument(
        "--zh", metavar="DOCUMENT", help="the list's Chinese document: report entries in one only"
    )
    p.add_argument("--rules", metavar="DIR", help="rules folder (default: rules/ beside the list)")
    p.add_argument("--scope-preset", metavar="NAME", help="shipped scope policy: llm-memory")


def _extra_subcommands() -> list[Any]:
    """Subcommands that live in their own modules (comment, audit, import, render, explain)."""
    from curator import commands

    return commands.REGISTER


def main(argv: Sequence[str] | None = None) -> int:
    """Run curator; return the exit status (0 clean, 1 findings, 2 bad input or usage)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        if args.command == "check":
            return run_check(args)
        status: int = args.run(args)
        return status
    except CuratorError as exc:
        _fail(str(exc))
        return 2
    except OSError as exc:
        # A file that cannot be read or written (--output, --body-file, --out): bad usage.
        _fail(_os_error(exc))
        return 2
    except KeyboardInterrupt:
        print("curator: interrupted", file=sys.stderr)
        return 130


def _fail(message: str) -> None:
    """The one stderr line of exit 2; names from the checked tree are escaped."""
    from curator.report.sanitize import terminal

    print(f"curator: error: {terminal(message)}", file=sys.stderr)


def _os_error(exc: OSError) -> str:
    """One line for a file-system error: the file and the system's reason."""
    reason = exc.strerror or str(exc)
    return f"{exc.filename}: {reason}" if exc.filename else reason


def options_from(args: argparse.Namespace) -> Any:
    """Options for a check-like subcommand: CLI over environment over [tool.curator]."""
    from curator.options import from_environment

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
    """`curator check`: run the pipeline, write the report, return the exit status."""
    from curator import pipeline

    options = options_from(args)
    report = pipeline.check(options)
    emit(report, options.format, options.output)
    return exit_status(report, options.fail_on)


def emit(report: Report, fmt: str, output: str) -> None:
    """Render `report` as `fmt` to `output` (or stdout); `github` also writes the summary."""
    from curator.report.interface import Format, renderer

    form = Format(fmt)
    if form is Format.TEXT and not output:
        from curator.report.text import render as render_text

        sys.stdout.write(render_text(report, None, color=sys.stdout.isatty()))
        return
    ctx = None if form is Format.JSON else _render_context(report)
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


def _render_context(report: Report) -> Any:
    """Context for renderers that link to the repository (markdown, sarif, github)."""
    from curator.report import context

    changed = any(n.startswith("pull-request mode") for n in report.notes)
    return context.from_env(os.environ, changed_only=changed)


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


def exit_status(report: Report, fail_on: str) -> int:
    """1 when a finding reaches `fail_on` (outage warnings never count), else 0."""
    if fail_on == "never":
        return 0
    floor = Severity.ERROR if fail_on == "error" else Severity.WARNING
    for finding in report.findings:
        if finding.code in UNVERIFIED:
            continue
        if finding.severity.rank >= floor.rank:
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
