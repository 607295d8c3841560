"""sources/formats.py: the one suffix → reader table, which both readers and the load stage ask."""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.config.context import CheckContext
from curator.core.errors import InputError
from curator.run.pipeline import load
from curator.sources.document import DocumentSource
from curator.sources.formats import SUFFIXES, Reader, is_catalog, reader_of, suffixes
from curator.sources.yaml_catalog import CatalogSource


def test_the_table_names_each_reader_its_suffixes() -> None:
    assert suffixes(Reader.CATALOGUE) == (".yaml", ".yml")
    assert suffixes(Reader.DOCUMENT) == (".md", ".markdown")
    assert set(SUFFIXES.values()) == set(Reader)


@pytest.mark.parametrize("name", ["a.yaml", "a.YML", "README.md", "LIST.Markdown", "a.txt", "dir"])
def test_each_reader_accepts_what_the_table_gives_it(name: str, tmp_path: Path) -> None:
    path = tmp_path / name
    if name == "dir":
        path.mkdir()
    reader = reader_of(path)
    assert CatalogSource(CheckContext()).accepts(path) is (reader is Reader.CATALOGUE)
    assert DocumentSource(CheckContext()).accepts(path) is (reader is Reader.DOCUMENT)
    assert is_catalog(name) is (name != "dir" and reader is Reader.CATALOGUE)


def test_the_load_stage_refuses_a_file_of_no_known_format(tmp_path: Path) -> None:
    path = tmp_path / "list.txt"
    path.write_text("- [a](https://example.org)\n", encoding="utf-8")
    with pytest.raises(InputError, match="not a catalogue folder, YAML file or Markdown"):
        load([str(path)])


def test_both_readers_report_a_bad_arxiv_link_alike(tmp_path: Path) -> None:
    url = "https://arxiv.org/abs/9999.99999"
    (tmp_path / "a.yaml").write_text(f"section: A\nlinks:\n  - {{url: {url}}}\n", "utf-8")
    (tmp_path / "a.md").write_text(f"# A\n\n- [x]({url})\n", "utf-8")
    found = [load([str(tmp_path / name)]).findings for name in ("a.yaml", "a.md")]
    catalogue, document = ([(f.code, f.subject, f.message, f.evidence) for f in x] for x in found)
    assert (
        catalogue
        == document
        == [("arxiv-bad-id", url, f"{url} does not hold a valid arXiv identifier", url)]
    )
