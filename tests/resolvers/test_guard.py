"""The SSRF guard, through its pure functions only: no packet is sent by these tests."""

from __future__ import annotations

import ipaddress

import pytest
from hypothesis import given
from hypothesis import strategies as st

from curator.net.guard import (
    address_reason,
    check_url,
    classify_address,
    homograph_target,
    parse_host_address,
)

REFUSED = [
    ("127.0.0.1", "loopback"),
    ("127.255.0.9", "loopback"),
    ("::1", "loopback"),
    ("10.1.2.3", "private"),
    ("172.16.0.1", "private"),
    ("172.31.255.254", "private"),
    ("192.168.1.1", "private"),
    ("fc00::1", "private"),
    ("fd12:3456::1", "private"),
    ("fec0::1", "private"),
    ("169.254.1.1", "link-local"),
    ("fe80::1", "link-local"),
    ("fe80::1%eth0", "link-local"),
    ("100.64.0.1", "carrier-grade NAT"),
    ("100.127.255.254", "carrier-grade NAT"),
    ("224.0.0.1", "multicast"),
    ("239.255.255.250", "multicast"),
    ("ff02::1", "multicast"),
    ("0.0.0.0", "unspecified"),
    ("::", "unspecified"),
    ("240.0.0.1", "reserved"),
    ("255.255.255.255", "reserved"),
    ("192.0.2.1", "non-public"),
    ("198.18.0.1", "non-public"),
    ("169.254.169.254", "metadata"),
    ("169.254.170.2", "metadata"),
    ("100.100.100.200", "metadata"),
    ("192.0.0.192", "metadata"),
    ("fd00:ec2::254", "metadata"),
    ("::ffff:127.0.0.1", "IPv6 form of 127.0.0.1: loopback"),
    ("::ffff:10.0.0.1", "IPv6 form of 10.0.0.1: private"),
    ("::ffff:169.254.169.254", "metadata"),
    ("64:ff9b::7f00:1", "IPv6 form of 127.0.0.1: loopback"),
    ("64:ff9b::a9fe:a9fe", "metadata"),
    ("2002:c0a8:0101::1", "IPv6 form of 192.168.1.1: private"),
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "IPv6 form"),
    ("::127.0.0.1", "IPv6 form of 127.0.0.1: loopback"),
]
PUBLIC = ["8.8.8.8", "140.82.112.3", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"]


@pytest.mark.parametrize(("ip", "expected"), REFUSED)
def test_refused_addresses_name_their_class(ip: str, expected: str) -> None:
    reason = classify_address(ip)
    assert reason is not None
    assert expected in reason


@pytest.mark.parametrize("ip", PUBLIC)
def test_public_addresses_pass(ip: str) -> None:
    assert classify_address(ip) is None
    assert classify_address(ipaddress.ip_address(ip.split("%")[0])) is None


def test_garbage_is_not_an_address() -> None:
    assert classify_address("not-an-ip") == "not an IP address"


LOOPBACK_SPELLINGS = [
    "http://127.0.0.1/",
    "http://127.1/",
    "http://0x7f000001/",
    "http://0x7f.0.0.1/",
    "http://2130706433/",
    "http://0177.0.0.1/",
    "http://017700000001/",
    "http://127.0.0.1./",
    "http://[::1]/",
    "http://[0:0:0:0:0:0:0:1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://localhost/",
    "http://localhost./",
    "http://LOCALHOST:8080/",
    "http://api.localhost/",
    "http://0/",
    "http://0.0.0.0/",
]


@pytest.mark.parametrize("url", LOOPBACK_SPELLINGS)
def test_every_loopback_spelling_is_refused(url: str) -> None:
    assert check_url(url, allow_private=False) is not None


@pytest.mark.parametrize(
    ("host", "address"),
    [
        ("127.1", "127.0.0.1"),
        ("0x7f000001", "127.0.0.1"),
        ("2130706433", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"),
        ("10.1", "10.0.0.1"),
        ("192.168.257", "192.168.1.1"),
        ("0", "0.0.0.0"),
        ("[::1]", "::1"),
    ],
)
def test_numeric_hosts_read_like_the_c_resolver(host: str, address: str) -> None:
    assert parse_host_address(host) == ipaddress.ip_address(address)


@pytest.mark.parametrize("host", ["1.2.3.4.5", "08.0.0.1", "256.1.1.1", "1.16777216"])
def test_numeric_hosts_no_resolver_accepts_are_refused(host: str) -> None:
    assert parse_host_address(host) == "malformed numeric host"
    assert check_url(f"http://{host}/") == "malformed numeric host"


@pytest.mark.parametrize("host", ["example.com", "1.example", "a1.b2", "0x.example"])
def test_names_are_not_addresses(host: str) -> None:
    assert parse_host_address(host) is None


@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_every_spelling_of_an_ipv4_address_agrees(number: int) -> None:
    addr = ipaddress.IPv4Address(number)
    octets = str(addr).split(".")
    spellings = [
        str(number),
        hex(number),
        ".".join("0" + oct(int(o))[2:] for o in octets),
        ".".join(hex(int(o)) for o in octets),
        f"{octets[0]}.{octets[1]}.{(number & 0xFFFF)}",
        f"{octets[0]}.{number & 0xFFFFFF}",
    ]
    for spelling in spellings:
        assert parse_host_address(spelling) == addr


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("javascript:alert(1)", "scheme javascript:"),
        ("data:text/html,<script>1</script>", "scheme data:"),
        ("file:///etc/passwd", "scheme file:"),
        ("ftp://ftp.example.org/x", "scheme ftp:"),
        ("gopher://example.org/", "scheme gopher:"),
        ("example.org/page", "not an absolute URL"),
        ("https://user:pass@example.org/", "credentials"),
        ("https://user@example.org/", "credentials"),
        ("https://example.org@127.0.0.1/", "credentials"),
        ("http://example.org\\@127.0.0.1/", "credentials"),
        ("http:///nohost", "no valid host"),
        ("http://example.org:99999/", "invalid port"),
        ("http://[fe80::1/", "malformed URL"),
        ("http://metadata.google.internal/computeMetadata/v1/", "metadata host name"),
        ("http://169.254.169.254/latest/meta-data/", "cloud metadata address"),
        ("http://[fd00:ec2::254]/", "cloud metadata address"),
        ("http://10.0.0.1/", "private address"),
        ("http://100.64.1.1/", "carrier-grade NAT"),
    ],
)
def test_refused_urls(url: str, expected: str) -> None:
    reason = check_url(url)
    assert reason is not None
    assert expected in reason


