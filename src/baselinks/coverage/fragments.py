"""fragments: whether a browser scrolls to a link's fragment in the page it lands on.

https://html.spec.whatwg.org/#select-the-indicated-part, for a document and a URL's fragment:

    "If fragment is the empty string, then return the special value top of the document.
     Let potentialIndicatedElement be the result of finding a potential indicated element
     given document and fragment. If potentialIndicatedElement is not null, then return it.
     Let fragmentBytes be the result of percent-decoding fragment. Let decodedFragment be the
     result of running UTF-8 decode without BOM on fragmentBytes. Set
     potentialIndicatedElement to the result of finding a potential indicated element given
     document and decodedFragment. If potentialIndicatedElement is not null, then return it.
     If decodedFragment is an ASCII case-insensitive match for the string top, then return
     the top of the document. Return null."

and #find-a-potential-indicated-element: "If there is an element in the document tree whose root
is document and that has an ID equal to fragment, then return the first such element in tree
order. If there is an a element in the document tree whose root is document that has a name
attribute whose value is equal to fragment, then return the first such element in tree order."

So a page's *anchors* (:func:`anchors_of`) are the IDs of its elements (any element, SVG's too;
an empty ``id`` is no ID) and the names of its HTML ``<a>`` elements (not an SVG ``<a>``'s, not
an ``<img name>``'s), compared exactly (case matters). Not in "the document tree": a
``<template>``'s content (a fragment of its own), and what is in a ``<noscript>``, which a
browser with scripting on (every browser by default) parses as text. The fragment is the
URL's as the URL Standard keeps it (percent-encoded: :func:`url_fragment`), less the fragment
directive (https://wicg.github.io/scroll-to-text-fragment/: ``#:~:text=...`` and what follows
``:~:`` are removed from the fragment before it is looked for). tests/test_coverage_fragments.py
holds each rule against Chromium.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import unquote_to_bytes

__all__ = ["FRAGMENT_DIRECTIVE", "anchors_of", "indicated", "url_fragment"]

FRAGMENT_DIRECTIVE = ":~:"

# Which ancestors make an <a> an SVG or MathML element, and which put HTML back inside them
# (HTML integration points and MathML text integration points, #tree-construction). The
# tree's tag names are lower case (lexbor's and libxml2's: foreignObject is foreignobject).
_FOREIGN = frozenset({"svg", "math"})
_HTML_AGAIN = frozenset(
    {"foreignobject", "desc", "title", "mi", "mo", "mn", "ms", "mtext", "annotation-xml"}
)
_NOT_IN_TREE = ("template", "noscript")


def _is_html_a(element: Any) -> bool:
    for ancestor in element.iterancestors():
        tag = ancestor.tag
        if tag in _HTML_AGAIN:
            return True
        if tag in _FOREIGN:
            return False
    return True


def anchors_of(tree: Any) -> Iterator[str]:
    """The anchors of the page whose lxml tree is ``tree``: each non-empty ``id``, and the
    ``name`` of each HTML ``<a>``, outside any ``<template>`` and ``<noscript>`` (once each
    name or more: the caller keeps a set)."""
    if tree is None:
        return
    for element in tree.xpath("//*[@id] | //a[@name]"):
        if next(element.iterancestors(*_NOT_IN_TREE), None) is not None:
            continue
        value = element.get("id")
        if value:
            yield value
        if element.tag == "a" and _is_html_a(element):
            name = element.get("name")
            if name is not None:
                yield name


# https://url.spec.whatwg.org/#fragment-percent-encode-set: the C0 control percent-encode set
# (the C0 controls and every code point above ~) and space, ", <, >, `.
def url_fragment(fragment: str) -> str:
    """The fragment as a URL keeps it (the URL Standard's fragment state: the fragment
    percent-encode set escaped, as UTF-8): what the document is first searched for."""
    out = []
    for char in fragment:
        if char < "\x21" or char > "\x7e" or char in '"<>`':
            # a lone surrogate is U+FFFD, as the URL parser reads it from a USVString
            data = char.encode("utf-8") if not "\ud800" <= char <= "\udfff" else b"\xef\xbf\xbd"
            out.append("".join(f"%{byte:02X}" for byte in data))
        else:
            out.append(char)
    return "".join(out)


def indicated(fragment: str, has: Callable[[str], bool]) -> bool:
    """Whether a browser scrolls somewhere for ``fragment`` (what follows ``#``) in the page
    whose anchors ``has`` tells: to an element, or to the top of the document."""
    fragment = url_fragment(fragment.partition(FRAGMENT_DIRECTIVE)[0])
    if not fragment:
        return True  # the top of the document
    if has(fragment):
        return True
    decoded = unquote_to_bytes(fragment).decode("utf-8", "replace")
    if decoded != fragment and has(decoded):
        return True
    return decoded.isascii() and decoded.lower() == "top"
