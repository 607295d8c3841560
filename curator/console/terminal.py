"""What every command's terminal output shares: the width, the colour decision, paths relative
to the working directory, inert one-line text, wrapping in display cells, and the pieces of a
summary line (`Found 3 errors, 5 warnings in 42 entries (…) in 2.1 s`).

The shapes are ruff's and mypy's: `path:line: severity code message`, relative paths, one
summary line. Widths are counted in terminal cells (rich's `cell_len`: a CJK character or an
emoji takes two), so no line is ever wider than the terminal. Colour only on a terminal,
never with `NO_COLOR` (https://no-color.org), always with `FORCE_COLOR` or `--color always`.
Every string that came from the checked tree or a service goes through `inert` (that is,
`sanitize.terminal`) before it is shown.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING, TextIO

from curator.console.sanitize import terminal
from curator.core.model import RequestCounts, Severity

if TYPE_CHECKING:  # rich is imported when text is laid out: a JSON run never loads it
    from rich.console import Console
    from rich.text import Text

#: The width text is measured against when nothing says otherwise.
DEFAULT_WIDTH = 80
#: Off a terminal with no $COLUMNS (a pipe, a file, a CI log): lines stay whole, so a URL or
#: a message is never cut for grep, a pager or a log viewer that wraps on its own.
NO_WRAP = 1_000_000

#: How each severity (and the parts around it) looks when colour is on.
SEVERITY_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
PATH_STYLE = "bold"
SUGGESTION_STYLE = "green"
EVIDENCE_STYLE = "dim"

#: Indent of the lines under a finding (its suggestion, its evidence) and of wrapped lines.
INDENT = 4


class ColorChoice(StrEnum):
    """Every `--color` value: decide from the terminal and environment, or force it."""

    AUTO = "auto"
    ALWAYS = "always"
    NEVER = "never"


@dataclass(frozen=True)
class Display:
    """Where text is shown: its width in cells, colour or not, verbose or compact, and the
    working directory paths are shown relative to ("": as given)."""

    width: int = DEFAULT_WIDTH
    color: bool = False
    verbose: bool = False
    cwd: str = ""


def detect(
    stream: TextIO | None,
    color: ColorChoice | str = ColorChoice.AUTO,
    verbose: bool = False,
    env: Mapping[str, str] | None = None,
) -> Display:
    """The Display for writing to `stream` (None: a file) in this process's environment."""
    env = os.environ if env is None else env
    tty = is_terminal(stream)
    return Display(
        width=width_of(stream if tty else None, env),
        color=wants_color(ColorChoice(color), tty, env),
        verbose=verbose,
        cwd=os.getcwd(),
    )


def is_terminal(stream: TextIO | None) -> bool:
    """True when `stream` is an interactive terminal."""
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError, OSError):  # closed or replaced streams
        return False


def width_of(terminal_stream: TextIO | None, env: Mapping[str, str]) -> int:
    """The terminal's width in cells (narrower if $COLUMNS says so, never wider); off a
    terminal, $COLUMNS, else no limit (NO_WRAP)."""
    columns = env.get("COLUMNS", "")
    asked = int(columns) if columns.isdigit() and int(columns) > 0 else 0
    real = 0
    if terminal_stream is not None:
        try:
            real = os.get_terminal_size(terminal_stream.fileno()).columns
        except (AttributeError, ValueError, OSError):
            real = 0
    if real > 0:
        return min(real, asked) if asked else real
    return asked or NO_WRAP


def wants_color(choice: ColorChoice, tty: bool, env: Mapping[str, str]) -> bool:
    """`--color` first; then NO_COLOR (any value) turns colour off, FORCE_COLOR (any value)
    on; otherwise colour only on a terminal that is not `dumb`."""
    if choice is not ColorChoice.AUTO:
        return choice is ColorChoice.ALWAYS
    if env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR"):
        return True
    return tty and env.get("TERM") != "dumb"


# -- text from outside ------------------------------------------------------------------------
def inert(value: object) -> str:
    """Untrusted text as one inert line: whitespace runs become one space, and every control,
    format or bidi character is shown as an escape (`sanitize.terminal`), never sent."""
    return terminal(" ".join(str(value).split()))


def inert_lines(value: object) -> list[str]:
    """Untrusted text's lines, each made inert; blank lines dropped."""
    return [line for line in (inert(part) for part in str(value).splitlines()) if line]


def shown_path(file: str, cwd: str) -> str:
    """`file` relative to `cwd` when it is an absolute path inside it; otherwise as given."""
    if not cwd or not os.path.isabs(file):
        return file
    rel = os.path.relpath(file, cwd)
    return file if rel == os.pardir or rel.startswith(os.pardir + os.sep) else rel


