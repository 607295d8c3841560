"""The SSRF guard: which URLs and addresses a web-link check may never reach.

Links come from untrusted pull requests, and the checker runs on CI machines that can see
private networks and cloud metadata services. So a URL is refused for a bad scheme,
credentials, a loopback spelling or a homograph host (`check_url`), and every address its
host resolves to is refused when it is not public (`classify_address`). Pure functions: the
resolver calls them on the first hop and on every redirect, then connects to the checked
address only.
"""

from __future__ import annotations

import contextlib
import ipaddress
import re
import unicodedata
from collections.abc import Iterable
from urllib.parse import SplitResult, urlsplit

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

ALLOWED_SCHEMES = frozenset({"http", "https"})

#: Cloud instance-metadata services (AWS, ECS, GCP/Azure share 169.254.169.254, Alibaba,
#: Oracle, AWS IPv6). Refused even when private hosts are allowed: no real link points there.
METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a)
    for a in (
        "169.254.169.254",
        "169.254.169.123",
        "169.254.170.2",
        "169.254.170.23",
        "100.100.100.200",
        "192.0.0.192",
        "fd00:ec2::254",
        "fd00:ec2::23",
        "fd00:ec2::123",
        # Azure's wireserver (platform address): public, yet it serves the host's agent and
        # metadata to any VM, and GitHub-hosted runners are Azure VMs.
        "168.63.129.16",
    )
)
METADATA_NAMES = frozenset({"metadata.google.internal", "metadata.goog", "instance-data"})
LOOPBACK_NAMES = frozenset(
    {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback", "loopback"}
)

_CGNAT = ipaddress.ip_network("100.64.0.0/10")
_NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))
_PRIVATE = tuple(
    ipaddress.ip_network(n)
    for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7", "fec0::/10")
)
# inet_aton accepts 1 to 4 parts, each decimal, octal (leading 0) or hex (0x): the spellings
# `127.1`, `0x7f000001`, `2130706433`, `0177.0.0.1` all mean 127.0.0.1 to the C resolver.
_NUMERIC_PART = re.compile(r"^(?:0x[0-9a-f]*|[0-9]+)$")

#: Look-alike letters (Cyrillic, Greek, Latin extensions) mapped to the ASCII letter they mimic.
_CONFUSABLES = str.maketrans(
    {
        "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "ё": "e", "һ": "h", "і": "i",
        "ӏ": "l", "ј": "j", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "ԛ": "q",
        "ѕ": "s", "т": "t", "ս": "u", "ѵ": "v", "ԝ": "w", "х": "x", "у": "y", "ь": "b",
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
        "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ɑ": "a", "ɡ": "g", "ı": "i",
        "ȷ": "j", "ɩ": "i", "ʜ": "h", "ɢ": "g", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e",
        "ᴋ": "k", "ᴍ": "m", "ᴏ": "o", "ᴘ": "p", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v", "ᴡ": "w",
        "ᴢ": "z", "ℓ": "l", "ꞵ": "b", "ց": "g", "ɵ": "o", "ø": "o", "ŀ": "l", "ł": "l",
    }
)  # fmt: skip


def classify_address(ip: str | IPAddress) -> str | None:
    """Why an address must not be contacted (e.g. "loopback address"), or None if public."""
    addr = ip if not isinstance(ip, str) else _parse_ip(ip)
    if addr is None:
        return "not an IP address"
    if addr in METADATA_ADDRESSES:
        return "cloud metadata address"
    if isinstance(addr, ipaddress.IPv6Address):
        embedded = _embedded_ipv4(addr)
        if embedded is not None:
            inner = classify_address(embedded)
            return f"IPv6 form of {embedded}: {inner}" if inner else None
    return _plain_reason(addr)


def _plain_reason(addr: IPAddress) -> str | None:
    """Reason for an address with no IPv4 hidden inside, most specific first."""
    checks: tuple[tuple[bool, str], ...] = (
        (addr.is_unspecified, "unspecified address"),
        (addr.is_loopback, "loopback address"),
        (addr in _CGNAT, "carrier-grade NAT (shared) address"),
        (addr.is_link_local, "link-local address"),
        (addr.is_multicast, "multicast address"),
        (any(addr in net for net in _PRIVATE), "private address"),
        (addr.is_reserved, "reserved address"),
        (not addr.is_global, "non-public address"),
    )
    return next((reason for hit, reason in checks if hit), None)


