"""The rules of repository checks (rules/projects.yaml): licence, archived, staleness, stars.

Loaded once per run with `load_project_rules`; the result goes into
`CheckContext.projects`. A key left out of the file keeps its default.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from curator.core.errors import InputError
from curator.core.model import Severity
from curator.textio.located_yaml import compose, compose_file, construct, key_line, line_of

#: Values `archived` may take: a severity for repo-archived, or `off` for no finding.
ARCHIVED_CHOICES = ("error", "warning", "info", "off")


@dataclass(frozen=True)
class ProjectRules:
    """What the repository checks demand; the defaults are the README's."""

    license_required: bool = True
    archived: str = "warning"
    stale_days: int = 365
    min_stars: int = 0

    @property
    def archived_severity(self) -> Severity | None:
        """The severity of repo-archived, or None when archived repositories are fine."""
        return None if self.archived == "off" else Severity(self.archived)


def load_project_rules(path: Path) -> ProjectRules:
    """Read rules/projects.yaml; defaults when the file is absent, InputError when malformed."""
    return _of_node(compose_file(path), path.as_posix())


def parse_project_rules(text: str | None, name: str) -> ProjectRules:
    """The rules of a projects.yaml text (None: no file, so the defaults); `name` in errors."""
    return _of_node(None if text is None else compose(text, name), name)


def _of_node(root: yaml.Node | None, name: str) -> ProjectRules:
    """The rules of the file's node tree (None: empty or absent)."""
    if root is None:
        return ProjectRules()
    if not isinstance(root, yaml.MappingNode):
        raise InputError("expected a mapping of rule names to values", name, line_of(root, []))
    values = construct(root, name)
    if not isinstance(values, dict):  # pragma: no cover - a mapping node constructs a dict
        raise InputError("expected a mapping of rule names to values", name, 1)
    return ProjectRules(**{k: _value(k, v, root, name) for k, v in values.items()})


def _value(key: Any, value: Any, root: yaml.Node, name: str) -> Any:
    """One checked rule value; InputError at the key's or value's line when wrong."""
    if key == "license_required":
        if not isinstance(value, bool):
            raise InputError("license_required must be true or false", name, line_of(root, [key]))
        return value
    if key == "archived":
        if value is False:  # YAML reads a bare `off` as false
            return "off"
        if not isinstance(value, str) or value not in ARCHIVED_CHOICES:
            choices = ", ".join(ARCHIVED_CHOICES)
            raise InputError(f"archived must be one of {choices}", name, line_of(root, [key]))
        return value
    if key in ("stale_days", "min_stars"):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise InputError(f"{key} must be a whole number >= 0", name, line_of(root, [key]))
        return value
    known = "license_required, archived, stale_days, min_stars"
    raise InputError(f"unknown key {key!r} (known: {known})", name, key_line(root, [], str(key)))
