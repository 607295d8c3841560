"""The relevance evaluation over lists (curator/lab/crosslist.py) and its section of the page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from curator.cli import main
from curator.cli.scope import read_list, write
from curator.lab.crosslist import (
    BEGIN,
    END,
    Listed,
    evaluate,
    inputs_digest,
    measure,
    render,
    section_of,
    splice,
    splits,
)
from curator.scope.relevance import Paper

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "scope-evaluation.md"
SAMPLES = ROOT / "tests" / "fixtures" / "shared" / "samples"
LISTS = sorted(p for p in SAMPLES.glob("*.md") if p.name not in {"README.md", "layouts.md"})
REGENERATE = (
    "curator scope evaluate "
    + " ".join(f"--list {p.relative_to(ROOT)}" for p in LISTS)
    + " --out docs/scope-evaluation.md"
)


def test_the_committed_section_was_generated_from_what_is_committed() -> None:
    section = section_of(DOC.read_text(encoding="utf-8"))
    found = re.search(r"^sha256 `([0-9a-f]{64})` of the lists", section, re.MULTILINE)
    assert found is not None, f"regenerate: {REGENERATE}"
    assert found.group(1) == inputs_digest(LISTS), f"regenerate: {REGENERATE}"
    # Every list with papers is reported, each beside the baseline.
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    assert len(rows) == len(LISTS)


@pytest.mark.slow  # about 7 s: the baseline's cross-validation on every list
def test_the_committed_section_regenerates_byte_for_byte() -> None:
    assert section_of(DOC.read_text(encoding="utf-8")) == render(
        evaluate([read_list(p) for p in LISTS]), LISTS
    )


def _list(name: str, titles: list[str]) -> Listed:
    return Listed(name, tuple(Paper(f"{name}:{i}", t, "", "S") for i, t in enumerate(titles)))


AGENTS = [f"Planning agents with tool use number {i}" for i in range(40)]
VISION = [f"Image segmentation with convolution variant {i}" for i in range(80)]


def test_the_splits_are_disjoint_and_leave_out_what_the_list_holds() -> None:
    target = _list("a", AGENTS)
    shared = Paper("b:dup", AGENTS[3].upper(), "", "")  # the same title, another identity
    others = [*_list("b", VISION).papers, shared, target.papers[0]]
    train, held, background, test = splits(target, others)
    assert {p.key for p in train}.isdisjoint(p.key for p in held)
    assert len(train) + len(held) == len(AGENTS)
    assert held  # a quarter, by hash
    kept = {p.key for p in (*background, *test)}
    assert "b:dup" not in kept and target.papers[0].key not in kept
    assert {p.key for p in background}.isdisjoint(p.key for p in test)
    assert len(background) + len(test) == len(VISION)
    assert splits(target, others) == (train, held, background, test)


def test_a_list_is_told_from_another_field() -> None:
    outcome = measure(_list("a", AGENTS), _list("b", VISION).papers, with_baseline=False)
    assert outcome.unlike_cut is not None and outcome.unlike_cut.ap == 1.0
    assert outcome.half_cut is not None
    assert outcome.half_cut.right == outcome.half_cut.included == outcome.held_out


def test_a_list_of_projects_is_reported_as_such(tmp_path: Path) -> None:
    projects = tmp_path / "projects.md"
    projects.write_text("# P\n\n- [o/r](https://github.com/o/r)\n", encoding="utf-8")
    papers = tmp_path / "papers.md"
    items = [f"- [Planning agents {i}](https://arxiv.org/abs/2401.{i:05d})" for i in range(12)]
    papers.write_text("# L\n\n## S\n\n" + "\n".join(items) + "\n", encoding="utf-8")
    outcomes = evaluate([read_list(projects), read_list(papers)], with_baseline=False)
    assert outcomes[0].note.startswith("no papers") and outcomes[0].unlike_cut is None
    assert outcomes[1].listed == 12


def test_the_section_is_spliced_in_and_kept_when_the_records_page_is_regenerated(
    tmp_path: Path,
) -> None:
    section = f"{BEGIN}\nfigures\n{END}\n"
    page = tmp_path / "page.md"
    page.write_text("# records\n\nbody\n", encoding="utf-8")
    page.write_text(splice(page.read_text(encoding="utf-8"), section), encoding="utf-8")
    assert section_of(page.read_text(encoding="utf-8")) == section
    # Spliced again: replaced, not repeated.
    newer = f"{BEGIN}\nnewer\n{END}\n"
    assert splice(page.read_text(encoding="utf-8"), newer).count(BEGIN) == 1
    # The screening records' page written anew keeps the section.
    write("# records\n\nregenerated\n", str(page))
    text = page.read_text(encoding="utf-8")
    assert "regenerated" in text and section_of(text) == section


def test_the_command_needs_records_or_a_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scope", "evaluate"]) == 2
    assert "--list" in capsys.readouterr().err
