"""`python -m curator` runs the command line."""

from curator.cli import run

raise SystemExit(run())
