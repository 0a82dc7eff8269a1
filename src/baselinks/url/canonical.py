"""canonical: the forms of a URL that crawls group and deduplicate on, strings in, strings out.

    host(url)        com.example's host as a browser contacts it: lower case, IDNA A-labels,
                     IPv4 in dotted decimal, no trailing dot; None without one
    domain(url)      the registered domain by the Public Suffix List (publicsuffixlist: it
                     ships the list, never fetches); None for an IP address or a suffix itself
    canonical(url)   the URL for deduplication: w3lib's canonicalize_url with our host and
                     without the scheme's default port; None without an authority
    surt(url)        the SURT key of CDX indexes (url/surt.py)

Each is computed only when asked for (a field of ``--fields``, ``--unique-by``, a graph): the
extraction itself never calls them. ``host_reason`` and ``domain_reason`` say why there is
none, in the words a graph counts its drops with (:data:`REASONS`).

The host comes from the RFC 3986 §3.2 authority, which "is terminated by the next slash ("/"),
question mark ("?"), or number sign ("#")": RFC 1808 §2.4.3 ends net_loc at the slash only, so
``parse("http://h.com?q").hostname`` is ``h.com?q`` (url/parts.py follows RFC 1808's letter);
here it is ``h.com``. Then the URL Standard's host parser (ada-url: %-decoding, UTS #46
non-transitional ToASCII, IPv4 in any of its forms, IPv6 compressed), and the checks it leaves
out (``beStrict`` is false in browsers): RFC 1034 §3.1's lengths (a label of 63 octets at most,
a name of 253 characters), no empty label, and an ``xn--`` label that decodes (UTS #46 §4.1
step 4; ada 4.0 lets ``xn--a`` through).
"""

from __future__ import annotations

import functools
import re
from typing import Any

__all__ = [
    "REASONS",
    "canonical",
    "domain",
    "domain_reason",
    "host",
    "host_reason",
    "public_suffix_list",
]

# Why a URL has no host (host_reason) or no domain (domain_reason), each a stable code.
REASONS = {
    "relative": "no scheme: a reference left relative (no base)",
    "no-host": "no authority, or an empty host (mailto:, data:, file:///)",
    "invalid-host": "a host the URL Standard refuses (a space, <, a bad IPv4 or IPv6)",
    "invalid-port": "a port that is no number up to 65535",
    "host-too-long": "a name over 253 characters (RFC 1034 §3.1)",
    "label-too-long": "a label over 63 characters (RFC 1034 §3.1)",
    "empty-label": "an empty label (a..b, .a)",
    "invalid-idna": "an xn-- label that does not decode to a valid U-label (UTS #46 §4.1)",
    "ip-address": "an IP address, which has no registered domain",
    "public-suffix": "the host is a public suffix itself, or under no known suffix",
}

# RFC 3986 §3: scheme ":" "//" authority, the authority up to "/", "?" or "#".
_AUTHORITY = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://([^/?#]*)")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
# The URL Standard's forbidden host code points (§3.2), but "%" (ada decodes it first) and
# "[" "]" (an IPv6 literal, taken apart). Refused before ada sees the host: ada reads "\" as
# "/" in a special URL, so "http://a\b.com/" would come back as the host "a".
_FORBIDDEN = re.compile(r"[\x00-\x20#/<>?@\\^|\x7f\[\]]")
# A host that is already what ada gives: LDH and "_" labels after lower-casing, the last one not
# a number (the URL Standard's "ends in a number": decimal, or 0x hex; that host is an IPv4).
# On the 4,454 distinct plain hosts of the corpus ada gives the same; it is 15 times as fast.
_PLAIN = re.compile(r"[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?\Z")
_ENDS_IN_NUMBER = re.compile(r"(?:^|\.)(?:[0-9]+|0x[0-9a-f]*)\.?\Z")
# The URL Standard's special schemes, whose hosts are domains or IP addresses (file aside: a
# file URL's host is no address to contact).
_SPECIAL = frozenset({"http", "https", "ftp", "ws", "wss", "file"})
# ada_url.URL.host_type: the URL Standard's host kinds
_IPV4, _IPV6 = 1, 2


