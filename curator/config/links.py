"""The rules of web-link checking (rules/links.yaml): bot walls, protected domains, ignores.

The guard's allow-list (`LinkRules.allow`) is never read from the file: it comes from
CURATOR_GUARD_ALLOW in the environment (`with_trusted_allow`).

Loaded once per run with `load_link_rules`; the result goes to the WebResolver and into
`CheckContext.links`. A key left out of the file keeps its default.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from curator.config.patterns import UrlPatterns, compile_patterns
from curator.core.errors import InputError
from curator.textio.located_yaml import compose, compose_file, mapping_nodes, node_line

#: Hosts (and their subdomains) that answer robots with 403/429/999 while the page is fine.
BOT_WALLED = (
    "doi.org", "acm.org", "openreview.net", "sciencedirect.com", "researchgate.net",
    "x.com", "twitter.com", "medium.com", "linkedin.com", "ieee.org", "springer.com",
    "wiley.com", "tandfonline.com", "jstor.org", "reddit.com", "zhihu.com",
    "scholar.google.com", "semanticscholar.org", "nature.com", "science.org",
)  # fmt: skip
#: Domains whose internationalised look-alikes are refused as homographs.
PROTECTED = ("github.com", "arxiv.org")

_LIST_KEYS = ("bot_walled", "allow", "protected")
#: Why a rules file may not open the SSRF guard: it is part of the checked tree.
TRUSTED_ALLOW = (
    "allow: must stay empty; the guard's allow-list comes only from CURATOR_GUARD_ALLOW "
    "in the environment (rules files are in the checked tree, which a pull request controls)"
)
_IGNORE_KEYS = ("hosts", "prefixes", "patterns")
#: `arxiv_links:` keys and their values (the first is the default: no form asked for).
ARXIV_FORMS = ("any", "abs", "pdf")
ARXIV_VERSIONS = ("any", "none")


@dataclass(frozen=True)
class LinkRules:
    """Settings of the web checker; every host match also covers subdomains."""

    bot_walled: tuple[str, ...] = BOT_WALLED
    allow: tuple[str, ...] = ()
    protected: tuple[str, ...] = PROTECTED
    ignore_hosts: tuple[str, ...] = ()
    ignore_prefixes: tuple[str, ...] = ()
    #: RE2 regular expressions (config/patterns.py), searched anywhere in the URL.
    ignore_patterns: UrlPatterns = field(default_factory=UrlPatterns)
    #: The form the list's arXiv links take (`arxiv-link-form`): `abs` or `pdf` pages, and
    #: `none` for links without a version; `any` (the default) asks for nothing.
    arxiv_form: str = "any"
    arxiv_version: str = "any"

    @property
    def allowed_hosts(self) -> tuple[str, ...]:
        """Allow-list entries that are host names (exact match)."""
        return tuple(a.lower() for a in self.allow if not _is_network(a))

    @property
    def allowed_addresses(self) -> tuple[str, ...]:
        """Allow-list entries that are IP addresses or CIDR networks."""
        return tuple(a for a in self.allow if _is_network(a))

    @property
    def asks_arxiv_form(self) -> bool:
        """True when the rules ask for a form of arXiv links (`arxiv_links:`)."""
        return (self.arxiv_form, self.arxiv_version) != ("any", "any")

    def is_bot_walled(self, host: str) -> bool:
        """True when `host` is (a subdomain of) a listed bot-walled host."""
        return _host_in(host, self.bot_walled)

    def ignores(self, url: str) -> bool:
        """True when the rules say `url` is not checked at all."""
        host = (urlsplit(url).hostname or "").lower()
        if host and _host_in(host, self.ignore_hosts):
            return True
        if any(url.startswith(prefix) for prefix in self.ignore_prefixes):
            return True
        return self.ignore_patterns.search(url)


def _host_in(host: str, domains: tuple[str, ...]) -> bool:
    """True when `host` equals one of `domains` or is a subdomain of it."""
    name = host.lower().removesuffix(".")
    return any(name == d or name.endswith("." + d) for d in domains)


def _is_network(text: str) -> bool:
    """True for an IP address or CIDR network."""
    try:
        ipaddress.ip_network(text, strict=False)
    except ValueError:
        return False
    return True


def with_trusted_allow(rules: LinkRules, allow: tuple[str, ...]) -> LinkRules:
    """`rules` with the allow-list the workflow's environment gives (CURATOR_GUARD_ALLOW)."""
    return replace(rules, allow=allow)


def load_link_rules(path: Path) -> LinkRules:
    """Read rules/links.yaml; defaults when the file is absent, InputError when malformed."""
    return _of_node(compose_file(path), path.as_posix())


def parse_link_rules(text: str | None, name: str) -> LinkRules:
    """The rules of a links.yaml text (None: no file, so the defaults); `name` in errors."""
    return _of_node(None if text is None else compose(text, name), name)


def _of_node(root: yaml.Node | None, name: str) -> LinkRules:
    """The rules of the file's node tree (None: empty or absent)."""
    if root is None:
        return LinkRules()
    return _rules_from(mapping_nodes(root, name, "the file"), name)


