"""curator.textio.json_text: the one JSON reader, its depth scan and its refusals."""

from __future__ import annotations

import ast
import json
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from curator.core.errors import InputError
from curator.textio import json_text

CURATOR = Path(__file__).resolve().parents[2] / "curator"
#: Strings that look like structure to a careless scan.
TRICKY = st.sampled_from(['"', "\\", '\\"', "[", "]{", '"["', "\\\\", '\\"[', "", '""', "\u2028"])
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text() | TRICKY,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text() | TRICKY, inner, max_size=4)
    ),
    max_leaves=30,
)


def nesting(value: Any) -> int:
    """The depth json.loads recurses to for `value`."""
    if isinstance(value, list):
        return 1 + max(map(nesting, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(nesting, value.values()), default=0)
    return 0


@given(VALUES, st.booleans())
def test_depth_is_the_nesting_of_the_value(value: Any, ascii_only: bool) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert json_text.depth(text) == nesting(value)
    assert json_text.depth(text.encode()) == nesting(value)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[" * 65 + "]" * 65, "nested deeper than 64 levels"),
        ("[" * 100_000, "nested deeper than 64 levels"),  # not even closed
        ("[NaN]", "NaN is not a JSON number"),
        ('{"a": -Infinity}', "-Infinity is not a JSON number"),
        ("[1e400]", "out of range"),
        ("[1, 2", "Expecting"),
    ],
)
def test_refusals_are_value_errors(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        json_text.loads(text)


def test_the_limit_is_the_callers() -> None:
    text = "[" * 10 + "]" * 10
    assert json_text.loads(text) == json.loads(text)
    with pytest.raises(json_text.TooDeep):
        json_text.loads(text, max_depth=9)


def test_brackets_in_strings_are_no_nesting() -> None:
    text = json.dumps({"a": "[" * 100_000, "b": ['\\"[[[', "\\\\"]})
    assert json_text.loads(text)["b"] == ['\\"[[[', "\\\\"]


def test_bytes_must_be_utf8() -> None:
    assert json_text.loads('\ufeff{"a": "é"}'.encode()) == {"a": "é"}
    with pytest.raises(ValueError, match="utf-8"):
        json_text.loads(b'["\xff"]')


def test_the_scan_is_linear() -> None:
    """A megabyte of brackets, strings and escapes, open or closed, in well under a second."""
    for text in ("[" * 1_000_000, '["\\\\",' * 150_000, '"[' * 500_000):
        started = time.perf_counter()
        json_text.depth(text)
        assert time.perf_counter() - started < 0.5


def test_a_file_is_one_located_line(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{\n  "a": [1,\n}\n', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        json_text.read_json(path)
    assert (caught.value.file, caught.value.line) == (path.as_posix(), 3)
    path.write_text("[" * 100_000, encoding="utf-8")
    with pytest.raises(InputError, match="nested deeper than 64"):
        json_text.read_json(path)


def _json_decoding_calls(path: Path) -> list[str]:
    """`json.loads`, `json.load` and `json.JSONDecoder` uses in one module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{path.relative_to(CURATOR)}:{node.lineno}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "json"
        and node.attr in {"loads", "load", "JSONDecoder"}
    ]


@pytest.mark.slow
def test_every_json_read_goes_through_json_text() -> None:
    """One reader: a new `json.loads` elsewhere would bring the RecursionError back."""
    found = [
        call
        for path in sorted(CURATOR.rglob("*.py"))
        if path.name != "json_text.py"
        for call in _json_decoding_calls(path)
    ]
    assert found == []


def test_an_integer_no_float_can_hold_is_refused() -> None:
    # A reader converting it with float() would raise OverflowError: a traceback, not exit 2.
    with pytest.raises(InputError, match="out of range") as caught:
        json_text.parse_json('{"floor": 1' + "0" * 400 + "}", "r.json")
    assert caught.value.file == "r.json"
    assert json_text.loads('{"n": -' + "9" * 300 + "}") == {"n": -int("9" * 300)}
