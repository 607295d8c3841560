"""A list's rules files, read once per run: where they are and what each one holds.

Where: `--rules DIR`, else a `rules/` folder next to the list, else the list's root `rules/`;
a scope policy missing there may be a shipped, named preset. What: `links.yaml`
(rulefiles.links), `projects.yaml` (rulefiles.projects) and `scope.yaml` (curator.scope.rules,
the screening policy). Every file is read with curator.located_yaml, so each error names its
file and line. Checks and resolvers receive the loaded values; none of them reads a file.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

from curator import json_text
from curator.errors import UsageError
from curator.model import Service
from curator.options import Options
from curator.rulefiles.links import load_link_rules, with_trusted_allow
from curator.rulefiles.projects import load_project_rules

#: Scope policies shipped with curator (curator/presets/NAME.yaml).
SCOPE_PRESETS = ("llm-memory",)


def rules_folder(options: Options) -> Path:
    """The rules folder of this run (it may not exist: then every rule has its default).

    An explicit `rules_dir` (command line, environment, pyproject) is taken as given. Otherwise
    the first `rules/` beside a checked path, then the root's: only folders inside the root, so
    a symlink in a pull request cannot make curator read rules from elsewhere on the runner.
    """
    root = Path(options.root)
    if options.rules_dir:
        return root / options.rules_dir
    top = root.resolve()
    for path in options.paths:
        near = Path(path).resolve().parent / "rules"
        if near.is_dir() and near.resolve().is_relative_to(top):
            return near
    return root / "rules"


def load_scope_preset(name: str) -> Any:
    """The shipped scope policy `name`; UsageError naming the presets for another name."""
    from curator.scope.rules import parse_rules

    if name not in SCOPE_PRESETS:
        raise UsageError(f"--scope-preset takes {', '.join(SCOPE_PRESETS)}, not {name!r}")
    folder = resources.files("curator.presets")
    rules = parse_rules(
        (folder / f"{name}.yaml").read_text(encoding="utf-8"), f"scope preset {name}"
    )
    if not rules.scorer_file:
        return rules
    from curator.scope.scorer import parse_scorer

    # The preset's learned scorer ships beside it, as the list's own does beside scope.yaml.
    data = json_text.loads((folder / rules.scorer_file).read_text(encoding="utf-8"))
    return replace(rules, scorer=parse_scorer(data, f"scope preset {name}: {rules.scorer_file}"))


def scope_not_checked(options: Options) -> str:
    """The report note of a run without a scope policy (the folder relative to the root)."""
    folder = rules_folder(options)
    with contextlib.suppress(ValueError):
        folder = folder.resolve().relative_to(Path(options.root).resolve())
    return (
        f"scope not checked: no scope.yaml in {folder.as_posix()} and no scope preset "
        f"(--scope-preset {SCOPE_PRESETS[0]})"
    )


def load_rules(options: Options) -> dict[str, Any]:
    """The rules of the services in use, by key (`projects`, `links`, `scope`); a missing file
    means the defaults (for scope: the named preset, if any, else no scope check)."""
    folder = rules_folder(options)
    rules: dict[str, Any] = {}
    if not options.skips(Service.GITHUB):
        rules["projects"] = load_project_rules(folder / "projects.yaml")
    if not options.skips(Service.WEB):
        links = load_link_rules(folder / "links.yaml")
        rules["links"] = with_trusted_allow(links, options.guard_allow)
    if not options.skips(Service.SCOPE):
        path = folder / "scope.yaml"
        if path.is_file():
            from curator.scope.rules import load_rules as load_scope_rules

            rules["scope"] = load_scope_rules(path)
        elif options.scope_preset:
            rules["scope"] = load_scope_preset(options.scope_preset)
    return rules
