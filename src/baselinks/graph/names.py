"""names: a URL → the name of its vertex at a level, or the reason it has none.

    level    name                                          as
    page     the SURT key (url/surt.py)                    com,example)/a/b?x=1
    host     the host, its labels reversed                 com.example.www (www. stripped
                                                           unless keep_www, as Common Crawl)
    domain   the registered domain (PSL), reversed         uk.co.bbc

A vertex is never made of garbage: a name is made only of a host that is valid
(url/canonical.py) and, at host and domain level, of labels cc-pyspark's host graph accepts
(``[a-z0-9]([a-z0-9_-]{0,61}[a-z0-9])?``, at least two of them, no IP address: its
``ExtractHostLinksJob``, whose drops are silent; here each is counted by its reason). Names
hold no control character, space or tab (a host is LDH, a SURT key %-escaped), so a name is
one TSV field and string order is the order of its UTF-8 bytes (LC_ALL=C sort, Spark's).

:class:`DocumentNamer` is what a worker runs on each document's links: the set of target names
(each edge once per source document, as cc-pyspark's per-page set) and the drops by reason.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, NamedTuple

from ..url.canonical import domain_reason, host_reason
from ..url.surt import surt_reason

if TYPE_CHECKING:
    from ..resolve.link import Link

__all__ = ["LEVELS", "NAME_REASONS", "DocumentNamer", "Names", "namer"]

Level = Literal["page", "host", "domain"]
LEVELS: tuple[Level, ...] = ("page", "host", "domain")

# Why a URL makes no vertex, beyond url/canonical.REASONS (relative, no-host, invalid-host...).
NAME_REASONS = {
    "invalid-label": "a label cc-pyspark's host graph refuses ([a-z0-9], '-' or '_' inside)",
    "single-label": "a host of one label (localhost, an intranet name)",
    "no-page-url": "a document whose own URL is not known (a file without --url)",
    "no-source": "a link of a document that is no vertex (see the documents dropped)",
    "self-loop": "a link to its own document's vertex (dropped, as Common Crawl drops them)",
}

# cc-pyspark's host_part_pattern (ExtractHostLinksJob), the labels a host vertex may have.
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9])?\Z")
_CACHE = 1 << 18  # entries per cache: bounded, whatever the crawl (some 100 bytes each)

Namer = Callable[[str], tuple[str | None, str]]


@functools.lru_cache(maxsize=_CACHE)
def _host_vertex(host: str, keep_www: bool) -> tuple[str | None, str]:
    labels = host.split(".")
    if len(labels) < 2:
        return None, "single-label"
    if not all(_LABEL.match(label) for label in labels):
        return None, "invalid-label"
    if not keep_www and len(labels) > 2 and labels[0] == "www":
        labels = labels[1:]  # Common Crawl's host graph: www.example.com is example.com
    return ".".join(reversed(labels)), "ok"


def host_name(url: str, keep_www: bool = False) -> tuple[str | None, str]:
    """``url``'s host vertex, reversed (``com.example``), or None and the reason."""
    host, kind = host_reason(url)
    if host is None:
        return None, kind
    if kind != "domain":
        return None, "ip-address"
    return _host_vertex(host, keep_www)


def domain_name(url: str, private: bool = False) -> tuple[str | None, str]:
    """``url``'s domain vertex, the registered domain reversed (``uk.co.bbc``), or None and
    the reason."""
    vertex, reason = host_name(url, keep_www=True)
    if vertex is None:
        return None, reason
    found, reason = domain_reason(url, private)
    if found is None:
        return None, reason
    return ".".join(reversed(found.split("."))), "ok"


@functools.lru_cache(maxsize=_CACHE)
def page_name(url: str) -> tuple[str | None, str]:
    """``url``'s page vertex, its SURT key, when it has a host; else None and the reason."""
    key, kind = surt_reason(url)
    if key is None:
        return None, kind
    if kind == "no-host":
        return None, "no-host"
    return key, "ok"


def namer(level: str, keep_www: bool = False, private: bool = False) -> Namer:
    """The function that names a URL's vertex at ``level`` (page, host, domain)."""
    if level == "page":
        return page_name
    if level == "host":
        return functools.partial(host_name, keep_www=keep_www)
    if level == "domain":
        return functools.partial(domain_name, private=private)
    raise ValueError(f"unknown level {level!r}: expected one of {', '.join(LEVELS)}")


class Names(NamedTuple):
    """What a worker hands back for one document: its own vertex (None: see ``dropped``), its
    target names, sorted, each once, not its own; and the links that made none, by reason."""

    source: str | None
    targets: tuple[str, ...]
    dropped: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class DocumentNamer:
    """A document's links → its :class:`Names`, where the links are made (a worker): the
    names of their targets at ``level``, each once per document. Picklable."""

    level: str
    keep_www: bool = False
    private: bool = False

    def __call__(self, links: Sequence[Link]) -> Names:
        """The names of a document with links (one without has only its page URL, which
        :meth:`source` names where the document is gathered)."""
        if not links:
            return Names(None, (), ())
        name = namer(self.level, self.keep_www, self.private)
        source, _ = self.source(links[0].page_url)
        if source is None:  # its links have no edge to make: each dropped for its document
            return Names(None, (), (("no-source", len(links)),))
        targets: set[str] = set()
        dropped: Counter[str] = Counter()
        for link in links:
            vertex, reason = name(link.url)
            if vertex is None:
                dropped[reason] += 1
            elif vertex == source:  # Common Crawl drops self-loops too
                dropped["self-loop"] += 1
            else:
                targets.add(vertex)
        return Names(source, tuple(sorted(targets)), tuple(sorted(dropped.items())))

    def source(self, page_url: str | None) -> tuple[str | None, str]:
        """The document's own vertex, from its page URL (None: not known)."""
        if page_url is None:
            return None, "no-page-url"
        return namer(self.level, self.keep_www, self.private)(page_url)
