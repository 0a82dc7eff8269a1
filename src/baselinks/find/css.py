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
    URL-bearing subset in one regular-expression pass, escapes in names and in unquoted
    ``url(`` tokens and strings broken by a newline too, so that no sheet is handed whole to
    tinycss2 (the reference: a property test compares the two on generated CSS). A sheet of
    3 MB of nested ``{`` with one escape in it was: 930 MB and 20 s in tinycss2's tree.
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
    return _scan(css)


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
# "(" and "[" right after an opened block: none has a function name before it, so each is a
# plain block opened, as the loop below would open it a character at a time (1.6 million
# "([" inside an image-set(: 3 s of Python, one pass of a regex now)
_OPENER_RUN = re.compile(r"[(\[]+")
_CLOSING = str.maketrans("([", ")]")


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


# --- what the scanner once handed to tinycss2 (issue 36): escapes in names and url( tokens,
# strings broken by a newline. Each reads as tinycss2's tokenizer reads, quirks included
# (tests/test_css.py compares them on generated CSS).

_ESCAPE = re.compile(r"\\(?:[0-9a-fA-F]{1,6}(?:\r\n|[ \t\n])?|[^\n])")
# The rest of a name after an escape: name characters and further escapes (a backslash at the
# end of the text is one: U+FFFD).
_NAME_REST = re.compile(r"(?:" + _NAME + r"++|\\(?:[0-9a-fA-F]{1,6}+[ \t\n]?+|[^\n]|\Z))*+")
_NAME_ESCAPE = re.compile(r"\\(?:([0-9a-fA-F]{1,6})[ \t\n]?|(.)|\Z)", re.DOTALL)
# https://drafts.csswg.org/css-syntax/#consume-url-token, from after "url(": white space, then
# code points and escapes up to white space or ")"; a backslash before a newline is one more
# code point (tinycss2's reading), a quote, "(" or a non-printable code point makes it a bad
# url. Group 2: what ends it (")" or the end of the text), None for a bad url.
_URL_TOKEN = re.compile(
    r"[ \t\n]*+((?:[^\"'()\\ \t\n\x00-\x08\x0b\x0e-\x1f\x7f]++"
    r"|\\(?:[0-9a-fA-F]{1,6}+[ \t\n]?+|[^\n0-9a-fA-F]|(?=\n)|\Z))*+)[ \t\n]*+(\)|\Z)?"
)
# https://drafts.csswg.org/css-syntax/#consume-remnants-of-a-bad-url, as tinycss2 does it (an
# escaped ")" passed over, no other escape)
_BAD_URL_REST = re.compile(r"(?:[^)\\]++|\\\)?+)*+\)?+")
# A string's content up to its closing quote, a newline (a bad string) or the end of the text;
# a hex escape takes one white space after it, a newline too.
_STRING_BODY = {
    quote: re.compile(rf"(?:[^{quote}\\\n]++|\\(?:[0-9a-fA-F]{{1,6}}+[ \t\n]?+|.|\Z))*+", re.DOTALL)
    for quote in "\"'"
}


def _unescape_name(match: re.Match[str]) -> str:
    # in a name or a url token, a backslash at the end of the text is U+FFFD (in a string,
    # nothing: _unescape_match)
    hex_digits, char = match.groups()
    if hex_digits is not None:
        code = int(hex_digits, 16)
        return "\ufffd" if code == 0 or 0xD800 <= code <= 0xDFFF or code > 0x10FFFF else chr(code)
    return char if char is not None else "\ufffd"


def _unescape_kept(match: re.Match[str]) -> str:
    return "\\" if match.group() == "\\" else _unescape_name(match)


def _url_token(css: str, position: int) -> tuple[str | None, int]:
    """The unquoted url token from ``position`` (after "url("): its value, None for a bad url
    (no URL); and where it ends."""
    token = _URL_TOKEN.match(css, position)
    assert token is not None  # (the pattern matches the empty string)
    if token.group(2) is None:
        return None, _BAD_URL_REST.match(css, token.end()).end()  # type: ignore[union-attr]
    body = token.group(1)
    if "\\" not in body:
        return body, token.end()
    # a backslash alone at the body's end is before a newline (tinycss2 keeps it as it is) or
    # at the end of the text (U+FFFD)
    before_newline = css.startswith("\n", token.end(1))
    return _NAME_ESCAPE.sub(_unescape_kept if before_newline else _unescape_name, body), token.end()


def _string_token(css: str, start: int) -> tuple[str | None, int]:
    """The string token whose quote is at ``start``: its value, None for a bad string (a
    newline in it: it ends there, the newline not its own); and where it ends."""
    end = _STRING_BODY[css[start]].match(css, start + 1).end()  # type: ignore[union-attr]
    if css.startswith("\n", end):
        return None, end
    body = css[start + 1 : end]
    value = _STRING_ESCAPE.sub(_unescape_match, body) if "\\" in body else body
    return value, min(end + 1, len(css))  # past its closing quote (none at the end of the text)


def _escaped_name(css: str, backslash: int) -> tuple[str, int, int]:
    """The name an escape at ``backslash`` is part of, decoded ("" when it starts none: a
    backslash before a newline is a delimiter, a digit starts a number), where the name
    starts and where it ends. The name characters before the backslash were passed over by
    the scan, which stops at every backslash and reads each escape's name to its end: they
    hold no escape, and are walked back over once."""
    if _ESCAPE.match(css, backslash) is None and backslash + 1 < len(css):
        return "", backslash, backslash + 1
    end = _NAME_REST.match(css, backslash).end()  # type: ignore[union-attr]
    start = backslash
    while start and _NAME_CHAR.match(css, start - 1):
        start -= 1
    if not _starts_name(css, start):
        return "", start, end  # a number's, then a dimension's unit: no name of ours
    return _NAME_ESCAPE.sub(_unescape_name, css[start:end]), start, end


IMPORT = "@import"  # what _escape_read says of "@\\69mport"


def _escape_read(css: str, backslash: int) -> tuple[str | None, int, int]:
    """What the escape at ``backslash`` is to the scan (the compiled one's too): the role of
    the function whose name it is in (_FUNCTIONS's, "" for none of ours: a "(" after a hash, an
    at-keyword or a number opens a block), :data:`IMPORT`, or None (no "(" follows); where
    its name starts, and where it ends."""
    name, start, end = _escaped_name(css, backslash)
    before = css[start - 1] if start else ""
    if css.startswith("(", end):
        named = name and before not in ("#", "@")
        return (_FUNCTIONS.get(_ascii_lower(name), "") if named else ""), start, end
    if before == "@" and _ascii_lower(name) == "import":
        return IMPORT, start, end
    return None, start, end


def _starts_name(css: str, at: int) -> bool:
    # https://drafts.csswg.org/css-syntax/#would-start-an-identifier
    if css[at] == "-":
        at += 1
        return at < len(css) and (css[at] == "-" or css[at] == "\\" or _name_start(css[at]))
    return css[at] == "\\" or _name_start(css[at])


def _name_ends(css: str, at: int) -> bool:
    """Whether a name ends at ``at``: no name code point there, nor an escape ("@import\\75rl"
    is one at-keyword, "importurl")."""
    return not _NAME_CHAR.match(css, at) and not (
        css.startswith("\\", at) and not css.startswith("\\\n", at)
    )


def _name_start(char: str) -> bool:
    return (char.isascii() and (char.isalpha() or char == "_")) or ord(char) > 0x7F


def _ascii_lower(name: str) -> str:
    # tinycss2's ascii_lower: A-Z only (str.lower() makes the Kelvin sign "k")
    return name.lower() if name.isascii() else name.encode().lower().decode()


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
    """An open function with a role for URLs: where it is among the open blocks, its role."""

    __slots__ = ("found_at", "level", "role")

    def __init__(self, level: int, role: str, found_at: int = -1) -> None:
        self.level = level  # its place in _Scan.closers
        self.role = role  # "image-set" (strings in it are URLs) | "url" (url("x"), src("x"))
        self.found_at = found_at  # for "url": where its URL goes in `found`, -1 once filled


_NO_ROLE = _Open(-1, "")  # what the innermost open block is when it has no role


class _Scan:
    """The state of one :func:`_scan`: what is found, the open blocks, where lines are.

    The open blocks are their closing characters, a byte each (:attr:`closers`), and those of
    them with a role :attr:`roles`: "image-set(" then 1.5 million "([" held an object each,
    then a reference each (247 MB, then 45 MB for 3 MB)."""

    __slots__ = ("closers", "counted", "css", "found", "import_at", "in_url", "line", "roles")

    def __init__(self, css: str) -> None:
        self.css = css
        self.found: list[CSSURL | None] = []
        self.closers = bytearray()
        self.roles: list[_Open] = []
        self.in_url = 0  # open url()/src() functions: tinycss2 reads only their own strings
        self.import_at = -1  # where the token after an "@import" starts
        self.line, self.counted = 1, 0

    def top(self) -> _Open:
        """The innermost open block's role (_NO_ROLE when it has none)."""
        roles = self.roles
        return roles[-1] if roles and roles[-1].level == len(self.closers) - 1 else _NO_ROLE

    def open(self, closer: str, role: str = "", found_at: int = -1) -> None:
        if role:
            self.roles.append(_Open(len(self.closers), role, found_at))
        self.closers.append(ord(closer))

    def close(self) -> None:
        """The innermost open block ends: a url() or src() without a string gives no URL."""
        top = self.top()
        self.closers.pop()
        if top is not _NO_ROLE:
            self.roles.pop()
            _close(top, self.found)
            if top.role == "url":
                self.in_url -= 1

    def line_at(self, offset: int) -> int:
        self.line += self.css.count("\n", self.counted, offset)
        self.counted = offset
        return self.line

    def string(self, start: int, quote: str) -> int:
        """A string token at ``start``: a URL where it stands for one; the position after it.
        A string broken by a newline is a bad string (no URL), one the text ends in is whole."""
        css = self.css
        string = _STRING[quote].match(css, start)
        if string is None:
            value, end = _string_token(css, start)
            if value is None:
                return end
        else:
            value, end = None, string.end()
        top = self.top()
        if start == self.import_at and not self.in_url:
            syntax = "@import"
        elif top.role == "image-set" and not self.in_url:
            syntax = "image-set()"
        elif top.role == "url" and top.found_at >= 0:
            syntax = ""
        else:
            return end
        if value is None:
            value = _string_value(css[start:end])
        if syntax:
            self.found.append(CSSURL(value, syntax, self.line_at(start)))
        else:
            slot = self.found[top.found_at]
            assert slot is not None
            self.found[top.found_at] = slot._replace(url=value)
            top.found_at = -1
        return end

    def function(self, paren: int, role: str | None = None, name_start: int = -1) -> int:
        """A "(" at ``paren``: a url token read whole, or a function opened (url(), src(),
        image-set(), any other in a block); the position after it. ``role`` and
        ``name_start``: the function's, when its name held an escape (else read here)."""
        css, pos = self.css, paren + 1
        if role is None:
            role, name_start = _function_before(css, paren)
        syntax = "@import" if name_start == self.import_at else "url()"
        after_space = _SPACE.match(css, pos).end()  # type: ignore[union-attr]
        if role == "url" and css[after_space : after_space + 1] not in ('"', "'"):
            rest = _URL_REST.match(css, pos)
            url, end = (rest.group(1), rest.end()) if rest else _url_token(css, pos)
            if url is not None and not self.in_url:
                self.found.append(CSSURL(url, syntax, self.line_at(name_start)))
            return end
        if role in ("url", "src"):
            at = -1
            if not self.in_url:
                at = len(self.found)
                self.found.append(CSSURL("", syntax, self.line_at(name_start)))
            self.open(")", "url", at)
            self.in_url += 1
        elif role == "image-set":
            self.open(")", "image-set")
        elif self.closers:
            self.open(")")
        return pos

    def escape(self, backslash: int) -> int:
        """A backslash at ``backslash``: the name it is part of read, a function or
        ``@import`` where it spells one; the position after."""
        role, start, end = _escape_read(self.css, backslash)
        if role == IMPORT:
            skip = _SKIP_SPACE_AND_COMMENTS.match(self.css, end)
            self.import_at = skip.end()  # type: ignore[union-attr]
            return self.import_at
        return end if role is None else self.function(end, role, start)


def _scan(css: str) -> list[CSSURL]:
    """The URL-bearing tokens of ``css`` (see :func:`css_urls`)."""
    # https://drafts.csswg.org/css-syntax/#input-preprocessing, as tinycss2 does it (lines count
    # "\n" after it).
    if "\r" in css or "\f" in css or "\x00" in css:
        css = css.replace("\x00", "\ufffd").replace("\r\n", "\n").replace("\r", "\n")
        css = css.replace("\f", "\n")
    scan = _Scan(css)
    closers, found = scan.closers, scan.found
    pos, end = 0, len(css)
    while True:
        if closers:
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
        elif char in "\"'":
            pos = scan.string(start, char)
        elif char == "(":
            pos = scan.function(start)
        elif char == "@":
            if css[pos : pos + 6].lower() == "import" and _name_ends(css, pos + 6):
                skip = _SKIP_SPACE_AND_COMMENTS.match(css, pos + 6)
                scan.import_at = pos = skip.end() if skip else pos + 6
        elif char == "\\":
            pos = scan.escape(start)
        elif char in "[{":
            scan.open(_CLOSERS[char])
        elif closers and closers[-1] == ord(char):
            scan.close()
        if pos == start + 1 and char in "([{" and closers:
            run = _OPENER_RUN.match(css, pos)
            if run is not None:
                closers.extend(run.group().translate(_CLOSING).encode("ascii"))
                pos = run.end()
    for block in scan.roles:
        _close(block, found)
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
