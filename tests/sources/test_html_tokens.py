"""The HTML tokenizer's shortcuts: a tag read in one match reads as the general path reads it,
and attributes parsed once for many tags still give each tag a dictionary of its own."""

from __future__ import annotations

import pytest

from curator.sources.html_tokens import Tag, Text, attributes, tokens


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        # Quoted values may hold `>`; every quote here follows `=` (the one-match path).
        (
            "<a href=\"x>y\" title='q'>t</a>",
            [
                Tag("a", 1, False, {"href": "x>y", "title": "q"}),
                Text("t", 1),
                Tag("a", 1, True, {}),
            ],
        ),
        # A quote that follows no `=` is part of a name (the general path).
        ('<td x"y="1">', [Tag("td", 1, False, {'x"y': "1"})]),
        ('<a href="u""v">', [Tag("a", 1, False, {"href": "u", '"v"': ""})]),
        # The first of two attributes of one name wins; spaces around `=` are allowed.
        ('<img alt = "A" alt="B">', [Tag("img", 1, False, {"alt": "A"})]),
        # A value that never closes swallows the rest of the input, as in a browser.
        ('<a b="never closed>', []),
        (
            "x\n<td colspan=2>&amp;\n<br/>",
            [
                Text("x\n", 1),
                Tag("td", 2, False, {"colspan": "2"}),
                Text("&\n", 2),
                Tag("br", 3, False, {}),
            ],
        ),
    ],
)
def test_tags_read_in_one_match_read_as_the_general_path(
    html: str, expected: list[Tag | Text]
) -> None:
    assert list(tokens(html)) == expected


def test_each_tag_gets_its_own_attributes_though_they_are_parsed_once() -> None:
    first, second = attributes(' rowspan="2"'), attributes(' rowspan="2"')
    assert first == second == {"rowspan": "2"}
    first["rowspan"] = "changed"
    assert attributes(' rowspan="2"') == {"rowspan": "2"}
    tags = [t for t in tokens('<td rowspan="2"></td><td rowspan="2">') if isinstance(t, Tag)]
    assert tags[0].attrs is not tags[2].attrs
