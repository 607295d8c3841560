"""The parser of every subcommand and `main`: run one, turn bad input into one line and exit 2."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from curator import __version__
from curator.cli import check, discover, fix, lists, publish, scope
from curator.core import heap
from curator.core.errors import CuratorError

#: Functions that add one subcommand to the argparse sub-parsers object, in `--help` order.
SUBCOMMANDS: list[Callable[[Any], None]] = [
    check.add_check,
    fix.add_fix,
    discover.add_discover,
    lists.add_import,
    lists.add_render,
    publish.add_comment,
    publish.add_audit,
    publish.add_report,
    scope.add_explain,
    scope.add_scope,
    lists.add_init,
]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    return _parsers()[0]


def _parsers() -> tuple[argparse.ArgumentParser, Mapping[str, argparse.ArgumentParser]]:
    """The argument parser and each subcommand's own, by name."""
    parser = argparse.ArgumentParser(
        prog="curator", description="Verify a curated list of LLM-memory papers and projects."
    )
    parser.add_argument("--version", action="version", version=f"curator {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add in SUBCOMMANDS:
        add(sub)
    return parser, sub.choices


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """The parsed command line. An unknown option is the subcommand's usage error (exit 2),
    so the usage shown is the one that lists its options, not the bare `curator COMMAND`."""
    parser, commands = _parsers()
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        where = commands.get(args.command or "", parser)
        where.error(f"unrecognized arguments: {' '.join(unknown)}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run curator; return the exit status (0 clean, 1 findings, 2 bad input or usage)."""
    args = parse(argv)
    if args.command is None:
        build_parser().print_help(sys.stderr)
        return 2
    try:
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


def run() -> int:
    """The `curator` command and `python -m curator`: `main` in a process that ends with it."""
    status = main()
    heap.before_exit()
    return status


def _fail(message: str) -> None:
    """The one stderr line of exit 2; names from the checked tree are escaped."""
    from curator.console.sanitize import terminal

    print(f"curator: error: {terminal(message)}", file=sys.stderr)


def _os_error(exc: OSError) -> str:
    """One line for a file-system error: the file and the system's reason."""
    reason = exc.strerror or str(exc)
    return f"{exc.filename}: {reason}" if exc.filename else reason
