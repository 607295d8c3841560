"""Pull-request mode validates only the items it reports on, and reports what a whole-file
validation reports: the same findings at every place the run keeps, the same entries, the
same fatal errors."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from curator.core.errors import InputError
from curator.run.pipeline import Selection
from curator.sources.catalog_schema import LISTS, schema
from curator.sources.select import select_changed
from curator.sources.yaml_catalog import display_path, load_file

#: Keywords that read a file's keys only (never what its item lists hold).
KEY_KEYWORDS = {"required", "not", "anyOf", "oneOf", "allOf"}


def _keys_only(node: Any) -> bool:
    return isinstance(node, dict) and all(
        k in KEY_KEYWORDS
        and (all(_keys_only(n) for n in v) if isinstance(v, list) and k != "required" else True)
        and (_keys_only(v) if isinstance(v, dict) else True)
        for k, v in node.items()
    )


def test_the_schema_asks_nothing_of_an_item_list_but_its_items() -> None:
    """What catalog_schema.item_errors relies on: emptying the lists cannot change whether the
    structure is valid, so items can be validated one by one."""
    top = schema()
    assert set(top) <= {"$schema", "$id", "title", "description", "type", "additionalProperties",
                        "required", "properties", "oneOf", "$defs"}  # fmt: skip
    for key in LISTS:
        assert set(top["properties"][key]) == {"type", "items"}
        assert top["properties"][key]["type"] == "array"
    assert all(_keys_only(branch) for branch in top["oneOf"])


texts = st.one_of(st.text(max_size=5), st.integers(), st.none(), st.booleans())
fields = st.fixed_dictionaries(
    {},
    optional={
        "title": st.one_of(st.just("A Title"), texts),
        "arxiv": st.sampled_from(["2401.00001", "2401.00002v2", "9999.1", "hep-th/9901001", ""]),
        "url": st.sampled_from(["https://example.org/p", "http://arxiv.org/abs/bad", "x", ""]),
        "code": st.sampled_from(["https://github.com/a/b", "https://github.com/a", 3]),
        "date": st.sampled_from(["2024-01-02", "2024-1-2", "2024", 2024, "bad"]),
        "tags": st.one_of(st.lists(texts, max_size=2), texts),
        "links": st.lists(st.fixed_dictionaries({"url": texts}), max_size=2),
        "zeta": texts,
        "repo": st.sampled_from(["https://github.com/o/r", "nope"]),
        "website": st.sampled_from(["https://example.org/site", ""]),
        "name": texts,
        "category": texts,
    },
)
items = st.lists(st.one_of(fields, texts, st.lists(texts, max_size=2)), max_size=8)


def _write(folder: Path, list_key: str, rows: list[Any], flow: bool | None) -> Path:
    path = folder / "c.yaml"
    doc = {"section": "S", list_key: rows}
    path.write_text(yaml.safe_dump(doc, default_flow_style=flow, sort_keys=False), "utf-8")
    return path


@pytest.mark.slow
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(LISTS),
    items,
    st.sampled_from([False, None]),
    st.sets(st.integers(1, 60), max_size=6),
)
def test_checking_the_reported_items_reports_what_checking_all_does(
    list_key: str, rows: list[Any], flow: bool | None, lines: set[int]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(Path(tmp), list_key, rows, flow)
        name = display_path(path)
        whole = load_file(path)
        some = load_file(path, lines=lines)
        changed: dict[str, set[int] | None] = {name: lines}
        selection = Selection(select_changed(whole.entries, changed), changed)
        assert some.entries == whole.entries
        assert set(some.findings) <= set(whole.findings)
        assert [f for f in some.findings if selection.keeps(f)] == [
            f for f in whole.findings if selection.keeps(f)
        ]


@pytest.mark.parametrize(
    "text",
    [
        "section: S\npapers: [{title: T}]\nprojects: []\n",
        "section: S\npapers: 3\n",
        "papers:\n  - {title: T, arxiv: '2401.00001'}\n",
        "section: S\npapers:\n  - {title: T}\nzzz: 1\n",
        "- just a list\n",
    ],
)
def test_a_broken_file_fails_as_it_does_when_every_item_is_checked(
    tmp_path: Path, text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError) as whole:
        load_file(path)
    with pytest.raises(InputError) as some:
        load_file(path, lines={2})
    assert (some.value.message, some.value.line) == (whole.value.message, whole.value.line)


def test_an_item_outside_the_changed_lines_is_not_validated(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    bad = "  - {title: T, arxiv: '2401.00001', zeta: 1}\n"
    good = "  - {title: T, arxiv: '2401.00002'}\n"
    path.write_text("section: S\npapers:\n" + bad + good, encoding="utf-8")
    assert [f.code for f in load_file(path).findings] == ["entry-invalid"]
    assert load_file(path, lines={4}).findings == ()
    assert [f.code for f in load_file(path, lines={3}).findings] == ["entry-invalid"]
