"""The HTML standard's URL-bearing micro-syntaxes, as pure functions on strings.

``srcset`` (https://html.spec.whatwg.org/#parse-a-srcset-attribute), ``<meta http-equiv=refresh>``
content (https://html.spec.whatwg.org/#shared-declarative-refresh-steps), space-separated URL
lists (``ping``, ``itemtype``, ``archive``) and HTTP ``Link`` headers (RFC 8288). None of them
resolves anything; each returns the URL strings as written. The standard library only: the CSS
scanner, which needs tinycss2, is :mod:`baselinks.find.css`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

from ..load.tokens import ASCII_WHITESPACE

__all__ = [
    "Candidate",
    "HeaderLink",
    "parse_link_header",
    "parse_refresh",
    "parse_srcset",
    "split_urls",
    "text_lines",
]


# str.split() splits on more than ASCII whitespace: on \x0b and \x1c-\x1f too, and beyond
# ASCII on U+00A0 and the other Unicode spaces (ping="a\x0bb" is one URL to a browser).
_NOT_HTML_SPACE = re.compile("[\x0b\x1c-\x1f]")


def split_urls(value: str, separator: str | None = None) -> list[str]:
    """Tokens of a space-separated (or ``separator``-separated) list, empty ones dropped
    (https://infra.spec.whatwg.org/#split-on-ascii-whitespace)."""
    if separator is None:
        if value.isascii() and _NOT_HTML_SPACE.search(value) is None:
            return value.split()
        return [t for t in _split_ascii(value) if t]
    return [
        token.strip(ASCII_WHITESPACE)
        for token in value.split(separator)
        if token.strip(ASCII_WHITESPACE)
    ]


def _split_ascii(value: str) -> list[str]:
    # str.split() also splits on non-ASCII spaces (U+00A0...); HTML splits on ASCII only.
    for ws in "\t\n\x0c\r":
        value = value.replace(ws, " ")
    return value.split(" ")


class Candidate(NamedTuple):
    """One image candidate of a srcset: its URL and whether its descriptors are valid."""

    url: str
    descriptors: tuple[str, ...]
    valid: bool


# https://html.spec.whatwg.org/#valid-floating-point-number: "Optionally, a U+002D HYPHEN-MINUS
# character (-). One or both of the following, in the given order: A series of one or more ASCII
# digits. A single U+002E FULL STOP character (.) followed by a series of one or more ASCII
# digits. Optionally: [e or E], optionally [- or +], a series of one or more ASCII digits."
# Python's float() accepts far more ("1.", "+1", "1_0", "inf", "1\u00a0"), hence the grammar.
_FLOAT = re.compile(r"-?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
# https://html.spec.whatwg.org/#valid-non-negative-integer: "One or more ASCII digits".
_NON_NEGATIVE_INTEGER = re.compile(r"[0-9]+")


def _descriptors_valid(descriptors: list[str]) -> bool:
    """https://html.spec.whatwg.org/#parse-a-srcset-attribute, step 13 (and 14): at most one of
    w/x, h only beside w; w and h each a valid non-negative integer above zero, x a valid
    floating-point number not below zero (nor beyond a double, which parses as an error)."""
    seen: set[str] = set()
    for descriptor in descriptors:
        unit, number = descriptor[-1:], descriptor[:-1]
        if unit not in ("w", "x", "h") or unit in seen:
            return False
        seen.add(unit)
        if unit == "x":
            if _FLOAT.fullmatch(number) is None:
                return False
            value = float(number)
            if value < 0 or math.isinf(value):
                return False
        elif _NON_NEGATIVE_INTEGER.fullmatch(number) is None or int(number) == 0:
            return False
    return not (len(seen & {"w", "x"}) > 1 or ("h" in seen and "w" not in seen))


def parse_srcset(value: str) -> list[Candidate]:
    """Every candidate of a ``srcset``, in order, by the HTML standard's tokenizer.

    Commas inside a URL stay in it (``a,b.png 1x``); a URL ending in commas loses them. A
    candidate whose descriptors are invalid is kept with ``valid=False`` (a browser drops it,
    but a link extractor should still see the URL).
    """
    if "(" not in value:
        return _srcset_without_parens(value)
    return _srcset_steps(value)


# What the tokenizer's loops skip and collect, as single character classes (linear).
_SPLITTING = re.compile(r"[\t\n\x0c\r ,]*")  # step 4: ASCII whitespace and commas
_NOT_WHITESPACE = re.compile(r"[^\t\n\x0c\r ]+")  # step 6: the URL; and a descriptor


# Each candidate's validity by its descriptors: a page repeats a few ("1x", "2x", "300w"); the
# cache is bounded for pages of ever new widths.
@lru_cache(maxsize=1024)
def _candidate_valid(descriptors: tuple[str, ...]) -> bool:
    return _descriptors_valid(list(descriptors))


def _srcset_without_parens(value: str) -> list[Candidate]:
    """:func:`_srcset_steps` where ``value`` holds no "(", with whole runs at a time (the common
    case; 4 times as fast). Without a parenthesis the descriptor tokenizer (step 8) collects
    the ASCII-whitespace-separated tokens up to the next comma, which it consumes: a comma
    ends the candidate from any of its states. tests/test_microsyntax.py compares the two."""
    candidates: list[Candidate] = []
    new = tuple.__new__  # a Candidate without NamedTuple's Python-level __new__
    pos, end = 0, len(value)
    while True:
        pos = _SPLITTING.match(value, pos).end()  # type: ignore[union-attr]
        if pos >= end:
            return candidates
        url_end = _NOT_WHITESPACE.match(value, pos).end()  # type: ignore[union-attr]
        url = value[pos:url_end]
        descriptors: tuple[str, ...] = ()
        if url[-1] == ",":
            url = url.rstrip(",")  # 7.1
            pos = url_end
        else:
            comma = value.find(",", url_end)
            if comma < 0:
                comma = end
            descriptors = tuple(_NOT_WHITESPACE.findall(value, url_end, comma))
            pos = comma + 1
        candidates.append(new(Candidate, (url, descriptors, _candidate_valid(descriptors))))


def _srcset_steps(value: str) -> list[Candidate]:
    """:func:`parse_srcset`, the standard's steps one code point at a time (the reference)."""
    candidates: list[Candidate] = []
    pos, end = 0, len(value)
    while True:
        # 4. splitting loop: skip ASCII whitespace and commas
        while pos < end and (value[pos] in ASCII_WHITESPACE or value[pos] == ","):
            pos += 1
        if pos >= end:
            return candidates
        # 6. collect a sequence of code points that are not ASCII whitespace: the URL
        start = pos
        while pos < end and value[pos] not in ASCII_WHITESPACE:
            pos += 1
        url = value[start:pos]
        descriptors: list[str] = []
        if url.endswith(","):
            # 7.1 "remove all trailing U+002C COMMA characters from url"
            url = url.rstrip(",")
        else:
            # 8. descriptor tokenizer
            while pos < end and value[pos] in ASCII_WHITESPACE:
                pos += 1
            # The descriptor being collected is value[start:pos] (-1: none yet): the spec's
            # "append c to current descriptor" always appends the next code point, so it is a
            # slice, never a string grown one character at a time.
            start, state = -1, "in descriptor"
            while True:
                c = value[pos] if pos < end else ""
                if state == "in descriptor":
                    if c and c in ASCII_WHITESPACE:
                        if start >= 0:
                            descriptors.append(value[start:pos])
                        start, state = -1, "after descriptor"
                    elif c == ",":
                        if start >= 0:
                            descriptors.append(value[start:pos])
                        pos += 1
                        break
                    elif c == "(":
                        start = pos if start < 0 else start
                        state = "in parens"
                    elif not c:
                        if start >= 0:
                            descriptors.append(value[start:pos])
                        break
                    else:
                        start = pos if start < 0 else start
                elif state == "in parens":
                    if c == ")":
                        state = "in descriptor"
                    elif not c:
                        descriptors.append(value[start:pos])
                        break
                else:  # after descriptor
                    if not c:
                        break
                    if c not in ASCII_WHITESPACE:
                        state = "in descriptor"
                        continue  # reconsume
                pos += 1
        candidates.append(Candidate(url, tuple(descriptors), _descriptors_valid(descriptors)))


def parse_refresh(content: str) -> str | None:
    """The URL of a ``<meta http-equiv=refresh content>``, or ``None`` when it names none.

    The HTML standard's "shared declarative refresh steps", 2 to 11.10: ``5; URL='x'``,
    ``0,url=x``, ``5; x``, ``0; url = "x"`` all give ``x``. LinkChecker and wget keep the quotes;
    Scrapy misses the forms without ``url=``.
    """
    n = len(content)
    pos = 0

    def skip_whitespace(p: int) -> int:
        while p < n and content[p] in ASCII_WHITESPACE:
            p += 1
        return p

    pos = skip_whitespace(pos)  # 3
    start = pos
    while pos < n and content[pos] in "0123456789":  # 5
        pos += 1
    if pos == start and (pos >= n or content[pos] != "."):  # 6
        return None
    while pos < n and (content[pos] in "0123456789" or content[pos] == "."):  # 8
        pos += 1
    if pos < n:  # 10
        if content[pos] not in ";," and content[pos] not in ASCII_WHITESPACE:
            return None
        pos = skip_whitespace(pos)
        if pos < n and content[pos] in ";,":
            pos += 1
        pos = skip_whitespace(pos)
    if pos >= n:  # 11: no URL, the document refreshes itself
        return None
    url = content[pos:]  # 11.1
    skip_quotes = True
    if content[pos] in "Uu":  # 11.2-11.7: an optional "URL =" prefix
        pos += 1
        skip_quotes = False
        if pos < n and content[pos] in "Rr":
            pos += 1
            if pos < n and content[pos] in "Ll":
                pos = skip_whitespace(pos + 1)
                if pos < n and content[pos] == "=":
                    pos = skip_whitespace(pos + 1)
                    skip_quotes = True
    if skip_quotes:
        quote = content[pos] if pos < n and content[pos] in "'\"" else ""  # 11.8
        if quote:
            pos += 1
        url = content[pos:]  # 11.9
        if quote and quote in url:  # 11.10
            url = url[: url.index(quote)]
    return url


class HeaderLink(NamedTuple):
    """One link-value of an HTTP ``Link`` header: the target as written, and its rel tokens."""

    url: str
    rel: str  # lower case, space-separated
    hreflang: str = ""  # RFC 8288 §3.4.1: the first hreflang parameter, stripped


def parse_link_header(value: str) -> list[HeaderLink]:
    """RFC 8288 §3: ``<uri>; rel="next"; title="x", <uri2>; rel=prev``.

    Written by hand: the standard library has no parser for it, and the grammar (a list of
    ``<URI-Reference>`` each followed by ``;``-parameters whose quoted values may hold commas)
    needs a scanner, not a split. One pass, linear. A link-value that does not start with ``<``
    is skipped up to the next top-level comma.
    """
    links: list[HeaderLink] = []
    n = len(value)
    pos = 0
    while pos < n:
        while pos < n and value[pos] in " \t,":
            pos += 1
        if pos >= n:
            break
        url = None
        if value[pos] == "<":
            end = value.find(">", pos + 1)
            if end < 0:
                break
            url = value[pos + 1 : end]
            pos = end + 1
        rel = hreflang = ""
        # parameters, up to the next comma outside a quoted string
        while pos < n and value[pos] != ",":
            if value[pos] == ";":
                pos += 1
                start = pos
                while pos < n and value[pos] not in "=;,":
                    pos += 1
                key = value[start:pos].strip().lower()
                param = ""
                if pos < n and value[pos] == "=":
                    pos += 1
                    while pos < n and value[pos] in " \t":
                        pos += 1
                    if pos < n and value[pos] == '"':
                        pos += 1
                        chars = []
                        while pos < n and value[pos] != '"':
                            if value[pos] == "\\" and pos + 1 < n:
                                pos += 1
                            chars.append(value[pos])
                            pos += 1
                        pos += 1
                        param = "".join(chars)
                    else:
                        start = pos
                        while pos < n and value[pos] not in ";,":
                            pos += 1
                        param = value[start:pos].strip()
                if key == "rel" and not rel:  # §3.3: only the first rel counts
                    rel = " ".join(param.lower().split())
                elif key == "hreflang" and not hreflang:
                    hreflang = param.strip()
            else:
                pos += 1
        if url is not None:
            links.append(HeaderLink(url, rel, hreflang))
    return links


# --- lines of a text document: robots.txt, a text sitemap --------------------------------

# A line ends at LF, CR LF or CR, and nowhere else: RFC 9309 §2.2 ("EOL = %x0D / %x0A /
# %x0D.0A"), Google's robots.txt parser, and a text editor's three. str.splitlines() ends one
# at a form feed, a vertical tab, NEL (U+0085), U+2028 and U+2029 too, and more: one URL of a
# text sitemap with a form feed in it was two links, the tail resolved as a URL of its own.
_LINE_END = re.compile(r"\r\n|\r|\n")
# Characters split at a time: a 20 MB robots.txt of ten million short lines was split whole
# into a list of ten million strings (772 MB for its one Sitemap line).
_LINES_AT_A_TIME = 1 << 16


def text_lines(text: str) -> Iterator[tuple[int, str]]:
    """Each line of ``text`` and its number from 1, as it is read: the text is split a piece
    of some 64 K characters at a time, each piece ending at a line end, so that what is held
    is one piece's lines. A line end is LF, CR LF or CR (see above); the empty string after
    the last line end is no line, as ``str.splitlines()`` has it."""
    number, position, end = 0, 0, len(text)
    while position < end:
        found = _LINE_END.search(text, min(position + _LINES_AT_A_TIME, end))
        stop = end if found is None else found.end()
        lines = _LINE_END.split(text[position:stop])
        if text[stop - 1] in "\r\n":
            lines.pop()  # the "" after the piece's last line end
        for line in lines:
            number += 1
            yield number, line
        position = stop
