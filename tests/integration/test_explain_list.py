"""`curator explain ID` in a list without a scope policy (issues 31 and 32).

A real list (the LLM-agents survey list of tests/fixtures/shared/samples) is set up with plain
`curator init`, as the README tells a list: no policy, so its own papers are its scope.
`explain` weighs the paper against them with the model `check` uses in a pull request, answered
by the loopback arXiv double, and says which record decided when the maintainers recorded one.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from curator.cli import main
from tests.doubles.arxiv import ArxivDouble
from tests.doubles.server import LoopbackServer
from tests.scope.test_relevance_end_to_end import OFF, ON, SAMPLE, check, git, line

#: A paper the list holds (under "Summarizing memory").
HELD = "2305.10250"


@pytest.fixture
def arxiv() -> ArxivDouble:
    """The loopback arXiv, which knows the on-topic and the off-topic paper."""
    double = ArxivDouble()
    double.papers.update({OFF.id: OFF, ON.id: ON})
    return double


@pytest.fixture
def listed(
    tmp_path: Path, loopback: LoopbackServer, monkeypatch: pytest.MonkeyPatch, arxiv: ArxivDouble
) -> Path:
    """The list in a git repository after plain `curator init`, arXiv answered by the double."""
    root = tmp_path / "list"
    root.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, check=True)
    shutil.copyfile(SAMPLE, root / "README.md")
    assert main(["init", str(root), "--ref", "0" * 40]) == 0
    assert not (root / "rules/scope.yaml").exists()
    monkeypatch.setenv("CURATOR_ARXIV_API_URL", arxiv.install(loopback))
    monkeypatch.setenv("CURATOR_ARXIV_DELAY", "0")
    monkeypatch.setenv("CURATOR_CACHE", str(tmp_path / "cache.sqlite"))
    monkeypatch.chdir(root)
    return root


def explain(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["explain", *args]) == 0
    return capsys.readouterr().out


def test_an_on_topic_paper_is_in_scope_with_its_nearest_listed_papers(
    listed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = explain(capsys, ON.id)
    lines = out.splitlines()
    assert lines[0] == f"arxiv:{ON.id} — {ON.title}"
    assert "Verdict: include — in scope" in out
    nearest = lines.index("Nearest listed papers:")
    assert lines[nearest + 1].startswith('  - "') and '(section "' in lines[nearest + 1]
    assert "What check reports on a pull request that adds only it: no scope finding" in out
    # The numbers only with -v.
    assert "affinity" not in out.replace("(-v: affinity", "")
    verbose = explain(capsys, ON.id, "-v")
    assert "Numbers: affinity " in verbose and "standing " in verbose


def test_an_off_topic_paper_is_unlike_anything_in_the_list(
    listed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = explain(capsys, OFF.id)
    assert "Verdict: review — unlike anything in the list" in out
    assert 'Why: most like "' in out
    assert "a scope-review warning" in out
    zh = explain(capsys, OFF.id, "--lang", "zh")
    assert "结论: review — 与列表中任何论文都不相近" in zh and "最接近 “" in zh


def test_a_recorded_decision_says_which_record_decided(
    listed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (listed / "rules/scope-decisions.yaml").write_text(
        f"- id: '{OFF.id}'\n  decision: include\n  by: '@maintainer'\n", encoding="utf-8"
    )
    out = explain(capsys, OFF.id)
    lines = out.splitlines()
    assert "Decided by the maintainers: include by @maintainer, recorded at " in out
    assert "rules/scope-decisions.yaml:1" in out
    assert "Verdict: include — accepted by the maintainers" in lines
    assert "The list alone would say: review — unlike anything in the list" in lines
    assert "What check reports on a pull request that adds only it: no scope finding" in lines


def test_an_inline_marker_decides_a_listed_paper(
    listed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (listed / "README.md").read_text(encoding="utf-8")
    at = text.index(f"arxiv.org/abs/{HELD}")
    end = text.index("\n", at)
    (listed / "README.md").write_text(
        text[:end] + " <!-- curator: scope-exclude -->" + text[end:], encoding="utf-8"
    )
    number = text[:at].count("\n") + 1
    out = explain(capsys, HELD, "--offline")
    (decided,) = [x for x in out.splitlines() if x.startswith("Decided by the maintainers")]
    assert decided.startswith("Decided by the maintainers: exclude, recorded at ")
    assert decided.endswith(f"README.md:{number}")
    assert "Verdict: exclude — declined by the maintainers" in out.splitlines()
    assert "a scope-exclude error" in out


def test_offline_explains_a_listed_paper_on_its_title_and_says_so(
    listed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = explain(capsys, HELD, "--offline")
    assert "arXiv could not be asked" in out
    assert 'The list holds it already, in section "' in out
    assert "Verdict: include" in out and "Nearest listed papers:" in out


def test_offline_with_nothing_known_says_so(
    listed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = explain(capsys, OFF.id, "--offline")
    assert "Nothing is known of this paper" in out
    assert "Verdict" not in out


def test_a_paper_arxiv_does_not_have_is_left_to_the_arxiv_finding(
    listed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = explain(capsys, "2501.00099")
    assert "arXiv answered: " in out and "an arxiv-* finding, not a scope one" in out
    assert "Nothing to compare with the list: no title." in out
    assert "arXiv could not be asked" not in out


def test_an_arxiv_outage_explains_a_listed_paper_on_its_title(
    listed: Path, arxiv: ArxivDouble, capsys: pytest.CaptureFixture[str]
) -> None:
    arxiv.fail(*["html"] * 10)
    out = explain(capsys, HELD)
    (note,) = [x for x in out.splitlines() if x.startswith("arXiv could not be asked (")]
    assert note.endswith("): explained on the title the list gives")
    assert "Verdict: include" in out


def test_explain_says_what_check_reports_on_the_pull_request(
    listed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same model and evidence: a pull request adding the off-topic paper gets the warning
    explain announced, naming the same nearest listed papers."""
    git(listed, "add", "-A")
    git(listed, "commit", "-qm", "base")
    base = git(listed, "rev-parse", "HEAD")
    text = (listed / "README.md").read_text(encoding="utf-8")
    at = text.index("\n", text.index("##### Planning")) + 1
    (listed / "README.md").write_text(text[:at] + "\n" + line(OFF) + text[at:], encoding="utf-8")
    git(listed, "commit", "-qam", "pull request")
    (warning,) = [f for f in check(listed, base)["findings"] if f["code"] == "scope-review"]
    out = explain(capsys, OFF.id)
    assert 'The list holds it already, in section "Planning"' in out
    (why,) = [x for x in out.splitlines() if x.startswith("Why: ")]
    assert warning["evidence"].startswith(why.removeprefix("Why: ") + "; ")
    assert "a scope-review warning" in out
