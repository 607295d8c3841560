"""The one shape of every extension point: a `Registry` of implementations by key.

Sources, resolvers, checks and renderers are each a `Registry`: a key (a reader, a service,
a format) maps to its implementation, written either as the implementation itself or as a
`Lazy` reference (module and attribute) that is imported the first time a run asks for it. A
run asks only some of them (a pull request that adds one paper asks arXiv alone), and
`curator --version` or a run that fails on its input asks none: importing every resolver with
its HTTP stack up front cost about half of the pipeline's import time. Each implementation is
checked when it is first loaded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass
from importlib import import_module
from typing import Generic, TypeVar, cast

K = TypeVar("K")
T = TypeVar("T")


@dataclass(frozen=True)
class Lazy(Generic[T]):
    """The attribute `name` of `module` (a dotted path below it: "Class.method"), imported
    when first loaded."""

    module: str
    name: str

    def load(self) -> T:
        """The implementation itself."""
        found: object = import_module(self.module)
        for part in self.name.split("."):
            found = getattr(found, part)
        return cast(T, found)


class Registry(MutableMapping[K, T], Generic[K, T]):
    """Implementations by key, each loaded (and checked by `valid`) on first use.

    A new implementation is one line: `key: Lazy(module, name)`, or the implementation
    itself (as a test adds one: `monkeypatch.setitem(REGISTRY, key, implementation)`)."""

    def __init__(
        self,
        what: str,
        entries: Mapping[K, T | Lazy[T]],
        valid: Callable[[object], bool] = callable,
    ) -> None:
        self.what = what
        self._valid = valid
        self._entries: dict[K, T | Lazy[T]] = dict(entries)

    def __getitem__(self, key: K) -> T:
        entry = self._entries[key]
        if not isinstance(entry, Lazy):
            return entry
        found = entry.load()
        if not self._valid(found):
            raise TypeError(f"{entry.module}.{entry.name} is not a {self.what}")
        self._entries[key] = found  # loaded once
        return found

    def __setitem__(self, key: K, value: T | Lazy[T]) -> None:
        self._entries[key] = value

    def __delitem__(self, key: K) -> None:
        del self._entries[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries
