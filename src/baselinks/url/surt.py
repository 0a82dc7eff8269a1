"""surt: the Sort-friendly URI Reordering Transform, as the keys of CDX indexes write it.

    surt("http://www.Example.com:80/A/b.html?b=2&a=1#top")  ->  "com,example)/a/b.html?a=1&b=2"

The key of the Internet Archive's and Common Crawl's URL indexes, pywb's, and the CDXJ inside a
WACZ: webarchive-commons' ``WaybackURLKeyMaker`` over its ``DefaultIAURLCanonicalizer``, which
is Google's canonicalisation rules, then the Internet Archive's:

1. Google's: the fragment dropped; userinfo and query unescaped repeatedly, then escaped once;
   the host unescaped, ``..`` collapsed, no dot at either end; an all-digit, octal or hex
   host made a dotted IPv4; the path's dot segments and empty segments removed, escaped once.
2. The Internet Archive's: the host lower case, a leading ``www``/``wwwN.`` and the userinfo
   stripped, the scheme's default port stripped; the path lower case, ASP.NET session
   segments stripped, no trailing ``/`` but for the root; the query's session IDs
   (jsessionid, phpsessid, sid, ASPSESSIONID, cfid/cftoken) stripped, lower case, its
   arguments sorted as byte strings, an empty query dropped.
3. The key: the host's labels reversed and joined with ``,`` (an IP address's too, as Java
   does), ``:port``, ``)``, the path, ``?`` and the query. No scheme: http and https share it.
   A URL without a host is its scheme as written, ``:``, its path and query lower case
   (``mailto:someone@example.com``).

Written from those rules and the published test cases of the ``surt`` package
(tests/test_surt.py), not from its code. The package itself is not used: it is AGPL-3.0 (this
project is MIT), unreleased since 2019, depends on tldextract, calls
``socket.gethostbyname_ex`` for any dotted-number host (a DNS query for ``999.1.1.1``: nothing
may be fetched here), raises ValueError on 85 URLs of our corpus (ports such as ``{"load":``),
and makes keys of relative references (``/a/b.html`` gives ``a)/b.html``). Deliberate
differences, each a row of tests/test_canonical.py: the host is :func:`~.canonical.host`'s
(UTS #46, so ``faß.de`` is ``xn--fa-hia.de``, not ``fass.de``; ``0x7f.1`` is 127.0.0.1); an
IPv6 literal keeps its brackets; a relative reference, an invalid host or port has no key.
"""

from __future__ import annotations

import re
from urllib.parse import quote_from_bytes, unquote_to_bytes

from .canonical import normal_host

__all__ = ["surt", "surt_reason"]

# What the key maker strips from the ends (C0 controls and space) and from inside (tab, CR, LF).
_ENDS = bytes(range(0x21))
_INSIDE = re.compile(rb"[\t\n\r]")
_REPEATED_HTTP = re.compile(rb"\A(https?://)+")
_SCHEME = re.compile(rb"[a-zA-Z][a-zA-Z0-9+.-]*:")
# RFC 3986 Appendix B: scheme, authority, path, query, fragment
_SPLIT = re.compile(
    rb"\A(?:([a-zA-Z][a-zA-Z0-9+.-]*):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?\Z",
    re.DOTALL,
)
_DEFAULT_PORT = {b"http": 80, b"https": 443}
_WWW = re.compile(rb"www\d*\.")
# Escaping once keeps printable ASCII as it is but "%" and "#" (Google's canonicaliser).
_SAFE = b"!\"$&'()*+,-./:;<=>?@[\\]^_`{|}~"
# The Internet Archive's session-ID rules (IAURLCanonicalizer), case-insensitive.
_PATH_SESSIONS = (
    re.compile(rb"\A(.*/)(\((?:[a-z]\([0-9a-z]{24}\))+\)/)([^?]+\.aspx.*)\Z", re.I | re.S),
    re.compile(rb"\A(.*/)(\([0-9a-z]{24}\)/)([^?]+\.aspx.*)\Z", re.I | re.S),
)
_QUERY_SESSIONS = (
    re.compile(rb"\A(.*)(?:jsessionid=[0-9a-zA-Z]{32})(?:&(.*))?\Z", re.I | re.S),
    re.compile(rb"\A(.*)(?:phpsessid=[0-9a-zA-Z]{32})(?:&(.*))?\Z", re.I | re.S),
    re.compile(rb"\A(.*)(?:sid=[0-9a-zA-Z]{32})(?:&(.*))?\Z", re.I | re.S),
    re.compile(rb"\A(.*)(?:ASPSESSIONID[a-zA-Z]{8}=[a-zA-Z]{24})(?:&(.*))?\Z", re.I | re.S),
    re.compile(rb"\A(.*)(?:cfid=[^&]+&cftoken=[^&]+)(?:&(.*))?\Z", re.I | re.S),
)
# A percent-escape can unescape to another one ("%2525"): each pass removes one layer, and a
# pass that changes nothing ends it. Capped, so that no input makes it loop long.
_MAX_UNESCAPES = 16


def _unescaped(data: bytes) -> bytes:
    for _ in range(_MAX_UNESCAPES):
        once = unquote_to_bytes(data)
        if once == data:
            break
        data = once
    return data