def relative_in(text: str, cwd: str) -> str:
    """`text` with the working directory's prefix taken off every absolute path inside it."""
    root = cwd.rstrip("/")
    if not root:
        return text
    return re.sub(rf"(?<![\w./-]){re.escape(root)}/(?=[^/])", "", text)


# -- lines ------------------------------------------------------------------------------------
def wrap(text: Text, width: int, indent: int = INDENT) -> list[Text]:
    """`text` cut into lines of at most `width` cells, the lines after the first indented by
    `indent` spaces (words longer than a line are folded)."""
    from rich.text import Text

    lines = text.wrap(_measure(), max(width, 1), overflow="fold")
    if len(lines) <= 1 or indent <= 0 or indent * 2 > width:
        return [_rstrip(line) for line in lines]
    first = lines[0]
    rest = text[len(first.plain) :]
    rest = rest[len(rest.plain) - len(rest.plain.lstrip(" ")) :]
    tail = rest.wrap(_measure(), width - indent, overflow="fold")
    return [_rstrip(first)] + [Text(" " * indent) + _rstrip(line) for line in tail]


def fit(text: str, width: int | None) -> str:
    """Plain multi-line text (`explain`, `discover`) made inert line by line and, given a
    `width`, wrapped to it, each line's continuation two spaces deeper than the line."""
    from rich.text import Text

    out: list[Text] = []
    for line in text.splitlines():
        body = inert(line)
        depth = len(line) - len(line.lstrip(" ")) if body else 0
        shown = Text(" " * depth + body)
        out += wrap(shown, width, depth + 2) if width else [shown]
    return write(out, Display())


def terminal_width(stream: TextIO | None) -> int | None:
    """The width long-form text is wrapped to: the terminal's; None (as it is) off one, so a
    quote copied from a file or a pipe is whole."""
    return width_of(stream, os.environ) if is_terminal(stream) else None


@cache
def _measure() -> Console:
    """A console for measuring: wrapping needs one; it writes nowhere."""
    from rich.console import Console

    return Console(file=io.StringIO(), width=DEFAULT_WIDTH, color_system=None, emoji=False)


def _rstrip(line: Text) -> Text:
    out = line.copy()
    out.rstrip()
    return out


def write(lines: Iterable[Text], display: Display) -> str:
    """The lines as the text to print: plain, or with ANSI styles when colour is on."""
    if not display.color:
        return "".join(line.plain + "\n" for line in lines)
    from rich.console import Console

    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=display.width,
        force_terminal=True,
        color_system="standard",
        no_color=False,
        highlight=False,
        emoji=False,
        markup=False,
    )
    for line in lines:
        console.print(line, soft_wrap=True)  # already cut to the width: no second wrap
    return buffer.getvalue()


# -- the summary line -------------------------------------------------------------------------
def plural(n: int, noun: str, many: str = "") -> str:
    """`1 error`, `3 errors`; `many` for irregular plurals (`entry`, `entries`)."""
    return f"{n} {noun if n == 1 else many or noun + 's'}"


def found(counts: Mapping[Severity, int]) -> str:
    """`Found 3 errors, 5 warnings, 1 info` (severities with none left out), or `No findings`."""
    parts = [plural(counts.get(s, 0), s.value) for s in Severity if counts.get(s, 0)]
    return f"Found {', '.join(parts)}" if parts else "No findings"


def style_of(counts: Mapping[Severity, int]) -> str:
    """The style of a summary: that of the worst severity found, green when none."""
    for severity in Severity:  # worst first
        if counts.get(severity, 0):
            return SEVERITY_STYLE[severity]
    return "bold green"


def requests_phrase(requests: RequestCounts, detail: bool = False) -> str:
    """`12 arXiv, 3 GitHub, 40 web requests; 80 from cache` (services asked nothing left out);
    `detail` splits GitHub into GraphQL and REST."""
    github = requests.github_graphql + requests.github_rest
    named = [(requests.arxiv, "arXiv"), (github, "GitHub"), (requests.web, "web")]
    named += [(n, inert(name.replace("_", " "))) for name, n in requests.added().items()]
    parts = [f"{n} {name}" for n, name in named if n]
    if detail and github:
        apis = ((requests.github_graphql, "GraphQL"), (requests.github_rest, "REST"))
        split = ", ".join(f"{n} {api}" for n, api in apis if n)
        parts = [f"{p} ({split})" if p == f"{github} GitHub" else p for p in parts]
    sent = f"{', '.join(parts)} {'request' if requests.total == 1 else 'requests'}"
    phrase = sent if parts else "no requests"
    return f"{phrase}; {requests.cache_hits} from cache" if requests.cache_hits else phrase


def seconds(elapsed: float) -> str:
    """`2.1 s`."""
    return f"{elapsed:.1f} s"
