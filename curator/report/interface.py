"""The output formats of `--format`, each a pure function (Report, context) -> text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from curator.core.model import Format, Report
from curator.core.registry import Lazy, Registry

Renderer = Callable[[Report, Any], str]

#: Format -> its `render(report, ctx) -> str` function, imported when first used.
RENDERERS: Registry[Format, Renderer] = Registry(
    "renderer",
    {
        Format.TEXT: Lazy("curator.report.text", "render"),
        Format.MARKDOWN: Lazy("curator.report.markdown", "render"),
        Format.JSON: Lazy("curator.report.json", "render"),
        Format.SARIF: Lazy("curator.report.sarif", "render"),
        Format.GITHUB: Lazy("curator.report.github", "render"),
    },
)


def renderer(fmt: Format) -> Renderer:
    """The render function of a format (imported lazily)."""
    return RENDERERS[fmt]


__all__ = ["RENDERERS", "Format", "Renderer", "renderer"]
