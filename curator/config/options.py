"""One frozen Options for a run, built from the command line, the environment, the list's
settings file (rules/curator.yaml) and `[tool.curator]` in pyproject.toml, in that order of
precedence."""

from __future__ import annotations

import math
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from curator.config.config_files import ConfigFiles, WorkingTree, config_files
from curator.core.errors import UsageError
from curator.core.model import FailOn, Format, Service, Severity

#: CONTRACT.md environment variables -> Options field.
ENV_VARS: dict[str, str] = {
    "GITHUB_TOKEN": "github_token",
    "GITHUB_API_URL": "github_api_url",
    "GITHUB_GRAPHQL_URL": "github_graphql_url",
    "CURATOR_ARXIV_API_URL": "arxiv_api_url",
    "CURATOR_ARXIV_DELAY": "arxiv_delay",
    "CURATOR_CACHE": "cache_path",
    "CURATOR_ALLOW_PRIVATE_HOSTS": "allow_private_hosts",
    "CURATOR_GUARD_ALLOW": "guard_allow",
}

#: Settings that weaken security (the SSRF guard, where requests and the token go): only the
#: workflow's environment and command line may set them, never a file of the checked tree.
TRUSTED_ONLY = frozenset(
    {"allow_private_hosts", "guard_allow", "github_api_url", "github_graphql_url", "arxiv_api_url"}
)
#: The severity that drops a finding code from every report.
OFF = "off"
#: Path settings a file of the checked tree may set only inside the tree.
TREE_PATHS = ("paths", "rules_dir", "records_dir", "zh", "output", "cache_path")


@dataclass(frozen=True)
class Options:
    """Every setting of a run. Defaults are the real services and CONTRACT.md's values."""

    paths: tuple[str, ...] = ("data",)
    root: str = "."
    github_token: str = field(default="", repr=False)
    github_api_url: str = "https://api.github.com"
    github_graphql_url: str = "https://api.github.com/graphql"
    arxiv_api_url: str = "https://export.arxiv.org/api/query"
    arxiv_delay: float = 3.0
    arxiv_batch_size: int = 100
    cache_path: str = ""
    allow_private_hosts: bool = False
    #: Hosts or addresses (CIDR) the SSRF guard lets through: CURATOR_GUARD_ALLOW only.
    guard_allow: tuple[str, ...] = ()
    offline: bool = False
    no_cache: bool = False
    skip: frozenset[Service] = frozenset()
    fail_on: FailOn = FailOn.ERROR
    format: Format = Format.TEXT
    output: str = ""
    changed_since: str = ""
    zh: str = ""
    rules_dir: str = ""  # "": a rules/ folder next to the list, else the root's (run/rules.py)
    scope_preset: str = ""
    records_dir: str = "screening"
    date_tolerance_days: int = 7
    ttl_arxiv: float = 30 * 86400.0
    ttl_github: float = 86400.0
    ttl_web: float = 86400.0
    ttl_not_found: float = 6 * 3600.0
    timeout: float = 20.0
    service_budget: float = 300.0
    rate_limit_wait: float = 60.0
    web_concurrency: int = 8
    web_per_host: int = 2
    web_host_spacing: float = 0.2
    severity: Mapping[str, Severity] = field(default_factory=dict)
    #: Codes whose `severity` is `off`: their findings are dropped from every report.
    silenced: frozenset[str] = frozenset()

    def resolved_cache_path(self) -> Path:
        """CURATOR_CACHE, else `.curator/cache.sqlite` under the repository root."""
        if self.cache_path:
            return Path(self.cache_path)
        return Path(self.root) / ".curator" / "cache.sqlite"

    def skips(self, service: Service) -> bool:
        """True when `--skip` names this service."""
        return service in self.skip


def repository_root(start: Path) -> Path:
    """The git top level containing `start`, else the nearest folder with pyproject.toml."""
    from curator.textio.git import top_level

    top = top_level(start)
    if top is not None:
        return top
    for folder in (start, *start.parents):
        if (folder / "pyproject.toml").is_file():
            return folder
    return start


def read_pyproject(files: ConfigFiles) -> dict[str, Any]:
    """The `[tool.curator]` table of the top level's pyproject.toml in `files` (the working
    tree, or the base revision in pull-request mode), or {} when there is none."""
    text = files.read("pyproject.toml")
    if text is None:
        return {}
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{files.display('pyproject.toml')}: invalid TOML: {exc}") from None
    except RecursionError:  # tomllib recurses once per nested array or inline table
        name = files.display("pyproject.toml")
        raise UsageError(f"{name}: invalid TOML: nested too deeply") from None
    return curator_table(data)


