"""What a pull request changes in the configuration: `config-changed` findings.

In pull-request mode the run's settings and rules come from the base revision
(curator.config.config_files), so a pull request's own pyproject.toml or rules/ decide nothing of
its run. Its changes to them are still changes a maintainer should see before merging (they
decide every later run), so each is reported at the file, with the changed lines as
evidence. The severity is the base's to set (`severity` in its `[tool.curator]`), never the
pull request's.

The pull request's side is the files git tracks (TrackedTree): a pull request is commits, so a
file no commit or index holds (curator init's starter files before `git add`, an editor's
backup) is none of its changes. A local run compares the base with the tracked files as they
are on disk: committed, staged or edited and not yet committed (what the next commit holds,
as entries of the checked files are compared as they are on disk).
"""

from __future__ import annotations

import difflib
import os
import posixpath
import tomllib
from pathlib import Path

from curator.config.config_files import ConfigFiles, WorkingTree, config_files
from curator.config.context import CheckContext
from curator.config.options import curator_table
from curator.config.settings_file import SETTINGS
from curator.console.sanitize import clean, shorten
from curator.core.errors import InputError
from curator.core.model import Finding, Source
from curator.run.rules import rules_place
from curator.textio import git
from curator.textio.text import printable

#: Files of a rules folder that curator reads (links.yaml, projects.yaml, scope.yaml, the
#: scope scorer's JSON).
RULE_SUFFIXES = (".yaml", ".yml", ".json")
#: Characters of evidence kept (the renderers shorten further where space is scarce).
EVIDENCE_LIMIT = 600
#: Changed lines quoted as evidence, at most.
EVIDENCE_LINES = 12

CODE = "config-changed"


def config_changes(ctx: CheckContext) -> list[Finding]:
    """Every configuration file the pull request changes (none outside pull-request mode)."""
    options = ctx.options
    if not options.changed_since:
        return []
    root = Path(options.root)
    base, tree = config_files(root, options.changed_since), TrackedTree(root)
    base.prefetch(["pyproject.toml"])
    findings = _settings(ctx, base, tree)
    base_files, folder = rules_place(options, base)
    rules = [SETTINGS]  # the list's settings file: at the top level, wherever the rules are
    if base_files is base:  # a folder outside the repository is the workflow's own
        _, own = rules_place(options, tree)  # where a run of the pull request would look
        rules += _rule_files(base, tree, dict.fromkeys([folder, own]))
    rules = list(dict.fromkeys(rules))
    base.prefetch(rules)
    for rel in rules:
        what = "the settings file" if rel == SETTINGS else "the rules file"
        findings += _compared(ctx, base, tree, rel, what)
    return findings


class TrackedTree(WorkingTree):
    """The working tree's files that git tracks (in the index: committed or staged); an
    untracked file reads as none. Each folder is listed once (one `git ls-files` call)."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self._listed: dict[str, frozenset[str]] = {}

    def tracks(self, rel: str) -> bool:
        """True when the index holds the file at `rel` (relative to the top level)."""
        folder = posixpath.dirname(posixpath.normpath(rel))
        if folder not in self._listed:
            found = git.tracked([folder or "."], self.root)
            self._listed[folder] = frozenset(p for p in found if posixpath.dirname(p) == folder)
        return posixpath.normpath(rel) in self._listed[folder]

    def read(self, rel: str) -> str | None:
        """The file's text when git tracks it, else None."""
        return super().read(rel) if self.tracks(rel) else None

    def names(self, rel: str) -> list[str]:
        """The tracked files' names in the folder."""
        return [n for n in super().names(rel) if self.tracks(posixpath.join(rel, n))]

    def is_link(self, rel: str) -> bool:
        """A tracked symbolic link on disk."""
        return super().is_link(rel) and self.tracks(rel)


