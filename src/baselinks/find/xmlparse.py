"""xmlparse: a feed's or a sitemap's elements as libxml2 parses them, safely, in bounded memory.

    bytes ──load_xml──► Document (the bytes, gunzipped when they are gzip)
          ──XMLEvents─► (event, element), element by element, as the XML parser reads them

**Safely**: lxml's pull parser with everything that reaches out switched off, as for SVG
(sheets.py): no DTD loaded, no entity replaced (``resolve_entities=False``: an entity
reference stays one, written ``&name;``), no network. libxml2 still expands an internal entity
in an attribute value, and stops a document whose entities grow past its amplification limit
(a "billion laughs"): that is an error, and nothing after it is read.

**In bounded memory**: the bytes are fed to the parser 64 KiB at a time, and the reader
releases each element it is done with (:func:`release`), so that a 50 MB sitemap (the
protocol's limit) holds one ``<url>`` at a time in its tree, not fifty thousand.

**Damage**: libxml2's recovery mode (``recover=True``) reads past what is not well-formed (an
undefined entity such as ``&nbsp;``, a stray ``&``, an unclosed element) as far as it can; the
first error is said with its line (:attr:`XMLEvents.damage`, which the pipeline reports as an
error line naming the document). Namespace errors (a ``media:`` prefix never declared) are not
damage: the element keeps its prefixed name, and the readers know the usual prefixes.

**gzip by content**: a sitemap served as ``application/x-gzip`` (or any body starting with the
gzip magic) is gunzipped here, under the same cap as every decoded body
(load/containers/coding.py): a gzip bomb stops there, with an error.
"""

from __future__ import annotations

import contextlib
import zlib
from collections.abc import Callable, Iterator
from typing import Any

from lxml import etree

from ..errors import InputError
from ..load.containers.coding import DecodeError, inflate
from ..load.document import Document, Loadable, read_source
from ..load.encoding import lookup

__all__ = ["SAFE_XML", "XMLEvents", "load_xml", "local_name", "prune", "release", "text_of"]

_CHUNK = 64 << 10  # bytes fed to the parser at a time
_GZIP_MAGIC = b"\x1f\x8b"
# What every XML parse of a document is given (feeds and sitemaps here, SVG in sheets.py): no
# DTD loaded or validated, no entity replaced, nothing fetched; a long text (an entry's HTML, a
# 10 MB data: URL in an SVG's <image href>) kept whole.
SAFE_XML: dict[str, Any] = {
    "resolve_entities": False,
    "load_dtd": False,
    "no_network": True,
    "dtd_validation": False,
    "remove_comments": True,
    "remove_pis": True,
    "huge_tree": True,
}
_OPTIONS: dict[str, Any] = {"recover": True, **SAFE_XML}


def load_xml(
    source: Loadable,
    *,
    charset: str | None = None,
    name: str | None = None,
    parser: str | None = None,
) -> Document:
    """The bytes of a feed or a sitemap, unparsed (:class:`XMLEvents` reads them), gunzipped
    when they are gzip; ``charset`` is the transport's (RFC 7303 §3.2: it wins over the XML
    declaration), kept as the document's ``encoding`` with the source ``transport``.
    (``parser``, HTML's, is no XML parser's: a loader's arguments are the same for all.)"""
    data, label = read_source(source, name)
    unread = ""
    if data.startswith(_GZIP_MAGIC):
        data, unread = _gunzip(data)
    encoding, found = (charset, "transport") if charset else ("", "xml")
    return Document(label, data, encoding, found, None, unread)


def _gunzip(data: bytes) -> tuple[bytes, str]:
    try:
        out, problem = inflate(data, 16 + zlib.MAX_WBITS)
    except DecodeError as exc:
        return exc.kept, f"damaged gzip data: {exc.reason}"
    except InputError as exc:  # larger than the cap: a decompression bomb
        return b"", f"{exc.message}: not read"
    if problem:
        return out, f"gzip data {problem}: the {len(out)} bytes before were read"
    return out, ""