@functools.lru_cache(maxsize=65_536)  # a crawl has far fewer hosts than URLs
def normal_host(raw: str, special: bool = True) -> tuple[str | None, str]:
    """The host ``raw`` (as :func:`host_port` gives it) normalised, and its kind (``domain``,
    ``ipv4``, ``ipv6``); or None and the reason there is none. ``special``: read a host that
    ends in a number as an IPv4 address, as the URL Standard does for http(s), ftp, ws(s);
    not for another scheme's (``ios-app://305343404/`` names an app, not 18.51.43.172)."""
    if not raw:
        return None, "no-host"
    lowered = raw.lower()
    if _PLAIN.match(lowered) and (not special or not _ENDS_IN_NUMBER.search(lowered)):
        name = lowered
    else:
        parsed = _parsed_host(raw)
        if parsed[1] != "domain":
            return parsed
        name = parsed[0] or ""
    if name.endswith("."):
        name = name[:-1]  # RFC 1034 §3.1: the absolute form of the same name
    return _checked(name)


def _parsed_host(raw: str) -> tuple[str | None, str]:
    """The URL Standard's host parser (ada-url) over ``raw``: its host and kind."""
    import ada_url  # a dependency, loaded by the first host that is not plain

    if raw.startswith("["):
        if not raw.endswith("]") or _FORBIDDEN.search(raw[1:-1].replace(":", "")):
            return None, "invalid-host"
    elif _FORBIDDEN.search(raw):
        return None, "invalid-host"
    try:
        parsed = ada_url.URL(f"http://{raw}/")
    except ValueError:
        return None, "invalid-host"
    kind = parsed.host_type
    if kind == _IPV4:
        return parsed.hostname, "ipv4"
    if kind == _IPV6:
        return parsed.hostname, "ipv6"
    return parsed.hostname, "domain"


def _checked(name: str) -> tuple[str | None, str]:
    """RFC 1034 §3.1's lengths, no empty label, A-labels that decode (what WHATWG leaves out)."""
    if not name:
        return None, "empty-label"
    if len(name) > 253:
        return None, "host-too-long"
    for label in name.split("."):
        if not label:
            return None, "empty-label"
        if len(label) > 63:
            return None, "label-too-long"
        if label.startswith("xn--") and not _valid_a_label(label):
            return None, "invalid-idna"
    return name, "domain"


@functools.lru_cache(maxsize=4096)
def _valid_a_label(label: str) -> bool:
    # UTS #46 §4.1 step 4: decode, encode again, compare (ada 4.0 accepts xn--a: U+0080)
    import ada_url

    try:
        decoded = label[4:].encode("ascii").decode("punycode")
    except (UnicodeError, ValueError):
        return False
    return not decoded.isascii() and ada_url.idna_to_ascii(decoded) == label.encode("ascii")


def host_reason(url: str) -> tuple[str | None, str]:
    """``url``'s host and its kind (``domain``, ``ipv4``, ``ipv6``), or None and the reason
    (:data:`REASONS`)."""
    found = host_port(url)
    if found is None:
        return None, "no-host" if _SCHEME.match(url) else "relative"
    raw, port = found
    if port and not (port.isdigit() and int(port) <= 65535):  # the URL Standard's port
        return None, "invalid-port"
    return normal_host(raw, url[: url.index(":")].lower() in _SPECIAL)


def host_port(url: str) -> tuple[str, str] | None:
    """The host as written in ``url``'s authority (no userinfo; an IPv6 literal in its
    brackets) and its port as written ("" for none), or None when ``url`` has no
    ``scheme://``. In a special scheme's URL a backslash ends the authority too, as browsers
    read it: ``http://evil.com\\@good.com/`` goes to evil.com (w3lib's example), where RFC
    3986 would read ``evil.com\\`` as userinfo."""
    match = _AUTHORITY.match(url)
    if match is None:
        return None
    authority = match.group(1)
    if "\\" in authority and url[: url.index(":")].lower() in _SPECIAL:
        authority = authority.partition("\\")[0]
    authority = authority[authority.rfind("@") + 1 :]  # userinfo ends at the last "@"
    if authority.startswith("["):
        end = authority.find("]")
        if end == -1:
            return authority, ""
        return authority[: end + 1], authority[end + 1 :].removeprefix(":")
    name, _, port = authority.partition(":")
    return name, port


