"""The version a release publishes, checked before anything is built (release.yml).

A tag push `vX.Y.Z`, or a manual run given `X.Y.Z`: either must name the version the package
carries, in pyproject.toml and in curator/__init__.py alike, so the tag, the distribution on
PyPI and the `# vX.Y.Z` comment `curator init` writes after a commit all agree.
Prints the version; exits 1 with one line saying what disagrees.
"""

from __future__ import annotations

import os
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_VERSION = re.compile(r"\d+\.\d+\.\d+")


def package_versions(root: Path = ROOT) -> tuple[str, str]:
    """(pyproject.toml's [project] version, curator.__version__ as the source writes it)."""
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    source = (root / "curator" / "__init__.py").read_text(encoding="utf-8")
    found = re.search(r'^__version__ = "([^"]+)"$', source, re.MULTILINE)
    return str(project["version"]), found[1] if found else ""


def release_version(ref_type: str, ref_name: str, asked: str, versions: tuple[str, str]) -> str:
    """The version to release; ValueError saying what disagrees."""
    declared, source = versions
    if declared != source:
        raise ValueError(f"pyproject.toml says {declared}, curator/__init__.py {source}")
    if asked:  # workflow_dispatch: the version typed in
        wanted = asked.removeprefix("v")
    elif ref_type == "tag" and ref_name.startswith("v"):
        wanted = ref_name[1:]
    else:
        raise ValueError(f"not a release: {ref_type} {ref_name!r} (push a tag vX.Y.Z)")
    if not _VERSION.fullmatch(wanted):
        raise ValueError(f"{wanted!r} is no X.Y.Z version")
    if wanted != declared:
        raise ValueError(f"the release is {wanted} but the package is {declared}")
    return wanted


def main() -> int:
    env = os.environ
    try:
        version = release_version(
            env.get("REF_TYPE", ""), env.get("REF_NAME", ""), env.get("ASKED", ""),
            package_versions(),
        )  # fmt: skip
    except ValueError as exc:
        print(f"release: {exc}", file=sys.stderr)
        return 1
    print(version)
    return 0


if __name__ == "__main__":
    sys.exit(main())