def _escaped(data: bytes) -> bytes:
    return quote_from_bytes(data, safe=_SAFE).encode("ascii")


def _path(path: bytes) -> bytes:
    """Dot segments resolved, empty segments dropped, a trailing "/" kept; ".." above the
    root stays (Google's canonicaliser)."""
    kept: list[bytes] = []
    for segment in path.split(b"/")[1:]:
        if segment == b".":
            continue
        if segment == b".." and kept:
            kept.pop()
        else:
            kept.append(segment)
    if not kept:
        return b"/"
    return b"/" + b"".join(segment + b"/" for segment in kept[:-1] if segment) + kept[-1]


def _without_sessions(text: bytes, patterns: tuple[re.Pattern[bytes], ...], path: bool) -> bytes:
    for pattern in patterns:
        match = pattern.match(text)
        if match:
            text = match.group(1) + (match.group(3) if path else match.group(2) or b"")
    return text


def _query(query: bytes) -> bytes:
    """The query as the key has it: escaped once, session IDs out, lower case, sorted."""
    query = _without_sessions(_escaped(_unescaped(query)), _QUERY_SESSIONS, False).lower()
    if len(query) <= 1:
        return query
    pairs = sorted(tuple(argument.split(b"=", 1)) for argument in query.split(b"&"))
    return b"&".join(b"=".join(pair) for pair in pairs)


def _hostless(scheme: bytes, path: bytes, query: bytes | None) -> str:
    """The key of a URL without a host: the scheme as written, ``:``, then the path and
    query canonicalised as a path and a query are."""
    key = (
        scheme + b":" + (_escaped(_unescaped(path)).lower() or (b"/" if query is not None else b""))
    )
    if query:
        reordered = _query(query)
        if reordered:
            key += b"?" + reordered
    return key.decode("utf-8", "surrogateescape")


def surt_reason(url: str) -> tuple[str | None, str]:
    """``url``'s SURT key and the kind of its host (``domain``, ``ipv4``, ``ipv6``; ``no-host``
    for a key without one), or None and the reason (:data:`~.canonical.REASONS`)."""
    data = _INSIDE.sub(b"", url.encode("utf-8", "surrogatepass").strip(_ENDS))
    if not _SCHEME.match(data):
        return None, "relative"
    data = _REPEATED_HTTP.sub(lambda match: match.group(1), data)
    parts = _SPLIT.match(data)
    if parts is None:  # a fragment holds anything: only a lone surrogate's bytes fail
        return None, "relative"
    scheme, authority, path, query, _ = parts.groups()
    lowered = scheme.lower()
    if authority is None and lowered in _DEFAULT_PORT and path:
        # http:/host/path and http:host/path: the key maker takes the first segment as the host
        authority, _, rest = path.lstrip(b"/").partition(b"/")
        path = b"/" + rest
    if not authority:
        if authority is not None and lowered in _DEFAULT_PORT:
            return None, "no-host"  # http:///path
        return _hostless(scheme, path, query), "no-host"
    return _keyed(lowered, authority, path, query)


def _keyed(
    scheme: bytes, authority: bytes, path: bytes, query: bytes | None
) -> tuple[str | None, str]:
    hostport = authority[authority.rfind(b"@") + 1 :].rstrip(b":")
    if hostport.startswith(b"["):
        end = hostport.find(b"]")
        raw, port_text = (
            (hostport, b"") if end == -1 else (hostport[: end + 1], hostport[end + 2 :])
        )
    else:
        raw, _, port_text = hostport.partition(b":")
    port = None
    if port_text:
        if not port_text.isdigit() or int(port_text) > 65535:
            return None, "invalid-port"
        port = int(port_text)
    name = _unescaped(raw).decode("utf-8", "replace")
    if not name.startswith("["):
        name = name.replace("..", ".").strip(".")  # Google's: ".." once, no dot at the ends
    host, kind = normal_host(name)
    if host is None:
        return None, kind
    labels = host.encode("ascii")
    if kind == "domain":
        www = _WWW.match(labels)
        if www and www.end() < len(labels):
            labels = labels[www.end() :]
    key = labels if kind == "ipv6" else b",".join(reversed(labels.split(b".")))
    if port is not None and port != _DEFAULT_PORT.get(scheme):
        key += b":" + str(port).encode()
    canonical_path = _escaped(_path(_unescaped(path))).lower() if path else b"/"
    canonical_path = _without_sessions(canonical_path, _PATH_SESSIONS, True)
    if len(canonical_path) > 1 and canonical_path.endswith(b"/"):
        canonical_path = canonical_path[:-1]
    key += b")" + canonical_path
    if query:
        reordered = _query(query)
        if reordered:
            key += b"?" + reordered
    return key.decode("utf-8", "surrogateescape"), kind


def surt(url: str) -> str | None:
    """The SURT key of ``url``, as CDX and CDXJ indexes write it; None for a relative
    reference, an invalid host or port.

    >>> surt("http://www.Example.com:80/A/b.html?b=2&a=1#top")
    'com,example)/a/b.html?a=1&b=2'
    >>> surt("mailto:Someone@Example.com"), surt("/relative.html")
    ('mailto:someone@example.com', None)
    """
    return surt_reason(url)[0]
