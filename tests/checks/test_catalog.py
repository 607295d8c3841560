"""Duplicates: one finding per repeated place, in linear size; other sections are cross-listings."""

from __future__ import annotations

from curator.checks.catalog import duplicates
from curator.checks.interface import CheckContext
from curator.core.model import Entry, Kind, Severity, Source


def paper(line: int, section: str = "Methods", subject: str = "arxiv:2310.08560") -> Entry:
    return Entry(subject, Kind.PAPER, Source("README.md", line), title=f"T{line}", section=section)


def test_a_pair_is_one_finding_at_the_later_place_naming_the_first() -> None:
    (found,) = duplicates([paper(3), paper(9)], CheckContext())
    assert (found.code, found.severity, found.source.line) == ("entry-duplicate", Severity.ERROR, 9)
    assert found.evidence == "first at README.md:3 ('T3')"
    assert "listed 2 times" in found.message


def test_another_section_is_a_cross_listing_not_an_error() -> None:
    (found,) = duplicates([paper(3, "Memory"), paper(40, "Agents")], CheckContext())
    assert (found.code, found.severity, found.source.line) == (
        "entry-cross-listed",
        Severity.INFO,
        40,
    )
    assert "'Agents'" in found.message and "README.md:3" in found.evidence


def test_many_copies_give_linear_findings_of_constant_size() -> None:
    copies = [paper(n) for n in range(1, 2001)]
    found = duplicates(copies, CheckContext())
    assert len(found) == 1999
    assert max(len(f.evidence) for f in found) == len("first at README.md:1 ('T1')")


def test_plain_links_and_a_projects_code_link_are_not_duplicates() -> None:
    link = Entry("arxiv:2310.08560", Kind.LINK, Source("README.md", 5))
    other = paper(7, subject="arxiv:2401.00001")
    assert duplicates([paper(3), link, other], CheckContext()) == []


def test_two_titles_on_one_id_suggest_a_wrong_id_not_a_deletion() -> None:
    other = Entry(
        "arxiv:2310.08560", Kind.PAPER, Source("README.md", 9), "Another Paper", section="Methods"
    )
    (found,) = duplicates([paper(3), other], CheckContext())
    assert found.code == "entry-duplicate" and "check which one" in found.suggestion
    again = Entry("arxiv:2310.08560", Kind.PAPER, Source("README.md", 9), "T3", section="Methods")
    (same,) = duplicates([paper(3), again], CheckContext())
    assert same.suggestion == "keep one entry and delete the others"
