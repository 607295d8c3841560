"""The table layouts of the list: HTML paper rows and Markdown project rows, from entries.

The layouts are the ones `curator.sources.document` reads, so rendering and reading agree.
"""

from __future__ import annotations

import zlib
from html import escape
from urllib.parse import quote

from curator.core.model import Entry, Link, Service
from curator.core.normalize import github_repo

#: Badge colours, picked per tag by a stable hash so a tag keeps its colour across renders.
COLOURS = ("4A90E2", "F5A623", "7ED321", "D0021B", "9013FE", "50E3C2", "BD10E0", "8B572A")
HEADER = [
    '<table style="width: 100%;">',
    "  <tr>",
    "    <td><strong>Date</strong></td>",
    "    <td><strong>Paper & Summary</strong></td>",
    "    <td><strong>Tags</strong></td>",
    "    <td><strong>Links</strong></td>",
    "  </tr>",
]


def badge_text(text: str) -> str:
    """Text for a shields.io static badge path (dash and underscore doubled, URL-quoted)."""
    return quote(text.replace("-", "--").replace("_", "__"), safe="")


def tag_badge(tag: str) -> str:
    """An `<img>` badge for one tag; the alt text is the tag itself."""
    colour = COLOURS[zlib.crc32(tag.encode("utf-8")) % len(COLOURS)]
    src = f"https://img.shields.io/badge/{badge_text(tag)}-{colour}"
    return f'<img src="{escape(src)}" alt="{escape(tag)}">'


def link_badge(link: Link) -> str:
    """An `<a>` with a badge saying what the link is (paper, code, website...)."""
    if link.role == "paper" and link.service is Service.ARXIV:
        src, alt = "https://img.shields.io/badge/arXiv-Paper-%23D2691E?logo=arxiv", "Paper Badge"
    elif link.role == "paper":
        src, alt = "https://img.shields.io/badge/Paper-Link-blue", "Paper Badge"
    elif link.role == "code":
        src, alt = "https://img.shields.io/badge/GitHub-Code-black?logo=github", "Code Badge"
    else:
        name = link.role.capitalize()
        src, alt = (
            f"https://img.shields.io/badge/{badge_text(name)}-Link-lightgrey",
            f"{name} Badge",
        )
    return f'<a href="{escape(link.url)}"><img src="{escape(src)}" alt="{alt}"></a>'


def paper_rows(entry: Entry) -> list[str]:
    """The two `<tr>` rows of one paper."""
    bullets = [escape(line, quote=False) for line in entry.summary.split("\n") if line.strip()]
    summary = [f"      {line}<br>" for line in bullets]
    if summary:
        summary[-1] = summary[-1].removesuffix("<br>")
    return [
        "  <tr>",
        f'    <td rowspan="2" style="width: 15%;">{escape(entry.date, quote=False)}</td>',
        f'    <td style="width: 55%;"><strong>{escape(entry.title, quote=False)}</strong></td>',
        '    <td style="width: 15%;">',
        *(f"      {tag_badge(tag)}" for tag in entry.tags),
        "    </td>",
        '    <td style="width: 15%;">',
        *(f"      {link_badge(link)}" for link in entry.links),
        "    </td>",
        "  </tr>",
        "  <tr>",
        '    <td colspan="3">',
        *summary,
        "    </td>",
        "  </tr>",
    ]


def paper_table(papers: list[Entry]) -> list[str]:
    """The whole HTML table of a section, in the order given."""
    return [*HEADER, *(line for paper in papers for line in paper_rows(paper)), "</table>"]


def cell(text: str) -> str:
    """Markdown table cell text: pipes and Markdown punctuation escaped, one line."""
    out = " ".join(text.split())
    for char in "\\`*_[]<>|":
        out = out.replace(char, "\\" + char)
    return out


def project_table(projects: list[Entry]) -> list[str]:
    """A Markdown table: name, time (when any has one), stars, repository and website."""
    timed = any(p.date for p in projects)
    described = any(p.summary for p in projects)
    head = ["System", *(["Time"] if timed else []), "Stars", "GitHub & Website"]
    head += ["Description"] if described else []
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for project in projects:
        repo = next((lk.url for lk in project.links if lk.role == "repo"), project.links[0].url)
        site = next((lk.url for lk in project.links if lk.role == "website"), "")
        found = github_repo(repo)
        stars = ""
        if found:
            shield = f"https://img.shields.io/github/stars/{found[0]}/{found[1]}?style=social"
            stars = f"![GitHub Repo stars]({shield})"
        row = [cell(project.title), *([cell(project.date)] if timed else []), stars]
        row.append(f"<{repo}><br>" + (f"<{site}>" if site else "No official website"))
        row += [cell(project.summary)] if described else []
        lines.append("| " + " | ".join(row) + " |")
    return lines
