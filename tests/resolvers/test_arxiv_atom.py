"""curator's one Atom reader (`parse_feed`) and query URLs, fed with the recorded arXiv answers."""

from __future__ import annotations

import re

import pytest

from curator.resolvers.arxiv import query_url
from curator.resolvers.arxiv_atom import FeedError, UnreadableEntry, parse_feed, rejected_ids
from tests.conftest import API_SAMPLES

RECORDINGS = API_SAMPLES / "arxiv"


def recorded(name: str) -> str:
    return (RECORDINGS / name).read_text(encoding="utf-8")


def test_a_current_format_entry_reads_to_the_exact_metadata() -> None:
    feed = parse_feed(recorded("id_list_title_zero_2104.12255v1.xml").encode())
    assert feed.total == 1
    assert feed.listed == ("2104.12255",)
    (paper,) = feed.papers
    meta = paper.metadata()
    abstract = meta.pop("abstract")
    assert abstract.startswith("What is the funniest number in cryptography? 0. The reason")
    assert abstract.endswith("awarded $35,000 in total for the reported bugs.")
    assert meta == {
        "id": "2104.12255",
        "version": 1,
        "url": "https://arxiv.org/abs/2104.12255",
        "title": "0",  # a title the old API left out (lukasschwab/arxiv.py#71)
        "authors": ["Quan Thoi Minh Nguyen"],
        "published": "2021-04-20",
        "published_at": "2021-04-20T16:07:14Z",
        "updated": "2021-04-20T16:07:14Z",
        "primary_category": "cs.CR",
        "categories": ["cs.CR"],
        "comment": "",
        "journal_ref": "",
        "doi": "",
        "withdrawn": False,
    }


def test_an_old_style_cross_listed_entry() -> None:
    (paper,) = parse_feed(
        recorded("id_list_oldstyle_versioned_quant-ph_0201082v1.xml").encode()
    ).papers
    meta = paper.metadata()
    assert meta["id"] == "quant-ph/0201082"
    assert meta["url"] == "https://arxiv.org/abs/quant-ph/0201082"
    assert meta["title"] == (
        "Quantum Computers and Quantum Computer Languages: Quantum Assembly Language and "
        "Quantum C Language"
    )
    assert (meta["primary_category"], meta["categories"]) == ("quant-ph", ["quant-ph", "cs.PL"])
    assert (meta["comment"], meta["published_at"]) == ("32 pages", "2002-01-18T15:08:05Z")


def test_authors_are_names_only_and_journal_ref_is_read() -> None:
    (paper,) = parse_feed(recorded("id_list_oldstyle_astro-ph_0601001.xml").encode()).papers
    meta = paper.metadata()
    # each author also carries <arxiv:affiliation>, which is not part of the name
    assert meta["authors"] == ["Andrew Gould", "Susan Dorsher", "B. Scott Gaudi", "Andrzej Udalski"]
    assert meta["journal_ref"] == "ActaAstron.56:1-50,2006"
    assert meta["comment"].startswith("62 pages including 16 figures and 9 tables.")
    assert "\n" not in meta["abstract"] and "  " not in meta["abstract"]


def test_versions_dates_doi_and_comment_of_a_search_page() -> None:
    feed = parse_feed(recorded("search_query_testing_max10.xml").encode())
    assert feed.total == 214881
    assert len(feed.papers) == len(feed.listed) == 10
    papers = {p.id: p.metadata() for p in feed.papers}
    revised = papers["2005.14124"]
    assert (revised["version"], revised["published"]) == (2, "2020-05-28")
    assert (revised["published_at"], revised["updated"]) == (
        "2020-05-28T16:19:50Z",
        "2020-07-16T08:15:48Z",
    )
    assert revised["doi"] == "10.1145/3395363.3397376"  # arxiv:doi comes after the authors
    assert revised["categories"] == ["cs.SE", "cs.CR", "cs.LG"]
    assert revised["comment"].startswith("Accepted by the ACM SIGSOFT International Symposium")
    assert len(revised["authors"]) == 5
    assert papers["2503.05378"]["journal_ref"] == papers["2503.05378"]["doi"] == ""


