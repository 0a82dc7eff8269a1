"""xml:base: the base of each element of an XML document (a feed), RFC 1808 §3.1 for XML.

XML Base (W3C, second edition) §4.2: "The base URI of an element is: the base URI specified
by an xml:base attribute on the element, if one exists, otherwise the base URI of the
element's parent element, if one exists, otherwise the base URI of the document entity or
external entity containing the element." And §4.3: "the value of the xml:base attribute [...]
is resolved against the base URI of its parent element".

Atom (RFC 4287 §2) applies it to every relative reference in a feed: "Any element defined by
this specification MAY have an xml:base attribute [...] When xml:base is used in an Atom
Document, it serves the function described in section 5.1.1 of [RFC3986], establishing the
base URI (or IRI) for resolving any relative references found within the effective scope of
the xml:base attribute." RSS has no word on it; feed readers (feedparser, the feed validator)
apply it to RSS the same way, and so does this module.

The reader (find/feeds.py) tells :class:`XMLBase` each element's start and end as it reads
them: at its start, an element's xml:base is resolved once, against its parent's base, and
pushed; at its end, popped. The bases in scope are a stack, one entry per open element (a
reference to its parent's where it has no xml:base), never an element's whole chain: 2,000
nested entries each with an xml:base, then many elements under them, resolved the chain again
and again (547 KB: over 200 s), and hashed it as a key for every link. The document's own base
(the fallback: the §3.2 entity around the feed, or the §3.3 retrieval URL) is the bottom. An
xml:base is a base embedded in the content: ``BaseSource.CONTENT``, as ``<base href>`` is.

xml:base values nested deeper than :data:`MAX_XML_BASE_DEPTH` are not applied (the base of the
element around them stands), and said once: each is resolved against the one before it, so
that a chain of them is as long as all of them together, and n nested ones hold n such bases
(2,000 nested values of 200 characters, a 488 KB feed: 2.7 GB, then a MemoryError). No real
feed nests more than three (the feed, an entry, its content).

What each mode does with an xml:base is what it does with any base: rfc1808 resolves it by RFC
1808 §4 (its Steps, its abnormal examples), rfc3986 by RFC 3986 §5.2 (what XML Base asks for),
whatwg by the URL Standard's parser with the parent's base (as a browser's XML document's
``baseURI`` is). As for ``<base href>`` (layers.establish_base), an xml:base the mode cannot
resolve, or that is still relative after it (nothing absolute around it to anchor it), is
passed over: the parent's base stands. Unlike ``<base href>``, a ``javascript:`` or ``data:``
xml:base is applied: XML Base refuses none, and the links against it carry ``unsuitable-base``.
"""

from __future__ import annotations

from typing import NamedTuple

from ..errors import URLError
from ..url.parts import SCHEME_RE
from ..url.resolve import Resolver
from .layers import Base, BaseSource

__all__ = ["MAX_XML_BASE_DEPTH", "XML_BASE", "Scope", "XMLBase"]

# The attribute, in lxml's Clark notation (the xml prefix is bound to this namespace by XML
# Namespaces §3 whatever a document declares).
XML_BASE = "{http://www.w3.org/XML/1998/namespace}base"

# How many xml:base values, each inside the one before, are applied (see the module docstring).
MAX_XML_BASE_DEPTH = 32


class Scope(NamedTuple):
    """An element's base, and how many xml:base values (each inside the one before) made it."""

    base: Base
    depth: int


class XMLBase:
    """The base in scope at each element of one XML document, as it is read: a stack of the
    open elements' scopes, each element's xml:base resolved once (see the module docstring).
    :attr:`damage`: what was not applied ("" when all was)."""

    def __init__(self, fallback: Base, mode: str) -> None:
        self.fallback = fallback
        self.mode = mode
        self.stack: list[Scope] = [Scope(fallback, 0)]  # the open elements'
        self.damage = ""

    @property
    def base(self) -> Base:
        """The base of the element read last (the innermost open one)."""
        return self.stack[-1].base

    def enter(self, value: str | None, line: int | None = None) -> Base:
        """An element starts: its base, its xml:base ``value`` (None: it has none) resolved
        against its parent's, kept until :meth:`leave`. ``line``: where it is, for the damage."""
        scope = self.stack[-1]
        if value is not None:
            scope = self.within(scope, value, line)
        self.stack.append(scope)
        return scope.base

    def leave(self) -> Scope:
        """The element read last ends: its scope, no longer kept."""
        return self.stack.pop() if len(self.stack) > 1 else self.stack[0]

    def within(self, parent: Scope, value: str, line: int | None = None) -> Scope:
        """The scope of an element whose xml:base is ``value`` inside ``parent``. Past
        :data:`MAX_XML_BASE_DEPTH` values, the parent's, said in :attr:`damage` (once)."""
        if parent.depth >= MAX_XML_BASE_DEPTH:
            if not self.damage:
                where = f" at line {line}" if line else ""
                self.damage = (
                    f"xml:base nested more than {MAX_XML_BASE_DEPTH} deep{where}: the deeper "
                    "ones are not applied (the links inside them resolve against the base "
                    "around them)"
                )
            return parent
        return Scope(self._apply(parent.base, value), parent.depth + 1)

    def _apply(self, parent: Base, value: str) -> Base:
        # XML Base §3: the attribute's value is an IRI reference; leading and trailing white
        # space is no part of it (it is how a pretty-printer wraps a long attribute)
        try:
            url = Resolver(parent.url, self.mode).resolve(value.strip())
        except URLError:
            return parent
        if SCHEME_RE.match(url) is None:
            return parent  # still relative: no base to anchor it
        return Base(url, BaseSource.CONTENT)
