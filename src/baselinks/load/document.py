"""load: an HTML document's bytes (or its file) → :class:`Document` (decoded text, lxml tree).

Decoding is :mod:`baselinks.load.encoding` (the HTML standard's sniffing). Parsing is one of two
parsers, chosen by ``parser`` (:mod:`baselinks.load.html5` chooses): the HTML standard's tree
construction (lexbor, copied into an lxml tree), or lxml's HTML parser, given UTF-8 bytes and
told so, which keeps libxml2 from guessing an encoding of its own and from touching the network
(``no_network``; HTML parsing loads no DTD and expands no entities beyond HTML's own). libxml2
predates HTML5 tree construction: the repairs below make it read what it would pass over.

The containers (containers/) hand each document's bytes here, stdin and streams included
(run/batch.py opens the inputs). The loaders of the other document types (a style sheet, an SVG
image) are in find/sheets.py, whose ``LOADERS`` chooses one per ``DocType``; each yields a Document.
"""

from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lxml import etree

from ..compiled import disabled
from ..compiled import load as load_compiled

# the module under a name of its own: `from baselinks.load import html5` must find the module,
# not this module's name for it (load/__init__.py forwards this module's names, _moved.py)
from . import html5 as _html5
from .encoding import REPLACEMENT, REPLACEMENT_UNREAD, decode_as, sniff
from .tokens import (
    MAX_ATTRIBUTES,
    PARSER_RAW_TEXT,
    cap_attributes,
    flatten,
    late_tags,
    passed_over,
    self_closing,
    skip,
    tags,
)

__all__ = [
    "Document",
    "Loadable",
    "limit_attributes",
    "load",
    "load_text",
    "parse_html",
    "parse_utf8",
    "read_source",
]

# A document's bytes, or the path of a file holding them (batch.Source is any input: a stream too).
Loadable = bytes | bytearray | memoryview | str | os.PathLike[str]

# libxml2 (2.14, lxml 6.1) stops building the tree at the first "</html>" end tag: everything
# after it is dropped, where a browser keeps parsing into <body>. Measured on the corpus: 4
# documents lose content, one of them 30 links (fixture: fixtures/html/after-html-end.html).
# Such an end tag is blanked out before parsing, keeping its newlines so that line numbers do
# not move; only an end tag, where the tokenizer is in its data state: a "</html>" inside an
# attribute value, a comment or a script is text, which libxml2 reads as such too, and is kept
# (`<iframe src='javascript:"<html></html>"'>`; fixture: fixtures/browser/pages/
# browser-quirks.html). A page whose first "</html>" is followed by nothing but spaces and
# comments (nothing to lose) is left as it is, not scanned: 2 of the corpus's 316 HTML pages
# are scanned.
_HTML_END_TAG = re.compile(rb"</html[\t\n\f\r />]", re.IGNORECASE)
_HTML_END_TAG_WHOLE = re.compile(rb"</html[\t\n\f\r ]*>", re.IGNORECASE)
_SPACES = re.compile(rb"[\t\n\f\r ]*")


def _ends_the_page(data: bytes, start: int) -> bool:
    """Whether the end tag at ``start`` is followed by nothing but spaces and comments."""
    tag = _HTML_END_TAG_WHOLE.match(data, start)
    if tag is None:
        return False
    pos = tag.end()
    while (pos := skip(_SPACES, data, pos)) < len(data):
        if not data.startswith(b"<!--", pos):
            return False
        close = data.find(b"-->", pos + 2)  # from "<!" on: "<!-->" is a comment too
        if close < 0:
            return True  # the rest is a comment
        pos = close + 3
    return True


# What the scan below passes over in C: every tag but "</html" and those that change its state.
_END_STARTS = ("plaintext", *PARSER_RAW_TEXT)

# The same search in C (_cdocument.pyx: memchr to each "<"), or None: not built, or
# BASELINKS_PURE=1.
_cload = load_compiled("baselinks.load._cdocument")


def _first_end_tag(data: bytes) -> int:
    """Where the first match of _HTML_END_TAG starts in ``data``; -1 if none."""
    if _cload is not None:
        return int(_cload.first_html_end_tag(data))
    found = _HTML_END_TAG.search(data)
    return -1 if found is None else found.start()


def _blank_html_end_tags(data: bytes, *, reference: bool = False) -> bytes:
    """``data`` with each "</html>" end tag blanked (``reference``: every tag read step by
    step, what the scan passing over the others is tested against)."""
    return _blanked(data, reference=reference)[0]


