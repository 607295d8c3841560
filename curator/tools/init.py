"""`curator init`: write the three workflows that `uses:` curator's Action, pinned to one
commit, and a starter `rules/` into a list repository; never overwrite curator's own files
unless forced, never the list's rules files, never through a symbolic link."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from curator import __version__
from curator.errors import UsageError
from curator.sources.text import refuse_links_below

#: The repository that holds curator and its Action.
ACTION_REPOSITORY = "curator/curator"
ACTION_PATH = ".github/actions/curator"
WORKFLOWS = ("curator-pr.yml", "curator-comment.yml", "curator-nightly.yml")
#: Written too when the list has a scope policy (rules/scope.yaml or a preset): it screens.
DISCOVER = "curator-discover.yml"
#: The suffix of curator's starter beside a rules file the list has already.
EXAMPLE = ".example"
_SHA = re.compile(r"^[0-9a-f]{40}$")
_PLAIN = re.compile(r"^[\w./-][\w./ -]*$")

#: The starter rules: every key commented out, so curator's defaults apply until edited.
STARTER_RULES = {
    "links.yaml": """\
# Rules of curator's web-link check. Every key is optional: a key left out (as all are here)
# keeps curator's default; a key given replaces the default list. Hosts match subdomains too.
#
# bot_walled: [doi.org, acm.org]   # a refusal (403/429/999) from these is only "unverified"
# ignore:
#   hosts: [example.com]           # never checked
#   prefixes: ["https://example.org/private/"]
#   patterns: ["^https://localhost"] # RE2 regular expressions (no look-around, no \\1)
# arxiv_links:                     # the form the list's arXiv links take (curator fix writes it)
#   form: abs                      # abs or pdf pages (any: no form asked)
#   version: none                  # no version in the link, v1 and the like (any: no rule)
""",
    "projects.yaml": """\
# Rules of curator's repository checks (every GitHub repository an entry links). Every key is
# optional: a key left out (as all are here) keeps curator's default, shown.
#
# license_required: true   # repo-no-license when GitHub detects no licence
# archived: warning        # severity of repo-archived: error, warning, info or off
# stale_days: 365          # repo-stale after this many days without a push (0 = never)
# min_stars: 0             # repo-few-stars below this many stars (0 = no minimum)
""",
}


@dataclass(frozen=True)
class InitResult:
    """Files written and the list's rules files kept (a starter written beside each as
    NAME.example), relative to the list's root; the `uses:` value."""

    written: tuple[str, ...]
    kept: tuple[str, ...]
    uses: str


def action_reference(ref: str, sha: str) -> str:
    """The `uses:` value: the Action at commit `sha`, the human ref as a comment."""
    if not _SHA.match(sha):
        raise UsageError(f"the Action must be pinned to a 40-hex commit, not {sha!r}")
    tail = f" # {ref}" if ref and ref != sha else ""
    return f"{ACTION_REPOSITORY}/{ACTION_PATH}@{sha}{tail}"


def default_ref() -> str:
    """The tag of the running version."""
    return f"v{__version__}"


def detect_paths(root: Path) -> str:
    """What to check in a list repository: data/ when it holds YAML, else README.md."""
    data = root / "data"
    if data.is_dir() and any(data.rglob("*.yaml")):
        return "data"
    if (root / "README.md").is_file():
        return "README.md"
    raise UsageError(f"{root}: no data/ catalogue and no README.md: give --paths")


def commit_of(ref: str, env: Mapping[str, str]) -> str:
    """The commit `ref` (a tag, branch or commit) names in curator's repository: itself when it
    is already 40-hex, else asked of GitHub (GITHUB_API_URL, GITHUB_TOKEN)."""
    if _SHA.match(ref):
        return ref
    from curator.publish.api import PublishError
    from curator.publish.api import from_env as api_from_env

    try:
        with api_from_env(env) as api:
            commit = api.repo(ACTION_REPOSITORY).get_commit(ref)
            # raw_data fetches the commit; `sha` alone would echo the ref of a lazy object.
            sha = api.call("GET commit", lambda: commit.raw_data.get("sha", ""))
    except PublishError as exc:
        raise UsageError(f"cannot find the commit of {ref!r} ({exc}): give --ref COMMIT") from None
    return str(sha)


