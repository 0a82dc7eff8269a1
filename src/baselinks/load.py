"""load: bytes, a path, or stdin → :class:`Document` (decoded text and an lxml tree).

Decoding is :mod:`baselinks.encoding` (the HTML standard's sniffing). Parsing is lxml's HTML
parser, given UTF-8 bytes and told so, which keeps libxml2 from guessing an encoding of its own
and from touching the network (``no_network``; HTML parsing loads no DTD and expands no
entities beyond HTML's own).

Containers (MIME, WARC) will add their own loaders beside this one; each yields Documents.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from lxml import etree

from .encoding import REPLACEMENT, REPLACEMENT_UNREAD, decode

__all__ = ["Document", "Source", "load", "load_text", "parse_html", "parse_utf8", "read_source"]

Source = bytes | str | os.PathLike[str]

# libxml2 (2.14, lxml 6.1) stops building the tree at the first "</html>": everything after it
# is dropped, where a browser keeps parsing into <body>. Measured on the corpus: 4 documents
# lose content, one of them 30 links (fixture: fixtures/html/after-html-end.html). The end tag
# is blanked out before parsing, keeping its newlines so that line numbers do not move. The
# pattern is a literal prefix and one character class: linear, no backtracking.
_HTML_END_TAG = re.compile(rb"</html[\t\n\f\r ]*>", re.IGNORECASE)


def _blank(match: re.Match[bytes]) -> bytes:
    return re.sub(rb"[^\n]", b" ", match.group())


def _parser() -> etree.HTMLParser:
    return etree.HTMLParser(
        encoding="utf-8",
        no_network=True,
        remove_comments=False,
        remove_pis=False,
        huge_tree=True,  # long text and attribute values (a 10 MB data: URL) are kept whole
        default_doctype=False,
    )


_PARSER = _parser()


def parse_utf8(data: bytes) -> Any:
    """Parse UTF-8 HTML into an lxml root element (an empty ``<html>`` for an empty document)."""
    return _parse(data)[0]


def _parse(data: bytes) -> tuple[Any, str]:
    """The root element, and what libxml2 could not read ("" when it read everything).

    The two repairs work on the bytes, where a search is a memchr or a byte-regex: on the
    corpus, the same searches on the decoded text took three times as long.
    """
    if b"</" in data:
        data = _HTML_END_TAG.sub(_blank, data)
    if b"\x00" in data:
        data = data.replace(b"\x00", "\ufffd".encode())  # HTML: NUL is a parse error, U+FFFD
    root, stopped = _libxml2(data)
    if stopped is _DEPTH:
        # Elements nested deeper than libxml2 builds: the tree ended there, and every link
        # after it would be lost. Parse again with the deepest elements made siblings, as a
        # browser does (Blink's parser stops nesting at 512).
        root, stopped = _libxml2(_flatten(data))
        if stopped is _DEPTH:
            line = _PARSER.error_log.last_error.line
            return root, (
                f"elements nested deeper than libxml2's limit at line {line}: "
                "the rest of the document is not read"
            )
    return root, stopped


_DEPTH = "depth"


def _libxml2(data: bytes) -> tuple[Any, str]:
    root = etree.fromstring(data, _PARSER)  # None for a document without a node
    if root is None:
        root = etree.fromstring(b"<html></html>", _PARSER)
    return root, _stopped(_PARSER.error_log)


def _stopped(log: Any) -> str:
    # A FATAL error means libxml2 stopped building the tree there: without a word, the rest
    # of the document would be lost. The one met in practice is its depth limit (elements
    # nested 2048 deep; a browser flattens instead, and reads on).
    for entry in log:
        if entry.level_name == "FATAL":
            if "depth" in entry.message:
                return _DEPTH
            return f"libxml2 stopped at line {entry.line}: {entry.message.strip()}"
    return ""


# Elements opened below this depth (as counted by _Nesting) are closed at once, their content
# going to their parent. libxml2 stops at 2048; the count can fall short of libxml2's own when
# a stray end tag closes more than libxml2 would, hence the margin.
MAX_NESTING = 1024

# HTML §13.1.2: elements that have no end tag, and so never nest.
_VOID = frozenset({
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
    "source", "track", "wbr", "basefont", "bgsound", "frame", "keygen",
})  # fmt: skip


class _Nesting(HTMLParser):
    """Where a start tag opens an element deeper than :data:`MAX_NESTING`.

    The stdlib's tokenizer, used only for a document libxml2 gave up on: it knows comments,
    scripts and quoted attributes, which a regular expression over tags would not. The depth is
    a stack of open names; an end tag closes up to its name, as libxml2 does for most tags.
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.open: list[str] = []
        self.cuts: list[tuple[int, int, str]] = []  # (line, column after the tag, name)

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag in _VOID:
            return
        if len(self.open) < MAX_NESTING:
            self.open.append(tag)
        else:
            line, column = self.getpos()
            self.cuts.append((line, column + len(self.get_starttag_text() or ""), tag))

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.open) - 1, -1, -1):
            if self.open[index] == tag:
                del self.open[index:]
                return


