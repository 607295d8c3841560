"""Redirects on the wire (issue 29): `fix` writes a redirect's target only when it keeps the
page; a deep link the host now sends to its home page, a sign-in page, an error page or a
page answering 4xx is reported as likely broken by `check`, and never rewritten."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.doubles.server import LoopbackServer
from tests.fix.world import World, findings, make_world

#: path of the link (no sign-in or error word in it) -> (status, where it redirects); the
#: target pages answer 200, but /gone.
REDIRECTS = {
    "/paper/1": (301, "/"),
    "/paper/2": (301, "/login?next=%2Fpaper%2F2"),
    "/paper/3": (301, "/gone"),
    "/paper/4": (302, "/maintenance.html"),
    "/paper/5": (301, "/archive/paper/5"),
    "/paper/6": (301, "/paper/6/"),
}


def build(loopback: LoopbackServer, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> World:
    """A list of six tools whose links redirect as REDIRECTS says."""
    site = f"http://127.0.0.1:{loopback.url.rsplit(':', 1)[1]}"
    rows = [f"- [Tool {name.rsplit('/', 1)[1]}]({site}{name}) a memory tool" for name in REDIRECTS]
    world = make_world(loopback, tmp, monkeypatch, "# Tools\n\n" + "\n".join(rows) + "\n")
    for path, (status, target) in REDIRECTS.items():
        world.web.redirect(path, target, status=status)
    for page in ("/", "/login", "/maintenance.html", "/archive/paper/5", "/paper/6/"):
        world.web.page(page)
    world.web.page("/gone", status=404)
    return world


@pytest.mark.slow
def test_only_a_redirect_that_keeps_the_page_is_written(
    loopback: LoopbackServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = build(loopback, tmp_path, monkeypatch)
    site = world.web.url("")
    codes = {s.removeprefix(site): c for c, s in findings(world.check())}
    assert codes == {
        "/paper/1": "link-soft-404",
        "/paper/2": "link-soft-404",
        "/paper/3": "link-broken",
        "/paper/4": "link-soft-404",
        "/paper/5": "link-redirect",
        "/paper/6": "link-redirect",
    }
    before = world.text()
    ran = world.fix()
    assert ran.status in (0, 1), ran.err
    # Only the slash is written; every other link stays as the list wrote it.
    assert world.text() == before.replace(f"{site}/paper/6)", f"{site}/paper/6/)")
    after = {s.removeprefix(site): c for c, s in findings(world.check())}
    assert after == {k: v for k, v in codes.items() if k != "/paper/6"}
    shown = world.fix("--diff")
    assert "/login" not in shown.out + shown.err and "/archive/" not in shown.out + shown.err
