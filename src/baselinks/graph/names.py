"""names: a URL → the name of its vertex at a level, or the reason it has none; a document's
links → its vertex, its targets and their counts.

    level    name                                          as
    page     the SURT key (url/surt.py)                    com,example)/a/b?x=1
    host     the host, its labels reversed (hosts.py:      com.example.www (www. kept
             cc-pyspark's rules)                           unless keep_www=False)
    domain   the host's registered domain (hosts.py:       uk.co.bbc
             cc-webgraph's), reversed

Which links name a vertex at all: by default those Common Crawl's host graph takes as links to
a host (hosts.WEB_LINK: a scheme of 2 to 6 letters or digits, then ``//``: ``http``,
``https``, ``ftp``...), so that ``android-app://com.cnn.mobile.android.phone/`` (an app's
identifier) or ``mailto:`` is never a vertex; with ``schemes`` (``--scheme``: the links were
kept by their scheme already, run/options.Keep), every kept link that has a host. Each link
that names no vertex is dropped and counted by its reason: never a vertex of garbage, never
silently (cc-pyspark drops them without a word).

A link's target is the host of its URL as baselinks resolved it (its base, the page's
``<base>`` first): for a link written relative that is its base's host, which is what
cc-pyspark makes of an "inner" link (Head.Base's host when it is another); for one written
absolute, the host as written. Names hold no control character, space or tab (a host is
LDH, a SURT key %-escaped), so a name is one TSV field and string order is the order of its
UTF-8 bytes (LC_ALL=C sort, Spark's).

:class:`DocumentNamer` is what a worker runs on each document's links: the target names with
how many links and pages name each (an edge once per source document, as cc-pyspark's per-page
set; ``--weights`` writes the counts), the host vertices under each domain (the domain graph's
``n_hosts``), and the drops by reason.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple, Protocol

from ..url.surt import surt_reason
from .hosts import HOST_REASONS, WEB_LINK, domain_of, host_vertex, web_host_vertex

__all__ = [
    "LEVELS",
    "NAME_REASONS",
    "DocumentNamer",
    "Names",
    "Target",
    "host_name",
    "namer",
    "page_name",
]

Level = Literal["page", "host", "domain"]
LEVELS: tuple[Level, ...] = ("page", "host", "domain")

# Why a URL makes no vertex, beyond url/canonical.REASONS (page level) and hosts.HOST_REASONS.
NAME_REASONS = {
    **HOST_REASONS,
    "not-web": "a URL Common Crawl's host graph takes as no link to a host (mailto:, "
    "javascript:, data:, android-app://: a scheme not of 2 to 6 letters or digits)",
    "public-suffix": "domain level: the host is a public suffix itself, or under none",
    "no-page-url": "a document whose own URL is not known (a file without --url)",
    "no-source": "a link of a document that is no vertex (see the documents dropped)",
    "self-loop": "a link to its own document's vertex (dropped, as Common Crawl drops them)",
}

Namer = Callable[[str], tuple[str | None, str]]


class Linked(Protocol):
    """What a link must have to be named: its resolved URL and its document's own URL (a
    :class:`~baselinks.Link`, or a record read back from extract's output)."""

    @property
    def url(self) -> str: ...

    @property
    def page_url(self) -> str | None: ...


@functools.lru_cache(maxsize=1 << 18)
def page_name(url: str) -> tuple[str | None, str]:
    """``url``'s page vertex, its SURT key, when it has a host; else None and the reason."""
    key, kind = surt_reason(url)
    if key is None:
        return None, kind
    if kind == "no-host":
        return None, "no-host"
    return key, "ok"


def host_name(url: str, keep_www: bool = True) -> tuple[str | None, str]:
    """``url``'s host vertex, reversed (``com.example.www``), or None and the reason."""
    return host_vertex(url, keep_www)


def _domain_name(
    url: str, keep_www: bool, private: bool, multipart: bool, web: bool = False
) -> tuple[str | None, str]:
    vertex, reason = (web_host_vertex if web else host_vertex)(url, keep_www)
    if vertex is None:
        return None, reason
    found = domain_of(vertex, private, multipart)
    return (found, "ok") if found is not None else (None, "public-suffix")