def check_inputs(inputs: Mapping[str, str]) -> Mapping[str, str]:
    """Inputs as plain YAML words (paths, names), else UsageError: they go into the YAML as is."""
    for key, value in inputs.items():
        if value and not _PLAIN.match(value):
            raise UsageError(f"{key} {value!r}: use letters, digits, '.', '_', '-', '/' and spaces")
    return inputs


def render_workflows(
    uses: str, inputs: Mapping[str, str], discover: bool = False
) -> dict[str, str]:
    """The workflows' text by file name: the templates with the Action and its inputs (and
    the weekly discover workflow when asked)."""
    lines = "".join(f"          {key}: {value}\n" for key, value in inputs.items() if value)
    out = {}
    for name in (*WORKFLOWS, DISCOVER) if discover else WORKFLOWS:
        text = (resources.files("curator.templates") / name).read_text(encoding="utf-8")
        out[name] = text.replace("<uses>", uses).replace("<with>\n", lines)
    return out


def init(root: Path, uses: str, inputs: Mapping[str, str], *, force: bool = False) -> InitResult:
    """Write the workflows and the starter rules under `root`.

    Nothing is written when one target is a symbolic link or lies below one (InputError), or
    when one of curator's own files exists already (UsageError) unless `force`. A rules file
    of the list is never replaced, forced or not: curator's starter goes beside it as
    NAME.example, one of curator's own files.
    """
    screens = bool(inputs.get("scope-preset")) or (root / "rules" / "scope.yaml").is_file()
    made = render_workflows(uses, inputs, discover=screens)
    files = {f".github/workflows/{n}": t for n, t in made.items()}
    kept = []
    for name, text in STARTER_RULES.items():
        rules = f"rules/{name}"
        refuse_links_below(root / rules, root)  # before asking whether the file exists
        if (root / rules).exists():
            kept.append(rules)
            rules += EXAMPLE
        files[rules] = text
    for name in files:
        refuse_links_below(root / name, root)
    clash = [name for name in files if (root / name).exists()]
    if clash and not force:
        raise UsageError(f"{', '.join(clash)} exist already (--force overwrites)")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return InitResult(tuple(files), tuple(kept), uses)


def next_steps(root: str, inputs: Mapping[str, str]) -> list[str]:
    """What to run after init: the check the workflows will run, on this machine (with the
    same preset: nothing here records it for a local run), then the one commit."""
    check = f"curator check {inputs.get('paths') or ''}".rstrip()
    if inputs.get("scope-preset"):
        check += f" --scope-preset {inputs['scope-preset']}"
    where = "" if root in ("", ".") else f", in {root}"
    return [
        f"Next{where}: run the check the workflows run, then commit them and push:",
        f"  {check}",
        '  git add .github/workflows rules && git commit -m "Add curator\'s workflows"',
        _scope_note(inputs.get("scope-preset") or ""),
    ]


def _scope_note(preset: str) -> str:
    """Whose scope policy the workflows apply: a preset is another list's own."""
    from curator.presets import ALIASES

    name = ALIASES.get(preset, preset)
    if name == "iaar-ai-memory":
        return (
            "Scope: iaar-ai-memory is IAAR-Shanghai/Awesome-AI-Memory's screening policy "
            "(2026-10-09); its hard gate fails the check for a paper whose title and abstract "
            "lack the word memory. Leave the preset out unless your list adopts that policy."
        )
    if name:
        return f"Scope: the shipped policy {name}."
    return (
        "Scope: no policy of the list's own (rules/scope.yaml), so no hard gate and no scope "
        "errors."
    )
