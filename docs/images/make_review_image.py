"""Draw the README's two pictures of curator on a pull request, from a real report:

- docs/images/review-comment.png: the sticky comment `curator comment` posts;
- docs/images/review-suggestion.png: curator's review, with one of its one-click suggestions
  as GitHub draws a ```` ```suggestion ```` block (the "Suggested change" box).

    python docs/images/make_review_image.py [OUT_DIR]

The inputs are docs/images/review-report.json, the JSON (with its `fixes`) that the Action's
`pr` mode (`curator check --changed-since BASE --suggest`) wrote for the pull request of
tests/docs/review_run.py against the loopback doubles, and docs/images/review-pull.json, that
pull request's files as GitHub lists them (their patches). This script does what `curator
comment` does with them: `publish.review_place.place` keeps the suggestions that fit the diff,
`review_body` and `review_comment` write the review and its comments, and the sticky comment
(`publish.comment.read_body` and `prepare`, with the context an Actions run gives) counts the
suggestions posted. It turns that Markdown into HTML with markdown-it-py as GitHub would
(CommonMark, tables, raw HTML for `<details>` and `<sub>`; a suggestion block as GitHub's
suggested change: the head's lines from the patch in red, the block's lines in green, the
changed words highlighted), puts it in a GitHub-like pull-request conversation, and has
headless Chromium photograph it at twice the pixel density, sharp at the README's width.

Each PNG carries the SHA-256 of what it shows (a tEXt chunk, `curator-comment-sha256`): the
comment's Markdown; the review's body, the comment's request item and the diff lines drawn.
tests/docs/test_review_picture.py computes both from the committed inputs, so a change to the
report, the diff, the comment renderer or the review's text says the pictures must be drawn
again.

It lives here, not in the curator package: it is a tool for this repository's documentation
and needs Chromium (`apt-get install chromium`), which curator itself never does.
"""

from __future__ import annotations

import difflib
import hashlib
import html
import json
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML

from curator.publish import review, review_place
from curator.publish.comment import prepare, read_body
from curator.publish.review import ReviewResult
from curator.publish.review_place import Placement
from curator.report import render_context
from curator.report.reader import read_saved

