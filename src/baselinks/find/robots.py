"""robots: a robots.txt → the URL of each ``Sitemap:`` line, as written; never resolved.

RFC 9309 §2.2.4: "Crawlers MAY interpret other records that are not part of the robots.txt
protocol -- for example, "Sitemaps" [SITEMAPS]." sitemaps.org ("Specifying the Sitemap
location in your robots.txt file"): ``Sitemap: <sitemap_location>``, "independent of the
user-agent line, so it doesn't matter where you place it in your file". Its URL is resolved
against the robots.txt's own URL, as every link against its document's; another host's is no
fault (it is how a site "cross submits" its sitemaps). ``Allow`` and ``Disallow`` values are
path patterns (``/private*$``), not links: they are not given.

The lines are read as Google's robots.txt parser (github.com/google/robotstxt, robots.cc,
the reference RFC 9309 was written beside) reads them, since crawlers follow it, and no library
gives each line's number (``urllib.robotparser.site_maps()`` gives the values alone, and takes
only ``sitemap`` exactly): a UTF-8 byte order mark is passed over; a line ends at LF, CR LF or
CR; a ``#`` starts a comment, to the end of the line; the key is what comes before the first
``:`` (or, in a line without one, before the white space between exactly two words), its case
ignored, and a key that starts with ``sitemap`` or ``site-map`` is a sitemap's.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..load.document import Document
from .microsyntax import text_lines
from .walk import RawLink

__all__ = ["ROBOTS_TAG", "robots_links"]

# The tag a robots.txt's links carry; their attr is "sitemap".
ROBOTS_TAG = "robots"
_KEYS = ("sitemap", "site-map")
_WHITE = " \t\x0b\x0c"  # ASCII white space within a line (absl::StripAsciiWhitespace)


def robots_links(document: Document) -> Iterator[RawLink]:
    """The URL of each ``Sitemap:`` line of a robots.txt, in order, with its line, as the
    lines are read (microsyntax.text_lines: no list of them all)."""
    for number, line in text_lines(document.text.removeprefix("\ufeff")):
        lowered = line.lower()
        if "sitemap" not in lowered and "site-map" not in lowered:
            continue  # most lines (every key that counts holds one of the two)
        pair = _key_and_value(line)
        if pair is not None and pair[0].lower().startswith(_KEYS) and pair[1]:
            yield RawLink(pair[1], ROBOTS_TAG, "sitemap", "link", number)


def _key_and_value(line: str) -> tuple[str, str] | None:
    line = line.partition("#")[0].strip(_WHITE)
    key, colon, value = line.partition(":")
    if not colon:
        words = line.split()
        if len(words) != 2:  # "some people forget the colon": two words only
            return None
        key, value = words
    key = key.strip(_WHITE)
    return (key, value.strip(_WHITE)) if key else None
