"""arXiv link forms: links not in the form the list asks for in rules/links.yaml (pure).

Off unless the rules ask (`arxiv_links: {form: abs|pdf, version: none}`): a list may want
every paper linked by its abstract page, or by its PDF, or without a version so the link
always shows the latest one. The suggestion is the same paper's link in that form, which
`curator fix` writes in place of the one as written.
"""

from __future__ import annotations

from collections.abc import Iterable

from curator.config.context import CheckContext
from curator.config.links import LinkRules
from curator.core.model import Entry, Finding, Service
from curator.core.normalize import arxiv_id_in_url, is_arxiv_url

#: Paths of an arXiv paper page, by form.
_FORMS = ("abs", "pdf", "html")


def link_forms(entries: Iterable[Entry], ctx: CheckContext) -> list[Finding]:
    """`arxiv-link-form` for every arxiv.org paper link of `entries` the rules would write
    otherwise; none when the rules ask for no form."""
    rules = ctx.links
    if rules is None or not rules.asks_arxiv_form:
        return []
    findings: list[Finding] = []
    for entry in entries:
        for link in entry.links:
            wanted = wanted_link(link.url, rules) if link.service is Service.ARXIV else None
            if wanted is None:
                continue
            message = f"{link.role} link {link.url} is not in the list's form ({wanted})"
            findings.append(
                ctx.finding(
                    "arxiv-link-form", link.subject, entry.source, message, link.url, wanted
                )
            )
    return findings


def wanted_link(url: str, rules: LinkRules) -> str | None:
    """The link in the form `rules` ask for, or None when it is in that form already (or is
    not an arxiv.org paper page)."""
    found = arxiv_id_in_url(url)
    form = _form(url)
    if found is None or form is None or not is_arxiv_url(url):
        return None
    new_form = form if rules.arxiv_form == "any" else rules.arxiv_form
    version = None if rules.arxiv_version == "none" else found.version
    if (new_form, version) == (form, found.version):
        return None
    return f"https://arxiv.org/{new_form}/{found.base}" + (f"v{version}" if version else "")


def _form(url: str) -> str | None:
    """`abs`, `pdf` or `html`: the kind of arxiv.org page a link opens."""
    path = url.split("://", 1)[-1].split("/", 1)[-1].lstrip("/").lower()
    return next((form for form in _FORMS if path.startswith(form + "/")), None)