HERE = Path(__file__).resolve().parent
REPORT = HERE / "review-report.json"
PULL = HERE / "review-pull.json"
IMAGE = HERE / "review-comment.png"
SUGGESTION_IMAGE = HERE / "review-suggestion.png"
CSS = HERE / "github-comment.css"
#: What a pull_request run in the list's repository tells curator (GITHUB_* variables).
ENV = {
    "GITHUB_SERVER_URL": "https://github.com",
    "GITHUB_REPOSITORY": "acme/awesome-llm-memory",
    "GITHUB_RUN_ID": "11846125430",
    "GITHUB_SHA": "5d0c4b1e9a7f3c2d8e6b4a1f0c9d8e7f6a5b4c3d",
}
#: The review's link, as GitHub answers the review's POST (the sticky comment links it).
REVIEW_URL = "https://github.com/acme/awesome-llm-memory/pull/42#pullrequestreview-2771590143"
#: The suggestion drawn: a title curator replaces because arXiv's is the same paper's.
SHOWN_CODE = "arxiv-title-mismatch"
#: Lines of the diff GitHub shows above a review comment in the conversation (the last one
#: is the commented line).
DIFF_LINES = 4
DIGEST_KEY = b"curator-comment-sha256"
#: CSS pixels: avatar and comment as wide as a pull request's conversation column on
#: github.com in a 1280-pixel window.
WIDTH = 940
SCALE = 1.75
CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
    "--host-resolver-rules=MAP * ~NOTFOUND",  # the page is self-contained: nothing to fetch
)  # fmt: skip
#: A GitHub-Actions-like avatar, drawn here (no image is fetched).
AVATAR = (
    '<svg viewBox="0 0 40 40" width="{size}" height="{size}" aria-hidden="true">'
    '<circle cx="20" cy="20" r="20" fill="#2088ff"/>'
    '<circle cx="12" cy="20" r="4" fill="none" stroke="#fff" stroke-width="2.4"/>'
    '<path d="M16 20h6m0 0l-3-3m3 3l-3 3" stroke="#fff" stroke-width="2.4" fill="none" '
    'stroke-linecap="round" stroke-linejoin="round"/>'
    '<path d="M24 13.5l6 6.5-6 6.5z" fill="#fff"/></svg>'
)
#: GitHub's octicons (MIT licence) used in the review: eye (a review), file-diff, triangle.
EYE = (
    '<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><path fill="#59636e" '
    'd="M8 2c1.981 0 3.671.992 4.933 2.078 1.27 1.091 2.187 2.345 2.637 3.023a1.62 1.62 0 0 1 '
    "0 1.798c-.45.678-1.367 1.932-2.637 3.023C11.67 13.008 9.981 14 8 14c-1.981 0-3.671-.992-"
    "4.933-2.078C1.797 10.83.88 9.576.43 8.898a1.62 1.62 0 0 1 0-1.798c.45-.677 1.367-1.931 "
    "2.637-3.022C4.33 2.992 6.019 2 8 2ZM1.679 7.932a.12.12 0 0 0 0 .136c.411.622 1.241 1.75 "
    "2.366 2.717C5.176 11.758 6.527 12.5 8 12.5c1.473 0 2.825-.742 3.955-1.715 1.124-.967 "
    "1.954-2.096 2.366-2.717a.12.12 0 0 0 0-.136c-.412-.621-1.242-1.75-2.366-2.717C10.824 "
    "4.242 9.473 3.5 8 3.5c-1.473 0-2.825.742-3.955 1.715-1.124.967-1.954 2.096-2.366 2.717ZM8 "
    '10a2 2 0 1 1-.001-3.999A2 2 0 0 1 8 10Z"/></svg>'
)
FILE_DIFF = (
    '<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><path fill="#59636e" '
    'd="M1 1.75C1 .784 1.784 0 2.75 0h7.586c.464 0 .909.184 1.237.513l2.914 2.914c.329.328'
    ".513.773.513 1.237v9.586A1.75 1.75 0 0 1 13.25 16H2.75A1.75 1.75 0 0 1 1 14.25Zm1.75-.25a"
    ".25.25 0 0 0-.25.25v12.5c0 .138.112.25.25.25h10.5a.25.25 0 0 0 .25-.25V4.664a.25.25 0 0 "
    "0-.073-.177l-2.914-2.914a.25.25 0 0 0-.177-.073ZM8 3.25a.75.75 0 0 1 .75.75v1.5h1.5a.75"
    ".75 0 0 1 0 1.5h-1.5v1.5a.75.75 0 0 1-1.5 0V7h-1.5a.75.75 0 0 1 0-1.5h1.5V4A.75.75 0 0 1 "
    '8 3.25Zm-3 8a.75.75 0 0 1 .75-.75h4.5a.75.75 0 0 1 0 1.5h-4.5a.75.75 0 0 1-.75-.75Z"/></svg>'
)
CARET = (
    '<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><path fill="#59636e" '
    'd="m4.427 7.427 3.396 3.396a.25.25 0 0 0 .354 0l3.396-3.396A.25.25 0 0 0 11.396 7H4.604a'
    '.25.25 0 0 0-.177.427Z"/></svg>'
)


@dataclass(frozen=True)
class DiffLine:
    """One line of a diff as GitHub draws it: kind (" ", "+" or "-"), its numbers on the base
    and head sides (0 where it has none), its text."""

    kind: str
    old: int
    new: int
    text: str


@dataclass(frozen=True)
class Shown:
    """What the picture of the review shows: the review's body, one of its comments (the item
    of the review request: path, line, body), the head's lines that comment's suggestion
    replaces (GitHub takes them from the diff) and the diff lines drawn above it."""

    body: str
    comment: dict[str, Any]
    replaced: tuple[str, ...]
    diff: tuple[DiffLine, ...]


def patches(pull: Path = PULL) -> dict[str, str]:
    """Each file's patch, as GitHub's `GET /pulls/N/files` gives it."""
    files = json.loads(pull.read_text(encoding="utf-8"))
    return {f["filename"]: f["patch"] for f in files}


def placement(report: Path = REPORT, pull: Path = PULL) -> Placement:
    """The report's suggestions that `curator comment` posts on this diff, and those left."""
    return review_place.place(read_saved(report).fixes or (), patches(pull))


