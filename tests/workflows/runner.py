"""A small stand-in for the GitHub Actions runner: runs a workflow job whose steps are
`actions/checkout` and curator's composite Action, the way a runner would.

Expressions (`${{ }}` in `env:`/`with:` and `if:` conditions) are evaluated against the
`github`, `inputs`, `steps` and `runner` contexts; every `run:` step is executed by
`bash --noprofile --norc -eo pipefail` (the composite `shell: bash`) with its own
GITHUB_OUTPUT file, the job's GITHUB_STEP_SUMMARY and GITHUB_EVENT_PATH. The third-party
actions the Action uses are replaced by what they do on the file system: the cache and the
artifacts live in a store shared between jobs. The install step is the one step not run: it
would `pip install` the action's commit from PyPI's dependencies (no network here); a
`python` launcher for this interpreter (with curator installed) takes its place, at the same
path, after the test checked what the step installs.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
ACTION_DIR = ROOT / ".github" / "actions" / "curator"
_TOKEN = re.compile(r"\s*('(?:[^']|'')*'|==|!=|&&|\|\||!|\(|\)|[A-Za-z_][\w.-]*|\d+)")


def evaluate(expr: str, ctx: dict[str, Any]) -> Any:
    """The value of an Actions expression (the operators the workflows here use)."""
    tokens = _TOKEN.findall(expr)
    if "".join(t.strip() for t in tokens) != re.sub(r"\s+", "", expr):
        raise ValueError(f"expression not understood: {expr!r}")
    value, rest = _or(tokens, ctx)
    if rest:
        raise ValueError(f"trailing tokens in {expr!r}: {rest}")
    return value


def _or(t: list[str], ctx: dict[str, Any]) -> tuple[Any, list[str]]:
    return _chain(t, ctx, "||", _and)


def _and(t: list[str], ctx: dict[str, Any]) -> tuple[Any, list[str]]:
    return _chain(t, ctx, "&&", _cmp)


def _chain(t: list[str], ctx: dict[str, Any], op: str, operand: Any) -> tuple[Any, list[str]]:
    """`a op b op c`, evaluated left to right, returning the deciding operand (as Actions do)."""
    left, t = operand(t, ctx)
    while t and t[0] == op:
        right, t = operand(t[1:], ctx)
        left = (left or right) if op == "||" else (left and right)
    return left, t


def _cmp(t: list[str], ctx: dict[str, Any]) -> tuple[Any, list[str]]:
    left, t = _unary(t, ctx)
    while t and t[0] in ("==", "!="):
        op, (right, t) = t[0], _unary(t[1:], ctx)
        same = _text(left) == _text(right)
        left = same if op == "==" else not same
    return left, t


def _unary(t: list[str], ctx: dict[str, Any]) -> tuple[Any, list[str]]:
    if t[0] == "!":
        value, rest = _unary(t[1:], ctx)
        return not value, rest
    if t[0] == "(":
        value, rest = _or(t[1:], ctx)
        assert rest[0] == ")"
        return value, rest[1:]
    if t[0].startswith("'"):
        return t[0][1:-1].replace("''", "'"), t[1:]
    if t[0].isdigit():
        return int(t[0]), t[1:]
    if t[0] in ("true", "false"):
        return t[0] == "true", t[1:]
    return _lookup(t[0], ctx), t[1:]


def _lookup(name: str, ctx: dict[str, Any]) -> Any:
    """A dotted context path; a missing property is null, as on GitHub."""
    node: Any = ctx
    for part in name.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    return node


def _text(value: Any) -> str:
    return "" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


def substitute(value: Any, ctx: dict[str, Any]) -> str:
    """A `with:`/`env:` value with every `${{ expr }}` replaced; a YAML boolean is the
    string Actions makes of it ("true", not "True")."""
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: _text(evaluate(m.group(1), ctx)), _text(value))


def condition(expr: str | None, ctx: dict[str, Any]) -> bool:
    """An `if:` (bare or wrapped in `${{ }}`); absent means success(), which holds here."""
    if expr is None:
        return True
    text = str(expr).strip()
    if text.startswith("${{") and text.endswith("}}"):
        text = text[3:-2]
    return bool(evaluate(text, ctx))


@dataclass
class JobResult:
    """What a job did: its conclusion, the Action's outputs, what its steps printed."""

    success: bool
    outputs: dict[str, str] = field(default_factory=dict)
    log: str = ""
    summary: str = ""