def curator_table(data: Mapping[str, Any]) -> dict[str, Any]:
    """The `[tool.curator]` table of a parsed pyproject.toml ({} when it has none, or when
    `tool` or `tool.curator` is not a table: a pull request's file may hold anything)."""
    tool = data.get("tool")
    table = tool.get("curator") if isinstance(tool, dict) else None
    return dict(table) if isinstance(table, dict) else {}


def build(
    cli: Mapping[str, Any], env: Mapping[str, str], root: Path, files: ConfigFiles | None = None
) -> Options:
    """Options from CLI values (None = not given) over env over the list's settings file
    (rules/curator.yaml) over [tool.curator], both of `files` (the working tree at `root`
    unless given)."""
    files = files or WorkingTree(root)
    values: dict[str, Any] = {"root": str(root)}
    where = "pyproject.toml [tool.curator]"
    for key, raw in read_pyproject(files).items():
        values[_setting_name(key, where)] = raw
    _inside_tree(values, root)
    _with_settings_file(values, files, root)
    for var, name in ENV_VARS.items():
        if env.get(var, "") != "":
            values[name] = env[var]
    values.update({k: v for k, v in cli.items() if v is not None})
    if "paths" not in values:
        values["paths"] = default_paths(files)
    return replace(Options(), **_coerce(values))


def default_paths(files: ConfigFiles) -> tuple[str, ...]:
    """What to check when nothing names it: `data` (the catalogue), else the `README.md` of a
    repository that has no `data/`, an awesome-list. `files` decides: in pull-request mode the
    base revision, so the pull request that adopts curator is checked on its list, and no pull
    request can move the check to another file by adding or removing a folder."""
    if not files.is_dir("data") and files.read("README.md") is not None:
        return ("README.md",)
    return ("data",)


#: Fields no file may set: the run's own facts, the token, and what `severity` derives.
_NOT_SETTINGS = frozenset({"root", "github_token", "silenced"})


def _setting_name(key: str, where: str) -> str:
    """The Options field a file's key names; UsageError for an unknown or a trusted-only one."""
    name = str(key).replace("-", "_")
    if name not in {f.name for f in fields(Options)} or name in _NOT_SETTINGS:
        raise UsageError(f"{where}: unknown setting {key!r}")
    if name in TRUSTED_ONLY:
        raise UsageError(
            f"{where}: {key} may be set only in the environment or on the command line "
            "(files of the checked tree cannot weaken security)"
        )
    return name


def _with_settings_file(values: dict[str, Any], files: ConfigFiles, root: Path) -> None:
    """The settings file's keys over `values` (read from `files`: the base revision in
    pull-request mode), each checked at once so an error names its line; its severities
    are added to [tool.curator]'s, code by code."""
    from curator.config.settings_file import located, read_settings

    name, settings = read_settings(files)
    for setting in settings:
        try:
            field_name = _setting_name(setting.key, name)
            _inside_tree({field_name: setting.value}, root, name)
            _coerce({field_name: setting.value})
        except UsageError as exc:
            raise located(exc, name, setting.line) from None
        before, value = values.get(field_name), setting.value
        if field_name == "severity" and isinstance(before, Mapping) and isinstance(value, Mapping):
            values[field_name] = {**before, **value}
        else:
            values[field_name] = value


