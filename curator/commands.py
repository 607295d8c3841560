"""Subcommands beyond `check`, each registering its own argparse parser and runner."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: Functions that add one subcommand to the argparse sub-parsers object.
REGISTER: list[Callable[[Any], None]] = []