def _blanked(data: bytes, *, reference: bool = False) -> tuple[bytes, int]:
    """:func:`_blank_html_end_tags`, and where libxml2 stops reading the bytes it gives (their
    length, unless a first "</html>" that ends the page is left: no further)."""
    first = _first_end_tag(data)
    if first < 0:
        return data, len(data)
    if _ends_the_page(data, first):
        return data, first
    # Latin-1 maps each byte to one character: the scanner's positions are the bytes'. Its
    # raw-text elements are libxml2's (noscript is markup there: an end tag in it stops it).
    parts, done = [], 0
    passing = None if reference else passed_over(_END_STARTS, ("html",))
    for name, _, start, end in tags(data.decode("latin-1"), PARSER_RAW_TEXT, (), passing):
        if name == "/html":
            parts += [data[done:start], re.sub(rb"[^\n]", b" ", data[start:end])]
            done = end
    return b"".join([*parts, data[done:]]), len(data)


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


def parse_utf8(data: bytes, parser: str | None = None) -> Any:
    """Parse UTF-8 HTML into an lxml root element (an empty ``<html>`` for an empty document
    under lxml's parser); ``parser``: "html5" or "lxml" (None: :func:`html5.choose`'s)."""
    return _parse(data, _html5.choose(parser))[0]


# Whether an HTML5 parse is kept as lexbor's own nodes, its lxml tree copied only when asked
# (Document.tree): the native walk (load/_chtml5_walk.pxi) reads them. Off with
# BASELINKS_PURE=1, as the compiled modules are: the parse is then copied at once.
_NATIVE = not disabled()


def _parse(data: bytes, parser: str = "lxml", keep: bool = False) -> tuple[Any, str, bool]:
    """The root element (with ``keep``, where the HTML5 parser is used: lexbor's parse,
    html5.parsed, its tree not yet copied); what the parser could not read ("" when it read
    everything); and whether it read every byte of ``data`` as UTF-8 and found none invalid
    (False when it found one, or cannot say: libxml2 stopped early, or its log filled up).

    ``parser`` "html5": the HTML standard's tree, which needs none of libxml2's repairs below;
    but a document past its limits (html5.MAX_DEPTH, MAX_NAMES) is libxml2's.

    The two repairs work on the bytes, where a search is a memchr or a byte-regex: on the
    corpus, the same searches on the decoded text took three times as long.
    """
    if parser == "html5":
        # lexbor's table of names is quadratic in one tag's attribute names (40,000 distinct
        # ones: 5 s, before the MAX_NAMES guard can stop it at the tag's end): the same cap as
        # libxml2's below, said the same way
        html5_data, capped = limit_attributes(data)
        # lexbor copies any byte into the tree, where lxml could not read it back: bytes that
        # are not UTF-8 are read as U+FFFD (load decodes such a page and parses it again)
        utf8 = _html5.valid_utf8(html5_data)
        given = html5_data if utf8 else html5_data.decode("utf-8", "replace").encode()
        root = _html5.parsed(given) if keep and _NATIVE else _html5.tree(given)
        if root is not None:
            return root, capped, utf8 and not capped
    valid = True
    data = _open_root(data)
    if b"</" in data:
        data, read_to = _blanked(data)
        if read_to < len(data):
            # libxml2 builds nothing after the first "</html>". 2.14 still reads (and checks)
            # what follows; should one not, Python checks it: a few bytes, spaces and comments.
            valid = _is_utf8(data[read_to:])
    if b"\x00" in data:
        data = data.replace(b"\x00", "\ufffd".encode())  # HTML: NUL is a parse error, U+FFFD
    data, capped = limit_attributes(data)
    if capped:
        valid = False  # bytes left out: the page's own are checked as it is decoded
    root, stopped, read = _libxml2(data)
    if stopped is _DEPTH:
        # Elements nested deeper than libxml2 builds: the tree ended there, and every link
        # after it would be lost. Parse again with the deepest elements made siblings, as a
        # browser does (Blink's parser stops nesting at 512).
        root, stopped, read = _libxml2(flatten(data))
        if stopped is _DEPTH:
            line = _PARSER.error_log.last_error.line
            stopped = (
                f"elements nested deeper than libxml2's limit at line {line}: "
                "the rest of the document is not read"
            )
            return root, "; ".join(filter(None, (stopped, capped))), False
    if _misplaced(_PARSER.error_log):
        _merge_late_attributes(root, data)
    if not stopped and _outside(root):
        stopped = f"libxml2 ended the document at line {root.sourceline}: the rest is not read"
    if capped:
        stopped = "; ".join(filter(None, (stopped, capped)))
    return root, stopped, valid and read and not stopped


_DEPTH = "depth"

