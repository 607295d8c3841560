"""The runner stand-in evaluates the expressions the Action and the workflows use as GitHub
does: missing properties are null, comparisons are by text, && and || return an operand."""

from __future__ import annotations

from typing import Any

import pytest

from tests.workflows.runner import condition, read_outputs, substitute

CTX: dict[str, Any] = {
    "inputs": {"mode": "pr", "fail-on": "error"},
    "steps": {"comment": {"outputs": {}}},
    "github": {"event": {"workflow_run": {"event": "pull_request", "conclusion": "cancelled"}}},
}


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("inputs.mode == 'pr' && steps.comment.outputs.posted != 'true'", True),
        ("inputs.mode == 'check' || inputs.mode == 'audit'", False),
        ("inputs.mode != 'comment'", True),
        ("${{ !(inputs.mode == 'pr') }}", False),
        (
            "github.event.workflow_run.event == 'pull_request' && "
            "github.event.workflow_run.conclusion != 'cancelled'",
            False,
        ),
        (None, True),
    ],
)
def test_conditions(expr: str | None, expected: bool) -> None:
    assert condition(expr, CTX) is expected


def test_substitution_and_unknown_syntax() -> None:
    assert substitute("x-${{ inputs.fail-on }}-${{ github.nothing.here }}", CTX) == "x-error-"
    with pytest.raises(ValueError, match="not understood"):
        condition("inputs.mode > 'a'", CTX)


def test_outputs_file_both_forms(tmp_path: Any) -> None:
    path = tmp_path / "out"
    path.write_text("status=1\nerrors<<EOF_1\n3\nEOF_1\n")
    assert read_outputs(path) == {"status": "1", "errors": "3"}
