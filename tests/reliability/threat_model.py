"""The threat model section of docs/reliability.md (appended to the generated tables)."""
# ruff: noqa: E501 - Markdown table rows are one line each

THREAT_MODEL = """\
## Threat model

Who controls what in each kind of run, and what curator trusts. Issue 12 found fourteen ways
to break these boundaries; each has a regression test named below.

| run | trusted (may set anything) | attacker-controlled (read as data only) |
| --- | --- | --- |
| pull request (`curator-pr.yml`) | the workflow's environment and command line; the base revision, where `[tool.curator]` and the rules are read | the whole checked tree: data/, documents, rules/, pyproject.toml, screening/, .gitattributes, file names, symbolic links; every answer of a web host |
| comment (`curator-comment.yml`, workflow_run) | its own workflow, environment and token | the report artifact of the PR run (a fork can change the PR workflow that wrote it) |
| nightly audit (`curator-nightly.yml`) | the default branch, environment and token | answers of arXiv, GitHub and every web host |
| local | the user and the tree they chose | answers of every service |

Boundaries enforced, and where they are tested:

- **A pull request's configuration never decides its own check.** Settings and rules come
  from the base revision; no `.gitattributes` changes the diff; see
  [threat-model.md](threat-model.md) (issue 23). (tests/integration/test_pr_configuration.py,
  tests/unit/test_git_reader.py, tests/unit/test_select_references.py)
- **Security settings come only from the trusted side.** `allow_private_hosts`, `guard_allow`
  and the API endpoints (where the token goes) are refused in `[tool.curator]`; a non-empty
  `allow:` in rules/links.yaml is refused; `protected:` can only add domains; paths in
  `[tool.curator]` stay inside the repository. Metadata addresses and Azure's platform address
  168.63.129.16 are refused even when allowed. (tests/reliability/test_trust.py)
- **Nothing is read outside the repository.** A catalogue file, document or rules file that is a
  symbolic link leaving the repository is refused, exit 2, one line. (test_trust.py)
- **Nothing reaches a terminal or a workflow command unescaped.** The exit-2 line escapes
  control characters (a newline in a file name cannot start `::add-mask::`); annotations escape
  `%`, CR and LF; Markdown output goes through console/sanitize.py. (test_trust.py,
  tests/report/test_sanitize.py)
- **The bot posts only what it rendered.** `curator comment` accepts only a curator JSON report:
  strict JSON (no NaN, Infinity or 1e400, nesting bounded), a JSON Schema, then rendered by
  curator; a body too long loses whole rows and says where the full report is.
  (tests/publish/test_hostile_report.py)
- **The cache touches only its own file.** Only a file SQLite calls corrupt is set aside; a
  file that is not an SQLite database at all (a list, a README, `.git/config` named as the
  cache) is left as it is and the run goes without a cache; a lock leaves every file alone; a
  folder named as the cache is exit 2. (tests/unit/test_cache_ownership.py)
- **An outage is never a false error.** DNS and TLS failures are `link-broken` only when the
  network is shown to work in the same run, and are never cached; arXiv's empty page is asked
  again smaller and a lone ID is asked beside a known paper; a web request has one deadline for
  the whole exchange, so a slow drip cannot starve the other links; `explain` and the report
  notes say which service could not be asked. (tests/reliability/test_no_network.py)
- **Linear work for repeated input.** N copies of one entry give N-1 findings of one line each
  (the first place and the count), not N findings of N-1 places. (tests/checks/test_catalog.py)
- **A document is read as a browser reads it, in linear time.** HTML goes through curator's
  own tokenizer, linear on unterminated comments, tags and quotes; the reading check's patterns
  are bounded; the first of two `href`s is the link; backslash, protocol-relative and `www.`
  links are read; arXiv IDs are ASCII digits; a literal `<!--` in prose hides nothing from the
  reading check; an item that opens with HTML is read, not a traceback. Git's output is split
  at newlines only and lines are numbered as git numbers them (a lone CR or a form feed cannot
  forge a diff header or move an entry out of a pull request's diff); `import` never writes
  through a symbolic link. (tests/sources/test_hostile_documents.py)
"""
