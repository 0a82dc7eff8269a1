"""load, for documents that are not HTML: style sheets and SVG (see load/containers/doctypes.py);
and the one table of how each type is loaded, :data:`LOADERS` (feeds and sitemaps by
xmlparse.load_xml, robots.txt and text sitemaps by :func:`load_plain`).

A **style sheet** (``text/css``, ``.css``) is decoded as CSS Syntax §3.2 "decode bytes"
says, by tinycss2's implementation of it: a byte order mark; else the transport's charset
(HTTP or MIME ``Content-Type``); else an ``@charset "...";`` rule at the very start (UTF-16
labels there mean UTF-8); else UTF-8 (the referring document's encoding, the standard's
"environment encoding", is not known here). Its links are every ``url()``, ``@import`` and
``image-set()`` string, found by the same scanner as a ``<style>`` element's
(:func:`baselinks.find.css.css_urls`), with tag ``css``. A
:class:`~baselinks.load.document.Document` of a style sheet has no tree (``tree`` is
``None``): it has no ``<base>``, and no element a ``select=`` could match.

An **SVG** document (``image/svg+xml``, ``.svg``) is XML, parsed by lxml's XML parser with
everything that reaches out switched off: no DTD loaded, no external entity, no network
(libxml2 expands an internal entity in an attribute value whatever it is told, and refuses
an expansion that grows too much: a "billion laughs" is an error, not a hang). Its tree is
then copied into the shape lxml's HTML parser gives an inline ``<svg>`` (lower-case names
without a namespace, ``xlink:href`` as a plain attribute name), so that the walker finds
exactly what it finds in SVG inside HTML: ``href``, ``xlink:href``, ``style``, ``<style>``.
``xml:base`` is not applied: SVG 2 dropped it and Chrome ignores it.

An SVG that is not well-formed (an unclosed element, an entity that expands too much, elements
nested past libxml2's limit) is read again by the HTML parser, as a browser reads the same markup
inline in a page: it reads past any damage (load/document.py flattens what nests too deep), so every
link is given; and the error is reported with the document's name and line. A browser shows nothing
of such a file, or stops at the error; libxml2's XML recovery lost everything after a nesting too
deep. (The HTML parser knows no internal entity and no namespace prefix but ``xlink:``: of a damaged
file, what it cannot read so is the price.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any

from lxml import etree

from ..compiled import load as load_compiled
from ..load.containers.doctypes import DocType
from ..load.document import Document, Loadable, limit_attributes, load, parse_html, read_source
from ..load.encoding import decode_as, lookup, sniff
from .css import css_urls
from .robots import robots_links
from .sitemaps import sitemap_links, text_sitemap_links
from .walk import RawLink
from .xmlparse import SAFE_XML, load_xml

__all__ = [
    "FINDERS",
    "LOADERS",
    "copy_as_html",
    "load_css",
    "load_plain",
    "load_svg",
    "sheet_links",
]


def load_css(
    source: Loadable,
    *,
    charset: str | None = None,
    name: str | None = None,
    parser: str | None = None,
) -> Document:
    """Read and decode one style sheet (CSS Syntax §3.2); ``charset`` is the transport's
    (``parser``, HTML's, is no CSS parser's: a loader's arguments are the same for all)."""
    import tinycss2.bytes  # loaded by the runs that read a style sheet

    data, label = read_source(source, name)
    text, encoding = tinycss2.bytes.decode_stylesheet_bytes(data, protocol_encoding=charset)
    return Document(label, text, str(encoding.name), "css", None)


# The compiled scanner where it is built (BASELINKS_PURE=1: css.py's), as the walk's <style>
# text: the same answers (tests/test_compiled_syntax.py), a style sheet's nesting read in C.
_csyntax = load_compiled("baselinks.find._csyntax")
_css_urls = css_urls if _csyntax is None else _csyntax.css_urls


def sheet_links(document: Document) -> list[RawLink]:
    """Every ``url()``, ``@import`` and ``image-set()`` of a style sheet, in order: tag
    ``css``, attr the syntax (as in a ``<style>`` element), kind ``resource``."""
    return [
        RawLink(found.url, "css", found.syntax, "resource", found.line)
        for found in _css_urls(document.text)
    ]


_XLINK = "http://www.w3.org/1999/xlink"
_XML = "http://www.w3.org/XML/1998/namespace"
# Elements of these namespaces are named by their local name, as the HTML parser names them.
_OWN_NAMES = frozenset(
    {
        "http://www.w3.org/2000/svg",
        "http://www.w3.org/1999/xhtml",
        "http://www.w3.org/1998/Math/MathML",
    }
)
# HTML "adjust foreign attributes": the namespaced attributes an inline <svg> keeps by name.
_PREFIXES = {_XLINK: "xlink", _XML: "xml"}


def _parser(charset: str | None) -> etree.XMLParser:
    if charset:
        # RFC 7303 §3.2: the transport's charset wins over the XML declaration
        try:
            return etree.XMLParser(encoding=charset, **SAFE_XML)
        except LookupError:
            pass  # a label libxml2 does not know: the document says
    return etree.XMLParser(**SAFE_XML)


def load_svg(
    source: Loadable,
    *,
    charset: str | None = None,
    name: str | None = None,
    parser: str | None = None,
) -> Document:
    """Read and parse one SVG document into a tree the HTML walker reads (see above);
    ``parser``: the HTML parser that reads one that is not well-formed."""
    data, label = read_source(source, name)
    if not data.strip():
        return Document(label, "", "utf-8", "xml", parse_html("", "lxml"))  # as an empty page
    declared = lookup(charset) if charset else None
    data, capped = limit_attributes(data, xml=True)  # libxml2's XML parser is quadratic too
    try:
        root = etree.fromstring(data, _parser(declared))
    except etree.XMLSyntaxError as exc:
        as_html = load(data, charset=charset, name=label, parser=parser)
        where = f"line {exc.lineno}" if exc.lineno else "its start"
        damage = f"SVG not well-formed at {where}: {exc.msg}; read as HTML instead"
        said = (damage, capped, as_html.unread)
        return replace(as_html, unread="; ".join(dict.fromkeys(filter(None, said))))
    tree = parse_html("", "lxml")  # an empty <html>, the SVG element goes in it
    copy_as_html(root, tree)
    encoding = lookup(root.getroottree().docinfo.encoding or "utf-8") or "utf-8"
    # An SVG's text is not kept: only the "saved from url" search reads it, and no browser
    # writes that comment into an SVG.
    return Document(label, "", encoding, "xml", tree, capped)


def _tag(element: Any) -> str:
    """An XML element's name as the HTML parser names an inline one: the local name of an
    SVG, MathML or XHTML element, else ``prefix:local``; lower case."""
    tag = str(element.tag)
    namespace, brace, local = tag[1:].partition("}")
    if not brace:
        return tag.lower()
    if namespace in _OWN_NAMES or not element.prefix:
        return local.lower()
    return f"{element.prefix}:{local}".lower()


def _attributes(element: Any) -> dict[str, str]:
    """An XML element's attributes named as on an inline ``<svg>``: ``xlink:href``,
    ``xml:lang``; an attribute of another namespace is no URL attribute, and is left out."""
    attributes = {}
    for key, value in element.items():
        if key[0] != "{":
            attributes[key.lower()] = value
            continue
        namespace, _, local = key[1:].partition("}")
        prefix = _PREFIXES.get(namespace)
        if prefix is not None:
            attributes[f"{prefix}:{local.lower()}"] = value
    return attributes


def copy_as_html(
    root: Any, tree: Any, *, first_line: int = 1, cut: Callable[[Any], bool] | None = None
) -> list[Any]:
    """Copy the XML element ``root`` and everything in it under ``tree``, HTML-parser style.

    A loop over ``iterwalk`` events with a stack of copies, not recursion: SVG nests as
    deep as its author likes. Lines are counted from ``first_line`` (a feed's inline XHTML is
    a document of its own, starting on its element's line). The elements inside ``root`` for
    which ``cut`` holds are not copied, nor what is in them: they are returned, in document
    order (an element of a feed's XHTML with an xml:base of its own, find/feeds.py).
    """
    parents = [tree]
    apart: list[Any] = []
    walk = etree.iterwalk(root, events=("start", "end"))
    for event, element in walk:
        if event == "end":
            parents.pop()
        elif not isinstance(element.tag, str):  # an entity reference left unexpanded
            parents.append(parents[-1])
        elif cut is not None and element is not root and cut(element):
            apart.append(element)
            walk.skip_subtree()  # its "end" still comes
            parents.append(parents[-1])
        else:
            copy = etree.SubElement(parents[-1], _tag(element), _attributes(element))
            copy.text, copy.tail = element.text, element.tail
            if element.sourceline:
                copy.sourceline = element.sourceline - first_line + 1
            parents.append(copy)
    return apart


def load_plain(
    source: Loadable,
    *,
    charset: str | None = None,
    name: str | None = None,
    parser: str | None = None,
) -> Document:
    """Read and decode a text document that is no markup (robots.txt, a text sitemap): a byte
    order mark, else the transport's charset, else UTF-8, as both formats require (RFC 9309
    §2.3: "The file MUST be UTF-8 encoded"; sitemaps.org: "must use UTF-8 encoding"); an
    undecodable byte is U+FFFD. No tree: it has no element for ``select=`` to match.
    (``parser``, HTML's, reads nothing here: a loader's arguments are the same for all.)"""
    data, label = read_source(source, name)
    encoding, found = sniff(data, charset)
    if found not in ("bom", "transport"):
        encoding, found = "utf-8", "default"
    decoded = decode_as(data, encoding, found)
    return Document(label, decoded.text, decoded.encoding, decoded.source, None)


Loader = Callable[..., Document]

# How each document type is loaded: one row per type of load/containers/doctypes.py.
LOADERS: dict[DocType, Loader] = {
    DocType.HTML: load,
    DocType.CSS: load_css,
    DocType.SVG: load_svg,
    DocType.FEED: load_xml,
    DocType.SITEMAP: load_xml,
    DocType.SITEMAP_TEXT: load_plain,
    DocType.ROBOTS: load_plain,
}


# A finder yields each raw link of a document, then what of it could not be read (a str), if
# anything: a 50 MB sitemap's links are resolved as they are parsed, none of them held raw.
Finder = Callable[[Document, str], Iterable[RawLink | str]]


def _sheet(document: Document, location: str) -> list[RawLink]:
    return sheet_links(document)


def _robots(document: Document, location: str) -> Iterator[RawLink]:
    return robots_links(document)


# The documents that are no tree of elements, one list of raw links against the document's
# own base: how each type finds them, given the document and its URL (a sitemap's rules
# depend on where it is).
FINDERS: dict[DocType, Finder] = {
    DocType.CSS: _sheet,
    DocType.SITEMAP: sitemap_links,
    DocType.SITEMAP_TEXT: text_sitemap_links,
    DocType.ROBOTS: _robots,
}