def _inside_tree(
    values: Mapping[str, Any], root: Path, where: str = "pyproject.toml [tool.curator]"
) -> None:
    """Paths from [tool.curator] must stay inside the repository (no absolute path, no `..`,
    no symlink out) and out of its `.git` folder: a pull request may edit pyproject.toml, and
    a maintainer may run curator on its branch (`cache_path = ".git/config"` would have the
    cache set the repository's configuration aside as a corrupt cache; `output` would write
    the report over it)."""
    top = root.resolve()
    for name in TREE_PATHS:
        raw = values.get(name)
        items = [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else []
        for item in items:  # other types are refused by _coerce with their own message
            text = str(item)
            target = (root / text).resolve()
            if Path(text).is_absolute() or (target != top and top not in target.parents):
                raise UsageError(f"{where}: {name} {text!r} leaves the repository")
            inside = target.relative_to(top).parts
            if any(part.lower() == ".git" for part in (*Path(text).parts, *inside)):
                raise UsageError(f"{where}: {name} {text!r} is inside .git, git's own")


def _coerce(values: dict[str, Any]) -> dict[str, Any]:
    """Turn strings from env/TOML into the field types; UsageError on nonsense."""
    out = dict(values)
    _numbers(out)
    for name in ("allow_private_hosts", "offline", "no_cache"):
        if name in out:
            out[name] = _flag(out[name])
    _check_texts(out)
    if "skip" in out:
        out["skip"] = parse_skip(out["skip"])
    if "guard_allow" in out:
        raw = out["guard_allow"]
        items = raw.split(",") if isinstance(raw, str) else list(raw)
        out["guard_allow"] = tuple(str(i).strip() for i in items if str(i).strip())
    if "severity" in out:
        out["severity"], out["silenced"] = _severities(out["severity"])
    if "paths" in out:
        # `paths = "data"` in TOML is one path, not four one-letter ones.
        raw = out["paths"]
        out["paths"] = (raw,) if isinstance(raw, str) else tuple(str(p) for p in raw)
    if out.get("fail_on", "error") not in FAIL_ON:
        choices = f"{', '.join(FAIL_ON[:-1])} or {FAIL_ON[-1]}"
        raise UsageError(f"--fail-on must be {choices}, not {out['fail_on']!r}")
    if out.get("format", "text") not in FORMATS:
        raise UsageError(f"format must be one of {', '.join(FORMATS)}, not {out['format']!r}")
    if "fail_on" in out:
        out["fail_on"] = FailOn(out["fail_on"])
    if "format" in out:
        out["format"] = Format(out["format"])
    return out


def _numbers(out: dict[str, Any]) -> None:
    """Numeric settings to float/int in place; none may be negative."""
    floats = ("arxiv_delay", "ttl_arxiv", "ttl_github", "ttl_web", "ttl_not_found", "timeout",
              "service_budget", "rate_limit_wait", "web_host_spacing")  # fmt: skip
    ints = ("arxiv_batch_size", "date_tolerance_days", "web_concurrency", "web_per_host")
    try:
        for name in (*floats, *ints):
            if name in out:
                out[name] = float(out[name]) if name in floats else int(out[name])
                if not math.isfinite(out[name]):
                    raise ValueError(f"{name} must be a finite number, not {out[name]}")
                if out[name] < 0:
                    raise ValueError(f"{name} must not be negative")
    except (TypeError, ValueError) as exc:
        raise UsageError(f"bad setting: {exc}") from None


#: Every `--format` and `--fail-on` value, from their enums (curator.core.model).
FORMATS = tuple(f.value for f in Format)
FAIL_ON = tuple(f.value for f in FailOn)


def _flag(value: Any) -> bool:
    """A yes/no setting: TOML booleans, or `1`/`true`/`yes` from the environment."""
    return value if isinstance(value, bool) else str(value).lower() in {"1", "true", "yes"}


#: Field types written as text in a file: plain strings, and the enums read from one.
_TEXT_TYPES = frozenset({"str", "FailOn", "Format"})


def _check_texts(values: Mapping[str, Any]) -> None:
    """Settings typed `str` must be strings: a number from TOML is a mistake, not a path."""
    for f in fields(Options):
        if f.type in _TEXT_TYPES and f.name in values and not isinstance(values[f.name], str):
            raise UsageError(f"bad setting: {f.name} must be a string, not {values[f.name]!r}")


def parse_skip(value: Any) -> frozenset[Service]:
    """`arxiv,github` (or a list) -> the services; UsageError for an unknown name."""
    items = value.split(",") if isinstance(value, str) else list(value)
    try:
        return frozenset(Service(str(s).strip()) for s in items if str(s).strip())
    except ValueError:
        allowed = ",".join(s.value for s in Service)
        raise UsageError(f"--skip takes names from {allowed}, got {value!r}") from None


def _severities(value: Any) -> tuple[dict[str, Severity], frozenset[str]]:
    """`{code: severity}` from configuration, checked against the known codes: the codes
    with another severity, and the codes set to `off` (their findings are dropped)."""
    from curator.core.codes import CODES, unknown

    if not isinstance(value, Mapping):
        raise UsageError("severity must be a table of code = severity")
    out: dict[str, Severity] = {}
    off: set[str] = set()
    for code, sev in value.items():
        if code not in CODES:
            raise UsageError(f"severity: {unknown(code)}")
        # YAML reads a bare `off` as false.
        if sev is False or str(sev) == OFF:
            off.add(code)
            continue
        try:
            out[code] = Severity(str(sev))
        except ValueError:
            choices = f"{', '.join(s.value for s in Severity)} or {OFF}"
            raise UsageError(f"severity: bad severity {sev!r} for {code} ({choices})") from None
    return out, frozenset(off)


def from_environment(cli: Mapping[str, Any], cwd: Path | None = None) -> Options:
    """Options for a CLI run in `cwd` with the process environment. With `--changed-since
    REF` (pull-request mode) `[tool.curator]` is read from REF, not from the checked tree."""
    here = (cwd or Path.cwd()).resolve()
    root = repository_root(here)
    options = build(cli, os.environ, root, config_files(root, cli.get("changed_since")))
    if options.changed_since and not cli.get("changed_since"):
        # Pull-request mode named by the working tree's own [tool.curator]: its settings,
        # like its rules, then come from that revision too.
        cli = {**cli, "changed_since": options.changed_since}
        options = build(cli, os.environ, root, config_files(root, options.changed_since))
    return options