def _settings(ctx: CheckContext, base: ConfigFiles, tree: WorkingTree) -> list[Finding]:
    """pyproject.toml, when its `[tool.curator]` table differs from the base's."""
    before, after = _text(base, "pyproject.toml"), _text(tree, "pyproject.toml")
    old, new = _table(before) or {}, _table(after)
    if old == new:
        return []
    if new is None:
        what = "pyproject.toml (no longer valid TOML):"
    else:
        keys = sorted(k for k in {*old, *new} if old.get(k) != new.get(k))
        what = f"[tool.curator] ({', '.join(keys)}) in"
    return _compared(ctx, base, tree, "pyproject.toml", what, before, after)


def _table(text: str | None) -> dict[str, object] | None:
    """The `[tool.curator]` table ({} when none); None when the text is no TOML."""
    try:
        data = tomllib.loads(text or "")
    except (tomllib.TOMLDecodeError, RecursionError):  # the pull request's file may be anything
        return None
    return curator_table(data)


def _rule_files(base: ConfigFiles, tree: WorkingTree, folders: dict[str, None]) -> list[str]:
    """Paths of the rules files in the base's and the tree's folders, each once."""
    out: dict[str, None] = {}
    for folder in folders:
        for name in [*base.names(folder), *tree.names(folder)]:
            if name.endswith(RULE_SUFFIXES):
                out.setdefault(posixpath.join(folder, name), None)
    return sorted(out)


def _text(files: ConfigFiles, rel: str) -> str | None:
    """The file's text, or the reason it cannot be read (a pull request's file may be
    anything: a link out of the tree, bytes that are no UTF-8); None when there is none."""
    try:
        text = files.read(rel)
    except InputError as exc:
        return f"(not readable: {exc.message})"
    # A checkout may write CRLF (`eol=crlf`): the same text as the base's LF.
    return None if text is None else text.replace("\r\n", "\n")


def _compared(
    ctx: CheckContext,
    base: ConfigFiles,
    tree: WorkingTree,
    rel: str,
    what: str,
    before: str | None = None,
    after: str | None = None,
) -> list[Finding]:
    """One finding when the tree's `rel` differs from the base's, else none."""
    before = _text(base, rel) if before is None else before
    after = _text(tree, rel) if after is None else after
    if tree.is_link(rel) and not base.is_link(rel):
        after = f"(a symbolic link to {os.readlink(tree.root / rel)})\n{after or ''}"
    if before == after:
        return []
    verb = "adds" if before is None else "deletes" if after is None else "changes"
    line, evidence = _diff(before or "", after or "")
    origin = base.origin[:12] if len(base.origin) == 40 else base.origin  # a commit's name
    message = (
        f"the pull request {verb} {what} {printable(rel)}; its check used the version of {origin} "
        "instead (a pull request's configuration never decides its own check): review it"
    )
    place = Source(_shown(tree.root / rel), line if after is not None else 1)
    return [ctx.finding(CODE, place.file, place, message, evidence=evidence)]


def _diff(before: str, after: str) -> tuple[int, str]:
    """(first changed line of `after`, the changed lines as `-old`/`+new`, shortened)."""
    first = 0
    lines: list[str] = []
    # Lines as git counts them: `splitlines` also breaks at U+2028, a form feed, a lone CR …
    diff = difflib.unified_diff(_lines(before), _lines(after), n=0, lineterm="")
    for row in diff:
        if row.startswith("@@") and not first:
            start = row.split(" ")[2][1:].split(",")[0]
            first = max(int(start), 1)
        elif row[:1] in "+-" and not row.startswith(("+++", "---")):
            lines.append(row[0] + shorten(clean(row[1:]), 120))
    shown = lines[:EVIDENCE_LINES] + (["…"] if len(lines) > EVIDENCE_LINES else [])
    return first or 1, shorten("\n".join(shown), EVIDENCE_LIMIT)


def _lines(text: str) -> list[str]:
    """The lines of `text` as git counts them (ended by "\n" only, a CR before it dropped)."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def _shown(path: Path) -> str:
    """The path relative to the working folder (as other findings name files), lexically:
    a link of the checked tree must not change the name."""
    rel = os.path.relpath(path, Path.cwd())
    return printable(Path(path).as_posix() if rel.startswith(os.pardir) else Path(rel).as_posix())
