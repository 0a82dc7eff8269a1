"""The HTML standard's URL-bearing micro-syntaxes, as pure functions on strings.

``srcset`` (§4.8.4.3.11 "parse a srcset attribute"), ``<meta http-equiv=refresh>`` content
(§4.2.5.3 "shared declarative refresh steps"), space-separated URL lists (``ping``,
``itemtype``, ``archive``), HTTP ``Link`` headers (RFC 8288), and CSS
``url()``/``@import``/``image-set()``: a scanner of the URL-bearing CSS tokens, with tinycss2's
tokenizer as the reference it defers to and is tested against. None of them resolves anything;
each returns the URL strings as written.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

import tinycss2

__all__ = ["CSSURL", "Candidate", "css_urls", "parse_refresh", "parse_srcset", "split_urls"]

ASCII_WHITESPACE = "\t\n\x0c\r "


def split_urls(value: str, separator: str | None = None) -> list[str]:
    """Tokens of a space-separated (or ``separator``-separated) list, empty ones dropped."""
    if separator is None:
        return value.split() if value.isascii() else [t for t in _split_ascii(value) if t]
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
        rel = ""
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
            else:
                pos += 1
        if url is not None:
            links.append(HeaderLink(url, rel))
    return links


class CSSURL(NamedTuple):
    """A URL found in CSS, with the micro-syntax that held it and its 1-based line in the CSS."""

    url: str
    syntax: str  # "url()" | "@import" | "image-set()"
    line: int


_IMAGE_SETS = ("image-set", "-webkit-image-set")
# Every URL in CSS comes through "url(", "src(", "@import" or "image-set(", unless a backslash
# escape spells one of them (u\72l), so CSS without any of these is not tokenized. Substring
# tests on the lower-cased text: a case-insensitive regex alternation took 10 times as long.
_MAY_HOLD_URL = ("url(", "src(", "@import", "image-set")


def css_urls(css: str) -> list[CSSURL]:
    """Every ``url()``, ``@import`` string and ``image-set()`` string in a style sheet or a
    ``style`` attribute, in order, with CSS escapes in them decoded; comments are skipped.

    CSS Syntax Level 3 tokenization decides what is a URL; :func:`_scan` does it for the
    URL-bearing subset in one regular-expression pass, and hands anything it does not model
    (an escape in a function name, an unquoted ``url(`` with escapes, a string broken by a
    newline) to tinycss2, the reference. Both give the same answer: a property test compares
    them on generated CSS.
    """
    if "\\" not in css:
        lowered = css.lower()
        if not any(word in lowered for word in _MAY_HOLD_URL):
            return []  # most style attributes: nothing to tokenize
    found = _scan(css)
    return found if found is not None else css_urls_tinycss2(css)


def css_urls_tinycss2(css: str) -> list[CSSURL]:
    """:func:`css_urls` through tinycss2's full tokenizer (the reference; slower)."""
    found: list[CSSURL] = []
    _walk(tinycss2.parse_component_value_list(css, skip_comments=True), found, in_image_set=False)
    return found


# Why a scanner of our own: tinycss2 tokenizes all of a style sheet into Python objects, and
# that took 75% of extraction time on the corpus (big <style> blocks of 100-500 KB). Only a few
# tokens can hold a URL, and Python looks only where one could start.
#
# Outside every function of ours, one match skips all that cannot start a URL: runs of other
# characters, whole strings, whole comments, a "/" that opens no comment, a "(" that does not
# follow "url", "src" or "set" (calc(, format(, not(...), an "@" that is not "@import". It
# stops at what Python must look at. Each alternative begins with a distinct character and
# every repetition is possessive (Python 3.11), so nothing is tried twice: linear. Inside
# url(), src() and image-set(), brackets matter too, and one character class finds the next
# place to look.
# Measured on the corpus's 12 MB of <style>: tinycss2 6.2 s; one alternation of the tokens,
# searched, 2 s (sre tries every branch at every position); stopping in Python at every quote,
# "/", "(" and "@" 0.2 s; this skip a third of that.
_SKIP_TOP = re.compile(
    r"""(?:[^"'/\\(@]++"""
    r"""|"(?:[^"\\\n]|\\.)*+"|'(?:[^'\\\n]|\\.)*+'"""
    r"""|/\*.*?(?:\*/|\Z)|/(?!\*)"""
    r"""|(?<![uU][rR][lL])(?<![sS][rR][cC])(?<![sS][eE][tT])\("""
    r"""|@(?![iI][mM][pP][oO][rR][tT]))*+""",
    re.DOTALL,
)
# Every pattern below is linear, for one of three reasons: a single character class (or a
# literal and bounded classes); alternatives that start with different characters, so that
# no text can be matched two ways; or a pattern that ends in "*" and so never fails after it
# started (backtracking only begins when a match fails). A string that runs to the end fails
# once, and the sheet goes to tinycss2: one more linear pass, never one per character.
_TRIGGER_NESTED = re.compile(r"[/\"'\\(@)\[\]{}]")  # inside url(), src(), image-set()
_STRING = {
    '"': re.compile(r'"(?:[^"\\\n]|\\.)*"', re.DOTALL),
    "'": re.compile(r"'(?:[^'\\\n]|\\.)*'", re.DOTALL),
}
_NAME_BEFORE = re.compile(r"[\w\-\u0080-\U0010ffff]*\Z")  # on a short slice before "("
_NAME_CHAR = re.compile(r"[\w\-\u0080-\U0010ffff]")
_NAME_CHARS = re.compile(r"[\w\-\u0080-\U0010ffff]*")
_FUNCTIONS = {
    "url": "url",
    "src": "src",
    "image-set": "image-set",
    "-webkit-image-set": "image-set",
}
_LONGEST_FUNCTION = len("-webkit-image-set")
_SPACE = re.compile(r"[ \t\n]*")
# The rest of an unquoted url( token (CSS Syntax §4.3.6): no quotes, parentheses, whitespace
# inside, escapes or non-printables; anything else goes to tinycss2.
_URL_REST = re.compile(r"[ \t\n]*([^\"'()\\\s\x00-\x08\x0b\x0e-\x1f\x7f]*)[ \t\n]*(?:\)|\Z)")
_SKIP_SPACE_AND_COMMENTS = re.compile(r"(?:[ \t\n]++|/\*.*?(?:\*/|\Z))*+", re.DOTALL)
_STRING_ESCAPE = re.compile(r"\\(?:([0-9a-fA-F]{1,6})(?:\r\n|[ \t\n])?|(\n)|(.)|\Z)", re.DOTALL)
_CLOSERS = {"(": ")", "[": "]", "{": "}"}


def _unescape_match(match: re.Match[str]) -> str:
    hex_digits, newline, char = match.groups()
    if hex_digits is not None:
        code = int(hex_digits, 16)
        return "\ufffd" if code == 0 or 0xD800 <= code <= 0xDFFF or code > 0x10FFFF else chr(code)
    if newline is not None:
        return ""  # an escaped newline continues the string
    return char if char is not None else ""


def _string_value(token: str) -> str:
    body = token[1:-1]
    return _STRING_ESCAPE.sub(_unescape_match, body) if "\\" in body else body


_ESCAPE = re.compile(r"\\(?:[0-9a-fA-F]{1,6}(?:\r\n|[ \t\n])?|[^\n])")
# The rest of a name after an escape: name characters and further escapes.
_NAME_REST = re.compile(r"(?:[\w\-\u0080-\U0010ffff]|\\(?:[0-9a-fA-F]{1,6}[ \t\n]?|[^\n]))*")


def _escape_names_something(css: str, backslash: int) -> tuple[bool, int]:
    """Whether the escape at ``backslash`` is part of a function name or an at-keyword (then
    only tinycss2 can tell what it spells), and where the escape ends."""
    escape = _ESCAPE.match(css, backslash)
    if escape is None:
        return False, backslash + 1  # a backslash before a newline: a lone delimiter
    name_end = _NAME_REST.match(css, escape.end()).end()  # type: ignore[union-attr]
    if css.startswith("(", name_end):
        return True, name_end
    before = backslash
    while before > 0 and (_NAME_CHAR.match(css, before - 1) or css[before - 1] == "\\"):
        before -= 1
    return before > 0 and css[before - 1] == "@", name_end


def _function_before(css: str, paren: int) -> tuple[str, int]:
    """The role of the function whose "(" is at ``paren`` ("" for none of ours), its start."""
    window = css[max(0, paren - _LONGEST_FUNCTION - 1) : paren]
    name = _NAME_BEFORE.search(window).group()  # type: ignore[union-attr]
    start = paren - len(name)
    role = _FUNCTIONS.get(name.lower(), "")
    if role and start and css[start - 1] in "#@\\":
        role = ""  # "#url(" is a hash token, "@url(" an at-keyword: no function
    return role, start


class _Open:
    """An open block or function: its closing character, and its role for URLs."""

    __slots__ = ("closer", "found_at", "role")

    def __init__(self, closer: str, role: str = "", found_at: int = -1) -> None:
        self.closer = closer
        self.role = role  # "" | "image-set" (strings in it are URLs) | "url" (url("x"), src("x"))
        self.found_at = found_at  # for "url": where its URL goes in `found`, -1 once filled


def _scan(css: str) -> list[CSSURL] | None:
    """The URL-bearing tokens of ``css`` (see :func:`css_urls`), or ``None`` to defer."""
    # CSS Syntax §3.3 preprocessing, as tinycss2 does it (lines count "\n" after it).
    if "\r" in css or "\f" in css or "\x00" in css:
        css = css.replace("\x00", "\ufffd").replace("\r\n", "\n").replace("\r", "\n")
        css = css.replace("\f", "\n")
    found: list[CSSURL | None] = []
    stack = [_Open("")]
    in_url = 0  # open url()/src() functions: tinycss2 reads only their own strings
    import_at = -1  # where the token after an "@import" starts
    line, counted = 1, 0
    pos = 0

    def line_at(offset: int) -> int:
        nonlocal line, counted
        line += css.count("\n", counted, offset)
        counted = offset
        return line

    end = len(css)
    while True:
        if len(stack) > 1:
            match = _TRIGGER_NESTED.search(css, pos)
            if match is None:
                break
            start = match.start()
        else:
            # the token after "@import" is looked at whatever it is (a string is its URL)
            start = pos if pos == import_at else _SKIP_TOP.match(css, pos).end()  # type: ignore[union-attr]
            if start >= end:
                break
        char = css[start]
        pos = start + 1
        top = stack[-1]
        if char == "/":
            if css.startswith("*", pos):
                close = css.find("*/", pos + 1)
                pos = len(css) if close < 0 else close + 2
        elif char in "\"'":
            string = _STRING[char].match(css, start)
            if string is None:
                return None  # a string broken by a newline, or by the end: tinycss2's call
            pos = string.end()
            if start == import_at and not in_url:
                found.append(CSSURL(_string_value(string.group()), "@import", line_at(start)))
            elif top.role == "image-set" and not in_url:
                found.append(CSSURL(_string_value(string.group()), "image-set()", line_at(start)))
            elif top.role == "url" and top.found_at >= 0:
                slot = found[top.found_at]
                assert slot is not None
                found[top.found_at] = slot._replace(url=_string_value(string.group()))
                top.found_at = -1
        elif char == "(":
            role, name_start = _function_before(css, start)
            after_import = name_start == import_at
            after_space = _SPACE.match(css, pos).end()  # type: ignore[union-attr]
            if role == "url" and css[after_space : after_space + 1] not in ('"', "'"):
                rest = _URL_REST.match(css, pos)
                if rest is None:
                    return None  # escapes in it, or a bad url token
                if not in_url:
                    syntax = "@import" if after_import else "url()"
                    found.append(CSSURL(rest.group(1), syntax, line_at(name_start)))
                pos = rest.end()
            elif role in ("url", "src"):
                at = -1
                if not in_url:
                    at = len(found)
                    syntax = "@import" if after_import else "url()"
                    found.append(CSSURL("", syntax, line_at(name_start)))
                stack.append(_Open(")", "url", at))
                in_url += 1
            elif role == "image-set":
                stack.append(_Open(")", "image-set"))
            elif len(stack) > 1:
                stack.append(_Open(")"))
        elif char == "@":
            if css[pos : pos + 6].lower() == "import" and not _NAME_CHAR.match(css, pos + 6):
                skip = _SKIP_SPACE_AND_COMMENTS.match(css, pos + 6)
                import_at = pos = skip.end() if skip else pos + 6
        elif char == "\\":
            names, pos = _escape_names_something(css, start)
            if names:
                return None
        elif char in "[{":
            stack.append(_Open(_CLOSERS[char]))
        elif top.closer == char:
            _close(stack.pop(), found)
            if top.role == "url":
                in_url -= 1
    while len(stack) > 1:
        _close(stack.pop(), found)
    return [item for item in found if item is not None]


def _close(block: _Open, found: list[CSSURL | None]) -> None:
    if block.role == "url" and block.found_at >= 0:
        found[block.found_at] = None  # url() or src() without a string: no URL


def _walk(tokens: Iterable[Any], found: list[CSSURL], *, in_image_set: bool) -> None:
    # A stack, not recursion: blocks nest as deep as the sheet says (100,000 "(" would
    # overflow Python's stack; tinycss2's parser itself does not recurse).
    stack: list[tuple[Iterator[Any], bool]] = [(iter(tokens), in_image_set)]
    after_import = False
    while stack:
        level, in_image_set = stack[-1]
        token = next(level, None)
        if token is None:
            stack.pop()
            after_import = False
            continue
        kind = token.type
        if kind == "whitespace":  # comments were dropped by skip_comments=True
            continue
        if kind == "url":
            found.append(
                CSSURL(token.value, "@import" if after_import else "url()", token.source_line)
            )
        elif kind == "string" and (after_import or in_image_set):
            found.append(
                CSSURL(token.value, "@import" if after_import else "image-set()", token.source_line)
            )
        elif kind == "function":
            name = token.lower_name
            if name in ("url", "src"):
                strings = [arg for arg in token.arguments if arg.type == "string"]
                if strings:
                    syntax = "@import" if after_import else "url()"
                    found.append(CSSURL(strings[0].value, syntax, token.source_line))
            else:
                stack.append((iter(token.arguments), name in _IMAGE_SETS))
        elif kind in ("() block", "[] block", "{} block"):
            stack.append((iter(token.content), False))
        after_import = kind == "at-keyword" and token.lower_value == "import"
