"""Where curator lives and which of its commits is running.

The distribution's name on PyPI (`curator` there is an unrelated package; the command and the
import package stay `curator`), the repository that holds curator and its Action (the
`uses:` of the workflows `curator init` writes, SARIF's `informationUri`, pyproject's
[project.urls]), and the commit of the running curator when the install recorded one: pip's
`direct_url.json` (PEP 610) for an install from a git URL, or the `BUILD_COMMIT` file the
release workflow writes into the wheel and sdist it builds. Read from local files only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import metadata, resources
from importlib.resources.abc import Traversable
from urllib.parse import urlsplit

from curator.textio import json_text

#: The distribution's name (`pip install curator-lists`).
DISTRIBUTION = "curator-lists"
#: The GitHub repository of curator and its Action.
REPOSITORY = "curator/curator"
#: curator's home page: the repository.
HOME = f"https://github.com/{REPOSITORY}"
#: The file of the package that a release build stamps with the commit it was built from.
BUILD_COMMIT = "BUILD_COMMIT"

_SHA = re.compile(r"^[0-9a-f]{40}$")
_GITHUB_PATH = re.compile(r"^/([\w.-]+)/([\w.-]+?)(?:\.git)?/?$")


@dataclass(frozen=True)
class Origin:
    """The repository and full commit the running curator was built from."""

    repository: str
    commit: str


def running_commit() -> Origin | None:
    """Where the running curator comes from, when its install says so; else None (an
    editable or local install, or one from a host that is not GitHub)."""
    return _from_direct_url() or _from_build_stamp()


def _from_direct_url() -> Origin | None:
    """PEP 610: `pip install git+https://github.com/OWNER/REPO@REF` records the commit."""
    try:
        text = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    return origin_of_direct_url(text or "")


def origin_of_direct_url(text: str) -> Origin | None:
    """The GitHub repository and commit of a direct_url.json text; None for anything else
    (no VCS, not git, not GitHub, no full commit, not JSON)."""
    try:
        data = json_text.loads(text)
    except ValueError:  # TooDeep is one too
        return None
    vcs = data.get("vcs_info") if isinstance(data, dict) else None
    if not isinstance(vcs, dict) or vcs.get("vcs") != "git":
        return None
    commit, url = str(vcs.get("commit_id", "")), urlsplit(str(data.get("url", "")))
    found = _GITHUB_PATH.match(url.path)
    if not _SHA.fullmatch(commit) or url.hostname != "github.com" or not found:
        return None
    return Origin(f"{found[1]}/{found[2]}", commit)


def _from_build_stamp() -> Origin | None:
    """The commit a release build wrote into the installed package."""
    return stamped_commit(resources.files("curator"))


def stamped_commit(package: Traversable) -> Origin | None:
    """The commit in `package`'s BUILD_COMMIT file (the release workflow writes it)."""
    stamp = package / BUILD_COMMIT
    if not stamp.is_file():
        return None
    commit = stamp.read_text(encoding="utf-8").strip()
    return Origin(REPOSITORY, commit) if _SHA.fullmatch(commit) else None
