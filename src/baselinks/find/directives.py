"""directives: what a page says of all its links at once: its robots ``nofollow``.

A crawler reads two page-level directives besides a link's own ``rel="nofollow"``
(resolve/link.py gives each link the ``nofollow`` field from the three):

- ``<meta name="robots" content="noindex, nofollow">`` (https://developers.google.com/search/
  docs/crawling-indexing/robots-meta-tag: "nofollow: Do not follow the links on this page";
  "none: Equivalent to noindex, nofollow"). The name and the directives are case-insensitive,
  the directives comma-separated. A ``<meta>`` for one crawler by name (``googlebot``) is that
  crawler's, not every crawler's: not read.
- the ``X-Robots-Tag`` response header, the same directives; a value that starts with a user
  agent (``X-Robots-Tag: googlebot: nofollow``) is that crawler's, not read.

Only the page's own robots metadata counts: ``nofollow`` in robots.txt is no directive
(Google: "not supported"), and a ``<meta>`` inside an ``<iframe srcdoc>`` is its document's.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..load.tokens import ASCII_WHITESPACE

__all__ = ["header_nofollow", "meta_nofollow", "metas_nofollow", "says_nofollow"]

# The directives that stop a crawler following a page's links.
_NOFOLLOW = frozenset({"nofollow", "none"})
# The directives that take a value after a colon; any other name before a colon at the start
# of an X-Robots-Tag value is a user agent's ("unavailable_after: 25 Jun 2010 15:00:00 PST").
_VALUED = frozenset({"unavailable_after", "max-snippet", "max-image-preview", "max-video-preview"})


def _directives(value: str) -> set[str]:
    return {part.strip(ASCII_WHITESPACE).lower() for part in value.split(",")}


def says_nofollow(value: str) -> bool:
    """Whether a robots directive list (a meta's content, an X-Robots-Tag value with no user
    agent) holds ``nofollow`` or ``none``."""
    return "no" in value.lower() and not _NOFOLLOW.isdisjoint(_directives(value))


def header_nofollow(headers: Iterable[tuple[str, str]] | None) -> bool:
    """Whether the response's ``X-Robots-Tag`` headers, those for every crawler, say
    ``nofollow`` (or ``none``)."""
    for key, value in headers or ():
        if key.lower() != "x-robots-tag":
            continue
        first = value.split(",", 1)[0]
        agent, colon, _ = first.partition(":")
        if colon and agent.strip(ASCII_WHITESPACE).lower() not in _VALUED:
            continue  # a user agent's: "googlebot: nofollow"
        if says_nofollow(value):
            return True
    return False


def meta_nofollow(tree: Any) -> bool:
    """Whether an HTML tree (lxml's) holds a ``<meta name="robots">`` that says ``nofollow``
    (or ``none``), wherever it is (a browser reads no such thing; a crawler reads the page's
    whole markup)."""
    if tree is None:
        return False
    return metas_nofollow((meta.get("name"), meta.get("content")) for meta in tree.iter("meta"))


def metas_nofollow(metas: Iterable[tuple[str | None, str | None]]) -> bool:
    """:func:`meta_nofollow` for the (name, content) of each ``<meta>`` of a page, in tree order
    (the native walk reads them from lexbor's nodes)."""
    for name, content in metas:
        robots = name is not None and name.strip(ASCII_WHITESPACE).lower() == "robots"
        if robots and content and says_nofollow(content):
            return True
    return False