def _web_page_name(url: str) -> tuple[str | None, str]:
    if WEB_LINK.match(url) is None:
        return None, "not-web"
    return page_name(url)


def namer(
    level: str,
    keep_www: bool = True,
    private: bool = False,
    multipart: bool = False,
    web: bool = False,
) -> Namer:
    """The function that names a URL's vertex at ``level`` (page, host, domain); ``web``: a
    link Common Crawl's graph takes as no link to a host (hosts.WEB_LINK) is none, "not-web"."""
    if level == "page":
        return _web_page_name if web else page_name
    if level == "host":
        return functools.partial(web_host_vertex if web else host_vertex, keep_www=keep_www)
    if level == "domain":
        return functools.partial(
            _domain_name, keep_www=keep_www, private=private, multipart=multipart, web=web
        )
    raise ValueError(f"unknown level {level!r}: expected one of {', '.join(LEVELS)}")


class Target(NamedTuple):
    """One target of a document: its name, how many of the document's links name it."""

    name: str
    links: int


class Names(NamedTuple):
    """What a worker hands back for one document: its own vertex (None: see ``dropped``), its
    targets (sorted by name, each once, not its own), the host vertices its vertex and targets
    come from where the level is the domain (``domain<TAB>host``: the domain graph's
    ``n_hosts``), and the links that made none, by reason."""

    source: str | None
    targets: tuple[Target, ...]
    dropped: tuple[tuple[str, int], ...]
    members: tuple[str, ...] = ()


@dataclass(frozen=True)
class DocumentNamer:
    """A document's links → its :class:`Names`, where the links are made (a worker): the
    names of their targets at ``level``, each with its count. Picklable.

    ``schemes``: the links were kept by these schemes (``--scheme``), and each names its host
    whatever its scheme; None: Common Crawl's rule (hosts.WEB_LINK) decides."""

    level: str
    keep_www: bool = True
    private: bool = False
    multipart: bool = False
    schemes: Collection[str] | None = None

    def __call__(self, links: Sequence[Linked]) -> Names:
        """The names of a document with links (one without has only its page URL, which
        :meth:`source` names where the document is gathered)."""
        if not links:
            return Names(None, (), ())
        page = links[0].page_url
        source, _ = self.source(page)
        members = self.members(page, [link.url for link in links])
        if source is None:  # its links have no edge to make: each dropped for its document
            return Names(None, (), (("no-source", len(links)),), members)
        name = namer(self.level, self.keep_www, self.private, self.multipart, self.schemes is None)
        targets: Counter[str] = Counter()
        dropped: Counter[str] = Counter()
        for link in links:
            vertex, reason = name(link.url)
            if vertex is None:
                dropped[reason] += 1
            elif vertex == source:  # Common Crawl drops self-loops too
                dropped["self-loop"] += 1
            else:
                targets[vertex] += 1
        found = tuple(Target(vertex, n) for vertex, n in sorted(targets.items()))
        return Names(source, found, tuple(sorted(dropped.items())), members)

    def source(self, page_url: str | None) -> tuple[str | None, str]:
        """The document's own vertex, from its page URL (None: not known)."""
        if page_url is None:
            return None, "no-page-url"
        return namer(self.level, self.keep_www, self.private, self.multipart)(page_url)

    def members(self, page_url: str | None, urls: Sequence[str] = ()) -> tuple[str, ...]:
        """At domain level, ``domain<TAB>host`` for the document's own host and each of its
        links' hosts that has a domain: the host vertices a host graph has (a document whose
        host is one), folded as HostToDomainGraph folds them, so that each domain is a vertex
        and its ``n_hosts`` is theirs. Else none."""
        if self.level != "domain" or page_url is None:
            return ()
        own, _ = host_vertex(page_url, self.keep_www)
        if own is None:
            return ()  # no host vertex: its links make none either
        hosts = {own}
        name = web_host_vertex if self.schemes is None else host_vertex
        for url in urls:
            vertex, _ = name(url, self.keep_www)
            if vertex is not None:
                hosts.add(vertex)
        found = ((domain_of(h, self.private, self.multipart), h) for h in hosts)
        return tuple(sorted(f"{domain}\t{h}" for domain, h in found if domain is not None))
