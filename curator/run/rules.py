"""A list's rules files, read once per run: where they are and what each one holds.

Where: `--rules DIR`, else a `rules/` folder next to the list, else the list's root `rules/`;
a scope policy missing there may be a shipped, named preset. What: `links.yaml`
(config.links), `projects.yaml` (config.projects) and `scope.yaml` (curator.scope.rules,
the screening policy). Every file is read with curator.textio.located_yaml, so each error names its
file and line. Checks and resolvers receive the loaded values; none of them reads a file.
"""

from __future__ import annotations

import contextlib
import os
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from curator.config.config_files import ConfigFiles, WorkingTree, config_files
from curator.config.links import LinkRules, parse_link_rules, with_trusted_allow
from curator.config.options import Options
from curator.config.projects import ProjectRules, parse_project_rules
from curator.core.errors import UsageError
from curator.core.model import Service
from curator.presets import ALIASES, SCOPE_PRESETS
from curator.textio import json_text

if TYPE_CHECKING:
    from curator.scope.decided import Recorded
    from curator.scope.rules import ScopeRules

#: The files of a rules folder, besides the scorer scope.yaml names.
RULE_FILES = ("projects.yaml", "links.yaml", "scope.yaml", "scope-decisions.yaml")


@dataclass(frozen=True)
class Rules:
    """The rules of one run, one attribute per rules file. A service the run skips has None
    (no decisions for a skipped scope); `scope` is also None when the folder has no scope.yaml
    and no preset is named. Lower layers receive only their part: the check context the link
    and project rules, the web resolver the link rules, the scope stage its policy."""

    projects: ProjectRules | None = None
    links: LinkRules | None = None
    scope: ScopeRules | None = None
    #: rules/scope-decisions.yaml: the maintainers' decisions by subject.
    scope_decisions: Mapping[str, Recorded] = field(default_factory=dict)


def rules_folder(options: Options) -> Path:
    """The rules folder of this run on disk (it may not exist: then every rule has its
    default); in pull-request mode the same path is read from the base revision instead."""
    files, folder = rules_place(options)
    if isinstance(files, WorkingTree):
        return files.root / folder
    return Path(options.root) / folder


def rules_place(options: Options, files: ConfigFiles | None = None) -> tuple[ConfigFiles, str]:
    """Where this run reads its rules: the files (working tree, or the base revision in
    pull-request mode; `files` to ask another tree) and the folder in them.

    An explicit `rules_dir` (command line, environment, pyproject) is taken as given; one
    outside the repository can only come from the command line or the environment, and is
    read from disk. Otherwise the first `rules/` beside a checked path, then the root's:
    only folders inside the root, so a symlink cannot make curator read rules from
    elsewhere on the runner.
    """
    root = Path(options.root)
    files = files or config_files(root, options.changed_since)
    if options.rules_dir:
        folder = _inside(root / options.rules_dir, root)
        if folder is None:
            return WorkingTree(root / options.rules_dir), ""
        return files, folder
    for path in options.paths:
        near = _inside(Path(os.path.abspath(path)).parent / "rules", root)
        if near is not None and files.is_dir(near):
            return files, near
    return files, "rules"


def _inside(path: Path, root: Path) -> str | None:
    """`path` relative to `root` (POSIX, "" for the root itself), None when outside it.
    Lexical: in pull-request mode the tree's symbolic links must not steer the answer."""
    rel = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
    if rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return None
    return "" if rel == os.curdir else Path(rel).as_posix()


def load_scope_preset(name: str) -> ScopeRules:
    """The shipped scope policy `name`; UsageError naming the presets for another name."""
    from curator.scope.rules import parse_rules

    name = ALIASES.get(name, name)
    if name not in SCOPE_PRESETS:
        known = ", ".join((*SCOPE_PRESETS, *ALIASES))
        raise UsageError(f"--scope-preset takes {known}, not {name!r}")
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
    files, folder = rules_place(options)
    where = files.display(folder or ".") if isinstance(files, WorkingTree) else folder or "."
    with contextlib.suppress(ValueError):
        where = Path(where).resolve().relative_to(Path(options.root).resolve()).as_posix()
    # No preset is named: a preset is another list's policy, not a default to reach for.
    return (
        f"scope not checked: no scope.yaml in {where} and no scope preset (no hard gate; a "
        "pull request's new papers are weighed against the list's own)"
    )


def read_rules_folder(options: Options) -> Rules:
    """The rules of the services in use, read from this run's rules folder; a missing file
    means the defaults (for scope: the named preset, if any, else no scope check)."""
    files, folder = rules_place(options)
    files.prefetch(posixpath.join(folder, name) for name in RULE_FILES)
    projects = links = scope = None
    decisions: Mapping[str, Recorded] = {}
    if not options.skips(Service.GITHUB):
        name = posixpath.join(folder, "projects.yaml")
        projects = parse_project_rules(files.read(name), files.display(name))
    if not options.skips(Service.WEB):
        name = posixpath.join(folder, "links.yaml")
        parsed = parse_link_rules(files.read(name), files.display(name))
        links = with_trusted_allow(parsed, options.guard_allow)
    if not options.skips(Service.SCOPE):
        scope = _scope_rules(files, folder)
        from curator.scope.decided import DECISIONS_FILE, parse_decisions

        name = posixpath.join(folder, DECISIONS_FILE)
        decisions = parse_decisions(files.read(name), files.display(name))
        if scope is None and options.scope_preset:
            scope = load_scope_preset(options.scope_preset)
    return Rules(projects, links, scope, decisions)


def _scope_rules(files: ConfigFiles, folder: str) -> ScopeRules | None:
    """The folder's scope policy with its learned scorer, or None."""
    from curator.scope.rules import read_rules

    return read_rules(files, posixpath.join(folder, "scope.yaml"))
