"""The list's own settings file, `rules/curator.yaml`: the home of a list's settings.

An awesome-list has no pyproject.toml; its settings (the scope preset, severities, what to
check and what to skip) live beside its rules, in the top level's `rules/` folder, and every
command reads them (options.build). The keys are `[tool.curator]`'s, in snake or kebab case,
and the same checks apply: no setting that weakens security, no path out of the tree. In
pull-request mode the file is read from the base revision, as `[tool.curator]` is
(config_files). Read with the one located-YAML reader, so each error names file and line.
"""

from __future__ import annotations

from dataclasses import dataclass

from curator.config.config_files import ConfigFiles
from curator.core.errors import InputError
from curator.textio.located_yaml import compose, construct, mapping_nodes, node_line

#: Where the settings file is, relative to the repository's top level.
SETTINGS = "rules/curator.yaml"


@dataclass(frozen=True)
class Setting:
    """One key of the file: its value as YAML loads it, and the line it is on."""

    key: str
    value: object
    line: int


def read_settings(files: ConfigFiles) -> tuple[str, list[Setting]]:
    """(how errors name the file, its settings in file order); no file or an empty one has
    none. InputError with file and line when it is no YAML mapping of plain keys."""
    name = files.display(SETTINGS)
    text = files.read(SETTINGS)
    root = None if text is None else compose(text, name)
    if root is None:
        return name, []
    items = mapping_nodes(root, name, "the settings file")
    return name, [
        Setting(key, construct(value, name), node_line(key_node))
        for key, (key_node, value) in items.items()
    ]


def located(error: Exception, name: str, line: int) -> InputError:
    """A settings error as one line naming the file and the key's line."""
    message = getattr(error, "message", None) or str(error)
    return InputError(message, name, line)
