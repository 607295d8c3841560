"""Scope decisions remembered in the SQLite cache, so a warm run decides no paper twice.

`decide` is pure: a decision follows from the paper's text, the scope rules (and scorer) and
the engine's code. The key is a digest of all three, so a changed rule, scorer, engine or
paper text is a new key that never meets an old decision: rows cannot go stale and need no
TTL. A row that does not read back as a decision (another tool, a hand edit) is a miss.

Only this module touches the cache; the stage itself (scope.stage) stays pure.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from curator.core.decision import Decision, PaperText
from curator.core.digest import code_digest
from curator.net.cache import Cache
from curator.scope.engine import decide
from curator.scope.rules import ScopeRules

#: The cache's service name for decisions.
SERVICE = "scope"
#: The code a decision depends on: the scope engine and the verdicts and codes it names.
ENGINE_FILES = (
    "core/decision.py",
    "scope/engine.py",
    "scope/matching.py",
    "scope/rule_item.py",
    "scope/rules.py",
    "scope/scorer.py",
    "scope/signals.py",
    "scope/lexical.py",
    "core/codes.py",
    "core/model.py",
)


#: What the engine reads of a paper, in the order of its fields.
_PAPER_FIELDS = tuple(f.name for f in dataclasses.fields(PaperText))


def engine_digest() -> str | None:
    """A digest of the engine's source and the Python running it (its `re` and Unicode data
    decide what a phrase matches); None when the source cannot be read (then nothing is kept)."""
    return code_digest(ENGINE_FILES)


def stored(decision: Decision, paper: PaperText) -> dict[str, Any]:
    """A decision as kept: `as_dict` with the scorer's numbers unrounded, so that reading
    it back gives the same decision (the report rounds them; `include` must not move).

    A quote whose text is the paper's own text at the quote's place is kept without it
    (`restored` cuts it again): the same sentences stand behind most signals, and were most
    of a row.
    """
    value = decision.as_dict(exact=True)
    for quote in _quotes(value):
        if _cut(paper, quote) == quote["text"]:
            del quote["text"]
    return value


def restored(value: Mapping[str, Any], paper: PaperText) -> Decision | None:
    """The decision `stored` wrote for `paper`, or None for a value that is not one."""
    try:
        texts: dict[tuple[Any, ...], str] = {}
        for quote in _quotes(value):
            if "text" not in quote:
                place = (quote["field"], quote["start"], quote["end"])
                # One string for every quote of the same sentence, as a fresh decision has.
                quote["text"] = texts.setdefault(place, _cut(paper, quote))
        return Decision.from_dict(value)
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError):
        # OverflowError: an integer no float holds where a score belongs.
        return None


def _quotes(value: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """Every quote of a stored decision: its own, and those of the scorer's signals and words."""
    yield from value.get("quotes") or ()
    scorer = value.get("scorer") or {}
    for part in ("signals", "terms"):
        for weighed in scorer.get(part) or ():
            if weighed.get("quote") is not None:
                yield weighed["quote"]


def _cut(paper: PaperText, quote: Mapping[str, Any]) -> str:
    """The paper's text at a quote's place."""
    start, end = quote["start"], quote["end"]
    if not (isinstance(start, int) and isinstance(end, int)):
        raise TypeError("a quote's place is two integers")
    return paper.field(str(quote["field"]))[start:end]


class DecisionMemo:
    """Remembered decisions for one rules file, read and written in batches."""

    def __init__(self, cache: Cache, rules: ScopeRules, engine: str) -> None:
        self.cache = cache
        # The rules are frozen dataclasses all the way down (patterns, scorer weights): their
        # repr is the whole policy, in file order.
        self.salt = hashlib.sha256(f"{engine}\0{rules!r}".encode()).hexdigest()

    def key(self, paper: PaperText) -> str:
        """The digest of the rules, the engine and everything the engine reads of the paper."""
        # The JSON of astuple(paper), without astuple's deep copy (a warm run keys every
        # paper of the list); json writes the tags tuple as the list astuple gives.
        fields = [getattr(paper, name) for name in _PAPER_FIELDS]
        text = json.dumps(fields, ensure_ascii=False)
        return hashlib.sha256(f"{self.salt}\0{text}".encode()).hexdigest()

    def recall(self, papers: Iterable[PaperText]) -> dict[PaperText, Decision]:
        """The decisions already kept for these papers."""
        keys = {self.key(p): p for p in papers}
        found: dict[PaperText, Decision] = {}
        for key, value in self.cache.recall(SERVICE, list(keys)).items():
            decision = restored(value, keys[key])
            if decision is not None:
                found[keys[key]] = decision
        return found

    def keep(self, decided: Mapping[PaperText, Decision]) -> None:
        """Store new decisions in one transaction."""
        self.cache.keep(SERVICE, [(self.key(p), stored(d, p)) for p, d in decided.items()])


def decide_all(
    papers: Iterable[PaperText], rules: ScopeRules, memo: DecisionMemo | None
) -> dict[PaperText, Decision]:
    """Every paper's decision: remembered ones from the memo, the rest decided and kept."""
    wanted = list(dict.fromkeys(papers))
    known = memo.recall(wanted) if memo is not None else {}
    new = {p: decide(p, rules) for p in wanted if p not in known}
    if memo is not None and new:
        memo.keep(new)
    return {**known, **new}