def host(url: str) -> str | None:
    """The host a browser would contact for ``url``, normalised: lower case, IDNA A-labels,
    an IPv4 address in dotted decimal, an IPv6 one compressed in brackets, no trailing dot.
    None for a URL without one (``mailto:``, a relative reference) or with an invalid one.

    >>> host("http://WWW.Bücher.example.:8080/a?q")
    'www.xn--bcher-kva.example'
    >>> host("http://h.com?q"), host("http://0x7f.1/"), host("mailto:a@b.c")
    ('h.com', '127.0.0.1', None)
    """
    return host_reason(url)[0]


@functools.lru_cache(maxsize=1)
def public_suffix_list(private: bool = False) -> Any:
    """The Public Suffix List that publicsuffixlist ships (the package's version carries its
    date), loaded once (0.1 s): its ICANN section, with the private section too on request.
    ``accept_unknown=False``: a host under no listed suffix has no domain."""
    import publicsuffixlist

    return publicsuffixlist.PublicSuffixList(accept_unknown=False, only_icann=not private)


@functools.lru_cache(maxsize=65_536)
def _registered(name: str, private: bool) -> str | None:
    found: str | None = public_suffix_list(private).privatesuffix(name)
    return found


def domain_reason(url: str, private: bool = False) -> tuple[str | None, str]:
    """``url``'s registered domain, or None and the reason (:data:`REASONS`)."""
    name, kind = host_reason(url)
    if name is None:
        return None, kind
    if kind != "domain":
        return None, "ip-address"  # the list's "*" rule would make 0.1 of 127.0.0.1
    found = _registered(name, private)
    return (found, "domain") if found is not None else (None, "public-suffix")


def domain(url: str, private: bool = False) -> str | None:
    """The registered domain of ``url``'s host by the Public Suffix List: its ICANN section,
    as Common Crawl's host-to-domain graph does (``private``: the private section too, so that
    ``a.blogspot.com`` is a domain of its own). None for an IP address, a host that is a public
    suffix itself (``co.uk``) or under none, and a URL without a host.

    >>> domain("https://www.bbc.co.uk/news"), domain("http://a.blogspot.com/")
    ('bbc.co.uk', 'blogspot.com')
    >>> domain("http://a.blogspot.com/", private=True), domain("http://127.0.0.1/")
    ('a.blogspot.com', None)
    """
    return domain_reason(url, private)[0]


# The default port of each scheme the URL Standard calls special (RFC 3986 §6.2.3: "the port
# component should be omitted when it is the same as the default port"). w3lib keeps it.
_DEFAULT_PORTS = {"http": "80", "https": "443", "ftp": "21", "ws": "80", "wss": "443"}
_SPLIT_AUTHORITY = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)(.*)\Z", re.DOTALL)


def canonical(url: str) -> str | None:
    """``url`` normalised for deduplication, still a URL to fetch: w3lib's
    ``canonicalize_url`` (scheme and host lower case, the query's arguments sorted, escapes
    normalised, dot segments resolved, the fragment dropped; Scrapy's request fingerprint), with
    the host as :func:`host` gives it and without the scheme's default port. A URL without an
    authority (``mailto:``, ``data:``) is w3lib's alone; None for a relative reference and for
    an invalid host. Path case, ``www.`` and session IDs are kept:
    :func:`~baselinks.url.surt.surt` is the aggressive form (an archive's lookup key).

    >>> canonical("HTTP://Example.COM:80/a/./b/../c?b=2&a=1#top")
    'http://example.com/a/c?a=1&b=2'
    """
    name, kind = host_reason(url)
    if name is None and kind != "no-host":
        return None
    from w3lib.url import canonicalize_url  # a dependency, loaded when this field is asked for

    try:
        made: str = canonicalize_url(url)
    except (ValueError, UnicodeError):  # a port w3lib cannot read
        return None
    parts = _SPLIT_AUTHORITY.match(made)
    if name is None or parts is None:
        return made  # no authority: w3lib's form
    scheme, authority, rest = parts.groups()
    userinfo, at, hostport = authority.rpartition("@")
    port = "" if hostport.endswith("]") else hostport.rpartition(":")[2] if ":" in hostport else ""
    if not port.isdigit() or port == _DEFAULT_PORTS.get(scheme.lower()):
        port = ""
    return f"{scheme}://{userinfo}{at}{name}{':' + port if port else ''}{rest}"