@pytest.mark.parametrize(
    "url",
    [
        "https://example.org/",
        "http://example.org:8080/a?b=c",
        "https://github.com/openai/gpt-2",
        "https://arxiv.org/abs/2305.10250",
        "https://bücher.example/",
        "http://8.8.8.8/",
        "http://[2606:4700:4700::1111]/",
    ],
)
def test_ordinary_urls_pass(url: str) -> None:
    assert check_url(url) is None


@pytest.mark.parametrize(
    ("host", "target"),
    [
        ("gіthub.com", "github.com"),  # Cyrillic і
        ("xn--gthub-n2e.com", "github.com"),  # the same, in punycode
        ("www.xn--gthub-n2e.com", "github.com"),
        ("аrxiv.org", "arxiv.org"),  # Cyrillic а
        ("xn--rxiv-43d.org", "arxiv.org"),
        ("github.xn--cm-fmc", "github.com"),  # Cyrillic о in the TLD
        ("xn--githu-w90b.com", "github.com"),  # b with a dot below
        ("ｇｉｔｈｕｂ.com", "github.com"),  # fullwidth letters
    ],
)
def test_homographs_of_protected_domains(host: str, target: str) -> None:
    assert homograph_target(host, ("github.com", "arxiv.org")) == target
    reason = check_url(f"https://{host}/owner/repo", allow_private=True)
    assert reason is not None
    assert f"imitates {target}" in reason


@pytest.mark.parametrize("host", ["github.com", "bücher.example", "xn--bcher-kva.example"])
def test_other_hosts_are_not_homographs(host: str) -> None:
    assert homograph_target(host, ("github.com", "arxiv.org")) is None


def test_allow_private_lifts_address_rules_only() -> None:
    assert check_url("http://127.0.0.1:8000/", allow_private=True) is None
    assert check_url("http://localhost/", allow_private=True) is None
    assert check_url("http://[::1]/", allow_private=True) is None
    assert check_url("http://192.168.0.10/", allow_private=True) is None
    # Still refused: schemes, credentials, odd spellings, metadata.
    assert check_url("file:///etc/passwd", allow_private=True) is not None
    assert check_url("http://u:p@127.0.0.1/", allow_private=True) is not None
    assert check_url("http://0x7f000001/", allow_private=True) is not None
    assert check_url("http://169.254.169.254/", allow_private=True) is not None
    assert check_url("http://metadata.google.internal/", allow_private=True) is not None


def test_allowed_addresses_pass_only_themselves() -> None:
    allowed = ("127.0.0.1",)
    assert check_url("http://127.0.0.1:8000/", allowed_addresses=allowed) is None
    assert check_url("http://127.0.0.2:8000/", allowed_addresses=allowed) is not None
    assert check_url("http://localhost:8000/", allowed_addresses=allowed) is not None
    assert check_url("http://127.1:8000/", allowed_addresses=allowed) is not None
    assert check_url("http://10.0.0.7/", allowed_addresses=("10.0.0.0/24",)) is None


def test_allowed_hosts_skip_address_rules_but_not_scheme_rules() -> None:
    assert check_url("http://localhost:8000/", allowed_hosts=("localhost",)) is None
    assert check_url("ftp://localhost/", allowed_hosts=("localhost",)) is not None


@pytest.mark.parametrize(
    ("ip", "allow_private", "allowed", "refused"),
    [
        ("127.0.0.1", False, (), True),
        ("127.0.0.1", True, (), False),
        ("127.0.0.1", False, ("127.0.0.1",), False),
        ("127.0.0.2", False, ("127.0.0.1",), True),
        ("127.0.0.2", False, ("127.0.0.0/8",), False),
        ("::ffff:127.0.0.1", True, (), False),
        ("169.254.169.254", True, (), True),
        ("fd00:ec2::254", True, (), True),
        ("::ffff:169.254.169.254", True, (), True),
        ("8.8.8.8", False, (), False),
        ("not-an-ip", False, (), True),
    ],
)
def test_address_reason_under_settings(
    ip: str, allow_private: bool, allowed: tuple[str, ...], refused: bool
) -> None:
    assert (address_reason(ip, allow_private, allowed) is not None) is refused
