"""The one JSON reader: every JSON text curator reads (files of the tree, service answers,
saved reports, cache rows) is decoded here, with its nesting bounded first.

Python's json module recurses once per level, so 100,000 nested brackets raise
RecursionError, which no caller expects. `loads` counts the nesting first, with a linear scan
that skips strings (bytes operations in C, then a running sum over the brackets left), and
refuses text nested deeper than the caller allows with `TooDeep`: a ValueError, like every
other refusal here (NaN and Infinity, which are not JSON; a number that overflows a float;
bytes that are not UTF-8). So a caller handles one exception: a file of the tree is one
located InputError (`read_json`), a service's answer is unverified.
"""

from __future__ import annotations

import json
import math
from itertools import accumulate
from pathlib import Path
from typing import Any

from curator.core.errors import InputError
from curator.textio.text import read_text

#: Deeper than any JSON curator reads (a GraphQL answer nests about ten levels).
MAX_DEPTH = 64

#: Every byte but quotes and brackets (deleted by bytes.translate).
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'"[]{}')
#: +1 for an opening bracket, -1 for a closing one, by byte value.
_STEP = [{ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}.get(b, 0) for b in range(256)]


class TooDeep(ValueError):
    """JSON nested deeper than the reader allows."""


def depth(data: str | bytes) -> int:
    """The deepest nesting of arrays and objects in a JSON text, brackets in strings ignored.

    For any text json.loads accepts, and for the part of any other text it reads before
    failing, this is the depth json.loads recurses to: both see the same strings.
    """
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    # Escaped backslashes go first (paired from the left, as json pairs them), then escaped
    # quotes: every quote left opens or closes a string. Of the quotes and brackets kept, two
    # adjacent quotes enclose nothing or nothing lies between them, so dropping them changes
    # no bracket's side; the even pieces between the quotes left are outside strings.
    kept = raw.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _NOT_STRUCTURE)
    outside = b"".join(kept.replace(b'""', b"").split(b'"')[::2])
    return max(accumulate(map(_STEP.__getitem__, outside)), default=0)


def check_depth(data: str | bytes, max_depth: int = MAX_DEPTH) -> None:
    """TooDeep when the JSON text nests deeper than `max_depth`."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    # Fewer brackets than the limit cannot nest past it: most texts skip the scan.
    if raw.count(b"[") + raw.count(b"{") > max_depth and depth(raw) > max_depth:
        raise TooDeep(f"nested deeper than {max_depth} levels")


def loads(data: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """The value of a JSON text (bytes: UTF-8); ValueError for anything else, TooDeep when
    it nests deeper than `max_depth`."""
    text = data.decode("utf-8-sig") if isinstance(data, bytes) else data
    check_depth(data, max_depth)
    try:
        return DECODER.decode(text)
    except RecursionError:  # not reached after the check; kept so no caller ever sees one
        raise TooDeep("nested too deeply") from None


def read_json(path: Path, name: str = "", max_depth: int = MAX_DEPTH) -> Any:
    """The JSON value of a file of the tree; InputError naming the file (and line) otherwise."""
    name = name or path.as_posix()
    return parse_json(read_text(path, name), name, max_depth)


def parse_json(text: str, name: str, max_depth: int = MAX_DEPTH) -> Any:
    """The JSON value of the text of a file of the tree (read from disk or from a revision);
    InputError naming the file (and line) otherwise."""
    try:
        return loads(text, max_depth)
    except json.JSONDecodeError as exc:
        raise InputError(f"invalid JSON: {exc.msg}", name, exc.lineno) from None
    except ValueError as exc:
        raise InputError(f"invalid JSON: {reason(exc)}", name) from None


def reason(exc: ValueError) -> str:
    """A short, one-line reason for a refusal of `loads`."""
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.msg} (line {exc.lineno} column {exc.colno})"
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:200]


def _no_constant(name: str) -> float:
    """NaN and Infinity are not JSON: refused."""
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    """A JSON number as a float, refused when it overflows (1e400 is no real value)."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text[:20]} is out of range")
    return value


def _integer(text: str) -> int:
    """A JSON integer, refused when no float could hold it (a 400-digit "line" or "score" is
    no real value, and float() of it raises OverflowError where a reader converts it)."""
    if len(text.lstrip("-")) > 300:
        raise ValueError(f"number {text[:20]}... is out of range")
    return int(text)


#: The decoder of `loads` (`raw_decode` for readers that locate each value they read).
DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite, parse_int=_integer)