def _rules_from(items: dict[str, tuple[yaml.Node, yaml.Node]], name: str) -> LinkRules:
    """LinkRules from the top-level mapping (key -> (key node, value node))."""
    rules = LinkRules()
    for key, (key_node, value) in items.items():
        if key == "bot_walled":
            rules = replace(rules, bot_walled=_bot_walled(value, name))
        elif key == "protected":
            # The file may add domains; the defaults stay protected whatever it says.
            added = _domains(value, name, key)
            rules = replace(rules, protected=tuple(dict.fromkeys((*PROTECTED, *added))))
        elif key == "allow":
            if _strings(value, name, key):
                raise InputError(TRUSTED_ALLOW, name, node_line(key_node))
        elif key == "ignore":
            rules = _with_ignores(rules, mapping_nodes(value, name, "ignore"), name)
        elif key == "arxiv_links":
            rules = _with_arxiv_links(rules, mapping_nodes(value, name, "arxiv_links"), name)
        else:
            known = ", ".join((*_LIST_KEYS, "ignore", "arxiv_links"))
            raise InputError(f"unknown key {key!r} (known: {known})", name, node_line(key_node))
    return rules


def _bot_walled(node: yaml.Node, name: str) -> tuple[str, ...]:
    """`bot_walled:` as a list (or `{hosts: [...]}`) adds hosts to curator's defaults:
    uncommenting an example must not turn openreview.net's 403s into link-broken.
    `{replace: true, hosts: [...]}` is the whole list instead."""
    if not isinstance(node, yaml.MappingNode):
        return tuple(dict.fromkeys((*BOT_WALLED, *_domains(node, name, "bot_walled"))))
    items = mapping_nodes(node, name, "bot_walled")
    for key, (key_node, _) in items.items():
        if key not in ("replace", "hosts"):
            raise InputError(
                f"unknown key bot_walled.{key} (known: replace, hosts)", name, node_line(key_node)
            )
    hosts = items.get("hosts")
    listed = _domains(hosts[1], name, "bot_walled.hosts") if hosts else ()
    flag = items.get("replace")
    if flag is not None and flag[1].tag != "tag:yaml.org,2002:bool":
        raise InputError("bot_walled.replace must be true or false", name, node_line(flag[1]))
    if flag is not None and flag[1].value.lower() in ("true", "yes", "on"):
        return listed
    return tuple(dict.fromkeys((*BOT_WALLED, *listed)))


def _with_ignores(
    rules: LinkRules, items: dict[str, tuple[yaml.Node, yaml.Node]], name: str
) -> LinkRules:
    """Rules with the `ignore:` table applied; patterns are compiled here (by RE2)."""
    for key, (key_node, value) in items.items():
        if key not in _IGNORE_KEYS:
            known = ", ".join(_IGNORE_KEYS)
            raise InputError(
                f"unknown key ignore.{key} (known: {known})", name, node_line(key_node)
            )
        values = _strings(value, name, f"ignore.{key}")
        if key == "hosts":
            rules = replace(rules, ignore_hosts=_domains(value, name, f"ignore.{key}"))
        elif key == "prefixes":
            rules = replace(rules, ignore_prefixes=values)
        else:
            listed = _string_items(value, name, f"ignore.{key}")
            patterns = compile_patterns(listed, name, f"ignore.{key}")
            rules = replace(rules, ignore_patterns=patterns)
    return rules


def _with_arxiv_links(
    rules: LinkRules, items: dict[str, tuple[yaml.Node, yaml.Node]], name: str
) -> LinkRules:
    """Rules with the `arxiv_links:` table applied (`form`, `version`)."""
    allowed = {"form": ARXIV_FORMS, "version": ARXIV_VERSIONS}
    for key, (key_node, value) in items.items():
        if key not in allowed:
            raise InputError(
                f"unknown key arxiv_links.{key} (known: form, version)", name, node_line(key_node)
            )
        text = str(value.value).strip() if isinstance(value, yaml.ScalarNode) else ""
        if text not in allowed[key]:
            choices = ", ".join(allowed[key])
            raise InputError(f"arxiv_links.{key} must be one of {choices}", name, node_line(value))
        if key == "form":
            rules = replace(rules, arxiv_form=text)
        else:
            rules = replace(rules, arxiv_version=text)
    return rules


def _strings(node: yaml.Node, name: str, key: str) -> tuple[str, ...]:
    """A sequence of non-empty strings; InputError at the offending line otherwise."""
    return tuple(text for text, _ in _string_items(node, name, key))


def _domains(node: yaml.Node, name: str, key: str) -> tuple[str, ...]:
    """Host names, lower-case, without a trailing dot."""
    return tuple(s.lower().removesuffix(".") for s in _strings(node, name, key))


def _string_items(node: yaml.Node, name: str, key: str) -> list[tuple[str, int]]:
    """(text, line) of each item of a sequence of non-empty strings."""
    out = []
    for item in _items(node, name, key):
        text = str(item.value).strip() if isinstance(item, yaml.ScalarNode) else ""
        if not text or item.tag != "tag:yaml.org,2002:str":
            raise InputError(f"{key}: each item must be a non-empty string", name, node_line(item))
        out.append((text, node_line(item)))
    return out


def _items(node: yaml.Node, name: str, key: str) -> list[Any]:
    """The item nodes of a sequence (an empty value counts as empty)."""
    if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:null":
        return []
    if not isinstance(node, yaml.SequenceNode) or node.tag != "tag:yaml.org,2002:seq":
        raise InputError(f"{key} must be a list", name, node_line(node))
    return list(node.value)