class XMLEvents:
    """The ``(event, element)`` pairs of one XML document, in document order; ``tags``
    (lxml's ``{*}name`` patterns) limits the events to those elements. After the iteration,
    :attr:`damage` says what was not well-formed ("" when all of it was)."""

    def __init__(
        self,
        document: Document,
        what: str,
        events: tuple[str, ...] = ("start", "end"),
        tags: tuple[str, ...] | None = None,
        holds: Callable[[Any], bool] | None = None,
    ) -> None:
        self.document = document
        self.what = what  # "feed", "sitemap": the damage's first word
        self.events = events
        self.tags = tags
        # With ``tags``, what the reader asks no event for stays in the tree: ``holds`` says
        # which elements' content is still to be read (its text), and after each piece fed,
        # every element the parser has closed but those is dropped (:func:`prune`).
        self.holds = holds
        self.damage = ""

    def _parser(self) -> Any:
        charset = self.document.encoding if self.document.encoding_source == "transport" else ""
        declared = lookup(charset) if charset else None
        if declared:
            try:
                return etree.XMLPullParser(
                    self.events, tag=self.tags, encoding=declared, **_OPTIONS
                )
            except LookupError:
                pass  # a label libxml2 does not know: the document says
        return etree.XMLPullParser(self.events, tag=self.tags, **_OPTIONS)

    def __iter__(self) -> Iterator[tuple[str, Any]]:
        data = self.document.content
        assert isinstance(data, bytes), "load_xml keeps the bytes"
        if not data or data.isspace():  # (strip() would copy a 50 MB sitemap)
            return  # an empty document: nothing to read, nothing wrong
        parser = self._parser()
        root = None
        for start in range(0, len(data), _CHUNK):
            parser.feed(data[start : start + _CHUNK])
            events = parser.read_events()
            if root is None and self.holds is not None:
                first = next(events, None)
                if first is not None:
                    root = first[1].getroottree().getroot()
                    yield first
            yield from events
            if root is not None and self.holds is not None:
                prune(root, self.holds)
        with contextlib.suppress(etree.XMLSyntaxError):  # no element at all: in the log
            parser.close()
        yield from parser.read_events()
        self.damage = self._damage(parser.feed_error_log)

    def _damage(self, log: Any) -> str:
        errors = [
            entry
            for entry in log
            if entry.level >= etree.ErrorLevels.ERROR
            and entry.domain != etree.ErrorDomains.NAMESPACE
        ]
        if not errors:
            return ""
        first = errors[0]
        more = f" (and {len(errors) - 1} more errors)" if len(errors) > 1 else ""
        return (
            f"{self.what} not well-formed XML at line {first.line}: {first.message.strip()}"
            f"{more}; read as far as the XML parser's recovery could"
        )


def release(element: Any) -> None:
    """Free what the tree holds of ``element`` and of the siblings before it: the reader is
    done with them (lxml's "iterparse, clear as you go")."""
    element.clear(keep_tail=False)
    parent = element.getparent()
    if parent is not None:
        while element.getprevious() is not None:
            del parent[0]


def prune(root: Any, holds: Callable[[Any], bool]) -> None:
    """Drop every element under ``root`` the parser has closed, but inside one that ``holds``
    (its text still to be read). The elements still open are a chain from the root, each
    the last child of the one before: every other child is closed, and read (its events
    came before). A sitemap of five million unknown elements between two ``<url>`` entries,
    no event asked for them, held them all (654 MB for 20 MB); pruned after each piece fed,
    one piece's worth. Linear: each element is dropped once, and the chain is at most
    libxml2's depth limit long."""
    element = root
    while len(element) and not holds(element):
        if len(element) > 1:
            del element[:-1]
        element = element[-1]


def local_name(tag: str) -> tuple[str, str]:
    """``(namespace, local name)`` of an lxml tag (``{ns}name``; ``""`` for no namespace)."""
    if tag[:1] == "{":
        namespace, _, local = tag[1:].partition("}")
        return namespace, local
    return "", tag


def text_of(element: Any) -> str:
    """An element's text: its character data (CDATA too), an entity reference left as
    written (``&name;``: never expanded), and the text of any element inside it."""
    if len(element) == 0:
        return str(element.text or "")
    return "".join(element.itertext())
