"""The release workflow (issue 32): a tag vX.Y.Z (or a manual run given X.Y.Z) that is the
package's version, a build stamped with its commit, trusted publishing to PyPI."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from curator import __version__
from curator.config.home import BUILD_COMMIT, DISTRIBUTION
from tests.workflows.test_workflows import load

ROOT = Path(__file__).resolve().parents[2]
RELEASE = ROOT / ".github" / "workflows" / "release.yml"
SCRIPT = ROOT / ".ci" / "release_version.py"


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("release_version", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_this_package_carries_one_version() -> None:
    """pyproject.toml and curator.__version__ agree (the release checks it again)."""
    assert script().package_versions() == (__version__, __version__)


@pytest.mark.parametrize(
    ("ref_type", "ref_name", "asked", "expected"),
    [
        ("tag", "v1.2.3", "", "1.2.3"),
        ("branch", "main", "1.2.3", "1.2.3"),  # a manual run on main, given the version
        ("branch", "main", "v1.2.3", "1.2.3"),
        ("tag", "v1.2.4", "", "the release is 1.2.4 but the package is 1.2.3"),
        ("branch", "main", "1.2.4", "the release is 1.2.4 but the package is 1.2.3"),
        ("branch", "main", "", "not a release: branch 'main'"),
        ("tag", "v1.2", "", "'1.2' is no X.Y.Z version"),
        ("tag", "v1.2.3\n", "", "is no X.Y.Z version"),
    ],
)
def test_the_release_is_the_packages_version(
    ref_type: str, ref_name: str, asked: str, expected: str
) -> None:
    release_version = script().release_version
    if expected[0].isdigit():
        assert release_version(ref_type, ref_name, asked, ("1.2.3", "1.2.3")) == expected
    else:
        with pytest.raises(ValueError, match=expected.replace("(", r"\(")):
            release_version(ref_type, ref_name, asked, ("1.2.3", "1.2.3"))


def test_two_versions_that_disagree_stop_the_release() -> None:
    with pytest.raises(ValueError, match=r"pyproject.toml says 1.2.3, curator/__init__.py 1.2.2"):
        script().release_version("tag", "v1.2.3", "", ("1.2.3", "1.2.2"))


def test_the_script_prints_the_version_or_one_line() -> None:
    env = {"REF_TYPE": "tag", "REF_NAME": f"v{__version__}", "PATH": ""}
    done = subprocess.run([sys.executable, SCRIPT], env=env, capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, f"{__version__}\n")
    env["REF_NAME"] = "v99.0.0"
    done = subprocess.run([sys.executable, SCRIPT], env=env, capture_output=True, text=True)
    assert done.returncode == 1 and done.stderr.startswith("release: the release is 99.0.0")


def step(job: dict[str, Any], name: str) -> dict[str, Any]:
    return next(s for s in job["steps"] if s.get("name", "").startswith(name))


def test_the_workflow_checks_builds_stamps_and_publishes_by_trust() -> None:
    doc = load(RELEASE)
    assert doc[True]["push"] == {"tags": ["v*"]}
    assert doc[True]["workflow_dispatch"]["inputs"]["version"]["required"] is True
    build, tag, publish = doc["jobs"]["build"], doc["jobs"]["tag"], doc["jobs"]["publish"]
    assert build["permissions"] == {"contents": "read"}
    version = step(build, "the release is the package's version")
    assert "python .ci/release_version.py" in version["run"]
    assert version["env"]["ASKED"] == "${{ inputs.version }}"
    stamp = step(build, "stamp the commit")
    assert stamp["env"] == {"COMMIT": "${{ github.sha }}"}
    assert f"> curator/{BUILD_COMMIT}" in stamp["run"]
    assert "python -m build" in step(build, "build the sdist")["run"]
    # Only a manual release tags, with the one permission that needs.
    assert tag["if"] == "github.event_name == 'workflow_dispatch'"
    assert tag["permissions"] == {"contents": "write"}
    # Trusted publishing: an identity token, in the protected environment, no password.
    assert publish["permissions"] == {"id-token": "write"}
    assert publish["environment"]["name"] == "pypi"
    assert publish["environment"]["url"].endswith(f"/project/{DISTRIBUTION}/")
    uses = publish["steps"][-1]
    assert uses["uses"].startswith("pypa/gh-action-pypi-publish@") and "with" not in uses


def test_the_stamp_is_package_data_and_not_in_git() -> None:
    """The build takes curator/BUILD_COMMIT into the wheel; the repository never holds one
    (a local or editable install has none, and init then names the tag)."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert BUILD_COMMIT in pyproject["tool"]["setuptools"]["package-data"]["curator"]
    assert f"/curator/{BUILD_COMMIT}" in (ROOT / ".gitignore").read_text().splitlines()
