"""`curator init`: write the workflows that `uses:` curator's Action, pinned to the commit of
the curator that runs it (else its version's tag), a starter `rules/` and the list's settings
file (`rules/curator.yaml`) into a list repository, offline; never overwrite curator's own
files unless forced, never the list's rules or settings files, never through a symbolic
link."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from curator import __version__
from curator.config.home import REPOSITORY, Origin, running_commit
from curator.core.errors import UsageError
from curator.sources.formats import Reader, suffixes
from curator.textio.text import refuse_links_below

#: The repository that holds curator and its Action (curator.config.home).
ACTION_REPOSITORY = REPOSITORY
ACTION_PATH = ".github/actions/curator"
WORKFLOWS = ("curator-pr.yml", "curator-comment.yml", "curator-nightly.yml")
#: Written too when the list has a scope policy (rules/scope.yaml or a preset): it screens.
DISCOVER = "curator-discover.yml"
#: The suffix of curator's starter beside a rules file the list has already.
EXAMPLE = ".example"
_SHA = re.compile(r"^[0-9a-f]{40}$")
_PLAIN = re.compile(r"^[\w./-][\w./ -]*$")
#: A tag or branch name as `--ref` may give it (it goes into the YAML as is).
_REF = re.compile(r"^[\w.-][\w./-]*$")
#: After a tag, which zizmor's unpinned-uses audit would report: why it is not a commit.
TAG_NOTE = "zizmor: ignore[unpinned-uses] no commit known when written: pin one"

#: The starter rules: every key commented out, so curator's defaults apply until edited.
STARTER_RULES = {
    "links.yaml": """\
# Rules of curator's web-link check. Every key is optional: a key left out (as all are here)
# keeps curator's default. A list given extends curator's default list; to replace it, give
# `{replace: true, hosts: [...]}` instead of the list. Hosts match their subdomains too.
#
# bot_walled: [my-journal.example]  # added to the defaults: a refusal (403/429/999) from
#                                   # these is only "unverified". The defaults: doi.org,
#                                   # acm.org, openreview.net, sciencedirect.com,
#                                   # researchgate.net, x.com, twitter.com, medium.com,
#                                   # linkedin.com, ieee.org, springer.com, wiley.com,
#                                   # tandfonline.com, jstor.org, reddit.com, zhihu.com,
#                                   # scholar.google.com, semanticscholar.org, nature.com,
#                                   # science.org
# protected: [my-lab.example]       # added to github.com and arxiv.org: their look-alike
#                                   # (homograph) hosts are refused
# ignore:                           # never checked (none by default)
#   hosts: [example.com]
#   prefixes: ["https://example.org/private/"]
#   patterns: ["^https://localhost"] # RE2 regular expressions (no look-around, no \\1)
# arxiv_links:                     # the form the list's arXiv links take (curator fix writes it)
#   form: abs                      # abs or pdf pages (default any: no form asked)
#   version: none                  # no version in the link (default any: no rule)
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
#: The list's settings file (curator.config.settings_file): what init knows is set, the rest
#: commented with its default.
SETTINGS_NAME = "curator.yaml"
SETTINGS_TEXT = """\
# curator's settings for this list, read by every command (check, fix, explain, discover,
# audit): the command line and the environment win over them, and they win over
# [tool.curator] in pyproject.toml. In a pull request's check they are read from the base
# branch, never from the pull request. A key left out (commented) keeps the default shown.
#
{paths}{preset}# skip: []                 # services to leave out: arxiv, github, web, scope
# rules_dir: rules         # the rules folder (default: rules/ beside the list)
# records_dir: screening   # screening records (*-review.json)
# date_tolerance_days: 7   # how far an entry's date may be from arXiv's v1 date
# severity:                # another severity for a finding code (docs/codes.md), or off
#   repo-stale: info       # error, warning, info, or off: no finding at all
#   link-redirect: off
"""


def settings_text(paths: str, preset: str) -> str:
    """The settings file init writes: the list's paths and scope preset set, the rest shown
    commented with its default."""
    shown = "[" + ", ".join(paths.split()) + "]"
    set_paths = f"paths: {shown}" if paths else "# paths: [data]"
    if preset:
        what = "the shipped scope policy when rules/ has no scope.yaml"
        set_preset = f"scope_preset: {preset}"
    else:
        # No preset is the default: the line names the one shipped policy and what it costs.
        what = "none by default; IAAR's policy, whose hard gate fails papers without 'memory'"
        set_preset = "# scope_preset: iaar-ai-memory"
    return SETTINGS_TEXT.format(
        paths=f"{set_paths:<26} # what to check: catalogue folders, YAML files, documents\n",
        preset=f"{set_preset:<26} # {what}\n",
    )


def trigger_paths(root: Path, paths: str) -> list[str]:
    """The files whose change runs the pull-request workflow: the list's own (a folder with
    everything below it), the rules folders (the top level's, holding the settings file, and
    one beside a list in a subfolder), and pyproject.toml ([tool.curator])."""
    out: dict[str, None] = {}
    for path in paths.split():
        clean = path.strip("/")
        out[f"{clean}/**" if (root / clean).is_dir() else clean] = None
        parent = Path(clean).parent.as_posix()
        if parent != ".":
            out[f"{parent}/rules/**"] = None
    out["rules/**"] = None
    out["pyproject.toml"] = None
    return list(out)