def _flatten(data: bytes) -> bytes:
    """``data`` with an end tag written after each start tag deeper than :data:`MAX_NESTING`."""
    text = data.decode("utf-8", "surrogateescape")
    nesting = _Nesting()
    nesting.feed(text)
    nesting.close()
    starts = [0]  # the offset of each line (the tokenizer counts lines by "\n")
    position = text.find("\n")
    while position >= 0:
        starts.append(position + 1)
        position = text.find("\n", position + 1)
    pieces: list[str] = []
    done = 0
    for line, column, tag in nesting.cuts:
        end = starts[line - 1] + column
        pieces += (text[done:end], f"</{tag}>")
        done = end
    pieces.append(text[done:])
    return "".join(pieces).encode("utf-8", "surrogateescape")


def parse_html(text: str) -> Any:
    """Parse HTML text into an lxml root element (an empty ``<html>`` for an empty document)."""
    return parse_utf8(text.encode("utf-8", "surrogatepass"))


@dataclass(frozen=True, slots=True)
class Document:
    """One HTML document: where it came from, how it was decoded, its text and tree."""

    name: str  # the file path, "-" for stdin or bytes, plus a part label for nested documents
    text: str
    encoding: str
    encoding_source: str  # "bom", "transport", "meta", "utf-16-detected", "utf-8-detected",
    #                       "default", or "text"
    tree: Any  # lxml root element
    unread: str = ""  # what the parser could not read, when it stopped early ("" when none)


def read_source(source: Source, name: str | None = None) -> tuple[bytes, str]:
    """The bytes of ``source`` and the name to report it by."""
    if isinstance(source, bytes | bytearray | memoryview):
        return bytes(source), name or "-"
    path = Path(source)
    return path.read_bytes(), name or os.fspath(source)


def load(source: Source, *, charset: str | None = None, name: str | None = None) -> Document:
    """Read, decode and parse one HTML document. ``charset`` is the transport's, if known."""
    data, label = read_source(source, name)
    decoded = decode(data, charset)
    text = decoded.text
    if decoded.encoding == "utf-8" and decoded.source != "bom" and "\ufffd" not in text:
        utf8 = data  # valid UTF-8 (nothing was replaced): already the bytes the parser wants
    else:
        utf8 = text.encode("utf-8", "surrogatepass")
    root, unread = _parse(utf8)
    if decoded.encoding == REPLACEMENT and data:
        unread = REPLACEMENT_UNREAD
    return Document(label, text, decoded.encoding, decoded.source, root, unread)


def load_text(text: str, name: str) -> Document:
    """A document that is already text (an ``iframe srcdoc``): parse only."""
    return Document(name, text, "utf-8", "text", *_parse(text.encode("utf-8", "surrogatepass")))
