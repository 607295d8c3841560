"""The trail of `curator explain` against a list without a policy (pure renderer)."""

from __future__ import annotations

from curator.core.model import Entry, Kind, Source
from curator.scope.explain_list import Asked, explain_against_list
from curator.scope.relevance import Neighbour, Relevance

NEAR = (Neighbour("Generative Agents", "Agents", "arxiv:2304.03442", 0.4),)


def test_too_few_listed_papers_say_so_and_give_no_verdict() -> None:
    out = explain_against_list(Asked("arxiv:2501.00011", "A title", None, ""), None, 3)
    assert "The list holds 3 papers: too few to learn its scope from (8 needed)" in out
    assert "Verdict" not in out


def test_a_held_paper_without_a_section_and_a_title_on_one_line() -> None:
    held = Entry("arxiv:2501.00011", Kind.PAPER, Source("README.md", 4), title="A")
    rel = Relevance(0.5, 0.6, None, NEAR, "Agents")
    out = explain_against_list(
        Asked("arxiv:2501.00011", "A\nB", held, "offline: not in the cache"), rel, 20
    )
    lines = out.splitlines()
    assert lines[0] == "arxiv:2501.00011 — A B"
    assert "The list holds it already (left out of the list it is compared with)" in lines
    offline = "arXiv could not be asked (offline: not in the cache): explained on the title"
    assert f"{offline} the list gives" in lines
    assert '  - "Generative Agents" (section "Agents")' in lines


def test_numbers_only_with_verbose_and_p_only_when_known() -> None:
    rel = Relevance(-1.25, 0.01, 0.12, NEAR, "Agents")
    asked = Asked("arxiv:2501.00011", "Protein folding", None, "")
    plain = explain_against_list(asked, rel, 20)
    assert "-1.250" not in plain and "(-v: affinity, standing and P(relevant))" in plain
    assert "record a decision once" in plain
    verbose = explain_against_list(asked, rel, 20, verbose=True)
    assert "affinity -1.250" in verbose and "standing 1.0%" in verbose
    assert "P(relevant) 0.12" in verbose and "[cosine 0.40]" in verbose
    # Just under the cut reads as under it (4.6 %, not a rounded 5 % beside "under 5 %").
    close = Relevance(-1.25, 0.0459, 0.12, NEAR, "Agents")
    near = explain_against_list(asked, close, 20, verbose=True)
    assert "standing 4.6%" in near and "under 5% is unlike anything" in near
