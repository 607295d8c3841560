"""One-click suggestions: placed only on the pull request's diff and its head's lines, fenced
so no text escapes, one review per run, earlier reviews cleared, a 422 never losing the rest."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from curator.fix.suggest import Suggestion, suggestions
from curator.publish.api import GitHubAPI
from curator.publish.review import (
    CLEARED,
    COMMENT_MARKER,
    MARKER,
    SUPERSEDED,
    comment_body,
    post_suggestions,
    review_body,
)
from curator.publish.review_place import (
    MOVED,
    NO_OP,
    NOT_CHANGED,
    OFF_DIFF,
    OVER_LIMIT,
    OVERLAP,
    UNCHANGED,
    UNSHOWABLE,
    fence,
    place,
    right_lines,
)
from tests.doubles.github_pulls import FakeGitHubPulls, patch_of
from tests.publish.world import BASE, HEAD, REPO, RIGHT_TITLE, assert_inert, head_fixes, pull_world

LOGINS = frozenset({"curator-bot", "github-actions[bot]"})
PATCH = patch_of(BASE, HEAD)
MEMGPT = HEAD.splitlines(keepends=True)[2]  # a context line of PATCH: not the PR's


def fixes() -> tuple[Suggestion, ...]:
    return suggestions([head_fixes()])


def suggestion(**changes: object) -> Suggestion:
    return replace(fixes()[0], **changes)  # type: ignore[arg-type]


# -- placing ----------------------------------------------------------------------------


def test_right_lines_are_added_and_context_lines_with_their_hunk() -> None:
    shown = right_lines(PATCH)
    assert shown[5].text.startswith("- [MemoryBank: A Wrong Title]") and shown[5].added
    assert shown[2] == (0, "", False) and set(shown) == set(range(2, 10))
    assert {line for line, s in shown.items() if s.added} == {5, 6}
    assert {s.hunk for s in shown.values()} == {0}


def test_a_crlf_file_keeps_its_carriage_returns_and_still_matches() -> None:
    crlf = HEAD.replace("\n", "\r\n")
    fix = suggestions([head_fixes(crlf)])[0]
    placed = place([fix], {"README.md": patch_of(BASE.replace("\n", "\r\n"), crlf)})
    assert placed.kept == (fix,)
    assert "\r" not in comment_body(fix)


def test_place_keeps_what_is_on_the_diff_and_says_why_the_rest_is_left() -> None:
    title, date = fixes()
    cases = {
        NOT_CHANGED: replace(title, file="data/papers.yaml"),
        OFF_DIFF: replace(title, first=1, last=1, old="# Awesome LLM memory\n", new="# x\n"),
        UNCHANGED: replace(title, first=3, last=3, old=MEMGPT, new=MEMGPT.replace("GPT", "Evil")),
        MOVED: replace(title, old="- [MemoryBank: edited since](x)\n"),
        NO_OP: replace(title, new=title.old),
        UNSHOWABLE: replace(date, new=date.new.replace("Reflexion", "Re\u202eflexion")),
    }
    placed = place([title, *cases.values()], {"README.md": PATCH, "other.md": None})
    assert placed.kept == (title,)
    assert [reason for _, reason in placed.left] == list(cases)


def test_overlapping_and_over_the_limit() -> None:
    title, date = fixes()
    placed = place(
        [title, replace(title, new=title.new.replace("2023-05", "2023-06")), date],
        {"README.md": PATCH},
        limit=1,
    )
    assert placed.kept == (title,)
    assert [reason for _, reason in placed.left] == [OVERLAP, OVER_LIMIT]


def test_a_multi_line_suggestion_must_sit_in_one_hunk() -> None:
    text = "\n".join(f"line {i}" for i in range(1, 40)) + "\n"
    changed = text.replace("line 3\n", "line three\n").replace("line 4\n", "line four\n")
    changed = changed.replace("line 30\n", "line thirty\n")
    patch = patch_of(text, changed)
    lines = changed.splitlines(keepends=True)
    inside = Suggestion("a.md", 3, 4, "".join(lines[2:4]), "x\ny\n", ("link-redirect",), "s")
    across = Suggestion("a.md", 6, 28, "".join(lines[5:28]), "z\n" * 23, ("link-redirect",), "s")
    placed = place(
        [inside, replace(across, last=25, old="".join(lines[5:25]), new="z\n" * 20)],
        {"a.md": patch},
    )
    assert placed.kept == (inside,)
    assert placed.left[0][1] == OFF_DIFF


# -- what the bodies say -----------------------------------------------------------------


@pytest.mark.parametrize(
    "hostile",
    [
        "```\n@org/team <img src=x onerror=alert(1)> [x](javascript:alert(1))",
        "````` five ticks ```` four",
        "</details><!-- -->",
    ],
)
def test_no_text_closes_the_fence_or_escapes_it(hostile: str) -> None:
    """Text from a fork's report stays inside the suggestion block; the block is the only
    code fence and holds exactly the new lines; nothing outside pings, links or renders HTML."""
    new = f"- [{hostile.replace(chr(10), ' ')}](https://arxiv.org/abs/2305.10250) (2023-05)\n"
    fix = suggestion(new=new, subject="@org/team ](javascript:alert(1)) <b>x</b> ```")
    body = comment_body(fix)
    tokens = MarkdownIt("commonmark").parse(body)
    blocks = [t for t in tokens if t.type == "fence"]
    assert len(blocks) == 1 and blocks[0].info == "suggestion"
    assert blocks[0].content == new
    assert_inert(body)


def test_fence_grows_past_backtick_runs_and_refuses_what_it_cannot_show() -> None:
    assert fence("plain") == "```"
    assert fence("a ```` b") == "`````"
    assert fence("`" * 16) is None
    assert fence("bell \x07") is None and fence("rtl \u202e") is None


def test_the_review_body_counts_what_is_left_and_why() -> None:
    title, date = fixes()
    body = review_body([title], [(date, OFF_DIFF), (date, OFF_DIFF)])
    assert body.startswith(MARKER) and "1 one-click suggestion**" in body
    assert f"2 more fixes are not suggested here (2 because {OFF_DIFF})" in body


def test_an_unsafe_fix_says_to_check_it() -> None:
    body = comment_body(suggestion(safe=False, codes=("arxiv-title-mismatch", "arxiv-not-found")))
    assert body.startswith(COMMENT_MARKER) and "check that it is the paper meant" in body
    assert "`arxiv-not-found` arXiv has no such paper" in body


# -- posting -----------------------------------------------------------------------------


def ours(pulls: FakeGitHubPulls) -> list[dict[str, object]]:
    return [r for r in pulls.reviews_on(REPO, 7) if str(r["body"]).startswith(MARKER)]


def test_posts_one_review_with_every_suggestion(
    tmp_path: Path, pulls: FakeGitHubPulls, pulls_api: GitHubAPI
) -> None:
    _, head = pull_world(tmp_path / "list", pulls)
    result = post_suggestions(pulls_api, REPO, 7, fixes(), LOGINS, head)
    assert (result.action, result.posted, result.left) == ("posted", 2, 0)
    (review,) = ours(pulls)
    assert review["state"] == "COMMENTED" and review["commit_id"] == head
    assert result.url == review["html_url"]
    comments = pulls.comments_of(review)
    assert [(c["path"], c["line"], c["start_line"], c["side"]) for c in comments] == [
        ("README.md", 5, None, "RIGHT"),
        ("README.md", 6, None, "RIGHT"),
    ]
    assert f"```suggestion\n- [{RIGHT_TITLE}]" in comments[0]["body"]
    posted = pulls.server.received(f"/repos/{REPO}/pulls/7/reviews", method="POST")
    assert len(posted) == 1 and posted[0].json()["event"] == "COMMENT"


def test_a_second_run_with_the_same_suggestions_posts_nothing(
    tmp_path: Path, pulls: FakeGitHubPulls, pulls_api: GitHubAPI
) -> None:
    _, head = pull_world(tmp_path / "list", pulls)
    post_suggestions(pulls_api, REPO, 7, fixes(), LOGINS, head)
    writes = len(pulls.server.received(method="POST"))
    again = post_suggestions(pulls_api, REPO, 7, fixes(), LOGINS, head)
    assert again.action == "unchanged" and again.posted == 2
    assert len(pulls.server.received(method="POST")) == writes
    assert not pulls.server.received(method="DELETE") and not pulls.server.received(method="PUT")


def test_new_suggestions_replace_the_earlier_review_which_is_cut_to_a_line(
    tmp_path: Path, pulls: FakeGitHubPulls, pulls_api: GitHubAPI
) -> None:
    _, head = pull_world(tmp_path / "list", pulls)
    post_suggestions(pulls_api, REPO, 7, fixes()[:1], LOGINS, head)
    result = post_suggestions(pulls_api, REPO, 7, fixes(), LOGINS, head)
    assert (result.action, result.posted, result.deleted) == ("posted", 2, 1)
    first, second = ours(pulls)
    assert first["body"] == SUPERSEDED and pulls.comments_of(first) == []
    assert len(pulls.comments_of(second)) == 2 and second["body"] != SUPERSEDED
    # The reviews that hold suggestions: one, whatever the number of runs.
    assert sum(bool(pulls.comments_of(r)) for r in pulls.reviews_on(REPO, 7)) == 1


def test_a_suggestion_no_longer_needed_leaves_the_review_with_the_rest(
    tmp_path: Path, pulls: FakeGitHubPulls, pulls_api: GitHubAPI
) -> None:
    """As the contributor commits suggestions one by one, the review stays; the applied
    (or outdated) comment goes and the body is brought up to date: no new review."""
    _, head = pull_world(tmp_path / "list", pulls)
    first = post_suggestions(pulls_api, REPO, 7, fixes(), LOGINS, head)
    result = post_suggestions(pulls_api, REPO, 7, fixes()[1:], LOGINS, head)
    assert (result.action, result.posted, result.deleted) == ("updated", 1, 1)
    (review,) = ours(pulls)
    assert result.url == first.url == review["html_url"]
    assert [c["line"] for c in pulls.comments_of(review)] == [6]
    assert "**curator: 1 one-click suggestion**" in review["body"]
    assert len(pulls.server.received(f"/repos/{REPO}/pulls/7/reviews", method="POST")) == 1


@pytest.mark.slow
def test_nothing_left_to_suggest_clears_the_earlier_review(
    tmp_path: Path, pulls: FakeGitHubPulls, pulls_api: GitHubAPI
) -> None:
    _, head = pull_world(tmp_path / "list", pulls)
    post_suggestions(pulls_api, REPO, 7, fixes(), LOGINS, head)
    result = post_suggestions(pulls_api, REPO, 7, (), LOGINS, head)
    assert result.action == "cleared" and result.posted == 0
    (review,) = ours(pulls)
    assert review["body"] == CLEARED and pulls.review_comments == {}
    assert post_suggestions(pulls_api, REPO, 7, (), LOGINS, head).action == "none"


def test_someone_elses_review_with_our_marker_is_never_touched(
    tmp_path: Path, pulls: FakeGitHubPulls, pulls_api: GitHubAPI
) -> None:
    _, head = pull_world(tmp_path / "list", pulls)
    post_suggestions(pulls_api, REPO, 7, fixes(), LOGINS, head)
    for review in pulls.reviews.values():
        review["user"] = pulls.user("attacker")
    for comment in pulls.review_comments.values():
        comment["user"] = pulls.user("attacker")
    result = post_suggestions(pulls_api, REPO, 7, (), LOGINS, head)
    assert result.action == "none" and len(pulls.review_comments) == 2
    assert all(r["body"] != CLEARED for r in pulls.reviews.values())


def test_a_422_on_one_comment_keeps_the_others(
    tmp_path: Path, pulls: FakeGitHubPulls, pulls_api: GitHubAPI
) -> None:
    """GitHub refuses the whole review for one comment; each is then tried alone in a
    pending review (deleted at once) and the review goes out with those GitHub takes."""
    _, head = pull_world(tmp_path / "list", pulls)
    pulls.refuse_lines = {("README.md", 6)}
    result = post_suggestions(pulls_api, REPO, 7, fixes(), LOGINS, head)
    assert (result.action, result.posted, result.left) == ("posted", 1, 1)
    (review,) = ours(pulls)
    assert [c["line"] for c in pulls.comments_of(review)] == [5]
    assert all(r["state"] != "PENDING" for r in pulls.reviews.values())
    posts = pulls.server.received(f"/repos/{REPO}/pulls/7/reviews", method="POST")
    assert [p.json().get("event") for p in posts] == ["COMMENT", None, None, "COMMENT"]


def test_a_pending_review_left_by_a_crash_is_deleted(
    tmp_path: Path, pulls: FakeGitHubPulls, pulls_api: GitHubAPI
) -> None:
    _, head = pull_world(tmp_path / "list", pulls)
    pulls.refuse_lines = {("README.md", 5), ("README.md", 6)}
    pending = pulls_api.repo(REPO).get_pull(7).create_review(body=MARKER)
    result = post_suggestions(pulls_api, REPO, 7, fixes(), LOGINS, head)
    assert result.action == "none" and result.left == 2
    assert pending.id not in pulls.reviews and pulls.reviews == {}


def test_a_pull_request_that_moved_on_gets_nothing(
    tmp_path: Path, pulls: FakeGitHubPulls, pulls_api: GitHubAPI
) -> None:
    pull_world(tmp_path / "list", pulls)
    result = post_suggestions(pulls_api, REPO, 7, fixes(), LOGINS, "0" * 40)
    assert (result.action, result.left) == ("stale", 2) and pulls.reviews == {}
