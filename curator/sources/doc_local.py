"""Links inside the document's own repository: in-page anchors and local files.

Offline, no request. `#fragment` must name a heading or an explicit anchor of the document
(`doc_targets`); a relative link or image must name a file or folder of the repository, and
`other.md#fragment` a heading of that file.

The repository is the git work tree holding the document (the nearest folder above it with
`.git`): in a pull-request run, the head revision as checked out. A document outside any
work tree (an excerpt on its own) has no files to compare with, so its local links are not
checked (its anchors are). Nor are those of a document below the top of its tree none of
whose local links is there (a copy of a list kept in another repository, a test fixture):
its own tree is not present, and a note says so instead of a finding per link. A document
at the top of its tree (a list's README) is its repository's own: every missing file of it
is reported.

The tree is a trust boundary: a path is resolved lexically first; one that climbs above the
top (`../../issues`, GitHub's links to the repository's own pages) is not a file of the tree
and is left alone; every symbolic link on the way is followed only while it stays inside the
tree, and one that leaves it is reported, never read.
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, unquote

from curator.config.context import CheckContext
from curator.core.model import Finding, Source
from curator.sources.doc_targets import Anchors, Target, Targets, loose, walk
from curator.sources.formats import Reader, suffixes

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
# Fragments every page answers: the top (HTML), GitHub's readme container.
_ALWAYS = {"", "top", "readme"}
# GitHub's footnote anchors (`[^1]`), which the CommonMark reader does not number: accepted.
_FOOTNOTES = ("fn-", "fnref-")
_PREFIX = "user-content-"
_OUTSIDE = "is a symbolic link out of the repository"
_LOOP = "is a symbolic link that resolves to no file (a loop) or a name no file system holds"
_MISSING = "names no file in the repository"
#: Comparisons of a broken anchor with an anchor one document may spend on suggestions.
MAX_COMPARISONS = 10_000
#: The same budget in letters: an edit ratio costs up to the product of the two lengths, so
#: a few broken links to headings of thousands of letters each cost what millions of
#: ordinary ones do (a 3 MB document of 100 such pairs took 45 s). Broken fragment's letters
#: times all anchors' letters, summed over the document; a list of 500 headings gets about 40
#: suggestions' worth of ordinary fragments.
MAX_LETTER_PAIRS = 20_000_000
#: The largest linked Markdown file whose headings are read (larger ones: not checked).
MAX_LINKED = 4_000_000
_MARKDOWN = suffixes(Reader.DOCUMENT)


def repository_of(path: Path) -> Path | None:
    """The top of the git work tree holding `path`, or None."""
    folder = path.resolve().parent
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


@dataclass
class LocalCheck:
    """The checks of one document: its anchors, and (with its repository) its files."""

    file: str
    context: CheckContext
    targets: Targets
    path: Path | None = None
    root: Path | None = None
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    missing: list[Finding] = field(default_factory=list)  # until one local link is found
    present: int = 0  # local links that name a file of the tree
    compared: int = 0  # comparisons spent on suggestions
    letter_pairs: int = 0  # the same, in letters compared (MAX_LETTER_PAIRS)
    _linked: dict[Path, Anchors | None] = field(default_factory=dict)
    _letters: dict[int, int] = field(default_factory=dict)  # id(anchors) -> their letters

    def run(self) -> list[Finding]:
        """Every finding, in line order."""
        own = self.targets.anchors()
        seen: set[tuple[str, int]] = set()
        for target in self.targets.targets:
            if (target.url, target.line) in seen:
                continue
            seen.add((target.url, target.line))
            if target.url.startswith("#"):
                self.fragment(target, target.url[1:], own, "")
            elif not _SCHEME.match(target.url) and not target.url.startswith("//"):
                self.local(target)
        if self.present or (self.path is not None and self.path.resolve().parent == self.root):
            self.findings += self.missing
        elif self.missing:
            count = len({f.subject for f in self.missing})
            self.notes.append(
                f"{self.file}: {count} local link(s) not checked: none of them is in the "
                "repository holding the document, which is read as a copy outside its own"
            )
        return sorted(self.findings, key=lambda f: f.source.line)

    def fragment(self, target: Target, written: str, anchors: Anchors, where: str) -> None:
        """`anchor-missing` when `written` (a fragment as written) names no anchor."""
        wanted = unquote(written).lower().removeprefix(_PREFIX)
        if wanted in _ALWAYS or wanted in anchors or wanted.startswith(_FOOTNOTES):
            return
        # A suggestion compares with every anchor: a hostile document of thousands of
        # broken links and headings gets suggestions for its first ones only (bounded cost).
        self.compared += len(anchors.own)
        self.letter_pairs += len(loose(wanted)) * self.letters(anchors)
        within = self.compared <= MAX_COMPARISONS and self.letter_pairs <= MAX_LETTER_PAIRS
        near = _encoded(closest(wanted, anchors, within))
        place = f" in {where}" if where else ""
        message = f"#{written} names no heading or anchor{place}"
        self.findings.append(
            self.context.finding(
                "anchor-missing",
                f"{where}#{wanted}",
                Source(self.file, target.line),
                message + (f" (did you mean #{near}?)" if near else ""),
                evidence=target.url,
                suggestion=f"#{near}" if near else "",
            )
        )

    def letters(self, anchors: Anchors) -> int:
        """The letters of all of `anchors` (counted once: they live as long as the check)."""
        key = id(anchors)
        if key not in self._letters:
            self._letters[key] = sum(len(k) for k in anchors.by_loose)
        return self._letters[key]

    def local(self, target: Target) -> None:
        """`file-missing` for a relative link or image that names no file of the tree."""
        if self.root is None or self.path is None:
            return
        written = target.url.split("#", 1)
        raw = unquote(written[0].split("?", 1)[0])
        if not raw:
            return
        base = self.root if raw.startswith("/") else self.path.resolve().parent
        if "\x00" in raw:
            return  # no file name holds a NUL: not a path (and no system call takes it)
        relative = os.path.normpath(os.path.join(os.path.relpath(base, self.root), raw.lstrip("/")))
        if relative == ".." or relative.startswith(".." + os.sep) or os.path.isabs(relative):
            return  # above the tree: a page of the repository on GitHub, not a file
        problem, real = self.inside(relative)
        if problem:
            what = "image" if target.image else "link"
            finding = self.context.finding(
                "file-missing",
                relative.replace(os.sep, "/"),
                Source(self.file, target.line),
                f"the {what} {written[0]} {problem}",
                evidence=target.url,
            )
            # A link out of the tree is reported wherever the document stands.
            out = self.findings if problem in {_OUTSIDE, _LOOP} else self.missing
            out.append(finding)
            return
        self.present += 1
        if len(written) > 1 and real is not None and real.suffix.lower() in _MARKDOWN:
            anchors = self.linked(real)
            if anchors is not None:
                self.fragment(target, written[1], anchors, relative.replace(os.sep, "/"))

    def inside(self, relative: str) -> tuple[str, Path | None]:
        """("", the real path) for a path of the tree; (why not, None) otherwise. Each
        component is looked at without following a link out of the tree."""
        assert self.root is not None
        top = self.root.resolve()
        here = top
        try:
            for part in Path(relative).parts:
                here = here / part
                if here.is_symlink():
                    real = here.resolve(strict=True)
                    if real != top and top not in real.parents:
                        return _OUTSIDE, None
                    here = real
                elif not here.exists():
                    return _MISSING, None
        except FileNotFoundError:
            return _MISSING, None  # a link inside the tree to nothing
        except (OSError, RuntimeError):
            return _LOOP, None  # a loop of links, a name too long: no file to be found
        return "", here

    def linked(self, path: Path) -> Anchors | None:
        """The anchors of another Markdown file of the tree (None: too large or unreadable)."""
        if path not in self._linked:
            self._linked[path] = _anchors_of(path)
        return self._linked[path]


def _anchors_of(path: Path) -> Anchors | None:
    from curator.sources.doc_parse import parse

    try:
        if not path.is_file() or path.stat().st_size > MAX_LINKED:
            return None
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    toks, _ = parse(text)
    html = [(t.map[0] + 1 if t.map else 1, t.content) for t in toks if t.type == "html_block"]
    return walk(toks, html).anchors()


def _encoded(anchor: str) -> str:
    """An anchor as a link writes it: an invisible variation selector percent-encoded."""
    return re.sub("[\ufe00-\ufe0f]", lambda m: quote(m.group(0)), anchor)


def closest(wanted: str, anchors: Anchors, compare: bool = True) -> str:
    """The one own anchor `wanted` clearly means, else "": the only one equal to it but for
    punctuation, else (when `compare`) the only one close to it by edit ratio (0.8 or more,
    and no second within 0.05)."""
    letters = loose(wanted)
    if not letters:
        return ""
    same = anchors.by_loose.get(letters, [])
    if same or not compare:
        return same[0] if len(same) == 1 else ""
    scored: list[tuple[float, str]] = []
    matcher = difflib.SequenceMatcher(None, b=letters)  # b is the side difflib indexes once
    for key, found in anchors.by_loose.items():
        matcher.set_seq1(key)
        if matcher.real_quick_ratio() >= 0.75 and matcher.quick_ratio() >= 0.75:
            scored += [(matcher.ratio(), a) for a in found]
    scored.sort(reverse=True)
    if not scored or scored[0][0] < 0.8:
        return ""
    if len(scored) > 1 and scored[1][0] >= scored[0][0] - 0.05:
        return ""
    return scored[0][1]
