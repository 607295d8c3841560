"""The finding codes of CONTRACT.md (and curator's additions) with their default severity.

A code is a stable public name. Severities may be overridden by configuration; codes never
change silently. Every check must emit only codes listed here (a test enforces it).
"""

from __future__ import annotations

from curator.core.model import Severity

E, W, N = Severity.ERROR, Severity.WARNING, Severity.INFO  # N: notice (info)

#: code -> (default severity, one-line meaning). Order is the README's table order.
CODES: dict[str, tuple[Severity, str]] = {
    "arxiv-bad-id": (E, "not a valid arXiv identifier"),
    "arxiv-not-found": (E, "arXiv has no such paper"),
    "arxiv-withdrawn": (E, "the latest version is a withdrawal"),
    "arxiv-title-mismatch": (E, "the entry's title is not the paper's title"),
    "arxiv-date-mismatch": (W, "the entry's date is not the v1 submission date"),
    "arxiv-link-form": (W, "an arXiv link not in the form rules/links.yaml asks for"),
    "arxiv-unverified": (
        W,
        "arXiv could not be asked (outage, rate limit, timeout) or sent an incomplete record",
    ),
    "repo-not-found": (E, "no such repository (404, or 451/disabled)"),
    "repo-moved": (W, "renamed or transferred; suggestion holds the new URL"),
    "repo-archived": (W, "archived (read-only)"),
    "repo-no-license": (W, "no licence detected"),
    "repo-unrecognised-license": (N, "a licence file GitHub cannot classify (NOASSERTION)"),
    "repo-stale": (W, "no push for longer than the rules allow"),
    "repo-few-stars": (N, "fewer stars than the rules' optional minimum"),
    "repo-unverified": (W, "GitHub could not be asked"),
    "link-broken": (E, "404/410, DNS failure, TLS failure"),
    "link-redirect": (N, "permanent redirect; suggestion holds the target"),
    "link-soft-404": (
        W,
        "likely broken: redirected from a deep link to the site's home page, or to a sign-in "
        "or error page",
    ),
    "link-unverified": (W, "timeout, 429, 5xx"),
    "link-blocked": (E, "target is a private/loopback/metadata address or a refused scheme"),
    "entry-invalid": (E, "schema violation in the catalogue"),
    "entry-duplicate": (E, "same subject twice in one section"),
    "entry-cross-listed": (N, "the same paper or project listed again under another section"),
    "entry-translation-missing": (W, "in one language of a bilingual list only"),
    "anchor-missing": (E, "a link to #fragment names no heading or anchor of its document"),
    "file-missing": (E, "a relative link or image names no file of the list's repository"),
    "badge-mismatch": (W, "a badge names another repository than the link beside it"),
    "document-unread": (W, "a document links arXiv IDs or repositories that no entry holds"),
    "config-changed": (
        W,
        "a pull request changes [tool.curator] or a rules file; the run used the base's version",
    ),
    "scope-exclude": (
        E,
        "a hard rule of the list's own policy, proven by its quote, excludes the paper "
        "(or the maintainers declined it)",
    ),
    "scope-hold": (W, "metadata missing or unverifiable, so no scope decision"),
    "scope-review": (
        W,
        "for a maintainer: no strong evidence to include, or a likely exclude no hard rule makes",
    ),
    "record-title-mismatch": (E, "a screening record's title is not the official title"),
    "record-abstract-mismatch": (E, "a screening record's abstract is not the official abstract"),
    "record-quote-missing": (E, "memory_focus_quote not verbatim in title/abstract, or no memory"),
    "record-fields-missing": (E, "a screening record lacks fields its policy_version requires"),
    "record-missing": (E, "a listed paper has no include screening record"),
    "record-readded": (E, "re-added after an exclude/hold record without a reassessment"),
    "record-bad-reading-scope": (E, "reading_scope not allowed (or sections_read missing)"),
}


def severity_of(code: str, overrides: dict[str, Severity] | None = None) -> Severity:
    """The severity for `code`, configuration first; KeyError for an unknown code."""
    if overrides and code in overrides:
        return overrides[code]
    return CODES[code][0]


#: Findings that say a service could not be asked: never a failure of the run by themselves.
UNVERIFIED = frozenset({"arxiv-unverified", "repo-unverified", "link-unverified", "scope-hold"})
#: The outages among them: what the summary's "could not be verified" counts (a `scope-hold`
#: is no outage: a paper without an official abstract, or one an outage already counts).
OUTAGES = frozenset({"arxiv-unverified", "repo-unverified", "link-unverified"})


def unknown(code: str) -> str:
    """`unknown finding code X`, and the nearest real code when there is one (a typo)."""
    import difflib

    near = difflib.get_close_matches(code, CODES, n=1, cutoff=0.8)
    return f"unknown finding code {code}" + (f" (did you mean {near[0]}?)" if near else "")