# libxml2 (2.14) takes a self-closing <html/> that opens a document for the whole document: the
# rest goes into a second <html> beside it, outside the tree (`<html/><body><a href=x>`: no
# link, no error). HTML ignores the "/" of a start tag that is not a void element's (§13.2.6.1:
# "acknowledge the token's self-closing flag" is for void elements; for html it is a parse
# error, and the tag opens the element); it is blanked. Only a first tag can be the root: what
# may come before it is spaces, comments, a doctype and processing instructions (fixture:
# fixtures/html/html-self-closing.html).
_BEFORE_ROOT = re.compile(rb"(?:[\t\n\f\r ]++|<!--(?:(?!-->)[\s\S])*+-->|<[!?][^>]*+>)*+")
_ROOT_TAG = re.compile(rb"<html(?=[\t\n\f\r />])", re.IGNORECASE)


def _open_root(data: bytes) -> bytes:
    """``data`` with the "/" of a self-closing <html/> that opens it blanked."""
    root = _ROOT_TAG.match(data, skip(_BEFORE_ROOT, data, 0))
    if root is None:
        return data
    slash = self_closing(data, root.end())
    return data if slash < 0 else data[:slash] + b" " + data[slash + 1 :]


def _outside(root: Any) -> bool:
    """Whether libxml2 put an element beside the root, where no walk looks (the safety net
    for a case like <html/> above that no repair knows)."""
    return any(isinstance(sibling.tag, str) for sibling in root.itersiblings())


def limit_attributes(data: bytes, *, xml: bool = False) -> tuple[bytes, str]:
    """``data`` with the attributes of an element past its first MAX_ATTRIBUTES names left
    out, and the repeats of a name (tokens.cap_attributes, the compiled pass where built), and
    what was, said by line and byte offset of each element ("" when nothing was). libxml2's
    HTML and XML parsers are both quadratic in an element's attributes: the SVG loader
    (find/sheets.py) calls it too, with ``xml`` (names compared as written)."""
    passing = None if _cload is None else _cload.passed
    data, capped = cap_attributes(data, passing, xml=xml)
    said = []
    for offset, count in capped:
        line = data.count(b"\n", 0, offset) + 1
        said.append(
            f"an element with {count:,} attributes at line {line} (byte {offset}): the "
            f"{count - MAX_ATTRIBUTES:,} after the first {MAX_ATTRIBUTES} are not read"
        )
    return data, "; ".join(said)


def _libxml2(data: bytes) -> tuple[Any, str, bool]:
    root = etree.fromstring(data, _PARSER)  # None for a document without a node
    stopped, read = _stopped(_PARSER.error_log), _read_as_utf8(_PARSER.error_log)
    if root is None:
        root = etree.fromstring(b"<html></html>", _PARSER)
    return root, stopped, read


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


# libxml2 checks the UTF-8 it is given as it reads (2.14, measured: every ill-formed sequence
# Python's decoder refuses, in text, attribute values, comments, raw text, tag names, cut off
# at the end; tests/test_load_utf8.py), and logs ERR_INVALID_ENCODING. Its log keeps 100
# errors: a full log may have lost that one. Where the log can tell, a page declared or
# guessed UTF-8 is parsed as it is, and decoded only when its text is asked for (load).
_INVALID_ENCODING = 81  # xmlParserErrors: XML_ERR_INVALID_ENCODING
_LOG_KEPT = 100


def _read_as_utf8(log: Any) -> bool:
    return len(log) < _LOG_KEPT and all(entry.type != _INVALID_ENCODING for entry in log)


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _checks_utf8() -> bool:
    """Whether this libxml2 logs an ill-formed UTF-8 byte (if not, load decodes every page)."""
    etree.fromstring(b"<p>\x80</p>", _PARSER)
    return not _read_as_utf8(_PARSER.error_log)


_CHECKS_UTF8 = _checks_utf8()


def parse_html(text: str, parser: str | None = None) -> Any:
    """Parse HTML text into an lxml root element (as :func:`parse_utf8`)."""
    return parse_utf8(text.encode("utf-8", "surrogatepass"), parser)


@dataclass(frozen=True, slots=True)
class Document:
    """One HTML document: where it came from, how it was decoded, its text and tree."""

    name: str  # the file path, "-" for stdin or bytes, plus a part label for nested documents
    content: str | bytes  # its text, or the valid UTF-8 it decodes from (see text)
    encoding: str
    encoding_source: str  # "bom", "transport", "meta", "utf-16-detected", "utf-8-detected",
    #                       "default", or "text"
    root: Any  # lxml root element (None while ``native`` holds the parse: see tree)
    unread: str = ""  # what the parser could not read, when it stopped early ("" when none)
    # lexbor's parse, kept (html5.parsed): the native walk reads it, and the lxml tree is
    # copied from it only when asked for
    native: Any = None

    @property
    def tree(self) -> Any:
        """The lxml root element: copied from lexbor's parse when first asked (--select, a
        walk the native one leaves to lxml's tree, a program's own use)."""
        root = self.root
        if root is None and self.native is not None:
            root = self.native.tree()
            if root is None:  # the copy ran out of memory: libxml2 reads it, as tree() did
                content = self.content
                data = (
                    content
                    if isinstance(content, bytes)
                    else content.encode("utf-8", "surrogatepass")
                )
                root = _parse(data, "lxml")[0]
            object.__setattr__(self, "root", root)
        return root

    @property
    def text(self) -> str:
        """The document's text. A page in valid UTF-8 is kept as its bytes, and decoded here,
        when asked: the pipeline reads only their start (base.retrieval_base), and on the
        corpus the decoding took 0.09 of an lxml parse."""
        content = self.content
        return content if isinstance(content, str) else content.decode("utf-8")


