"""CatalogSource on odd but real YAML: keys that are not strings must never crash the reader."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from curator.core.errors import InputError
from curator.core.normalize import link_for, parse_arxiv_id
from curator.sources.yaml_catalog import arxiv_link, load_file

PAPER = '  - title: "T"\n    date: "2024-01-02"\n    arxiv: "2401.00001"\n'


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "c.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("key", ["1", "~", "true", "2.5"])
def test_top_level_key_that_is_not_a_string_is_one_located_error(tmp_path: Path, key: str) -> None:
    path = write(tmp_path, f"section: X\n{key}: a\nfoo: b\npapers:\n{PAPER}")
    with pytest.raises(InputError) as caught:
        load_file(path)
    assert caught.value.line == 2
    assert f"unknown key {key!r}" in str(caught.value)


def test_item_key_that_is_not_a_string_is_entry_invalid_with_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, f"section: X\npapers:\n{PAPER}    7: x\n    zeta: y\n")
    loaded = load_file(path)
    assert [e.subject for e in loaded.entries] == ["arxiv:2401.00001"]
    (finding,) = loaded.findings
    assert finding.code == "entry-invalid"
    assert finding.evidence == "line 6: unknown key '7'"


ids = st.one_of(
    st.from_regex(r"\A\d{4}\.\d{4,5}(v\d{1,3})?\Z"),
    st.from_regex(r"\A[a-z][a-z-]{0,12}(\.[A-Z]{2})?/\d{7}(v\d{1,2})?\Z"),
    st.text(max_size=20),
)
spellings = st.sampled_from(["{}", "arXiv:{}", " {} ", "https://arxiv.org/pdf/{}", "{}.pdf"])


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(ids, spellings)
def test_the_link_of_an_arxiv_field_is_what_link_for_makes_of_its_url(
    raw: str, spelling: str
) -> None:
    parsed = parse_arxiv_id(spelling.format(raw))
    if parsed is not None:
        assert arxiv_link(parsed) == link_for("paper", f"https://arxiv.org/abs/{parsed}")


@pytest.mark.parametrize(
    ("list_key", "item"),
    [
        ("papers", '{title: T, arxiv: "2401.00001", tags: 1}'),
        ("papers", '{title: T, arxiv: "2401.00001", links: 2.5}'),
        ("links", '{url: "https://example.org/", also: true}'),
    ],
)
def test_a_number_where_a_list_belongs_is_entry_invalid_not_a_crash(
    tmp_path: Path, list_key: str, item: str
) -> None:
    path = write(tmp_path, f"section: X\n{list_key}:\n  - {item}\n")
    loaded = load_file(path)
    assert len(loaded.entries) == 1
    assert [f.code for f in loaded.findings] == ["entry-invalid"]
