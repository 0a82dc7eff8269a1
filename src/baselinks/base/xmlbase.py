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

The reader (find/feeds.py) gives each element the xml:base values on it and its ancestors,
outermost first, as written (its *chain*); :class:`XMLBase` turns a chain into a
:class:`~.layers.Base`, resolving each value against the one before it, down to the document's
own base (the fallback: the §3.2 entity around the feed, or the §3.3 retrieval URL). An
xml:base is a base embedded in the content: ``BaseSource.CONTENT``, as ``<base href>`` is.

What each mode does with an xml:base is what it does with any base: rfc1808 resolves it by RFC
1808 §4 (its Steps, its abnormal examples), rfc3986 by RFC 3986 §5.2 (what XML Base asks for),
whatwg by the URL Standard's parser with the parent's base (as a browser's XML document's
``baseURI`` is). As for ``<base href>`` (layers.establish_base), an xml:base the mode cannot
resolve, or that is still relative after it (nothing absolute around it to anchor it), is
passed over: the parent's base stands. Unlike ``<base href>``, a ``javascript:`` or ``data:``
xml:base is applied: XML Base refuses none, and the links against it carry ``unsuitable-base``.
"""

from __future__ import annotations

from ..errors import URLError
from ..url.parts import SCHEME_RE
from ..url.resolve import Resolver
from .layers import Base, BaseSource

__all__ = ["XML_BASE", "XMLBase"]

# The attribute, in lxml's Clark notation (the xml prefix is bound to this namespace by XML
# Namespaces §3 whatever a document declares).
XML_BASE = "{http://www.w3.org/XML/1998/namespace}base"

# The chains kept resolved; a document with more distinct ones starts again (each is then
# resolved once more from the document's base: the work per chain is its length).
_KEPT = 4096


class XMLBase:
    """The base of each xml:base chain of one document, each chain resolved once."""

    def __init__(self, fallback: Base, mode: str) -> None:
        self.fallback = fallback
        self.mode = mode
        self.resolved: dict[tuple[str, ...], Base] = {(): fallback}

    def base(self, chain: tuple[str, ...]) -> Base:
        """The base of an element whose xml:base chain (its own and its ancestors' values,
        outermost first, as written) is ``chain``."""
        found = self.resolved.get(chain)
        if found is not None:
            return found
        if len(self.resolved) >= _KEPT:
            self.resolved = {(): self.fallback}
        # A reader asks for an element's chain after its parent's: the parent's is kept, and
        # one value is resolved. After a fresh start, the chain is resolved whole.
        parent = self.resolved.get(chain[:-1])
        if parent is None:
            parent = self.fallback
            for value in chain[:-1]:
                parent = self._apply(parent, value)
        found = self.resolved[chain] = self._apply(parent, chain[-1])
        return found

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
