"""load_link_rules and LinkRules: the shipped file, defaults, matching and located errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.config.links import BOT_WALLED, LinkRules, load_link_rules
from curator.core.errors import InputError

SHIPPED = Path(__file__).resolve().parents[2] / "rules" / "links.yaml"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "links.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_shipped_rules_load_and_match_the_defaults() -> None:
    rules = load_link_rules(SHIPPED)
    assert rules == LinkRules()
    assert {"doi.org", "openreview.net", "x.com", "linkedin.com"} <= set(rules.bot_walled)


def test_missing_or_empty_file_means_defaults(tmp_path: Path) -> None:
    assert load_link_rules(tmp_path / "absent.yaml") == LinkRules()
    assert load_link_rules(write(tmp_path, "# nothing\n")) == LinkRules()


def test_keys_given_set_their_values(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "bot_walled: [Example.COM.]\n"
        "allow: []\n"
        "ignore:\n"
        "  hosts: [skip.example]\n"
        "  prefixes: ['https://slow.example/api/']\n"
        "  patterns: ['^https://[^/]+/private/']\n",
    )
    rules = load_link_rules(path)
    assert rules.bot_walled == (*BOT_WALLED, "example.com")
    assert rules.allow == ()
    assert rules.protected == LinkRules().protected
    assert rules.ignores("https://www.skip.example/x")
    assert rules.ignores("https://slow.example/api/v1")
    assert rules.ignores("https://any.example/private/page")
    assert not rules.ignores("https://any.example/public/page")


def test_a_bot_walled_list_extends_the_defaults(tmp_path: Path) -> None:
    """Issue 32: uncommenting the starter's example must keep the built-in hosts (OpenReview's
    403s stay unverified, never link-broken)."""
    listed, mapped = "[my-journal.example]", "\n  hosts: [my-journal.example]"
    for text in (f"bot_walled: {listed}\n", f"bot_walled:{mapped}\n"):
        rules = load_link_rules(write(tmp_path, text))
        assert rules.is_bot_walled("openreview.net") and rules.is_bot_walled("my-journal.example")
        assert rules.bot_walled == (*BOT_WALLED, "my-journal.example")


def test_replace_true_gives_the_whole_list(tmp_path: Path) -> None:
    text = "bot_walled:\n  replace: true\n  hosts: [Example.COM.]\n"
    rules = load_link_rules(write(tmp_path, text))
    assert rules.bot_walled == ("example.com",)
    assert not rules.is_bot_walled("openreview.net")
    off = load_link_rules(write(tmp_path, "bot_walled:\n  replace: false\n  hosts: [a.org]\n"))
    assert off.bot_walled == (*BOT_WALLED, "a.org")


@pytest.mark.parametrize(
    ("host", "walled"),
    [("doi.org", True), ("dx.doi.org", True), ("DL.ACM.ORG.", True), ("notdoi.org", False)],
)
def test_bot_walled_covers_subdomains_only(host: str, walled: bool) -> None:
    assert LinkRules().is_bot_walled(host) is walled


def test_default_list_is_not_empty() -> None:
    assert len(BOT_WALLED) >= 9


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("bot_walled: [a.org\n", 2, "invalid YAML"),
        ("- a\n- b\n", 1, "must be a mapping"),
        ("bot_walled: [a.org]\nunknown: 1\n", 2, "unknown key 'unknown'"),
        ("bot_walled:\n  hosts: [a]\n  also: [b]\n", 3, "unknown key bot_walled.also"),
        ("bot_walled:\n  replace: 'yes'\n", 2, "bot_walled.replace must be true or false"),
        ("allow: 127.0.0.1\n", 1, "allow must be a list"),
        ("allow:\n  - 127.0.0.1\n  - 5\n", 3, "non-empty string"),
        ("allow:\n  - ''\n", 2, "non-empty string"),
        ("ignore:\n  hosts: [a]\n  paths: [b]\n", 3, "unknown key ignore.paths"),
        ("ignore: [a]\n", 1, "ignore must be a mapping"),
        ("ignore:\n  patterns:\n    - 'ok'\n    - '(unclosed'\n", 4, "bad regex"),
        ("allow: []\nallow: []\n", 2, "duplicate key"),
    ],
)
def test_malformed_rules_name_file_and_line(
    tmp_path: Path, text: str, line: int, words: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(InputError) as caught:
        load_link_rules(path)
    assert caught.value.file == path.as_posix()
    assert caught.value.line == line
    assert words in caught.value.message


@pytest.mark.parametrize(
    "text",
    ["allow: !!python/object/apply:os.system ['true']\n", "!!python/object:os.Foo {}\n"],
)
def test_python_tags_are_refused(tmp_path: Path, text: str) -> None:
    with pytest.raises(InputError):
        load_link_rules(write(tmp_path, text))