def _embedded_ipv4(addr: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one carries (mapped, NAT64, 6to4, Teredo, compatible)."""
    if addr.ipv4_mapped is not None:
        return addr.ipv4_mapped
    if any(addr in net for net in _NAT64):
        return ipaddress.IPv4Address(int(addr) & 0xFFFFFFFF)
    if addr.sixtofour is not None:
        return addr.sixtofour
    if addr.teredo is not None:
        return addr.teredo[1]
    # Deprecated IPv4-compatible form ::a.b.c.d (not :: or ::1).
    if int(addr) >> 32 == 0 and int(addr) > 1:
        return ipaddress.IPv4Address(int(addr))
    return None


def _parse_ip(text: str) -> IPAddress | None:
    """A standard IP literal (brackets and zone id allowed), or None."""
    core = text.strip().strip("[]").split("%", 1)[0]
    try:
        return ipaddress.ip_address(core)
    except ValueError:
        return None


def parse_host_address(host: str) -> IPAddress | str | None:
    """The address a URL host spells, read as the C resolver would; None for a name.

    Returns a string (the reason) for a numeric host no resolver accepts, e.g. `1.2.3.4.5`.
    """
    plain = _parse_ip(host)
    if plain is not None:
        return plain
    parts = host.lower().removesuffix(".").split(".")
    if not all(_NUMERIC_PART.match(p) for p in parts):
        return None
    try:
        values = [_numeric_value(p) for p in parts]
    except ValueError:
        return "malformed numeric host"
    if len(values) > 4:
        return "malformed numeric host"
    # The last part fills every byte the earlier parts leave.
    last_bits = 8 * (5 - len(values))
    if any(v > 255 for v in values[:-1]) or values[-1] >= 1 << last_bits:
        return "malformed numeric host"
    number = 0
    for v in values[:-1]:
        number = (number << 8) | v
    return ipaddress.IPv4Address((number << last_bits) | values[-1])


def _numeric_value(part: str) -> int:
    """One inet_aton part: hex after 0x, octal after a leading 0, else decimal."""
    if part.startswith("0x"):
        return int(part[2:] or "0", 16)
    if len(part) > 1 and part.startswith("0"):
        return int(part, 8)
    return int(part)


def host_skeleton(host: str) -> str:
    """The ASCII look-alike of a host: punycode decoded, accents and confusables folded."""
    labels = []
    for label in host.lower().removesuffix(".").split("."):
        if label.startswith("xn--"):
            with contextlib.suppress(UnicodeError):
                label = label.encode("ascii").decode("idna")
        labels.append(label)
    text = unicodedata.normalize("NFKD", ".".join(labels))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return text.translate(_CONFUSABLES).casefold()


def homograph_target(host: str, targets: Iterable[str]) -> str | None:
    """The protected domain an internationalised host imitates, or None."""
    lowered = host.lower().removesuffix(".")
    if lowered.isascii() and "xn--" not in lowered:
        return None
    skeleton = host_skeleton(lowered)
    for target in targets:
        if skeleton == target or skeleton.endswith("." + target):
            return target
    return None


def check_url(
    url: str,
    allow_private: bool = False,
    *,
    allowed_hosts: Iterable[str] = (),
    allowed_addresses: Iterable[str] = (),
    protected: Iterable[str] = ("github.com", "arxiv.org"),
) -> str | None:
    """Why `url` must not be fetched, judged from its text alone, or None when it may be.

    `allowed_hosts` / `allowed_addresses` (IPs or CIDR networks) pass the address rules;
    scheme, credential and homograph rules hold for every host.
    """
    try:
        parts = urlsplit(url.strip())
    except ValueError as exc:
        return f"malformed URL: {exc}"
    reason = _shape_reason(parts)
    if reason:
        return reason
    host = (parts.hostname or "").lower()
    target = homograph_target(host, protected)
    if target:
        return f"internationalised host {host!r} imitates {target}"
    if host.removesuffix(".") in {h.lower() for h in allowed_hosts}:
        return None
    return _host_reason(host, allow_private, allowed_addresses)


def _shape_reason(parts: SplitResult) -> str | None:
    """Refused schemes, credentials and hosts that are missing or oddly written."""
    scheme = parts.scheme.lower()
    if not scheme:
        return "not an absolute URL"
    if scheme not in ALLOWED_SCHEMES:
        return f"scheme {scheme}: is not allowed (http and https only)"
    if "@" in parts.netloc:
        return "credentials in the URL are not allowed"
    if "\\" in parts.netloc or not parts.hostname:
        return "no valid host in the URL"
    try:
        parts.port  # noqa: B018 - raises ValueError for a port out of range or not a number
    except ValueError:
        return "invalid port"
    return None


def _host_reason(host: str, allow_private: bool, allowed_addresses: Iterable[str]) -> str | None:
    """Loopback/metadata names, odd numeric spellings, and hosts that spell a refused address."""
    name = host.removesuffix(".")
    if name in METADATA_NAMES:
        return f"cloud metadata host name {host!r}"
    spelled = parse_host_address(host)
    if isinstance(spelled, str):
        return spelled
    if isinstance(spelled, ipaddress.IPv4Address) and host != str(spelled):
        # Short, hex, octal or integer forms only serve to slip past filters.
        return f"unusual spelling {host!r} of the address {spelled}"
    if spelled is not None:
        reason = address_reason(spelled, allow_private, allowed_addresses)
        if reason and host != str(spelled):
            return f"{reason} (written {host!r})"
        return reason
    if not allow_private and (name in LOOPBACK_NAMES or name.endswith(".localhost")):
        return f"loopback host name {host!r}"
    return None


def address_reason(
    ip: str | IPAddress, allow_private: bool, allowed_addresses: Iterable[str] = ()
) -> str | None:
    """Why a resolved address must not be contacted under these settings, or None."""
    addr = ip if not isinstance(ip, str) else _parse_ip(ip)
    if addr is None:
        return f"resolver returned {ip!r}, not an IP address"
    reason = classify_address(addr)
    if reason is None:
        return None
    # Metadata stays refused even when private hosts or this address are allowed.
    if "metadata" not in reason and (allow_private or _in_allowed(addr, allowed_addresses)):
        return None
    return f"{reason} {addr}"


def _in_allowed(addr: IPAddress, allowed: Iterable[str]) -> bool:
    """True when `addr` is listed (as an address or inside a network) in `allowed`."""
    for item in allowed:
        try:
            if addr in ipaddress.ip_network(item, strict=False):
                return True
        except ValueError:
            continue
    return False
