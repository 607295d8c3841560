"""Round 4 attacks (issue 29) on the list's settings file, rules/curator.yaml, in a run that
reads it (a local run, `mode: check`; a pull request's run reads the base's: see
tests/integration/test_pr_configuration.py `settings-*`).

Held: an alias bomb, nesting a thousand levels deep, a Python tag, and escape or bidi
characters in a value each stop the run with one line (exit 2, file and line), inert.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from curator.cli import main

LAUGHS = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 12)
)
CASES = {
    "alias-bomb": (LAUGHS + "severity: *a11\n", "more than 50 aliases"),
    "deep": ("severity: " + "[" * 5000 + "]" * 5000 + "\n", "nesting depth"),
    "python-tag": (
        'severity: !!python/object/apply:os.system ["echo PWNED"]\n',
        "could not determine a constructor",
    ),
    "escape-in-value": (
        'severity:\n  arxiv-unverified: "\\e[31mred\\u202e\\a"\n',
        "bad severity",
    ),
    "escape-in-key": ('"\\e]8;;http://x\\a\\u202e": 1\n', "unknown setting"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_hostile_settings_file_is_one_inert_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    text, words = CASES[case]
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "curator.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "README.md").write_text("# L\n\n- [P](https://arxiv.org/abs/2305.10250)\n")
    monkeypatch.chdir(tmp_path)
    code = main(["check", "README.md", "--offline", "--no-cache"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1, err
    assert "rules/curator.yaml:" in err and words in err, err
    assert "PWNED" not in err
    assert not [ch for ch in err if unicodedata.category(ch) in {"Cc", "Cf"}], repr(err)