def read_source(source: Loadable, name: str | None = None) -> tuple[bytes, str]:
    """The bytes of ``source`` and the name to report it by."""
    if isinstance(source, bytes | bytearray | memoryview):
        return bytes(source), name or "-"
    path = Path(source)
    return path.read_bytes(), name or os.fspath(source)


def load(
    source: Loadable,
    *,
    charset: str | None = None,
    name: str | None = None,
    parser: str | None = None,
) -> Document:
    """Read, decode and parse one HTML document. ``charset`` is the transport's, if known;
    ``parser`` "html5" or "lxml" (None: :func:`html5.choose`'s)."""
    data, label = read_source(source, name)
    chosen = _html5.choose(parser)
    encoding, found = sniff(data, charset)
    if encoding == "utf-8" and found != "bom":
        # Declared or guessed UTF-8: if it is valid, the bytes are what the parser wants, and
        # the text is decoded only if asked for. libxml2 tells as it parses, the HTML5 parser
        # by a check in C; where neither can, Python's decoder does. If it is not, it is
        # decoded (U+FFFD, or windows-1252 when only guessed) and parsed again, as every other
        # page is.
        root, unread, vouched = _parse(data, chosen, keep=True)
        if (vouched and _CHECKS_UTF8) or _is_utf8(data):
            return _document(label, data, "utf-8", found, root, unread)
    return _decoded(data, label, encoding, found, chosen)


def _decoded(
    data: bytes, label: str, encoding: str, found: str, parser: str | None = None
) -> Document:
    """The page decoded to text (as :func:`encoding.sniff` chose), then parsed: every page
    but valid UTF-8 (which gives the same), and the reference load is tested against."""
    decoded = decode_as(data, encoding, found)
    text = decoded.text
    if decoded.encoding == "utf-8" and decoded.source != "bom" and "\ufffd" not in text:
        utf8 = data  # valid UTF-8 (nothing was replaced): already the bytes the parser wants
    else:
        utf8 = text.encode("utf-8", "surrogatepass")
    root, unread, _ = _parse(utf8, _html5.choose(parser), keep=True)
    if decoded.encoding == REPLACEMENT and data:
        unread = REPLACEMENT_UNREAD
    return _document(label, text, decoded.encoding, decoded.source, root, unread)


def load_text(text: str, name: str, parser: str | None = None) -> Document:
    """A document that is already text (an ``iframe srcdoc``): parse only."""
    root, unread, _ = _parse(
        text.encode("utf-8", "surrogatepass"), _html5.choose(parser), keep=True
    )
    return _document(name, text, "utf-8", "text", root, unread)


def _document(
    name: str, content: str | bytes, encoding: str, source: str, root: Any, unread: str
) -> Document:
    """The Document, its ``root`` an lxml element, or lexbor's parse kept as ``native``."""
    if root is not None and not isinstance(root, etree._Element):
        return Document(name, content, encoding, source, None, unread, native=root)
    return Document(name, content, encoding, source, root, unread)


# https://html.spec.whatwg.org/#parsing-main-inbody, 'A start tag whose tag name is "html"':
# "for each attribute on the token, check to see if the attribute is already present on the
# top element of the stack of open elements. If it is not, add the attribute and its
# corresponding value to that element." A "body" start tag does the same to the body element,
# and both are ignored inside a <template>. libxml2 drops such a tag, and with it
# `<p>x</p><html manifest="m"><body background="bg.png">` loses both links (fixture:
# fixtures/html/late-html-body.html). It says so in its error log ("misplaced <body> tag"),
# having read comments and scripts as such: only those documents are tokenized again.
_MISPLACED = ("misplaced <html>", "misplaced <body>")


def _misplaced(log: Any) -> bool:
    return any(_MISPLACED[0] in entry.message or _MISPLACED[1] in entry.message for entry in log)


def _merge_late_attributes(root: Any, data: bytes) -> None:
    elements = {"html": root, "body": root.find("body")}
    for name, attributes in late_tags(data.decode("utf-8", "replace")):
        element = elements[name]
        if element is None:
            continue  # a <frameset> page: no body element
        for key, value in attributes.items():
            if key not in element.attrib:
                # a name lxml cannot hold (`"x`) is no URL attribute either
                with contextlib.suppress(ValueError):
                    element.set(key, value)
