"""The primitives every command's terminal output shares: width, colour, paths, inert text,
wrapping in display cells, and the pieces of a summary line."""

from __future__ import annotations

import fcntl
import os
import struct
import termios
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.text import Text

from curator.console import sanitize
from curator.console import terminal as t
from curator.console.terminal import ColorChoice, Display
from curator.core.model import RequestCounts, Severity


@pytest.fixture
def pty_of_width() -> Iterator[object]:
    """A factory of file objects on a pseudo-terminal whose window is N columns wide."""
    opened: list[int] = []

    def make(columns: int) -> object:
        leader, follower = os.openpty()
        opened.extend((leader, follower))
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
        return os.fdopen(follower, "w", closefd=False)

    yield make
    for fd in opened:
        os.close(fd)


@pytest.mark.parametrize(
    ("choice", "tty", "env", "expected"),
    [
        (ColorChoice.AUTO, True, {}, True),
        (ColorChoice.AUTO, False, {}, False),
        (ColorChoice.AUTO, True, {"NO_COLOR": "1"}, False),
        (ColorChoice.AUTO, True, {"NO_COLOR": "0"}, False),  # any non-empty value
        (ColorChoice.AUTO, True, {"NO_COLOR": ""}, True),  # empty: not set
        (ColorChoice.AUTO, True, {"TERM": "dumb"}, False),
        (ColorChoice.AUTO, False, {"FORCE_COLOR": "1"}, True),
        (ColorChoice.AUTO, True, {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
        (ColorChoice.ALWAYS, False, {"NO_COLOR": "1"}, True),  # the command line wins
        (ColorChoice.NEVER, True, {"FORCE_COLOR": "1"}, False),
    ],
)
def test_colour_decision(
    choice: ColorChoice, tty: bool, env: dict[str, str], expected: bool
) -> None:
    assert t.wants_color(choice, tty, env) is expected


def test_width_comes_from_the_terminal_never_wider(pty_of_width: object) -> None:
    make = pty_of_width
    assert callable(make)
    assert t.width_of(make(37), {}) == 37
    assert t.width_of(make(37), {"COLUMNS": "200"}) == 37  # never wider than the window
    assert t.width_of(make(137), {"COLUMNS": "100"}) == 100  # narrower when asked
    assert t.detect(make(53), env={}).width == 53
    assert t.detect(make(53), env={}).color is True


def test_off_a_terminal_width_is_columns_or_80(tmp_path: object) -> None:
    assert t.width_of(None, {}) == t.NO_WRAP  # a pipe or a file: lines whole
    assert t.width_of(None, {"COLUMNS": "132"}) == 132
    assert t.width_of(None, {"COLUMNS": "wide"}) == t.NO_WRAP
    with open(os.devnull, "w") as null:
        shown = t.detect(null, env={"COLUMNS": "90", "TERM": "xterm"})
    assert (shown.width, shown.color) == (90, False)


def test_inert_collapses_whitespace_and_shows_controls() -> None:
    assert t.inert("a\n\tb  c\u2028d") == "a b c d"
    assert t.inert("\x1b[31mred\u202e") == "\\x1b[31mred\\u202e"
    assert t.inert("::error::x ##[warning]y") == ":\\x3aerror:\\x3ax #\\x23[warning]y"
    assert t.inert_lines("one\n\n\x1btwo\r\n") == ["one", "\\x1btwo"]


@pytest.mark.parametrize(
    ("file", "shown"),
    [
        ("/home/me/list/README.md", "README.md"),
        ("/home/me/list/data/a.yaml", "data/a.yaml"),
        ("/home/me/listing/a.md", "/home/me/listing/a.md"),  # a sibling, not inside
        ("/home/me/list/../other/a.md", "/home/me/list/../other/a.md"),
        ("/srv/a.md", "/srv/a.md"),
        ("data/a.yaml", "data/a.yaml"),  # given relative: as given
    ],
)
def test_shown_path(file: str, shown: str) -> None:
    assert t.shown_path(file, "/home/me/list") == shown
    assert t.shown_path(file, "") == file


def test_relative_in_free_text() -> None:
    cwd = "/home/me/list"
    text = "first at /home/me/list/data/a.yaml:3, not /home/me/listing/b or x/home/me/list/c"
    assert t.relative_in(text, cwd) == (
        "first at data/a.yaml:3, not /home/me/listing/b or x/home/me/list/c"
    )


WORDS = st.text(
    alphabet=st.sampled_from(list("abcdefghij ,.:/-") + list("記憶長期対話") + ["🧠", "é"]),
    max_size=300,
)


@given(text=WORDS, width=st.integers(min_value=2, max_value=120))  # a wide character needs 2
def test_wrapped_lines_fit_and_keep_every_character(text: str, width: int) -> None:
    lines = t.wrap(Text(text), width)
    assert all(cell_len(line.plain) <= width for line in lines)
    assert "".join(line.plain for line in lines).replace(" ", "") == text.replace(" ", "")


def test_wrapped_lines_after_the_first_are_indented() -> None:
    lines = [line.plain for line in t.wrap(Text("word " * 30), 40, indent=4)]
    assert len(lines) > 1
    assert all(line.startswith("    word") for line in lines[1:])
    assert not lines[0].startswith(" ")


def test_fit_keeps_each_line_indent_and_makes_it_inert() -> None:
    text = "head\n  - " + "long words here " * 8 + "\n\x1b[2Jend\n"
    out = t.fit(text, 40).splitlines()
    assert out[0] == "head"
    assert out[1].startswith("  - long")
    assert out[2].startswith("    ")  # two deeper than its line
    assert out[-1] == "\\x1b[2Jend"
    assert max(cell_len(line) for line in out) <= 40


def test_write_is_plain_without_colour_and_styled_with_it() -> None:
    line = Text.assemble(("a.md:1:", "bold"), " ", ("error", "bold red"))
    assert t.write([line], Display(color=False)) == "a.md:1: error\n"
    assert t.write([line], Display(color=True)) == "\x1b[1ma.md:1:\x1b[0m \x1b[1;31merror\x1b[0m\n"


def test_summary_pieces() -> None:
    assert t.plural(1, "entry", "entries") == "1 entry"
    assert t.plural(2, "entry", "entries") == "2 entries"
    assert t.found({}) == "No findings"
    assert t.found({Severity.ERROR: 1, Severity.INFO: 3}) == "Found 1 error, 3 infos"
    assert t.requests_phrase(RequestCounts()) == "no requests"
    assert t.requests_phrase(RequestCounts(cache_hits=5)) == "no requests; 5 from cache"
    counts = RequestCounts(arxiv=12, github_graphql=1, github_rest=2, web=40, cache_hits=80)
    assert t.requests_phrase(counts) == "12 arXiv, 3 GitHub, 40 web requests; 80 from cache"
    assert t.requests_phrase(RequestCounts(web=1)) == "1 web request"
    assert t.seconds(2.06) == "2.1 s"


def test_sanitize_terminal_defuses_workflow_commands() -> None:
    # The runner reads `::cmd::` after a line's indent and `##[cmd]` anywhere in a line.
    assert sanitize.terminal("  ::add-mask::x") == "  :\\x3aadd-mask:\\x3ax"
    assert sanitize.terminal("a ##[error]b") == "a #\\x23[error]b"
    assert "::" not in sanitize.terminal(":::::") and "##[" not in sanitize.terminal("###[[")


def test_fit_off_a_terminal_only_makes_inert() -> None:
    text = "  - " + "long words here " * 8 + "\x1b[2J\n"
    assert t.fit(text, None) == "  - " + ("long words here " * 8).strip() + " \\x1b[2J\n"
    assert t.terminal_width(None) is None
