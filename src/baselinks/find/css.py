"""CSS ``url()``, ``@import`` and ``image-set()``: the URLs a style sheet or a ``style``
attribute holds, as written.

A scanner of the URL-bearing CSS tokens (CSS Syntax Level 3), with tinycss2's tokenizer as the
reference it defers to and is tested against. Used by the walk (``<style>`` text and ``style``
attributes) and by the load stage's style-sheet documents (``sheets.py``). It resolves nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from ..errors import scalar

__all__ = ["CSSURL", "css_urls", "css_urls_tinycss2"]


class CSSURL(NamedTuple):
    """A URL found in CSS, with the micro-syntax that held it and its 1-based line in the CSS."""

    url: str
    syntax: str  # "url()" | "@import" | "image-set()"
    line: int


_IMAGE_SETS = ("image-set", "-webkit-image-set")


def css_urls(css: str) -> list[CSSURL]:
    """Every ``url()``, ``@import`` string and ``image-set()`` string in a style sheet or a
    ``style`` attribute, in order, with CSS escapes in them decoded; comments are skipped.

    CSS Syntax Level 3 tokenization decides what is a URL; :func:`_scan` does it for the
    URL-bearing subset in one regular-expression pass, and hands anything it does not model
    (an escape in a function name, an unquoted ``url(`` with escapes, a string broken by a
    newline) to tinycss2, the reference. Both give the same answer: a property test compares
    them on generated CSS.
    """
    # Every URL in CSS comes through "url(", "src(", "@import" or "image-set(", unless a
    # backslash escape spells one of them (u\72l), so CSS without any of these is not
    # tokenized. Substring tests on the lower-cased text: a case-insensitive regex alternation
    # took 10 times as long, a generator over a tuple of the four words a third longer.
    if "\\" not in css:
        lowered = css.lower()
        if not (
            "url(" in lowered or "src(" in lowered or "@import" in lowered or "image-set" in lowered
        ):
            return []  # most style attributes: nothing to tokenize
    found = _scan(css)
    return found if found is not None else css_urls_tinycss2(css)


def css_urls_tinycss2(css: str) -> list[CSSURL]:
    """:func:`css_urls` through tinycss2's full tokenizer (the reference; slower).

    An escape of a surrogate (``url(\\D800)``) is U+FFFD, as CSS Syntax says ("consume an
    escaped code point") and the scanner makes it: tinycss2 gives the lone surrogate itself,
    which no UTF-8 holds (every writer refused it)."""
    import tinycss2  # loaded by the first sheet the scanner hands over, not by every run

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
# A name code point (https://drafts.csswg.org/css-syntax/#name-code-point): a letter, a digit,
# "_", "-", or anything past ASCII. Written as what it is not, ASCII alone: the same set as
# [\w\-\u0080-\U0010ffff] (tests/test_css.py checks every code point), but compiled in 0.05 ms
# where that class took 11 ms (sre tabulates the Unicode range), thrice at every start-up.
_NAME = r"[^\x00-\x2c\x2e\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]"
_NAME_BEFORE = re.compile(_NAME + r"*\Z")  # on a short slice before "("
_NAME_CHAR = re.compile(_NAME)
_FUNCTIONS = {
    "url": "url",
    "src": "src",
    "image-set": "image-set",
    "-webkit-image-set": "image-set",
}
_LONGEST_FUNCTION = len("-webkit-image-set")
_SPACE = re.compile(r"[ \t\n]*")
# The rest of an unquoted url( token (https://drafts.csswg.org/css-syntax/#consume-url-token): no
# quotes, parentheses, whitespace inside, escapes or non-printables; anything else goes to tinycss2.
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
_NAME_REST = re.compile(r"(?:" + _NAME + r"|\\(?:[0-9a-fA-F]{1,6}[ \t\n]?|[^\n]))*")


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


class _Scan:
    """The state of one :func:`_scan`: what is found, the open blocks, where lines are."""

    __slots__ = ("counted", "css", "found", "import_at", "in_url", "line", "stack")

    def __init__(self, css: str) -> None:
        self.css = css
        self.found: list[CSSURL | None] = []
        self.stack = [_Open("")]
        self.in_url = 0  # open url()/src() functions: tinycss2 reads only their own strings
        self.import_at = -1  # where the token after an "@import" starts
        self.line, self.counted = 1, 0

    def line_at(self, offset: int) -> int:
        self.line += self.css.count("\n", self.counted, offset)
        self.counted = offset
        return self.line

    def string(self, start: int, quote: str) -> int | None:
        """A string token at ``start``: a URL where it stands for one; the position after it,
        or None to defer (a string broken by a newline, or by the end: tinycss2's call)."""
        string = _STRING[quote].match(self.css, start)
        if string is None:
            return None
        top = self.stack[-1]
        if start == self.import_at and not self.in_url:
            self.found.append(CSSURL(_string_value(string.group()), "@import", self.line_at(start)))
        elif top.role == "image-set" and not self.in_url:
            value = _string_value(string.group())
            self.found.append(CSSURL(value, "image-set()", self.line_at(start)))
        elif top.role == "url" and top.found_at >= 0:
            slot = self.found[top.found_at]
            assert slot is not None
            self.found[top.found_at] = slot._replace(url=_string_value(string.group()))
            top.found_at = -1
        return string.end()

    def function(self, paren: int) -> int | None:
        """A "(" at ``paren``: a url token read whole, or a function opened (url(), src(),
        image-set(), any other in a block); the position after it, or None to defer."""
        css, pos = self.css, paren + 1
        role, name_start = _function_before(css, paren)
        syntax = "@import" if name_start == self.import_at else "url()"
        after_space = _SPACE.match(css, pos).end()  # type: ignore[union-attr]
        if role == "url" and css[after_space : after_space + 1] not in ('"', "'"):
            rest = _URL_REST.match(css, pos)
            if rest is None:
                return None  # escapes in it, or a bad url token
            if not self.in_url:
                self.found.append(CSSURL(rest.group(1), syntax, self.line_at(name_start)))
            return rest.end()
        if role in ("url", "src"):
            at = -1
            if not self.in_url:
                at = len(self.found)
                self.found.append(CSSURL("", syntax, self.line_at(name_start)))
            self.stack.append(_Open(")", "url", at))
            self.in_url += 1
        elif role == "image-set":
            self.stack.append(_Open(")", "image-set"))
        elif len(self.stack) > 1:
            self.stack.append(_Open(")"))
        return pos


def _scan(css: str) -> list[CSSURL] | None:
    """The URL-bearing tokens of ``css`` (see :func:`css_urls`), or ``None`` to defer."""
    # https://drafts.csswg.org/css-syntax/#input-preprocessing, as tinycss2 does it (lines count
    # "\n" after it).
    if "\r" in css or "\f" in css or "\x00" in css:
        css = css.replace("\x00", "\ufffd").replace("\r\n", "\n").replace("\r", "\n")
        css = css.replace("\f", "\n")
    scan = _Scan(css)
    stack, found = scan.stack, scan.found
    pos, end = 0, len(css)
    while True:
        if len(stack) > 1:
            match = _TRIGGER_NESTED.search(css, pos)
            if match is None:
                break
            start = match.start()
        else:
            # the token after "@import" is looked at whatever it is (a string is its URL)
            start = pos if pos == scan.import_at else _SKIP_TOP.match(css, pos).end()  # type: ignore[union-attr]
            if start >= end:
                break
        char = css[start]
        pos = start + 1
        if char == "/":
            if css.startswith("*", pos):
                close = css.find("*/", pos + 1)
                pos = len(css) if close < 0 else close + 2
        elif char in "\"'" or char == "(":
            after = scan.string(start, char) if char != "(" else scan.function(start)
            if after is None:
                return None
            pos = after
        elif char == "@":
            if css[pos : pos + 6].lower() == "import" and not _NAME_CHAR.match(css, pos + 6):
                skip = _SKIP_SPACE_AND_COMMENTS.match(css, pos + 6)
                scan.import_at = pos = skip.end() if skip else pos + 6
        elif char == "\\":
            names, pos = _escape_names_something(css, start)
            if names:
                return None
        elif char in "[{":
            stack.append(_Open(_CLOSERS[char]))
        elif stack[-1].closer == char:
            top = stack.pop()
            _close(top, found)
            if top.role == "url":
                scan.in_url -= 1
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
            syntax = "@import" if after_import else "url()"
            found.append(CSSURL(scalar(token.value), syntax, token.source_line))
        elif kind == "string" and (after_import or in_image_set):
            syntax = "@import" if after_import else "image-set()"
            found.append(CSSURL(scalar(token.value), syntax, token.source_line))
        elif kind == "function":
            name = token.lower_name
            if name in ("url", "src"):
                strings = [arg for arg in token.arguments if arg.type == "string"]
                if strings:
                    syntax = "@import" if after_import else "url()"
                    found.append(CSSURL(scalar(strings[0].value), syntax, token.source_line))
            else:
                stack.append((iter(token.arguments), name in _IMAGE_SETS))
        elif kind in ("() block", "[] block", "{} block"):
            stack.append((iter(token.content), False))
        after_import = kind == "at-keyword" and token.lower_value == "import"
