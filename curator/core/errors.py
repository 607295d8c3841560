"""The fatal errors: bad input or usage. Per-item problems are values, never these."""

from __future__ import annotations


class CuratorError(Exception):
    """Root of curator's fatal errors; the CLI turns each into one line and exit 2."""


class InputError(CuratorError):
    """Unreadable or malformed input, located at file and line when known."""

    def __init__(self, message: str, file: str = "", line: int = 0) -> None:
        self.message = message
        self.file = file
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line else "")
        return f"{where}: {self.message}" if where else self.message


class UsageError(CuratorError):
    """A command line or configuration that cannot work."""
