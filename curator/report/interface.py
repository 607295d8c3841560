"""The output formats of `--format`, each a pure function (Report, context) -> text."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from curator.core.model import Format, Report

#: Format -> module with a `render(report, ctx) -> str` function.
RENDERERS: dict[Format, str] = {
    Format.TEXT: "curator.report.text",
    Format.MARKDOWN: "curator.report.markdown",
    Format.JSON: "curator.report.json",
    Format.SARIF: "curator.report.sarif",
    Format.GITHUB: "curator.report.github",
}


def renderer(fmt: Format) -> Callable[[Report, Any], str]:
    """The render function of a format (imported lazily)."""
    module = importlib.import_module(RENDERERS[fmt])
    render: Callable[[Report, Any], str] = module.render
    return render


__all__ = ["RENDERERS", "Format", "renderer"]