@dataclass
class Runner:
    """Runs jobs of one repository: `workspace` is the checked-out list, `store` keeps the
    cache and the artifacts between jobs, `env` is what every step sees besides Actions'."""

    workspace: Path
    store: Path
    repository: str
    env: dict[str, str]
    token: str = "ghs_actions_token"
    jobs_run: int = 0
    steps_run: int = 0
    #: How many jobs ran the install step (the others restored curator's environment).
    installs: int = 0

    def run_job(self, workflow: str, job: str, event: str, payload: dict[str, Any]) -> JobResult:
        """Run `job` of `.github/workflows/<workflow>` for an `event` with its payload."""
        self.jobs_run += 1
        run_id = str(1000 + self.jobs_run)
        temp = self.store / f"runner-temp-{run_id}"
        temp.mkdir(parents=True)
        event_path = temp.parent / f"event-{run_id}.json"
        event_path.write_text(json.dumps(payload), encoding="utf-8")
        github = {
            "event": payload, "event_name": event, "repository": self.repository,
            "run_id": run_id, "token": self.token, "action_path": str(ACTION_DIR),
        }  # fmt: skip
        ctx: dict[str, Any] = {"github": github, "runner": {"temp": str(temp), "os": "Linux"}}
        spec = yaml.safe_load((self.workspace / ".github/workflows" / workflow).read_text())
        body = spec["jobs"][job]
        result = JobResult(True)
        if not condition(body.get("if"), ctx):
            return result
        base = {
            **self.env,
            "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": event,
            "GITHUB_EVENT_PATH": str(event_path),
            "GITHUB_REPOSITORY": self.repository, "GITHUB_RUN_ID": run_id,
            "GITHUB_SERVER_URL": "https://github.com", "GITHUB_WORKSPACE": str(self.workspace),
            "GITHUB_STEP_SUMMARY": str(temp.parent / f"summary-{run_id}.md"),
            "RUNNER_TEMP": str(temp), "RUNNER_OS": "Linux", "RUNNER_ARCH": "X64",
        }  # fmt: skip
        for step in body["steps"]:
            uses = step.get("uses", "")
            if uses.startswith("actions/checkout@"):
                continue  # the workspace is the checked-out list already
            assert uses.startswith("curator/curator/.github/actions/curator@"), uses
            inputs = {k: substitute(v, ctx) for k, v in (step.get("with") or {}).items()}
            self._composite(inputs, ctx, base, result)
        summary = Path(base["GITHUB_STEP_SUMMARY"])
        result.summary = summary.read_text(encoding="utf-8") if summary.exists() else ""
        return result

    def _composite(
        self, given: dict[str, str], ctx: dict[str, Any], base: dict[str, str], result: JobResult
    ) -> None:
        action = yaml.safe_load((ACTION_DIR / "action.yml").read_text(encoding="utf-8"))
        inputs = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
        inputs = {k: substitute(v, ctx) for k, v in inputs.items()} | given
        unknown = set(given) - set(action["inputs"])
        assert not unknown, f"inputs the Action does not take: {unknown}"
        inner = {**ctx, "inputs": inputs, "steps": {}}
        for step in action["runs"]["steps"]:
            if not condition(step.get("if"), inner):
                continue
            outputs = self._step(step, inner, base, result)
            if step.get("id"):
                inner["steps"][step["id"]] = {"outputs": outputs}
            if not result.success:
                break
        result.outputs = {
            name: substitute(spec["value"], inner) for name, spec in action["outputs"].items()
        }

    def _step(
        self, step: dict[str, Any], ctx: dict[str, Any], base: dict[str, str], result: JobResult
    ) -> dict[str, str]:
        env = {k: substitute(v, ctx) for k, v in (step.get("env") or {}).items()}
        if step.get("id") == "install":
            self._install(env, Path(base["RUNNER_TEMP"]))
            return {}
        if "uses" in step:
            with_ = {k: substitute(v, ctx) for k, v in (step.get("with") or {}).items()}
            return self._uses(step["uses"].split("@")[0], with_, ctx["github"]["run_id"])
        self.steps_run += 1
        out = self.store / f"output-{self.steps_run}"
        out.write_text("")
        script = self.store / f"step-{self.steps_run}.sh"
        script.write_text(step["run"], encoding="utf-8")
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=self.workspace,
            env={**base, **env, "GITHUB_OUTPUT": str(out), "PATH": os.environ["PATH"]},
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        result.log += f"--- {step.get('name', '')} ({done.returncode})\n{done.stdout}{done.stderr}"
        result.success = done.returncode == 0
        return read_outputs(out)

    def _install(self, env: dict[str, str], temp: Path) -> None:
        """Check what the install step installs, then put curator at the venv's path."""
        assert Path(env["ACTION_PATH"]) == ACTION_DIR
        assert (ACTION_DIR / "../../../pyproject.toml").resolve() == ROOT / "pyproject.toml"
        self.installs += 1
        # The Action runs curator as `bin/python -m curator`: this interpreter takes its place.
        launcher = temp / "curator-venv" / "bin" / "python"
        launcher.parent.mkdir(parents=True, exist_ok=True)
        launcher.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
        launcher.chmod(0o755)

    def _uses(self, action: str, with_: dict[str, str], run_id: str) -> dict[str, str]:
        """What the pinned third-party actions do, on the file system; their outputs."""
        if action == "actions/setup-python":
            return {"python-version": "3.12.11"}
        if action == "actions/cache/restore":
            keys = [with_["key"], *with_.get("restore-keys", "").split()]
            saved = sorted((self.store / "cache").glob("*"), key=lambda p: p.stat().st_mtime)
            for key in keys:
                hit = [p for p in saved if p.name == key or p.name.startswith(key)]
                if hit:
                    shutil.copytree(hit[-1], with_["path"], dirs_exist_ok=True)
                    return {"cache-hit": str(hit[-1].name == with_["key"]).lower()}
            return {}
        if action == "actions/cache/save":
            target = self.store / "cache" / with_["key"]
            if Path(with_["path"]).is_dir() and not target.exists():
                shutil.copytree(with_["path"], target, symlinks=True)
            return {}
        if action == "actions/upload-artifact":
            folder = self.store / "artifacts" / run_id / with_["name"]
            folder.mkdir(parents=True)
            shutil.copy(with_["path"], folder)
            return {}
        if action == "actions/download-artifact":
            found = self.store / "artifacts" / with_["run-id"]
            for folder in found.glob(with_["pattern"]) if found.is_dir() else []:
                shutil.copytree(folder, with_["path"], dirs_exist_ok=True)
            return {}
        raise AssertionError(f"an action the runner stand-in does not know: {action}")


def read_outputs(path: Path) -> dict[str, str]:
    """name=value and name<<DELIM heredoc lines of a GITHUB_OUTPUT file."""
    outputs: dict[str, str] = {}
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delim = line.split("<<", 1)
            end = lines.index(delim, i + 1)
            outputs[name] = "\n".join(lines[i + 1 : end])
            i = end + 1
            continue
        name, _, value = line.partition("=")
        outputs[name] = value
        i += 1
    return outputs