def test_legacy_offsets_are_turned_into_utc() -> None:
    (paper,) = parse_feed(recorded("legacy_doc_search_all_electron_max1.xml").encode()).papers
    meta = paper.metadata()
    assert meta["id"] == "hep-ex/0307015"
    assert meta["published_at"] == "2003-07-07T17:46:39Z"  # 13:46:39-04:00
    assert meta["journal_ref"] == "Eur.Phys.J. C31 (2003) 17-29"


def test_a_withdrawal_notice_marks_the_paper_withdrawn() -> None:
    original = recorded("id_list_single_1605.08386.xml")
    assert parse_feed(original.encode()).papers[0].metadata()["withdrawn"] is False
    body = original.replace(
        "<arxiv:comment>20 pages, 3 figures</arxiv:comment>",
        "<arxiv:comment>This paper has been withdrawn by the author due to a crucial error\n"
        "      in Lemma 2</arxiv:comment>",
    )
    (paper,) = parse_feed(body.encode()).papers
    meta = paper.metadata()
    assert meta["withdrawn"] is True
    assert meta["comment"] == (
        "This paper has been withdrawn by the author due to a crucial error in Lemma 2"
    )


@pytest.mark.parametrize("element", ["id", "updated", "published"])
def test_an_entry_without_id_or_dates_is_listed_but_no_paper(element: str) -> None:
    body = re.sub(
        rf"\n    <{element}>[^<]*</{element}>",
        "",
        recorded("id_list_two_ids_one_nonexistent.xml"),
        count=1,
    )
    feed = parse_feed(body.encode())
    assert feed.papers == ()
    assert feed.listed == ((None,) if element == "id" else ("1707.08567",))


def test_a_date_that_is_no_date_is_unreadable_not_partial() -> None:
    body = recorded("id_list_two_ids_one_nonexistent.xml").replace(
        "<published>2017-07-27T08:18:33Z</published>", "<published>yesterday</published>"
    )
    with pytest.raises(UnreadableEntry, match=r"1707\.08567v1: <published> 'yesterday'"):
        parse_feed(body.encode())


def test_the_400_error_feed_holds_no_paper() -> None:
    body = (RECORDINGS / "id_list_malformed_abc_error_400.xml").read_bytes()
    feed = parse_feed(body)
    assert (feed.listed, feed.papers) == ((None,), ())
    assert rejected_ids(body) == (["abc"], "incorrect id format for abc")


def test_empty_feeds_list_nothing() -> None:
    for name in (
        "id_list_nonexistent_0000.0000_empty_feed.xml",
        "id_list_nonexistent_0808.05394_empty_feed.xml",
    ):
        feed = parse_feed((RECORDINGS / name).read_bytes())
        assert (feed.total, feed.listed, feed.papers) == (0, (), ())


def test_a_truncated_search_page_never_reads_as_fewer_papers() -> None:
    body = (RECORDINGS / "search_query_testing_max10.xml").read_bytes()
    ends = [m.end() for m in re.finditer(rb"</entry>\n?", body)]
    for cut in [*ends[:-1], *range(200, len(body) - 2, len(body) // 23)]:
        with pytest.raises(FeedError):
            parse_feed(body[:cut])


def test_query_urls_are_the_ones_the_recordings_were_asked_with() -> None:
    endpoint = "https://export.arxiv.org/api/query"
    assert query_url(endpoint, id_list=["0808.05394", "1707.08567"], max_results=100) == (
        endpoint + "?search_query=&id_list=0808.05394%2C1707.08567&sortBy=relevance"
        "&sortOrder=descending&start=0&max_results=100"
    )
    assert query_url(endpoint, search_query="testing", max_results=10) == (
        endpoint + "?search_query=testing&id_list=&sortBy=relevance&sortOrder=descending"
        "&start=0&max_results=10"
    )
    asked = query_url(
        endpoint + "?key=1",
        search_query="cat:cs.CL AND submittedDate:[202609230000 TO 202609292359]",
        start=2000,
        max_results=2000,
        sort=("submittedDate", "ascending"),
    )
    assert asked == (
        endpoint + "?key=1&search_query=cat%3Acs.CL+AND+submittedDate%3A%5B202609230000+TO+"
        "202609292359%5D&id_list=&sortBy=submittedDate&sortOrder=ascending&start=2000"
        "&max_results=2000"
    )
