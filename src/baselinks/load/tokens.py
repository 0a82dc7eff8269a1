"""Hand-written scans of HTML markup, for the two questions libxml2 cannot answer (document.py).

* :func:`flatten`: which start tags open an element deeper than :data:`MAX_NESTING`, after
  libxml2 gave up on a document nested past its limit;
* :func:`late_tags`: the attributes of a late ``<html>``/``<body>`` start tag, which libxml2
  drops; :func:`tags`, the tokenizer's tags in its data state, also tells document.py which
  ``</html>`` is an end tag (and not text inside an attribute, comment or script).

Each is a forward-only scan of the HTML tokenizer's states that matter to it (HTML §13.2.5),
linear in the input: the standard library's ``html.parser`` is quadratic on unclosed comments
and tags and raises AssertionError on ``<![x``. The first works on bytes (before decoding is
needed), the second on text (attribute values are decoded).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Container, Iterator
from functools import lru_cache
from typing import AnyStr

__all__ = [
    "ASCII_WHITESPACE",
    "MAX_ATTRIBUTES",
    "MAX_NESTING",
    "PARSER_RAW_TEXT",
    "cap_attributes",
    "flatten",
    "late_tags",
    "late_tags_reference",
    "passed_over",
    "self_closing",
    "skip",
    "tags",
]

# https://infra.spec.whatwg.org/#ascii-whitespace: "U+0009 TAB, U+000A LF, U+000C FF, U+000D CR,
# or U+0020 SPACE", what the HTML standard strips from a URL attribute ("a valid URL potentially
# surrounded by spaces") and splits its lists on. Not str.split()'s set: \x0b and \x1c-\x1f
# are no HTML space (ping="a\x0bb" is one URL to a browser). The one statement of it: the base
# rules, the walk and the linker read it from here.
ASCII_WHITESPACE = "\t\n\x0c\r "

# Elements opened below this depth (as counted by _deep_start_tags) are closed at once, their
# content going to their parent. libxml2 stops at 2048; the count can fall short of libxml2's
# own when a stray end tag closes more than libxml2 would, hence the margin.
MAX_NESTING = 1024

# HTML §13.1.2: elements that have no end tag, and so never nest.
_VOID = frozenset({
    b"area", b"base", b"br", b"col", b"embed", b"hr", b"img", b"input", b"link", b"meta",
    b"param", b"source", b"track", b"wbr", b"basefont", b"bgsound", b"frame", b"keygen",
})  # fmt: skip


# The HTML tokenizer's delimiters (HTML §13.2.5), as far as depth needs them: a tag name, the
# attributes up to the next "=" or the tag's end, an unquoted value; a comment's end (§13.2.5.
# 43-52: "-->" or "--!>", and "<!-->" is a whole comment). Each is character classes in
# sequence, every class disjoint from the next: one way to match, no backtracking.
_TAG_NAME = re.compile(rb"[A-Za-z][^\t\n\f\r />]*")
_ATTRIBUTES = re.compile(rb"[\t\n\f\r /]*(?:[^\t\n\f\r />=][^\t\n\f\r />=]*)?[\t\n\f\r ]*")
_SPACE = re.compile(rb"[\t\n\f\r ]*")
_UNQUOTED = re.compile(rb"[^\t\n\f\r >]*")
_COMMENT_END = re.compile(rb"--!?>")
# Elements whose content is text up to their own end tag (§13.2.5.2-5: RCDATA, RAWTEXT,
# script data; <plaintext> runs to the end of the document).
# The search for the end tag is a literal prefix and one character class: linear.
_TEXT_ONLY = (
    b"script", b"style", b"textarea", b"title", b"xmp", b"iframe", b"noembed", b"noframes",
)  # fmt: skip
_TEXT_ENDS = {
    tag: re.compile(rb"</" + tag + rb"[\t\n\f\r />]", re.IGNORECASE) for tag in _TEXT_ONLY
}


def _tag_end(data: bytes, i: int) -> int:
    """The offset after the ``>`` that ends the tag whose attributes start at ``i``; -1 when
    the document ends first (the tag is then dropped, §13.2.5.32 "eof-in-tag")."""
    return _tag_end_slash(data, i)[0]


def self_closing(data: bytes, i: int) -> int:
    """The offset of the "/" that makes the start tag whose attributes start at ``i``
    self-closing, or -1: §13.2.5.40, a "/" where an attribute name may start, then ">"; not
    the last character of an unquoted value (``<html manifest=a/>``: the value is "a/")."""
    return _tag_end_slash(data, i)[1]


def _tag_end_slash(data: bytes, i: int) -> tuple[int, int]:
    n = len(data)
    while True:
        start = i
        i = _ATTRIBUTES.match(data, i).end()  # type: ignore[union-attr]  # matches ""
        if i >= n:
            return -1, -1
        if data[i] == 0x3E:  # ">"
            slash = i - 1 if i > start and data[i - 1] == 0x2F else -1  # "/" read here
            return i + 1, slash
        if data[i] == 0x3D:  # "=": a value, quoted or not
            i = _SPACE.match(data, i + 1).end()  # type: ignore[union-attr]
            if i < n and data[i] in b"\"'":
                i = data.find(data[i : i + 1], i + 1)
                if i < 0:
                    return -1, -1
                i += 1
            else:
                i = _UNQUOTED.match(data, i).end()  # type: ignore[union-attr]


def _deep_start_tags(data: bytes, limit: int) -> list[tuple[int, bytes]]:
    """(offset after the tag, name) of each start tag that opens an element deeper than
    ``limit``, in document order.

    Written by hand: the stdlib's ``html.parser`` (used here before) is quadratic on unclosed
    tags (``<a <a <a`` after 3000 ``<div>``: 90 KB took 182 s) and raises AssertionError on
    ``<![x``, and libxml2,
    which gave up on the document, cannot be asked. The depth is a stack of open names, with a
    count per name so that a stray end tag costs nothing; an end tag closes up to its name,
    as libxml2 does for most tags. Each step moves forward: linear in the document.
    """
    open_names: list[bytes] = []
    counts: dict[bytes, int] = {}
    cuts: list[tuple[int, bytes]] = []
    n = len(data)
    i = data.find(b"<")
    while 0 <= i < n - 1:
        following = data[i + 1]
        if data.startswith(b"<!--", i):
            found = _COMMENT_END.search(data, i + 2)
            i = n if found is None else found.end()
        elif following in b"!?" or (following == 0x2F and not _TAG_NAME.match(data, i + 2)):
            i = data.find(b">", i + 2) + 1 or n  # a bogus comment, to the next ">"
        elif following == 0x2F:  # "/": an end tag
            name = _TAG_NAME.match(data, i + 2)
            assert name is not None  # tested above
            tag = name.group().lower()
            i = _tag_end(data, name.end())
            if counts.get(tag):
                while True:
                    closed = open_names.pop()
                    counts[closed] -= 1
                    if closed == tag:
                        break
        elif (name := _TAG_NAME.match(data, i + 1)) is not None:
            tag = name.group().lower()
            i = _tag_end(data, name.end())
            if i < 0:
                break
            if tag in _VOID or data[i - 2] == 0x2F:  # "/>": opened and closed, as before
                pass
            elif len(open_names) < limit:
                open_names.append(tag)
                counts[tag] = counts.get(tag, 0) + 1
            else:
                cuts.append((i, tag))
            if tag == b"plaintext":
                break
            text_end = _TEXT_ENDS.get(tag)
            if text_end is not None:
                found = text_end.search(data, i)
                i = n if found is None else found.start()
                continue
        else:
            i += 1  # "<" and no tag: text
        if i < 0:
            break
        i = data.find(b"<", i)
    return cuts


def flatten(data: bytes, limit: int | None = None) -> bytes:
    """``data`` with an end tag written after each start tag deeper than ``limit``
    (:data:`MAX_NESTING`: libxml2's; html5.py gives Blink's)."""
    pieces: list[bytes] = []
    done = 0
    for end, tag in _deep_start_tags(data, MAX_NESTING if limit is None else limit):
        pieces += (data[done:end], b"</" + tag + b">")
        done = end
    pieces.append(data[done:])
    return b"".join(pieces)


# A scanner of the HTML tokenizer's states that matter here, by hand: libxml2's SAX interface
# never reports a tag it drops, and the standard library's html.parser (3.11) is quadratic on
# unclosed comments ("<!--" repeated: 80 KB took 2.1 s, 160 KB 8.8 s). Each step below moves
# forward with a find or an anchored match of one character class: linear in the text.
_MARKUP = re.compile(r"<(!--|[!?]|/?[A-Za-z])")
_NAME = re.compile(r"[^\t\n\f\r />]*")
_GAP = re.compile(r"[\t\n\f\r /]*")
_WHITE = re.compile(r"[\t\n\f\r ]*")
_ATTR_NAME_REST = re.compile(r"[^\t\n\f\r />=]*")
_BARE = re.compile(r"[^\t\n\f\r >]*")
# The same attribute states as one expression, for a tag whose attributes are not wanted: only
# where the tag ends. Possessive, so it cannot backtrack; it fails where _attributes would run
# off the text (an unclosed quote, no ">"), and _attributes then gives the answer. On the
# corpus's 8 documents with a late <html>/<body>, 21,848 tags: late_tags took 190 ms of the
# profiled 2.9 s, the Python attribute loop two thirds of it.
_TAG_REST = re.compile(
    r"(?:[\t\n\f\r /]*+[^\t\n\f\r />][^\t\n\f\r />=]*+[\t\n\f\r ]*+"
    r"""(?:=[\t\n\f\r ]*+(?:"[^"]*+"|'[^']*+'|(?!["'])[^\t\n\f\r >]*+)|(?!=)))*+"""
    r"[\t\n\f\r /]*+>"
)
_NONE: dict[str, str] = {}  # the attributes of a tag whose attributes are not wanted (read only)
# Elements whose content is text (noscript too, with scripting enabled): "</name" ends them.
_RAW_TEXT = ("script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes")
_RAW_TEXT_END = {
    name: re.compile(rf"</{name}[\t\n\f\r />]", re.IGNORECASE) for name in (*_RAW_TEXT, "noscript")
}
# libxml2's (measured, 2.14): the same but noscript, whose content it parses as markup.
PARSER_RAW_TEXT = {name: _RAW_TEXT_END[name] for name in _RAW_TEXT}


_LATE = frozenset(("html", "body"))


@lru_cache(maxsize=8)  # compiled when first needed (by few pages), once: 2 are used
def passed_over(starts: tuple[str, ...], ends: tuple[str, ...] = ()) -> re.Pattern[str]:
    """One expression for what :func:`tags` passes over without a change of state that
    matters to a caller who watches only the start tags ``starts`` and the end tags ``ends``
    (names in lower case; give every raw-text element and plaintext among ``starts``): text,
    a "<" that starts no markup, comments, doctypes and bogus comments, and every other tag
    whose attributes _TAG_REST reads to its ">". Possessive, so nothing is read twice; it
    stops before anything it cannot read whole (a comment or tag the text ends in), which
    :func:`tags` then reads step by step as without it.

    Given to :func:`tags` as ``passing``: on the corpus's 8 pages with a late <html>/<body>
    (21,848 tags), late_tags took 0.046 of an lxml parse of the 316 pages tag by tag, 0.010
    this way. The names are matched in ASCII case, which is how ``str.lower`` folds them:
    the only other characters it lowers to ASCII letters are KELVIN SIGN ("k", in none of
    the names) and "İ" ("i" and a combining dot: two characters, no name either).
    """

    def names(them: tuple[str, ...]) -> str:
        return "|".join(sorted(map(re.escape, them))) or "(?!)"

    def other(prefix: str, them: tuple[str, ...]) -> str:
        # a tag whose name (to a space, "/" or ">") is none of ``them``, to its ">"
        return (
            rf"{prefix}(?!(?:{names(them)})(?:[\t\n\f\r />]|\Z))[A-Za-z][^\t\n\f\r />]*+"
            + _TAG_REST.pattern
        )

    return re.compile(
        r"(?ai:[^<]++"
        r"|<(?![!?A-Za-z]|/[A-Za-z])"
        r"|<!--(?:-?>|(?:(?!-->)[\s\S])*+-->)"
        r"|<(?:!(?!--)|\?)[^>]*+>"
        rf"|{other('<', starts)}|{other('</', ends)})*+"
    )


# late_tags' states: the tags it counts, every element whose content is text, and plaintext.
_LATE_STARTS = (*sorted(_LATE), "template", "plaintext", *_RAW_TEXT_END)


def late_tags(text: str) -> list[tuple[str, dict[str, str]]]:
    """Every ``<html>`` and ``<body>`` start tag's attributes, in order, outside comments, raw
    text, ``<template>`` and ``<noscript>``. Of an attribute written twice in one tag the first
    counts (HTML: the duplicate "must be removed from the token")."""
    return _late(tags(text, _RAW_TEXT_END, _LATE, passed_over(_LATE_STARTS, ("template",))))


def late_tags_reference(text: str) -> list[tuple[str, dict[str, str]]]:
    """:func:`late_tags` reading every tag step by step: the reference it is tested against."""
    return _late(tags(text, _RAW_TEXT_END, _LATE))


def _late(
    found_tags: Iterator[tuple[str, dict[str, str], int, int]],
) -> list[tuple[str, dict[str, str]]]:
    found: list[tuple[str, dict[str, str]]] = []
    templates = 0
    for name, attributes, _, _ in found_tags:
        if name == "/template" and templates:
            templates -= 1
        elif name == "template":
            templates += 1
        elif name in _LATE and not templates:
            found.append((name, attributes))
    return found


def tags(
    text: str,
    raw_text: dict[str, re.Pattern[str]],
    wanted: Container[str] | None = None,
    passing: re.Pattern[str] | None = None,
) -> Iterator[tuple[str, dict[str, str], int, int]]:
    """Each tag of the tokenizer's data state, in order: its name in lower case (an end tag's
    with "/"), attributes, start and end; comments, doctypes and the content of ``raw_text``
    elements passed over. The text ends inside a tag: that tag is dropped. With ``wanted``,
    only the tags it names have their attributes read; the others' are given empty. With
    ``passing`` (from :func:`passed_over`), the tags it passes over are not given at all."""
    pos = 0
    while True:
        if passing is not None:
            pos = skip(passing, text, pos)
        markup = _MARKUP.search(text, pos)
        if markup is None:
            return
        kind, start, pos = markup.group(1), markup.start(), markup.end()
        if kind == "!--":
            if text.startswith((">", "->"), pos):  # <!--> and <!---> are empty comments
                pos = text.index(">", pos) + 1
                continue
            end = text.find("-->", pos)
            if end < 0:
                return  # the rest is a comment
            pos = end + 3
        elif kind in ("!", "?"):  # a doctype or a bogus comment
            end = text.find(">", pos)
            if end < 0:
                return
            pos = end + 1
        else:  # a start or an end tag (whose attributes are a parse error, and tokenized)
            rest = skip(_NAME, text, pos)
            name = (kind + text[pos:rest]).lower()
            ended = None if wanted is None or name in wanted else _TAG_REST.match(text, rest)
            if ended is not None:
                attributes, pos = _NONE, ended.end()
            else:
                read, pos = _attributes(text, rest)
                if read is None:
                    return
                attributes = read
            yield name, attributes, start, pos
            if name == "plaintext":
                return  # the rest is text
            if name in raw_text:
                ended = raw_text[name].search(text, pos)
                if ended is None:
                    return
                pos = ended.start()


def skip(pattern: re.Pattern[AnyStr], text: AnyStr, pos: int) -> int:
    """Where the run of ``pattern`` (one character class, which matches the empty string)
    that starts at ``pos`` ends."""
    run = pattern.match(text, pos)
    assert run is not None  # a starred class always matches
    return run.end()


def _attributes(text: str, pos: int) -> tuple[dict[str, str] | None, int]:
    """HTML's attribute states from ``pos`` (after a tag name) to the tag's ``>``: the
    attributes, character references decoded, and where the tag ends; ``None`` at the end of
    the text."""
    attributes: dict[str, str] = {}
    end = len(text)
    while True:
        pos = skip(_GAP, text, pos)
        if pos >= end:
            return None, end
        if text[pos] == ">":
            return attributes, pos + 1
        # "=" first is part of the name; then up to space, "/", ">" or "="
        after = skip(_ATTR_NAME_REST, text, pos + 1)
        name = text[pos:after].lower()
        pos = skip(_WHITE, text, after)
        value = ""
        if text.startswith("=", pos):
            pos = skip(_WHITE, text, pos + 1)
            if text.startswith(('"', "'"), pos):
                close = text.find(text[pos], pos + 1)
                if close < 0:
                    return None, end
                value, pos = text[pos + 1 : close], close + 1
            else:
                after = skip(_BARE, text, pos)
                value, pos = text[pos:after], after
            value = html.unescape(value)
        attributes.setdefault(name, value)


# --- attributes per element ---------------------------------------------------------------

# libxml2 checks each attribute of a tag against every one before it (htmlParseStartTag: a
# duplicate is dropped): quadratic in the attributes of one element. Measured (2.14): 250
# attributes cost 400 ns a byte, 1,000 a microsecond, 8,000 seven (an ordinary page: 16 ns);
# 40,000 on one element took 14 s (39 s on a loaded machine). No page of the corpus has more
# than 70 on an element. Past this many, an element's attributes are dropped before parsing,
# and said (document.py): the first ones are kept, as HTML keeps the first of a duplicate.
MAX_ATTRIBUTES = 256

# One attribute of a start tag, bytes, from HTML §13.2.5.32-40: the gap before it (a "/" is
# one), its name, then "=" and a value, quoted or not. Possessive, each class disjoint from
# what follows it: no backtracking.
_ATTRIBUTE_NAME = rb"[^\t\n\f\r />][^\t\n\f\r />=]*+"
_ATTRIBUTE = (
    rb"[\t\n\f\r /]*+" + _ATTRIBUTE_NAME + rb"[\t\n\f\r ]*+"
    rb"""(?:=[\t\n\f\r ]*+(?:"[^"]*+"|'[^']*+'|(?!["'])[^\t\n\f\r >]*+))?+"""
)
_TAG_END = rb"[\t\n\f\r /]*+>"


def _raw_text_element(name: str) -> bytes:
    # a start tag of a raw-text element, and its text up to its end tag
    tag = rb"<(?i:" + name.encode() + rb")(?=[\t\n\f\r />])"
    attributes = rb"(?:" + _ATTRIBUTE + rb"){0,%d}+" % MAX_ATTRIBUTES
    text = rb"(?:[^<]++|<(?!/(?i:" + name.encode() + rb")[\t\n\f\r />]))*+"
    return tag + attributes + _TAG_END + text


# What the search for an element over MAX_ATTRIBUTES passes over in one expression: text, a
# "<" that starts no markup, comments, doctypes, bogus comments and processing instructions,
# end tags, the raw text of libxml2's raw-text elements, and every start tag of at most
# MAX_ATTRIBUTES attributes. Possessive: nothing is read twice. It stops at a tag of more, or
# at what runs to the end of the document (an unclosed comment, tag or quote): no tag after.
_PASSED = re.compile(
    rb"(?:[^<]++"
    rb"|<(?![!?/A-Za-z])"
    rb"|<!--(?:-?>|(?:[^-]++|-(?!->))*+-->)"
    rb"|<(?:!(?!--)|\?|/(?![A-Za-z]))[^>]*+>"
    rb"|</[A-Za-z][^\t\n\f\r />]*+(?:"
    + _ATTRIBUTE
    + rb")*+"
    + _TAG_END
    + b"".join(b"|" + _raw_text_element(name) for name in PARSER_RAW_TEXT)
    + rb"|<[A-Za-z][^\t\n\f\r />]*+(?:"
    + _ATTRIBUTE
    + rb"){0,%d}+" % MAX_ATTRIBUTES
    + _TAG_END
    + rb")*+"
)
_MANY = re.compile(rb"<[A-Za-z][^\t\n\f\r />]*+(?:" + _ATTRIBUTE + rb"){%d}+" % MAX_ATTRIBUTES)
_REST = re.compile(rb"(?:" + _ATTRIBUTE + rb")*+(" + _TAG_END + rb")")
_NOT_NEWLINE = re.compile(rb"[^\n]++")


def cap_attributes(
    data: bytes, passing: Callable[[bytes, int, int], int] | None = None, *, xml: bool = False
) -> tuple[bytes, list[tuple[int, int]]]:
    """``data`` with the attributes of each element after its first :data:`MAX_ATTRIBUTES`
    distinct names blanked (their line breaks kept: the line numbers stay), and a name's
    repeats with them; and for each element cut so, the offset of its tag and how many
    distinct names its attributes had. Linear: one possessive pass, or ``passing``
    (document.py's compiled copy of it: where it stops, from where, with how many attributes
    a start tag may have). ``xml``: names compared as written (HTML's are ASCII case-folded).

    HTML §13.2.5.33: "if there is already an attribute on the token with the exact same name,
    then this is a duplicate-attribute parse error and the new attribute must be removed from
    the token". A browser keeps the first of each name, so the cap counts names, not repeats:
    ``"<base " * 30000 + '<base href=...>'`` (w3lib's test) is one element of two attributes,
    ``<base`` and ``href``, whose base a browser uses (issue 36: it was cut at 256 of 30,001)."""
    pieces: list[bytes] = []
    capped: list[tuple[int, int]] = []
    done = position = 0
    while True:
        if passing is None:
            position = skip(_PASSED, data, position)
        else:
            position = passing(data, position, MAX_ATTRIBUTES)
        many = _MANY.match(data, position)
        if many is None or _ATTRIBUTE_START.match(data, many.end()) is None:
            break  # (stopped at what runs to the end: an unclosed comment, tag or quote)
        rest = _REST.match(data, many.end())
        end = len(data) if rest is None else rest.start(1)  # up to its "/>" or ">", or the end
        start = _TAG_NAME.match(data, position + 1).end()  # type: ignore[union-attr]
        kept, count = _first_of_each(data, start, end, xml)
        pieces += (data[done:start], kept)
        if count > MAX_ATTRIBUTES:
            capped.append((position, count))
        done = position = end
    if done == 0:
        return data, capped
    pieces.append(data[done:])
    return b"".join(pieces), capped


def _first_of_each(data: bytes, start: int, end: int, xml: bool) -> tuple[bytes, int]:
    """The attributes of a start tag, ``data[start:end]``, the first of each name only and
    of the first :data:`MAX_ATTRIBUTES` names only, the others blanked to their line breaks;
    and how many distinct names there are."""
    names: set[bytes] = set()
    pieces: list[bytes] = []
    joined = False  # an attribute was left out just before: the next must not touch the last
    for match in _ATTRIBUTE_NAMED.finditer(data, start, end):
        name = match.group(1) if xml else match.group(1).lower()  # ASCII, as the tokenizer
        piece = match.group()
        if name not in names and len(names) < MAX_ATTRIBUTES:
            if joined and piece[:1] not in _GAP_BYTES:
                pieces.append(b" ")  # (an unquoted value before must not run into it)
            pieces.append(piece)
            joined = False
        else:
            pieces.append(_NOT_NEWLINE.sub(b"", piece))
            joined = True
        names.add(name)
    return b"".join(pieces), len(names)


_ATTRIBUTE_START = re.compile(_ATTRIBUTE)
# One attribute, its name in group 1 (_ATTRIBUTE's), where a tag's attributes follow each other.
_ATTRIBUTE_NAMED = re.compile(_ATTRIBUTE.replace(_ATTRIBUTE_NAME, b"(%s)" % _ATTRIBUTE_NAME, 1))
_GAP_BYTES = (b"\t", b"\n", b"\f", b"\r", b" ", b"/")