def comment_markdown(report: Path = REPORT, pull: Path = PULL) -> str:
    """The comment body `curator comment` posts for `report` in a pull-request run, once the
    review holding its suggestions is posted."""
    placed = placement(report, pull)
    posted = ReviewResult("posted", len(placed.kept), len(placed.left), REVIEW_URL)
    ctx = render_context.from_env(ENV, changed_only=True)
    ctx = replace(ctx, head_sha=ENV["GITHUB_SHA"], suggested=posted.suggested)
    return prepare(read_body(report, ctx))


def review_shown(report: Path = REPORT, pull: Path = PULL) -> Shown:
    """The review `curator comment` posts for `report`, with its `SHOWN_CODE` suggestion."""
    placed = placement(report, pull)
    fix = next(f for f in placed.kept if SHOWN_CODE in f.codes)
    item = review.review_comment(fix)
    patch = patches(pull)[item["path"]]
    head = review_place.right_lines(patch)
    first = item.get("start_line", item["line"])
    replaced = tuple(head[n][1] for n in range(first, item["line"] + 1))
    diff = diff_lines(patch, item["line"])[-DIFF_LINES:]
    return Shown(review.review_body(placed.kept, placed.left), item, replaced, tuple(diff))


def diff_lines(patch: str, line: int) -> list[DiffLine]:
    """The lines of `patch`'s hunk that holds head line `line`, up to that line."""
    out: list[DiffLine] = []
    old = new = 0
    for raw in patch.split("\n"):
        head = re.match(r"^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@", raw)
        if head:
            old, new, out = int(head.group(1)), int(head.group(2)), []
            continue
        kind, text = raw[:1], raw[1:]
        out.append(DiffLine(kind, old if kind != "+" else 0, new if kind != "-" else 0, text))
        old += kind != "+"
        new += kind != "-"
        if kind != "-" and new - 1 == line:
            return out
    raise ValueError(f"line {line} is not on the patch's head side")


