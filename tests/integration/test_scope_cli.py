"""`curator explain` and screening records through the CLI, against the arXiv double."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from curator.cli import main
from tests.conftest import SCOPE
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.server import LoopbackServer

ROOT = Path(__file__).resolve().parents[2]
CAVE = "2610.00238"


@pytest.fixture
def cave(
    loopback: LoopbackServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> dict[str, str]:
    records = json.loads((SCOPE / "2026-10-03-review.json").read_text(encoding="utf-8"))
    record = next(r for r in records if r["id"] == CAVE)
    double = ArxivDouble({CAVE: Paper(CAVE, record["title"], abstract=record["source_abstract"],
                                      published="2026-09-23T05:49:58Z")})  # fmt: skip
    monkeypatch.setenv("CURATOR_ARXIV_API_URL", double.install(loopback))
    shutil.copytree(ROOT / "rules", tmp_path / "rules")
    (tmp_path / "pyproject.toml").write_text("[tool.curator]\n")
    monkeypatch.chdir(tmp_path)
    return record


@pytest.mark.parametrize(("lang", "words"), [("en", "include"), ("zh", "include")])
def test_explain_prints_the_trail(
    cave: dict[str, str], lang: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["explain", f"https://arxiv.org/abs/{CAVE}v1", "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"arxiv:{CAVE} — {cave['title']}")
    assert words in out
    assert "memory" in out.lower()


def test_explain_follows_an_edited_rule(
    cave: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    rules = Path("rules/scope.yaml")
    assert main(["explain", CAVE]) == 0
    assert "include" in capsys.readouterr().out.splitlines()[1]
    # A maintainer narrows the entry gate to another word: no Python touched.
    text = rules.read_text(encoding="utf-8")
    rules.write_text(text.replace("patterns: [memory, memories]", "patterns: [engram]", 1))
    assert main(["explain", CAVE]) == 0
    after = capsys.readouterr().out
    assert "exclude" in after.splitlines()[1]
    assert "gate-memory-word" in after


def test_bad_rules_file_names_file_and_line(
    cave: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    Path("rules/scope.yaml").write_text("rules:\n  - id: x\n    verdict: maybe\n", encoding="utf-8")
    assert main(["explain", CAVE]) == 2
    err = capsys.readouterr().err
    assert "scope.yaml:" in err and "Traceback" not in err


def test_explain_takes_the_preset_a_list_set_up_with_init_uses(
    cave: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    # `curator init --scope-preset llm-memory` writes no rules/scope.yaml: the preset is
    # the workflows' input, and explain must be able to follow the same policy.
    Path("rules/scope.yaml").unlink()
    # No policy: the list's own papers are the scope, and this folder holds no list.
    assert main(["explain", CAVE]) == 2
    err = capsys.readouterr().err
    assert "no scope policy (rules/scope.yaml or scope_preset) and no list at data" in err
    assert "Traceback" not in err
    assert main(["explain", CAVE, "--scope-preset", "iaar-ai-memory"]) == 0
    assert capsys.readouterr().out.startswith(f"arxiv:{CAVE} — {cave['title']}")


def test_explain_reads_the_rules_folder_it_is_given(
    cave: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    Path("rules").rename("policy")
    assert main(["explain", CAVE, "--rules", "policy"]) == 0
    assert "include" in capsys.readouterr().out.splitlines()[1]


def test_explain_refuses_a_bad_id(cave: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "1234.12345"]) == 2
    assert "not a valid arXiv identifier" in capsys.readouterr().err


def test_screening_records_are_checked_in_check(
    cave: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    Path("data").mkdir()
    Path("data/p.yaml").write_text(
        "section: A\npapers:\n"
        f'  - {{title: "{cave["title"]}", arxiv: "{CAVE}", date: "2026-09-23"}}\n'
        '  - {title: "MemGPT", arxiv: "2310.08560", date: "2023-10-12"}\n',
        encoding="utf-8",
    )
    Path("screening").mkdir()
    wrong = dict(cave, title="CAVE-Mem: a title that is not the official one")
    Path("screening/2026-10-03-review.json").write_text(
        json.dumps([wrong], indent=1), encoding="utf-8"
    )
    main(["check", "data", "--skip", "github,web", "--format", "json", "--fail-on", "never"])
    report = json.loads(capsys.readouterr().out)
    codes = {(f["code"], f["subject"]) for f in report["findings"]}
    assert ("record-title-mismatch", f"arxiv:{CAVE}") in codes
    assert ("record-missing", "arxiv:2310.08560") in codes
    verdicts = {e["subject"]: e["verdict"] for e in report["entries"]}
    assert verdicts[f"arxiv:{CAVE}"] == "include"


def test_explain_says_which_record_decided_and_shows_weights_with_v(
    cave: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["explain", CAVE]) == 0
    plain = capsys.readouterr().out
    assert "logistic(" not in plain and "Decided by" not in plain
    assert main(["explain", CAVE, "-v"]) == 0
    assert "logistic(" in capsys.readouterr().out
    Path("rules/scope-decisions.yaml").write_text(
        f"- id: '{CAVE}'\n  decision: exclude\n  by: '@maintainer'\n", encoding="utf-8"
    )
    assert main(["explain", CAVE]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("Verdict: exclude")
    assert lines[2].startswith("Decided by the maintainers: exclude by @maintainer, recorded at ")
    assert lines[2].endswith("rules/scope-decisions.yaml:1")


def test_explain_reads_an_inline_marker_under_a_policy(
    cave: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    Path("README.md").write_text(
        f"# List\n\n- [Cave](https://arxiv.org/abs/{CAVE}) <!-- curator: scope-exclude -->\n",
        encoding="utf-8",
    )
    assert main(["explain", CAVE]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("Verdict: exclude")
    assert lines[2].startswith("Decided by the maintainers: exclude, recorded at ")
    assert lines[2].endswith("README.md:3")
