"""hosts: a URL → its host vertex as Common Crawl names it, and a host → its domain vertex as
cc-webgraph folds hosts into domains.

    host     cc-pyspark's ExtractHostLinksJob (wat_extract_links.py, get_surt_host): the host
             of ``http(s)://`` URLs by a simple pattern, of others by urllib's urlparse;
             lower case; no IPv4 address; at least two labels (a trailing dot dropped);
             each label [a-z0-9], '-' and '_' inside, at most 63 characters, or an IDN
             label made punycode by the idna package (IDNA 2008); reversed:
             ``www.example.com`` is ``com.example.www`` (``www.`` stripped on request, as
             the host graphs until 2025 did: cc-pyspark#56, leaving two labels at least)
    domain   cc-webgraph's HostToDomainGraph: the registered domain of the host by the
             Public Suffix List's ICANN section (the private section on request), none for
             a host that is a public suffix itself or under none (a multi-part suffix such
             as ``gov.uk`` its own domain on request, as ``--multipart-suffixes-as-domains``)

Which URLs name a host at all is the graph's choice (names.py): by default those cc-pyspark
takes as links to another host, a scheme of two to six letters or digits and ``//``
(``http``, ``https``, ``ftp``...; never ``android-app:``, ``mailto:``, ``javascript:``).

Written from cc-pyspark's and cc-webgraph's code and tests as a specification (the cases are
in tests/test_graph_hosts.py, each with its source); none of their code is copied. The
standard library's urlparse and the idna package are theirs too, so that a URL that one of
those reads oddly is read the same odd way here: a host vertex equals Common Crawl's.
"""

from __future__ import annotations

import functools
import re
from urllib.parse import urlsplit

__all__ = ["HOST_REASONS", "WEB_LINK", "domain_of", "host_vertex", "reverse", "web_host_vertex"]

# Why a URL has no host vertex (each a stable code, counted on the summary line).
HOST_REASONS = {
    "no-host": "no host in the URL (mailto:, data:, file:///, a relative reference)",
    "invalid-host": "a host urllib cannot read (a bracket left open, a bad port)",
    "host-too-long": "an empty host or one over 253 characters",
    "ip-address": "an IPv4 address (www. before it too), as Common Crawl drops them",
    "single-label": "a host of one label (localhost, an intranet name)",
    "label-too-long": "a label over 63 characters",
    "invalid-label": "a label neither [a-z0-9] with '-' or '_' inside nor a valid IDN label",
}

# cc-pyspark's url_parse_host_pattern: the host of most http(s) URLs without parsing them.
_SIMPLE = re.compile(r"https?://([a-z0-9_.-]{2,253})(?:[/?#]|\Z)", re.IGNORECASE | re.ASCII)
# cc-pyspark's ip_pattern, as it is: \d is any Unicode digit there too (no re.ASCII).
_IPV4 = re.compile(r"(?:www\.)?\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\Z")
# cc-pyspark's host_part_pattern: the labels a host vertex may have as they are.
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9])?\Z", re.IGNORECASE | re.ASCII)
# cc-pyspark's global_link_pattern: a link to a host at all, as ExtractHostLinksJob decides
# before naming one (a scheme of 2 to 6 letters or digits, or none, then "//").
WEB_LINK = re.compile(r"(?:[a-z][a-z0-9]{1,5}:)?//", re.IGNORECASE | re.ASCII)
_CACHE = 1 << 18  # entries per cache: bounded, whatever the crawl (some 100 bytes each)


def _hostname(url: str) -> tuple[str | None, str]:
    simple = _SIMPLE.match(url)
    if simple is not None:
        return simple.group(1), "ok"
    try:
        found = urlsplit(url).hostname
    except ValueError:  # "Invalid IPv6 URL", a port that is no number...
        return None, "invalid-host"
    return (found, "ok") if found else (None, "no-host")


def web_host_vertex(url: str, keep_www: bool = True) -> tuple[str | None, str]:
    """:func:`host_vertex` of a link Common Crawl's graph takes as one to a host (:data:`WEB_LINK`),
    else None and ``"not-web"``: one pattern for most links (``http(s)://`` and a plain host)."""
    simple = _SIMPLE.match(url)
    if simple is not None:
        return _named(simple.group(1), keep_www)
    if WEB_LINK.match(url) is None:
        return None, "not-web"
    return host_vertex(url, keep_www)


def host_vertex(url: str, keep_www: bool = True) -> tuple[str | None, str]:
    """``url``'s host vertex, reversed (``com.example.www``), or None and the reason
    (:data:`HOST_REASONS`). ``keep_www=False`` strips a leading ``www.`` where two labels
    stay (``www.com`` is kept)."""
    found, reason = _hostname(url)
    if found is None:
        return None, reason
    return _named(found, keep_www)


@functools.lru_cache(maxsize=_CACHE)  # by host: a crawl has far fewer hosts than URLs
def _named(found: str, keep_www: bool) -> tuple[str | None, str]:
    name = found.strip().lower()
    if not 1 <= len(name) <= 253:
        return None, "host-too-long"
    if _IPV4.match(name):
        return None, "ip-address"
    labels = name.split(".")
    if labels[-1] == "":  # a trailing dot: the same host
        labels.pop()
    if len(labels) < 2:
        return None, "single-label"
    if not keep_www and len(labels) > 2 and labels[0] == "www":
        labels = labels[1:]
    for index, label in enumerate(labels):
        if len(label) > 63:
            return None, "label-too-long"
        if _LABEL.match(label) is None:
            encoded = _idna(label)
            if encoded is None or _LABEL.match(encoded) is None:
                return None, "invalid-label"
            labels[index] = encoded
    return ".".join(reversed(labels)), "ok"


def _idna(label: str) -> str | None:
    import idna  # IDNA 2008, as cc-pyspark encodes a label; loaded by the first IDN

    try:
        encoded: bytes = idna.encode(label)
    except (idna.IDNAError, UnicodeError, ValueError, IndexError):
        return None
    return encoded.decode("ascii")


def reverse(name: str) -> str:
    """A host or domain name reversed (``com.example.www`` ↔ ``www.example.com``)."""
    return ".".join(reversed(name.split(".")))


@functools.lru_cache(maxsize=_CACHE)
def domain_of(vertex: str, private: bool = False, multipart: bool = False) -> str | None:
    """The domain vertex of host vertex ``vertex`` (both reversed), or None: HostToDomainGraph's
    ``EffectiveTldFinder.getAssignedDomain(host, strict, excludePrivate)``. ``private``: the
    list's private section too (``forgot.his.name`` is a suffix there); ``multipart``: a host
    with no domain (a multi-part public suffix such as ``gov.ac``) is its own domain."""
    from ..url.canonical import public_suffix_list

    found: str | None = public_suffix_list(private).privatesuffix(reverse(vertex))
    if found is None:
        return vertex if multipart else None
    return reverse(found)
