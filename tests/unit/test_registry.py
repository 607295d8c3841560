"""core/registry.py: the one shape of sources, resolvers, checks and renderers."""

from __future__ import annotations

import subprocess
import sys

import pytest

from curator.core.model import Format, Service
from curator.core.registry import Lazy, Registry
from curator.report.interface import RENDERERS, renderer
from curator.run.registries import CHECKS, RESOLVERS, SOURCES
from curator.sources.formats import Reader


def test_a_lazy_entry_is_imported_when_first_asked_for() -> None:
    code = (
        "import sys\n"
        "from curator.core.registry import Lazy, Registry\n"
        "r = Registry('function', {'dump': Lazy('json', 'dumps')})\n"
        "before = 'json' in sys.modules\n"
        "assert r['dump']([1]) == '[1]'\n"
        "print(before, 'json' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True"]


def test_a_dotted_name_reaches_an_attribute_of_a_class() -> None:
    registry: Registry[str, object] = Registry("method", {"now": Lazy("datetime", "datetime.now")})
    assert callable(registry["now"])


def test_an_entry_of_the_wrong_kind_names_itself() -> None:
    registry: Registry[str, object] = Registry("function", {"pi": Lazy("math", "pi")})
    with pytest.raises(TypeError, match=r"math\.pi is not a function"):
        registry["pi"]


def test_an_implementation_is_registered_as_itself_and_loaded_once() -> None:
    registry: Registry[str, object] = Registry("function", {"len": Lazy("builtins", "len")})
    registry["abs"] = abs
    assert registry["abs"] is abs and registry["len"] is len
    assert list(registry) == ["len", "abs"] and len(registry) == 2
    del registry["abs"]
    assert "abs" not in registry


def test_every_registry_of_the_run_has_one_entry_per_key() -> None:
    assert set(RENDERERS) == set(Format)
    assert set(SOURCES) == set(Reader)
    assert set(RESOLVERS) == set(CHECKS) == {Service.ARXIV, Service.GITHUB, Service.WEB}
    assert renderer(Format.JSON).__module__ == "curator.report.json"
