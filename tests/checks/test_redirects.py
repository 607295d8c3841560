"""Which redirects keep the page (`same_resource`: the only ones `fix` writes) and which say
the page is likely gone (`soft_404`)."""

from __future__ import annotations

import pytest

from curator.checks.redirects import hop_urls, same_resource, soft_404
from curator.core.meta import WebMeta


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("http://a.example/x", "https://a.example/x"),  # https upgrade
        ("https://a.example/x", "https://www.a.example/x"),  # www. added
        ("https://www.a.example/x", "https://a.example/x"),  # www. removed
        ("https://A.Example/x", "https://a.example/x"),  # host case
        ("https://a.example/x", "https://a.example/x/"),  # slash added
        ("https://a.example/x/", "https://a.example/x"),  # slash removed
        ("http://a.example", "https://a.example/"),  # the root, spelled two ways
        ("http://a.example:80/x?q=1", "https://www.a.example/x?q=1"),  # default ports, a query
    ],
)
def test_the_same_page_under_another_spelling(old: str, new: str) -> None:
    assert same_resource(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("https://a.example/paper/7", "https://a.example/"),  # the home page
        ("https://a.example/paper/7", "https://a.example/login"),  # a sign-in page
        ("https://a.example/paper/7", "https://a.example/papers/7"),  # another path
        ("https://a.example/Paper", "https://a.example/paper"),  # path case is the server's
        ("https://a.example/x", "https://b.example/x"),  # another host
        ("https://a.example/x", "https://a.example.evil/x"),  # another host, a prefix alike
        ("https://a.example/x?id=1", "https://a.example/x?id=2"),  # another query
        ("https://a.example/x", "http://a.example/x"),  # a downgrade to http
        ("https://a.example/x", "https://a.example:8443/x"),  # another port
        ("https://a.example/x", "https://u@a.example/x"),  # credentials
        ("https://a.example/x", "javascript:alert(1)"),
        ("https://a.example/x", "https://a.example:bad/x"),
    ],
)
def test_anything_else_may_be_another_page(old: str, new: str) -> None:
    assert not same_resource(old, new)


@pytest.mark.parametrize(
    ("chain", "said"),
    [
        (["https://a.example/paper/7", "https://a.example/"], "home page https://a.example/"),
        (["http://a.example/p?id=7", "https://a.example"], "home page"),
        (["https://a.example/paper/7", "https://a.example/index.html"], "home page"),
        # the home page reached on the way (it then sends to a localised one)
        (["https://a.example/p", "https://a.example/", "https://a.example/en/"], "home page"),
        (["https://a.example/p", "https://a.example/login?next=%2Fp"], "a sign-in page"),
        (["https://a.example/p", "https://a.example/users/sign_in"], "a sign-in page"),
        (["https://a.example/p", "https://a.example/auth/realms/x"], "a sign-in page"),
        (["https://a.example/p", "https://accounts.example.com/ServiceLogin"], "a sign-in"),
        (["https://a.example/p", "https://sso.example.com/p"], "a sign-in page"),
        (["https://a.example/p", "https://a.example/maintenance.html"], "an error page"),
        (["https://a.example/p", "https://a.example/404"], "an error page"),
        (["https://a.example/p", "https://a.example/errors/not-found"], "an error page"),
    ],
)
def test_a_deep_link_sent_home_or_to_a_sign_in_or_error_page(chain: list[str], said: str) -> None:
    assert said in soft_404(chain)


@pytest.mark.parametrize(
    "chain",
    [
        ["https://a.example/p"],  # no redirect
        ["http://a.example/p", "https://a.example/p"],  # https
        ["https://a.example/p", "https://a.example/docs/p"],  # another deep page
        ["https://a.example/", "https://a.example/login"],  # a web app's front door
        ["https://a.example", "https://www.a.example/"],  # the home page, spelled otherwise
        ["https://a.example/login", "https://a.example/login/"],  # linked as a sign-in page
        ["https://a.example/author/p", "https://a.example/authors/p"],  # no whole word
        ["https://a.example/p", "not a url"],
    ],
)
def test_other_redirects_say_nothing(chain: list[str]) -> None:
    assert soft_404(chain) == ""


def test_hop_urls_read_the_kept_chain() -> None:
    meta = {"chain": [[301, "https://a.example/p"], [200, "https://a.example/"]]}
    assert hop_urls(WebMeta.from_cache(meta)) == ["https://a.example/p", "https://a.example/"]
    assert hop_urls(WebMeta.from_cache({"chain": "x"})) == [] and hop_urls(WebMeta()) == []
    assert hop_urls(WebMeta.from_cache({"chain": [[301], "ab", [200, "u"]]})) == ["u"]