@dataclass(frozen=True)
class InitResult:
    """Files written and the list's rules files kept (a starter written beside each as
    NAME.example), relative to the list's root; the `uses:` value."""

    written: tuple[str, ...]
    kept: tuple[str, ...]
    uses: str


def action_reference(ref: str, sha: str) -> str:
    """The `uses:` value: the Action at commit `sha`, the human ref as a comment."""
    if not _SHA.fullmatch(sha):
        raise UsageError(f"the Action must be pinned to a 40-hex commit, not {sha!r}")
    tail = f" # {ref}" if ref and ref != sha else ""
    return f"{ACTION_REPOSITORY}/{ACTION_PATH}@{sha}{tail}"


def default_ref() -> str:
    """The tag of the running version."""
    return f"v{__version__}"


@dataclass(frozen=True)
class Pin:
    """The `uses:` value the workflows get, and whether it names a full commit."""

    uses: str
    commit: bool


def pin(ref: str | None, origin: Origin | None) -> Pin:
    """Where the workflows take curator's Action from, decided from local facts only (no
    network): `--ref COMMIT`, else the commit the running curator was installed from (PEP 610
    or the release build's stamp), each with this version's tag as the comment Dependabot and
    Renovate read (`@<sha> # vX.Y.Z`); else the tag itself (`--ref TAG`, or this version's),
    marked for zizmor as a pin still to make."""
    version = default_ref()
    if ref and _SHA.fullmatch(ref):
        return Pin(action_reference(version, ref), True)
    if ref is None and origin is not None:
        return Pin(f"{origin.repository}/{ACTION_PATH}@{origin.commit} # {version}", True)
    tag = ref or version
    if not _REF.fullmatch(tag):
        raise UsageError(f"--ref {tag!r}: a 40-hex commit, or a tag or branch name")
    return Pin(f"{ACTION_REPOSITORY}/{ACTION_PATH}@{tag} # {TAG_NOTE}", False)


def running_pin(ref: str | None) -> Pin:
    """`pin` for the curator that runs this (its install's own record of its commit)."""
    return pin(ref, None if ref else running_commit())


_CATALOGUE = suffixes(Reader.CATALOGUE)


def detect_paths(root: Path) -> str:
    """What to check in a list repository: data/ when it holds a catalogue file (the suffix
    table's: .yaml or .yml), else README.md."""
    data = root / "data"
    if data.is_dir() and any(p.suffix.lower() in _CATALOGUE for p in data.rglob("*")):
        return "data"
    if (root / "README.md").is_file():
        return "README.md"
    raise UsageError(f"{root}: no data/ catalogue and no README.md: give --paths")


def check_inputs(inputs: Mapping[str, str]) -> Mapping[str, str]:
    """Inputs as plain YAML words (paths, names), else UsageError: they go into the YAML as is."""
    for key, value in inputs.items():
        if value and not _PLAIN.match(value):
            raise UsageError(f"{key} {value!r}: use letters, digits, '.', '_', '-', '/' and spaces")
    return inputs


def render_workflows(
    uses: str,
    inputs: Mapping[str, str],
    discover: bool = False,
    triggers: list[str] | None = None,
) -> dict[str, str]:
    """The workflows' text by file name: the templates with the Action, its inputs (none by
    default: the settings file holds the list's), the pull-request workflow's `paths:`
    filter, and the weekly discover workflow when asked."""
    lines = "".join(f"          {key}: {value}\n" for key, value in inputs.items() if value)
    filters = "".join(f"      - {path}\n" for path in triggers or ["**"])
    out = {}
    for name in (*WORKFLOWS, DISCOVER) if discover else WORKFLOWS:
        text = (resources.files("curator.templates") / name).read_text(encoding="utf-8")
        text = text.replace("<uses>", uses).replace("<with>\n", lines)
        out[name] = text.replace("<paths>\n", filters)
    return out


def init(root: Path, uses: str, inputs: Mapping[str, str], *, force: bool = False) -> InitResult:
    """Write the workflows and the starter rules under `root`.

    Nothing is written when one target is a symbolic link or lies below one (InputError), or
    when one of curator's own files exists already (UsageError) unless `force`. A rules file
    of the list is never replaced, forced or not: curator's starter goes beside it as
    NAME.example, one of curator's own files.
    """
    paths, preset = inputs.get("paths") or "", inputs.get("scope-preset") or ""
    # Every list gets the weekly discover: a list without a policy is screened by what its
    # own papers teach (curator/discover/relevant.py).
    made = render_workflows(uses, {}, discover=True, triggers=trigger_paths(root, paths))
    files = {f".github/workflows/{n}": t for n, t in made.items()}
    kept = []
    starters = {**STARTER_RULES, SETTINGS_NAME: settings_text(paths, preset)}
    for name, text in starters.items():
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


def next_steps(root: str, preset: str = "") -> list[str]:
    """What to run after init: the check the workflows run, on this machine (the settings
    file holds the list's paths and scope preset), then the one commit; whose scope applies."""
    where = "" if root in ("", ".") else f", in {root}"
    return [
        f"Next{where}: run the check the workflows run, then commit them and push:",
        "  curator check",
        '  git add .github/workflows rules && git commit -m "Add curator\'s workflows"',
        _scope_note(preset),
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
        "Scope: no policy of the list's own (rules/scope.yaml), so no hard gate: a new paper "
        "unlike the list's own is a warning; only a paper the maintainers declined in a "
        "recorded decision is an error."
    )
