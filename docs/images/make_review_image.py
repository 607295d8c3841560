"""Draw docs/images/review-comment.png: the comment `curator comment` posts for a real report.

    python docs/images/make_review_image.py [REPORT.json] [OUT.png]

The report (default docs/images/review-report.json) is the JSON that `curator check
--changed-since` wrote for the pull request of tests/docs/review_run.py, run against the
loopback doubles. This script makes the comment body exactly as `curator comment` does
(`publish.comment.read_body` and `prepare`, with the context an Actions run gives), turns that
Markdown into HTML with markdown-it-py as GitHub would (CommonMark, tables, raw HTML for
`<details>` and `<sub>`), puts it in a GitHub-like timeline comment, and has headless Chromium
photograph it at twice the pixel density, so it stays sharp at the README's width.

The PNG carries the SHA-256 of the Markdown it shows (a tEXt chunk, `curator-comment-sha256`);
tests/docs/test_review_picture.py compares it with the comment of the committed report, so a
change to the report or to the renderer says that the picture must be drawn again.

It lives here, not in the curator package: it is a tool for this repository's documentation
and needs Chromium (`apt-get install chromium`), which curator itself never does.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from dataclasses import replace
from pathlib import Path

from markdown_it import MarkdownIt

from curator.publish.comment import prepare, read_body
from curator.report import context

HERE = Path(__file__).resolve().parent
REPORT = HERE / "review-report.json"
IMAGE = HERE / "review-comment.png"
CSS = HERE / "github-comment.css"
#: What a pull_request run in the list's repository tells curator (GITHUB_* variables).
ENV = {
    "GITHUB_SERVER_URL": "https://github.com",
    "GITHUB_REPOSITORY": "acme/awesome-llm-memory",
    "GITHUB_RUN_ID": "11846125430",
    "GITHUB_SHA": "5d0c4b1e9a7f3c2d8e6b4a1f0c9d8e7f6a5b4c3d",
}
DIGEST_KEY = b"curator-comment-sha256"
#: CSS pixels: avatar and comment as wide as a pull request's conversation column on
#: github.com in a 1280-pixel window.
WIDTH = 940
SCALE = 2
CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
    "--host-resolver-rules=MAP * ~NOTFOUND",  # the page is self-contained: nothing to fetch
)  # fmt: skip
#: A GitHub-Actions-like avatar, drawn here (no image is fetched).
AVATAR = (
    '<svg viewBox="0 0 40 40" width="40" height="40" aria-hidden="true">'
    '<circle cx="20" cy="20" r="20" fill="#2088ff"/>'
    '<circle cx="12" cy="20" r="4" fill="none" stroke="#fff" stroke-width="2.4"/>'
    '<path d="M16 20h6m0 0l-3-3m3 3l-3 3" stroke="#fff" stroke-width="2.4" fill="none" '
    'stroke-linecap="round" stroke-linejoin="round"/>'
    '<path d="M24 13.5l6 6.5-6 6.5z" fill="#fff"/></svg>'
)


def comment_markdown(report: Path = REPORT) -> str:
    """The comment body `curator comment` posts for `report` in a pull-request run."""
    ctx = context.from_env(ENV, changed_only=True)
    ctx = replace(ctx, head_sha=ENV["GITHUB_SHA"])
    return prepare(read_body(report, ctx))


def digest(markdown: str) -> str:
    """The SHA-256 the image carries of the Markdown it shows."""
    return hashlib.sha256(markdown.encode("utf-8")).hexdigest()


def page(markdown: str) -> str:
    """A self-contained HTML page: the comment as GitHub shows it in a pull request."""
    md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    body = md.render(markdown)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><style>{CSS.read_text(encoding="utf-8")}</style>
</head><body><div class="timeline">
<div class="avatar">{AVATAR}</div>
<div class="comment">
<div class="header"><strong>github-actions</strong> <span class="label">bot</span>
commented now<span class="dots">···</span></div>
<div class="markdown-body">{body}</div>
</div></div>
<script>document.fonts.ready.then(() => {{
  document.body.dataset.height = Math.ceil(document.body.getBoundingClientRect().bottom);
}});</script>
</body></html>
"""


def chromium() -> str:
    """The Chromium executable, or exit with how to install it."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    sys.exit("make_review_image: needs Chromium (apt-get install -y chromium)")


def photograph(html_text: str, out: Path) -> None:
    """Open the page in headless Chromium twice: once to measure it, once to take the PNG."""
    browser = chromium()
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "comment.html"
        source.write_text(html_text, encoding="utf-8")
        common = [browser, *CHROMIUM_FLAGS, f"--user-data-dir={tmp}/profile",
                  "--virtual-time-budget=3000", f"--window-size={WIDTH},400"]  # fmt: skip
        dom = _run([*common, "--dump-dom", source.as_uri()])
        found = re.search(r'data-height="(\d+)"', dom)
        if not found:
            sys.exit("make_review_image: Chromium did not lay the page out")
        height = int(found.group(1))
        shot = Path(tmp) / "shot.png"
        size = [f"--window-size={WIDTH},{height}", f"--force-device-scale-factor={SCALE}"]
        _run([*common[:-1], *size, f"--screenshot={shot}", source.as_uri()])
        out.write_bytes(shot.read_bytes())


def _run(command: list[str]) -> str:
    """Run Chromium; its standard output (its chatter on stderr is dropped)."""
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
    return done.stdout


def with_text(png: bytes, key: bytes, value: str) -> bytes:
    """`png` with a tEXt chunk `key`=`value` right after its header chunk."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    header_end = 8 + 8 + struct.unpack(">I", png[8:12])[0] + 4
    data = key + b"\0" + value.encode("latin-1")
    chunk = struct.pack(">I", len(data)) + b"tEXt" + data
    chunk += struct.pack(">I", zlib.crc32(b"tEXt" + data) & 0xFFFFFFFF)
    return png[:header_end] + chunk + png[header_end:]


def text_chunks(png: bytes) -> dict[bytes, str]:
    """The tEXt chunks of a PNG, key -> value."""
    out, at = {}, 8
    while at < len(png):
        length = struct.unpack(">I", png[at : at + 4])[0]
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        if kind == b"tEXt":
            key, _, value = data.partition(b"\0")
            out[key] = value.decode("latin-1")
        at += 12 + length
    return out


def main(argv: list[str]) -> int:
    """Draw the image of the report's comment; print where it went."""
    report = Path(argv[0]) if argv else REPORT
    out = Path(argv[1]) if len(argv) > 1 else IMAGE
    markdown = comment_markdown(report)
    photograph(page(markdown), out)
    out.write_bytes(with_text(out.read_bytes(), DIGEST_KEY, digest(markdown)))
    print(f"{out}: {out.stat().st_size:,} bytes, comment sha256 {digest(markdown)[:12]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
