"""keys: a link's target and a capture matched as replay tools match them, by canonical key.

pywb, OpenWayback and the Wayback Machine never compare URLs as strings: each capture is
indexed under its SURT key (url/surt.py, the first field of a CDX or CDXJ line), and a request
is looked up by the key of the URL asked for. A link's target is captured when some capture has
its key; each leniency of that key is a rule of :data:`RULES` (a link and a capture URL that
share a key), checked by tests/test_coverage_keys.py, and :data:`DISTINCT` holds the pairs the
key keeps apart (a capture of one is no capture of the other).

Two rules are coverage's own, beside the key: the fragment is never part of a target (a
browser never sends it), and in a mirrored site a folder's ``index.html`` is the folder's URL
(``wget -m`` saves ``https://e.com/docs/`` as ``docs/index.html``, and ``-k`` then writes links
to it as ``index.html``): :func:`mirror_aliases`.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from ..base.mirror import INDEX
from ..url.surt import surt

__all__ = [
    "DISTINCT",
    "RULES",
    "Rule",
    "host_key",
    "mirror_aliases",
    "scheme_family",
    "split_fragment",
    "target_key",
]


class Rule(NamedTuple):
    """One leniency: its name, what it says, a link's URL and a capture's URL it matches."""

    name: str
    says: str
    link: str
    capture: str


RULES: tuple[Rule, ...] = (
    Rule("scheme", "http and https are one (the key has no scheme)",
         "https://example.com/a.html", "http://example.com/a.html"),
    Rule("www", "a leading www. or wwwN. is dropped from the host",
         "http://example.com/a.html", "http://www.example.com/a.html"),
    Rule("default-port", "the scheme's default port (80, 443) is dropped",
         "http://example.com:80/a.html", "http://example.com/a.html"),
    Rule("host-case", "the host is lower case (and IDNA A-labels, a trailing dot dropped)",
         "http://EXAMPLE.com./a.html", "http://example.com/a.html"),
    Rule("fragment", "the fragment is no part of the target (a trailing # neither)",
         "http://example.com/a.html#", "http://example.com/a.html"),
    Rule("dot-segments", "'.' and '..' segments and empty segments are resolved",
         "http://example.com/a/./b/../c.html", "http://example.com/a/c.html"),
    Rule("percent-encoding", "escapes are undone, then what must be is escaped once",
         "http://example.com/%7Euser/a%20b", "http://example.com/~user/a b"),
    Rule("path-case", "the path and query are lower case (as the Internet Archive's index)",
         "http://example.com/About.HTML", "http://example.com/about.html"),
    Rule("trailing-slash", "a path's trailing / is dropped (but the root's)",
         "http://example.com/docs/", "http://example.com/docs"),
    Rule("query-order", "query arguments are sorted; an empty query is dropped",
         "http://example.com/s?b=2&a=1", "http://example.com/s?a=1&b=2"),
    Rule("session-id", "session IDs (jsessionid, PHPSESSID, sid...) are dropped",
         "http://example.com/a.jsp?jsessionid=0123456789abcdef0123456789abcdef",
         "http://example.com/a.jsp"),
)  # fmt: skip

# Pairs the key keeps apart: a capture of the second is no capture of the first.
DISTINCT: tuple[tuple[str, str], ...] = (
    ("http://example.com/a.html", "http://example.org/a.html"),  # another host
    ("http://example.com/a.html", "http://cdn.example.com/a.html"),  # another subdomain
    ("http://example.com/a.html", "http://example.com:8080/a.html"),  # another port
    ("http://example.com/a.html", "http://example.com/a.htm"),  # another path
    ("http://example.com/s?q=1", "http://example.com/s?q=2"),  # another query value
    ("http://example.com/s?q=1", "http://example.com/s"),  # a query and none
    ("http://example.com/a/b", "http://example.com/b"),  # another folder
)


# The keys of the last URLs asked for (a site's style sheet, its home page: asked for by every
# page; a SURT key costs some 30 µs): an LRU of this many (store.CACHED_KEYS, as coverage's
# other caches).
_CACHED = 4_096


@functools.lru_cache(maxsize=_CACHED)
def target_key(url: str) -> str | None:
    """The key a capture of ``url`` is found under (its SURT key: the fragment dropped); None
    for a URL that has none (relative, an invalid host or port)."""
    return surt(url)


def host_key(key: str) -> str:
    """The host part of a key (``com,example:8080``), or the scheme of a key without a host
    (``mailto:``...: no host to be in scope by)."""
    host, close, _ = key.partition(")")
    return host if close else key.partition(":")[0] + ":"


def scheme_family(url: str) -> str:
    """The scheme of an absolute URL, lower case, ``https`` as ``http`` (one key for both);
    ``""`` for a relative reference."""
    scheme, colon, _ = url.partition(":")
    if not colon or not scheme[:1].isalpha() or not all(c.isalnum() or c in "+.-" for c in scheme):
        return ""
    lowered = scheme.lower()
    return "http" if lowered == "https" else lowered


def split_fragment(url: str) -> tuple[str, str | None]:
    """The URL without its fragment, and the fragment (None when there is no ``#``)."""
    target, hash_sign, fragment = url.partition("#")
    return target, (fragment if hash_sign else None)


def mirror_aliases(url: str) -> tuple[str, ...]:
    """The other URLs a mirrored file stands for: a folder's URL (``.../docs/``, from
    ``docs/index.html``: base/mirror.py) is also ``.../docs/index.html``."""
    target, _ = split_fragment(url)
    if target.endswith("/") and "?" not in target:
        return (target + INDEX,)
    return ()