def digest(text: str) -> str:
    """The SHA-256 an image carries of the text it shows."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def review_text(shown: Shown) -> str:
    """All that the review picture shows, as one text (what its digest is of)."""
    return json.dumps(asdict(shown), sort_keys=True, ensure_ascii=False)


def markdown(first: int = 0, replaced: Sequence[str] = ()) -> MarkdownIt:
    """GitHub's flavour as far as these comments use it; a ```` ```suggestion ```` block is
    drawn as GitHub's suggested change of the head's lines `replaced` (from line `first`)."""
    md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])

    def fence(self: RendererHTML, tokens: Any, idx: int, options: Any, env: Any) -> str:
        token = tokens[idx]
        if token.info.strip() != "suggestion":
            return RendererHTML.fence(self, tokens, idx, options, env)
        return suggested_change(first, replaced, token.content.rstrip("\n").split("\n"))

    md.add_render_rule("fence", fence)
    return md


def suggested_change(first: int, old: Sequence[str], new: Sequence[str]) -> str:
    """GitHub's "Suggested change" box: the old lines (head lines `first`...) in red, the new
    in green, the words that differ marked, and the buttons that apply it."""
    pairs = [marked_words(before, after) for before, after in zip(old, new, strict=True)]
    rows = [_change_row("del", first + i, before) for i, (before, _) in enumerate(pairs)]
    rows += [_change_row("add", first + i, after) for i, (_, after) in enumerate(pairs)]
    return (
        f'<div class="suggestion"><div class="suggestion-head">{FILE_DIFF} Suggested change'
        f'</div><table class="diff">{"".join(rows)}</table><div class="suggestion-foot">'
        f'<span class="btn">Commit suggestion {CARET}</span>'
        '<span class="btn">Add suggestion to batch</span></div></div>'
    )


def _change_row(kind: str, number: int, marked: str) -> str:
    """One line of a suggested change: its number, sign and (marked) text."""
    sign = "+" if kind == "add" else "-"
    return (
        f'<tr class="{kind}"><td class="num">{number}</td>'
        f'<td class="code"><span class="sign">{sign}</span>{marked}</td></tr>'
    )


def marked_words(old: str, new: str) -> tuple[str, str]:
    """Both lines as HTML, the words that differ between them in a highlight."""
    a, b = re.findall(r"\w+|\W", old), re.findall(r"\w+|\W", new)
    left, right = [], []
    for op, i, j, k, m in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        one, two = html.escape("".join(a[i:j])), html.escape("".join(b[k:m]))
        if op == "equal":
            left.append(one)
            right.append(two)
            continue
        left.append(f'<span class="word">{one}</span>' if one else "")
        right.append(f'<span class="word">{two}</span>' if two else "")
    return "".join(left), "".join(right)


def comment_page(markdown_text: str) -> str:
    """A self-contained HTML page: the comment as GitHub shows it in a pull request."""
    body = markdown().render(markdown_text)
    return _page(
        f'<div class="timeline"><div class="avatar">{AVATAR.format(size=40)}</div>'
        f'<div class="comment">{_header("commented now")}'
        f'<div class="markdown-body">{body}</div></div></div>'
    )


def review_page(shown: Shown) -> str:
    """A self-contained HTML page: the review as GitHub shows it in the conversation, its
    body, then the thread of one suggestion under the diff lines it is about."""
    item = shown.comment
    first = item.get("start_line", item["line"])
    comment = markdown(first, shown.replaced).render(item["body"])
    rows = "".join(_diff_row(line) for line in shown.diff)
    return _page(
        f'<div class="review-head"><span class="badge">{EYE}</span>'
        f"{AVATAR.format(size=20)} <strong>github-actions</strong> "
        '<span class="label">bot</span> reviewed now'
        '<span class="link">View reviewed changes</span></div>'
        f'<div class="timeline"><div class="avatar">{AVATAR.format(size=40)}</div>'
        f'<div class="review"><div class="comment">{_header("left a comment")}'
        f'<div class="markdown-body">{markdown().render(shown.body)}</div></div>'
        f'<div class="thread"><div class="thread-file">{html.escape(item["path"])}</div>'
        f'<table class="diff context">{rows}</table><div class="thread-comment">'
        f'<div class="thread-author">{AVATAR.format(size=24)} <strong>github-actions</strong> '
        '<span class="label">bot</span> now<span class="dots">···</span></div>'
        f'<div class="markdown-body">{comment}</div></div>'
        '<div class="thread-reply"><span class="reply">Reply...</span></div>'
        '<div class="thread-foot"><span class="btn">Resolve conversation</span></div>'
        "</div></div></div>"
    )


def _header(said: str) -> str:
    """A comment box's header: the bot and what it did."""
    return (
        f'<div class="header"><strong>github-actions</strong> <span class="label">bot</span> '
        f'{said}<span class="dots">···</span></div>'
    )


def _diff_row(line: DiffLine) -> str:
    """One diff line with its base and head numbers."""
    kind = {"+": "add", "-": "del"}.get(line.kind, "ctx")
    old, new = (str(n) if n else "" for n in (line.old, line.new))
    return (
        f'<tr class="{kind}"><td class="num">{old}</td><td class="num">{new}</td>'
        f'<td class="code"><span class="sign">{line.kind.strip()}</span>'
        f"{html.escape(line.text)}</td></tr>"
    )


def _page(content: str) -> str:
    """The HTML page around `content`, which reports its height once the fonts are in."""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><style>{CSS.read_text(encoding="utf-8")}</style>
</head><body>{content}
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
        source = Path(tmp) / "page.html"
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


def draw(page_html: str, shown_text: str, out: Path) -> None:
    """Photograph `page_html` to `out`, marked with the digest of `shown_text`; say so."""
    photograph(page_html, out)
    out.write_bytes(with_text(out.read_bytes(), DIGEST_KEY, digest(shown_text)))
    print(f"{out}: {out.stat().st_size:,} bytes, shows sha256 {digest(shown_text)[:12]}")


def main(argv: list[str]) -> int:
    """Draw both pictures of the committed report (into OUT_DIR when given)."""
    folder = Path(argv[0]) if argv else HERE
    comment = comment_markdown()
    draw(comment_page(comment), comment, folder / IMAGE.name)
    shown = review_shown()
    draw(review_page(shown), review_text(shown), folder / SUGGESTION_IMAGE.name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
