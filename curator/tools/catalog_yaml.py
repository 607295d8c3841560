"""Writing catalogue YAML by hand, in the exact shape of data/ (quoted dates, `|-` summaries).

Strings are written as JSON strings, which YAML reads back unchanged, so no value can turn
into a number, a date or a tag; multi-line summaries become literal blocks for humans.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from curator.core.model import Entry

INDENT = "    "


def quoted(text: str) -> str:
    """A double-quoted YAML scalar that reads back as exactly `text`."""
    return json.dumps(text, ensure_ascii=False)


def block(key: str, text: str) -> list[str]:
    """`key: |-` and the text indented below it; one quoted line when a block cannot hold it."""
    lines = text.split("\n")
    if len(lines) == 1 or any(line != line.strip() or not line for line in lines):
        return [f"{INDENT}{key}: {quoted(text)}"]
    return [f"{INDENT}{key}: |-", *(f"{INDENT}  {line}" for line in lines)]


def item_lines(origin: str, values: Mapping[str, object]) -> list[str]:
    """One list item: a comment naming where it came from, then its keys in order."""
    out = [f"  # {origin}"]
    for key, value in values.items():
        if isinstance(value, bool):
            out.append(f"{INDENT}{key}: {'true' if value else 'false'}")
        elif isinstance(value, str) and "\n" in value:
            out.extend(block(key, value))
        elif isinstance(value, str):
            out.append(f"{INDENT}{key}: {quoted(value)}")
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            out.append(f"{INDENT}{key}: [{', '.join(quoted(str(v)) for v in value)}]")
        elif isinstance(value, list):
            pairs = [
                "{" + ", ".join(f"{k}: {quoted(str(v))}" for k, v in dict(link).items()) + "}"
                for link in value
            ]
            out.append(f"{INDENT}{key}: [{', '.join(pairs)}]")
    out[1] = "  - " + out[1][len(INDENT) :]
    return out


def paper_values(entry: Entry) -> dict[str, object]:
    """The catalogue keys of a paper entry, empty values left out (title and date kept)."""
    raw = entry.fields
    values: dict[str, object] = {"title": entry.title}
    if entry.short_title:
        values["short_title"] = True
    if raw.get("arxiv"):
        values["arxiv"] = str(raw["arxiv"])
        main = next((lk for lk in entry.links if lk.subject == entry.subject), None)
    else:
        main = next((lk for lk in entry.links if lk.url == raw.get("url")), entry.links[0])
        values["url"] = main.url
    code = next((lk for lk in entry.links if lk.role == "code"), None)
    values["date"] = entry.date
    values["venue"] = str(raw.get("venue", ""))
    values["tags"] = list(dict.fromkeys(entry.tags))
    values["code"] = code.url if code else ""
    values["links"] = [
        {"role": lk.role, "url": lk.url} for lk in entry.links if lk is not main and lk is not code
    ]
    values["summary"] = entry.summary
    values["summary_zh"] = entry.summary_zh
    return {k: v for k, v in values.items() if v or k == "title"}


def project_values(entry: Entry) -> dict[str, object]:
    """The catalogue keys of a project entry (`category` is the section it stood in)."""
    raw = entry.fields
    description = entry.summary
    if raw.get("category"):
        # The list's own sub-category column has no catalogue key; keep it in the text.
        description = f"{raw['category']}: {description}" if description else str(raw["category"])
    values: dict[str, object] = {
        "name": entry.title,
        "repo": str(raw.get("repo") or entry.links[0].url),
        "website": str(raw.get("website", "")),
        "since": entry.date,
        "category": entry.section,
        "description": description,
        "description_zh": entry.summary_zh,
        "links": [{"role": lk.role, "url": lk.url} for lk in entry.links[2:]],
    }
    return {k: v for k, v in values.items() if v or k in {"name", "repo"}}


def link_values(entry: Entry) -> dict[str, object]:
    """The catalogue keys of a plain-link entry (its other links of the same line in `also`)."""
    values: dict[str, object] = {
        "url": entry.links[0].url,
        "title": entry.title,
        "also": [lk.url for lk in entry.links[1:]],
        "section": entry.section,
    }
    return {k: v for k, v in values.items() if v or k == "url"}


def catalog_file(
    path: Path, schema: Path, section: str, key: str, items: Iterable[list[str]]
) -> str:
    """The text of one catalogue file: schema comment, section, then the items."""
    relative = Path(os.path.relpath(schema, path.parent)).as_posix()
    head = [f"# yaml-language-server: $schema={relative}", f"section: {quoted(section)}", f"{key}:"]
    body = [line for item in items for line in item]
    return "\n".join(head + body) + "\n"
