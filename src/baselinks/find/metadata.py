"""metadata: which ``<meta>`` elements hold a URL for other sites, as data.

Link previews, search engines and pinned tiles read metadata that pages write in the HTML
standard's own element, ``<meta property|name content>``; the standard's "metadata names" are
none of them URLs, so each such link carries its family's code (linktable.py rows them:
``when`` the family, the ``metadata`` kind rule). Names are compared in lower case
(``msapplication-TileImage``). An element that is of two families (a property of one, a name of
the other) is of the first here, and gives its link once.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

__all__ = ["METADATA_URLS", "MSAPPLICATION", "OPEN_GRAPH", "TWITTER_CARD", "metadata_url"]

OPEN_GRAPH = "open-graph"
TWITTER_CARD = "twitter-card"
MSAPPLICATION = "msapplication"

# Each family's names whose value is a URL, and what the URL is for: Open Graph
# (https://ogp.me/, "Structured Properties"), X/Twitter Cards ("Cards markup": twitter:image,
# twitter:player..., and twitter:image:src and twitter:url, which Common Crawl's link
# extraction reads too), Internet Explorer's pinned-site tiles (msapplication-badge and
# -notification hold "polling-uri=URL" lists, not a URL: not read).
METADATA_URLS: dict[str, dict[str, str]] = {
    OPEN_GRAPH: {
        "og:url": "link",
        **dict.fromkeys(
            (
                f"og:{medium}{part}"
                for medium in ("image", "video", "audio")
                for part in ("", ":url", ":secure_url")
            ),
            "resource",
        ),
    },
    TWITTER_CARD: {
        "twitter:url": "link",
        "twitter:image": "resource",
        "twitter:image:src": "resource",
        "twitter:player": "resource",
        "twitter:player:stream": "resource",
        **dict.fromkeys(
            (f"twitter:app:url:{app}" for app in ("iphone", "ipad", "googleplay")), "link"
        ),
    },
    MSAPPLICATION: {
        "msapplication-starturl": "link",
        **dict.fromkeys(
            (
                "msapplication-tileimage",
                "msapplication-config",
                "msapplication-square70x70logo",
                "msapplication-square150x150logo",
                "msapplication-wide310x150logo",
                "msapplication-square310x310logo",
            ),
            "resource",
        ),
    },
}


def metadata_url(element: Any) -> tuple[str, str] | None:
    """The metadata family and kind of a ``<meta>`` by its ``property`` (RDFa: one or more
    names, space-separated) or ``name``, the first family that knows one; ``None`` if none.

    Asked once by each family's row of an element, and of every ``<meta content>`` of a page
    (most of them ``viewport``, ``description``...): the answer for a pair of values is kept
    (on the corpus, 3.6 µs a call became about one).
    """
    return _by_names(element.get("property"), element.get("name"))


@lru_cache(maxsize=4096)
def _by_names(property_: str | None, name: str | None) -> tuple[str, str] | None:
    names = f"{property_ or ''} {name or ''}".lower().split()
    for family, urls in METADATA_URLS.items():
        for one in names:
            kind = urls.get(one)
            if kind is not None:
                return family, kind
    return None
