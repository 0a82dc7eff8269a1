"""rules: the conditions and kind rules the link-source table's rows name, as records of data.

linktable.py's registries (CONDITIONS, VALUE_CONDITIONS, KIND_RULES) hold these records. Each
is data with a ``__call__``: the walkers over lxml's tree (find/walk.py, find/_cwalk.pyx) call
them with an element (a condition), an element, its tag and its rel (a kind rule) or an
attribute's value (:class:`ValueIs`); the native walk over lexbor's nodes
(load/_chtml5_walk.pxi) reads their fields and decides in C, with no call per element. A
condition of another shape still works everywhere (a function of the element): the native walk
then calls it through a proxy of the element, and tests/test_native.py names the rows that do.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

from ..load.tokens import ASCII_WHITESPACE
from .metadata import metadata_url

__all__ = [
    "AttributeIs",
    "Condition",
    "ForeignKind",
    "KindRule",
    "MetadataFamily",
    "MetadataKind",
    "RelKind",
    "ValueIs",
    "Within",
    "rel_kind",
]

# <link rel> tokens (and a Link header's rel) that make the linked thing a resource the page
# loads.
_RESOURCE_RELS = frozenset(
    {
        "stylesheet",
        "icon",
        "shortcut",
        "apple-touch-icon",
        "apple-touch-icon-precomposed",
        "mask-icon",
        "preload",
        "modulepreload",
        "prefetch",
        "prerender",
        "manifest",
    }
)


# <link rel> tokens that name no document to follow nor a thing the page uses: resource hints
# (https://html.spec.whatwg.org/#link-type-dns-prefetch: "the user agent might wish to
# preemptively perform DNS resolution for that origin"; #link-type-preconnect: "preemptively
# initiate a connection to the origin"): the href is an origin to warm, never fetched as a page.
# A frontier of kind link would be filled with CDN origins by them (3,677 dns-prefetch and 1,223
# preconnect links in a 5,000-page crawl). preload, modulepreload and prefetch fetch what they
# name: resources, above.
_HINT_RELS = frozenset({"dns-prefetch", "preconnect"})


def rel_kind(rel: str) -> str:
    """The kind of a ``<link>`` or ``Link`` header by its rel (normalised: lower case, single
    spaces): ``resource`` for what the page loads (stylesheet, icon, preload...), ``other``
    for an origin hinted at (dns-prefetch, preconnect), else ``link``."""
    tokens = rel.split()
    if _RESOURCE_RELS.intersection(tokens):
        return "resource"
    return "other" if _HINT_RELS.intersection(tokens) else "link"


class Condition(Protocol):
    """A row's condition: a function of the element (a record below, or any callable). A
    Protocol, not a Callable: mypy does not take a NamedTuple's ``__call__`` as a Callable."""

    def __call__(self, element: Any, /) -> bool: ...


class KindRule(Protocol):
    """A row's kind decided per element: of the element, its tag and its normalised rel."""

    def __call__(self, element: Any, tag: str, rel: str, /) -> str: ...


class ValueIs(NamedTuple):
    """An enumerated attribute's value is ``value`` (lower case): ASCII case-insensitive,
    surrounding ASCII whitespace stripped; with ``essence``, the part before a ";" only (a
    MIME type's parameters: JSON-LD 1.1 §7.1's "application/ld+json;profile=...")."""

    value: str
    essence: bool = False

    def __call__(self, written: str) -> bool:
        if self.essence:
            written = written.partition(";")[0]
        return written.strip(ASCII_WHITESPACE).lower() == self.value


class AttributeIs(NamedTuple):
    """A condition on one attribute's value (``""`` when the element has none)."""

    name: str
    test: ValueIs

    def __call__(self, element: Any) -> bool:
        return self.test(element.get(self.name) or "")


class Within(NamedTuple):
    """The element is inside one of ``tags`` (an ancestor has that tag; with ``itself``, or the
    element has it); ``negated``: it is inside none of them."""

    tags: tuple[str, ...]
    itself: bool = False
    negated: bool = False

    def __call__(self, element: Any) -> bool:
        inside = (self.itself and element.tag in self.tags) or next(
            element.iterancestors(*self.tags), None
        ) is not None
        return inside != self.negated


class MetadataFamily(NamedTuple):
    """A ``<meta>`` of this family of metadata for other sites (metadata.py), by its
    property or name."""

    family: str

    def __call__(self, element: Any) -> bool:
        found = metadata_url(element)
        return found is not None and found[0] == self.family


class RelKind(NamedTuple):
    """The kind of a ``<link>`` or ``Link`` header by its rel: :func:`rel_kind`."""

    def __call__(self, element: Any, tag: str, rel: str) -> str:
        return rel_kind(rel)


class ForeignKind(NamedTuple):
    """The kind of an SVG or MathML href: ``inside`` for one of ``tags`` or an element
    ``within``, else ``otherwise``."""

    tags: frozenset[str]
    within: Within
    inside: str
    otherwise: str

    def __call__(self, element: Any, tag: str, rel: str) -> str:
        return self.inside if tag in self.tags or self.within(element) else self.otherwise


class MetadataKind(NamedTuple):
    """The kind of a ``<meta content>`` by its property or name (metadata.METADATA_URLS),
    ``otherwise`` for one of no family."""

    otherwise: str

    def __call__(self, element: Any, tag: str, rel: str) -> str:
        found = metadata_url(element)
        return self.otherwise if found is None else found[1]
