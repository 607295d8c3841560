"""Round 4 attacks (issue 29) on the document's local-link check (file-missing, and the
anchors of another Markdown file it reads): a pull request's links and symbolic links.

Held: no file outside the repository is read (a heading there is never compared), however
the path is spelled (a link out of the tree, `..` through one, percent-encoded dots or
slashes, an absolute path, backslashes, a NUL, a name too long, a loop of links); each is
reported or left alone, in one line, without a traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from curator.cli import main

LINKS = {
    "out/secret.md#hidden-heading": "is a symbolic link out of the repository",
    "out/secret.md#nothing": "is a symbolic link out of the repository",
    "docs/../out/secret.md#nothing": "is a symbolic link out of the repository",
    "docs/%2e%2e/out/secret.md#nothing": "is a symbolic link out of the repository",
    "%2Fout%2Fsecret.md#nothing": "is a symbolic link out of the repository",
    "{outside}/secret.md#nothing": "names no file in the repository",
    "..\\outside\\secret.md#nothing": "names no file in the repository",
    "loop1/x.md": "resolves to no file (a loop)",
    "docs/" + "a" * 5000 + ".md": "a name no file system holds",
    # Above the top: a page of the repository on GitHub, not a file; a NUL: no file name.
    "../outside/secret.md#nothing": "",
    "%2e%2e/outside/secret.md#nothing": "",
    "docs/own.md%00.png": "",
}


def test_no_link_reads_or_compares_a_file_outside_the_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# Secret\n\n## Hidden heading\n", encoding="utf-8")
    root = tmp_path / "list"
    (root / "docs").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "docs" / "own.md").write_text("# Own\n", encoding="utf-8")
    os.symlink("../outside", root / "out")
    os.symlink("loop2", root / "loop1")
    os.symlink("loop1", root / "loop2")
    written = [link.format(outside=outside) for link in LINKS]
    text = "# L\n\n" + "".join(f"- [link {i}](<{w}>)\n" for i, w in enumerate(written))
    (root / "README.md").write_text(text, encoding="utf-8")
    monkeypatch.chdir(root)
    out = tmp_path / "report.json"
    main(["check", "README.md", "--offline", "--no-cache", "--format", "json",
          "--output", str(out)])  # fmt: skip
    findings = json.loads(out.read_text(encoding="utf-8"))["findings"]
    by_line = {f["source"]["line"]: f for f in findings if f["code"] != "document-unread"}
    for i, (link, reason) in enumerate(LINKS.items()):
        found = by_line.pop(3 + i, None)
        if not reason:
            assert found is None, (link, found)
            continue
        assert found is not None and found["code"] == "file-missing", (link, found)
        assert reason in found["message"], (link, found["message"])
    assert by_line == {}  # no anchor of secret.md was ever compared
