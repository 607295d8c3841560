"""The outages section of docs/reliability.md: written by hand, placed by table.render
between the generated tables and the threat model."""

OUTAGES = """\
## Outages and trust boundaries

**What the cases above try.** Faults: arXiv 503/429 with and without Retry-After, `Rate
exceeded.` under 200, blank, truncated and malformed Atom, HTML pages; GitHub secondary and
primary limits near and far, GraphQL partial errors and `RATE_LIMITED` under 200, 5xx HTML,
resets, timeouts, slow drips. Hostile inputs: alias bombs, 1,000-deep nesting, 10 MB files, bad
UTF-8, NUL bytes, 100 KB titles, Markdown/HTML/terminal injection, `javascript:`/`data:`/`file:`
URLs, credentials, IDN homographs, every loopback spelling, a redirect from an allowed host to a
refused one; a rules file opening the guard, a symlink out of the repository, a file name
carrying a workflow command. Also tested: two runs sharing one cache at once lose nothing; a run
killed with SIGKILL leaves a usable cache; an interrupted `comment` never leaves two comments;
`GITHUB_TOKEN` is sent only to the GitHub API and appears in no report, log, stderr or cache
file; random Markdown/HTML never crashes the document reader. Private, link-local and metadata
ranges are tested through the guard's classification function only: no test sends a packet
anywhere but loopback; a counting loopback server shows that no request reached a refused
address.

**Outages are never errors.** A DNS "no such host" or a TLS failure is `link-broken` only when
another web host answered in the same run (or an API answered and only one link failed so);
otherwise the links are `link-unverified` and a note says the network was unreachable. Such
failures are never cached. arXiv's empty page (a well-formed feed with no entry) is asked again
in halves, and a lone ID is asked beside a paper arXiv has, so "not found" always rests on an
answer listing something. A connection that cannot be made is tried twice, not five times, and a
web request has one deadline for connect, headers and closing together. The report's notes (and
`curator explain`) say which services could not be asked, and the terminal's progress display
marks a service that could not be asked. With no network at all, `curator check data/` ends in
about 7 s with exit 0 and 0 errors (it took 53 s and reported 56 broken links before, cached for
6 hours). What could not be asked is a `*-unverified` warning, which `--fail-on` never counts.

**Trust boundaries.** In a pull-request run everything in the checked tree is the contributor's:
`data/`, documents, `rules/`, `pyproject.toml`, screening records, file names and symbolic links.
Only the workflow's environment and command line are trusted: the settings that weaken security
(`CURATOR_ALLOW_PRIVATE_HOSTS`, `CURATOR_GUARD_ALLOW`, the API endpoints where the token goes)
come only from there. The threat model below says who controls what in each kind of run and
where each boundary is tested.
"""
