"""base: establish a document's base URL by RFC 1808 §3, innermost layer first.

    §3.1  embedded in the content      the first HTML <base href> in tree order     CONTENT
    §3.2  the encapsulating entity     a MIME part's Content-Location, an iframe     ENCAPSULATING
                                       srcdoc's container
    §3.3  the URL used to retrieve it  --url / url=, else a "saved from url" comment, RETRIEVAL
                                       else the file's URL in a mirror (--root-url)
    §3.4  the default                  the empty string                              DEFAULT

Each outer layer is the *fallback* of the one inside it: :func:`retrieval_base` gives §3.3 or
§3.4; a container gives §3.2 on top of that; :func:`establish_base` applies §3.1 on top of
whatever fallback it is handed, resolving a relative ``<base href>`` against it.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..errors import URLError, scalar
from ..load.tokens import ASCII_WHITESPACE
from ..url.parts import SCHEME_RE
from ..url.resolve import Resolver, check_mode, encoding_parse, resolve, resolver_class
from .mirror import MirroredURL

__all__ = [
    "BASE_ELEMENT",
    "CODEBASE",
    "CODEBASE_ELEMENTS",
    "Base",
    "BaseSource",
    "base_from_href",
    "codebase_applies",
    "encapsulating_base",
    "establish_base",
    "retrieval_base",
    "retrieval_url",
    "saved_from_url",
    "srcdoc_fallback",
    "written_base",
]


class BaseSource(StrEnum):
    """Which RFC 1808 §3 rule set the base."""

    CONTENT = "content"  # §3.1
    ENCAPSULATING = "encapsulating"  # §3.2
    RETRIEVAL = "retrieval"  # §3.3
    DEFAULT = "default"  # §3.4

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Base:
    """A base URL and the §3 rule that set it."""

    url: str
    source: BaseSource


DEFAULT = Base("", BaseSource.DEFAULT)

# Internet Explorer, and browsers since, write this "mark of the web" into saved pages:
# <!-- saved from url=(0042)https://example.com/some/page.html -->
# The four digits are the URL's length. Searched for in the first 4 KB only; a literal, one
# class, then fixed-width parts: each try is bounded, so the search is linear.
_SAVED_FROM = re.compile(r"<!--\s*saved from url=\((\d{4})\)")
# "about:internet" and friends mark the zone without recording a URL.
_NOT_A_RETRIEVAL_URL = ("about:",)


# What of a document the search reads: the comment within the first 4096 characters, the URL
# after it at most 9999.
_READ = 4096 + 9999


def saved_from_url(text: str | bytes) -> str | None:
    """The URL of a ``<!-- saved from url=(NNNN)URL -->`` comment near the top, if any.
    ``text`` may be the valid UTF-8 bytes the text decodes from: their start is decoded."""
    if isinstance(text, bytes):  # a character is at most 4 bytes; a cut one is left out
        text = text[: 4 * _READ].decode("utf-8", "ignore")
    match = _SAVED_FROM.search(text, 0, 4096)
    if match is None:
        return None
    start = match.end()
    url = text[start : start + int(match.group(1))].strip()
    if not url or url.lower().startswith(_NOT_A_RETRIEVAL_URL) or SCHEME_RE.match(url) is None:
        return None
    return url


# The schemes whose URLs name a host (RFC 1738 §3.1's "common Internet scheme syntax"): a
# retrieval URL of one of these without "//host" ("http:/page", "https:page") is a typing slip.
_WITH_HOST = frozenset({"http", "https", "ftp", "ws", "wss"})
# RFC 3986 §3.1: 'Scheme names consist of a sequence of characters beginning with a letter'
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
# "example.com:8080/page", "localhost:8000": a host and port, read as a scheme by the grammar
_HOST_PORT = re.compile(r"(?:localhost|[^:/]*\.[^:/]*):\d")


def retrieval_url(url: str) -> str:
    """``--url`` and ``url=`` checked, as RFC 1808 §3.3 uses them: "the URL used to retrieve
    the document" is an absolute URL, with a scheme (and ``//host`` for http, https, ftp, ws,
    wss); else :class:`ValueError` saying why. ``example.com/page`` was taken as given, a base
    without a scheme: its links resolved to ``example.com/a``, silently."""
    scheme = _SCHEME.match(url)
    if scheme is None or _HOST_PORT.match(url) or url != url.strip():
        raise ValueError(
            f"a URL is absolute, with a scheme (https://example.com/page), not {url!r}"
        )
    name = scheme[0][:-1].lower()
    if name in _WITH_HOST and not url[scheme.end() :].startswith("//"):
        raise ValueError(f"a {name}: URL names a host ({name}://example.com/page): {url!r}")
    return url


def retrieval_base(url: str | None, text: str | bytes = "") -> Base:
    """RFC 1808 §3.3, else §3.4: the ``url`` given, else a saved-from comment, else empty.
    ``text``: the document's, or its valid UTF-8 bytes (load.Document.content).

    A URL inferred from a file's place in a mirrored site (a :class:`MirroredURL`,
    ``--root-url``) is no URL given: the page's own saved-from comment wins over it.
    """
    if url and not isinstance(url, MirroredURL):
        # where a retrieval URL enters the pipeline: a --url of bytes that are not UTF-8 (lone
        # surrogates to Python) is U+FFFD in them, as every text (errors.scalar)
        return Base(scalar(url), BaseSource.RETRIEVAL)
    saved = saved_from_url(text) if text else None
    if saved is not None:
        return Base(saved, BaseSource.RETRIEVAL)
    if url:
        return Base(scalar(str(url)), BaseSource.RETRIEVAL)  # a plain str from here on
    return DEFAULT


def written_base(base: Base, mode: str) -> Base:
    """``base`` as the mode's URL parser writes it: in whatwg mode serialised by the URL
    Standard (``https://sass-ag.de`` is ``https://sass-ag.de/``, an IDN host is Punycode), as
    a browser's ``document.baseURI`` shows it; a URL it cannot parse stays as passed.

    rfc1808 mode keeps it as passed: RFC 1808 resolves against the base's six components as
    written and has no normal form. rfc3986 mode too: "Normalization of the base URI, as
    described in Sections 6.2.2 and 6.2.3, is optional" (RFC 3986 §5.2.1), and its resolver
    normalises nothing else either.
    """
    if not resolver_class(mode).serialises or not base.url:
        return base
    try:
        url = resolve("", base.url, mode=check_mode(mode))
    except URLError:
        return base
    return base if url == base.url else Base(url, base.source)


def encapsulating_base(locations: Sequence[str], fallback: Base, mode: str) -> Base:
    """RFC 1808 §3.2, recursively: the base headers of the enclosing entities, outermost first.

    "If no base URL is embedded, the base URL of a document is defined by the document's
    retrieval context. For a document that is enclosed within another entity (such as a message
    or another document), the retrieval context is that entity; thus, the default base URL of
    the document is the base URL of the entity in which the document is encapsulated."
    (RFC 1808 §3.2; RFC 2557 §5 says the same of MHTML's Content-Location.)

    Each header is resolved against the base of the entity around it, starting at ``fallback``
    (§3.3 or §3.4). A header the mode cannot resolve, or that stays relative (nothing absolute
    around it: RFC 2557 would then invent ``thismessage:/``, RFC 1808 has no such rule), is
    passed over, and the base of the entity around it stands.
    """
    base = fallback
    for location in locations:
        try:
            url = resolve(base.url, location, mode=check_mode(mode))
        except URLError:
            continue
        if SCHEME_RE.match(url) is not None:
            base = Base(url, BaseSource.ENCAPSULATING)
    return base


def srcdoc_fallback(container: Base) -> Base:
    """The fallback base of an ``<iframe srcdoc>`` document: its container's base, as RFC 1808
    §3.2's encapsulating entity (the empty base stays the default). Its own ``<base>`` wins,
    as for any document (:func:`establish_base` over this fallback).

    https://html.spec.whatwg.org/#fallback-base-url: "If document is an iframe srcdoc
    document, then: [...] Return document's about base URL", which is set when the srcdoc is
    navigated to: its container document's base URL.
    """
    return Base(container.url, BaseSource.ENCAPSULATING) if container.url else container


# HTML 4 §13.3 (https://www.w3.org/TR/html401/struct/objects.html#adef-codebase-OBJECT):
# codebase "specifies the base path used to resolve relative URIs specified by the classid,
# data, and archive attributes"; of <applet> (§13.4, #adef-codebase-APPLET): "the base URI for
# the applet", its code and archive. The link-source table's rows name it (base=CODEBASE); the
# resolve stage resolves the codebase against the document's base, then the value against it.
CODEBASE = "codebase"
CODEBASE_ELEMENTS = frozenset({"object", "applet"})
_CODEBASE_ATTRS = frozenset({"data", "classid", "archive", "code"})


def codebase_applies(tag: str, attr: str) -> bool:
    """Whether ``attr`` of a ``tag`` element resolves against the element's ``codebase``."""
    return tag in CODEBASE_ELEMENTS and attr in _CODEBASE_ATTRS


# https://html.spec.whatwg.org/#the-base-element: the <base> element's href is the document's
# base (establish_base below), never a link; the walk passes it over.
BASE_ELEMENT = "base"

# The first <base> element with an href attribute in tree order
# (https://html.spec.whatwg.org/#document-base-url: "the first base element ... that has an
# href attribute"). lxml's HTML parser gives SVG and MathML elements no namespace, so their
# `base` (and anything inside <template>, which is inert) is excluded by ancestry. So is a
# <base> inside <noscript>, as a browser with scripting enabled (every browser by default)
# parses the page: "A start tag whose tag name is "noscript", if the scripting flag is
# enabled: Follow the generic raw text element parsing algorithm"
# (https://html.spec.whatwg.org/#parsing-main-inhead and #parsing-main-inbody), so that
# <base> is text, not an element. libxml2 parses noscript content as elements, as a
# browser without scripting would; the links in it are still reported, with "in-noscript".
_NOT_IN = ("template", "noscript", "svg", "math")


def _base_elements(tree: Any) -> Iterator[Any]:
    # lxml's tag-filtered iteration, in C: the XPath "//base[@href][not(ancestor::...)]" took
    # a sixth of a parse on the corpus, testing ancestors of nothing.
    for element in tree.iter(BASE_ELEMENT):
        if element.get("href") is not None and next(element.iterancestors(*_NOT_IN), None) is None:
            yield element


# A base that cannot anchor links: a javascript: or data: base leaves the fallback base URL
# (https://html.spec.whatwg.org/#set-the-frozen-base-url).
_REFUSED_SCHEMES = ("javascript:", "data:")


def establish_base(
    tree: Any, fallback: Base, mode: str, query_codec: codecs.CodecInfo | None = None
) -> Base:
    """RFC 1808 §3.1 over ``fallback``: the first ``<base href>``, resolved against it (its
    query in ``query_codec``, the document's encoding, as for every link: whatwg mode only).

    The ``<base>`` is ignored, and ``fallback`` returned, when its href is a ``javascript:`` or
    ``data:`` URL, when the mode cannot resolve it, or when the result is still relative (no
    fallback to anchor ``<base href="/x/">``). Links *before* the element use it too: the base
    is the document's, not a running state (lxml and wget take the last <base>; LinkChecker and
    Heritrix apply it only to the links after it).
    """
    for element in _base_elements(tree):
        return base_from_href(element.get("href"), fallback, mode, query_codec)
    return fallback


def base_from_href(
    href: str | None,
    fallback: Base,
    mode: str,
    query_codec: codecs.CodecInfo | None = None,
) -> Base:
    """:func:`establish_base` for the href of the document's first ``<base href>`` (None: it
    has none), found by whoever walked the document (the native walk reads lexbor's nodes)."""
    if href is None:
        return fallback
    href = href.strip(ASCII_WHITESPACE)
    if href.lower().startswith(_REFUSED_SCHEMES):
        return fallback
    try:
        url = encoding_parse(Resolver(fallback.url, mode), href, query_codec)
    except URLError:
        return fallback
    if SCHEME_RE.match(url) is None:
        return fallback
    return Base(url, BaseSource.CONTENT)
