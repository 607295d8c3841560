"""The command line: argparse → Options → pipeline → renderer. The only layer that exits.

One module per command family, each adding its parsers and runners (a runner returns the exit
status): `check` (check, and what audit and report share with it), `publish` (comment, audit,
report), `lists` (import, render, init), `scope` (explain, scope train, scope evaluate), and
`discover`. Runners import their implementation lazily, so `curator --version` stays fast.
"""

from __future__ import annotations

from curator.cli.app import build_parser, main, run
from curator.cli.check import emit, exit_status, options_from

__all__ = ["build_parser", "emit", "exit_status", "main", "options_from", "run"]
