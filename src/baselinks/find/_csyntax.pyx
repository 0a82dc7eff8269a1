# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""_csyntax: css.css_urls and microsyntax.parse_srcset in C (optional; css.py and
microsyntax.py are the reference, and the answers are theirs, record for record).

The compiled walk (_cwalk.pyx) calls these for ``<style>`` text, ``style`` attributes and
``srcset``: on the corpus they were half of its time in Python (css 0.23, srcset 0.08 of a walk
of 0.90 lxml parses). Each is the reference's own algorithm, step for step:

- :func:`css_urls` is css._scan with its three inner loops in C (the skip over what cannot
  start a URL, _SKIP_TOP; the search for the next bracket or quote inside a function,
  _TRIGGER_NESTED; a string token, _STRING), and the rest typed. What the scanner meets at
  the few places it stops (a function's name, an escape, "@import", a string broken by a
  newline, an unquoted url( token with escapes) is decided by css.py's own helpers, called
  from here: no sheet goes to tinycss2 (issue 36), here as there.
- :func:`parse_srcset` (in _csyntax_srcset.pxi, included) is microsyntax.parse_srcset's
  tokenizer and descriptor check in C; an ``x`` descriptor's value is still Python's float()
  (what the reference compares).

tests/test_compiled_syntax.py compares both with their reference on generated text and on
every fixture.
"""

from baselinks.find.css import (
    _SKIP_SPACE_AND_COMMENTS,
    _URL_REST,
    CSSURL,
    IMPORT,
    _escape_read,
    _function_before as _py_function_before,
    _name_ends,
    _string_token,
    _string_value,
    _url_token,
)
from baselinks.find.microsyntax import Candidate

from cpython.unicode cimport PyUnicode_DATA, PyUnicode_KIND, PyUnicode_READ
from libc.string cimport memchr

cdef extern from "Python.h":
    ctypedef unsigned char Py_UCS1
    ctypedef unsigned short Py_UCS2
    enum:
        PyUnicode_1BYTE_KIND
        PyUnicode_2BYTE_KIND

# a str's storage unit (PEP 393): the loops over long runs are written once for the three
ctypedef fused _Unit:
    Py_UCS1
    Py_UCS2
    Py_UCS4


cdef struct _Text:
    # a str's characters as C reads them (CPython's own storage: 1, 2 or 4 bytes each)
    unsigned int kind
    void* data
    Py_ssize_t end


cdef inline _Text _text(str text) noexcept:
    cdef _Text view
    view.kind = PyUnicode_KIND(text)
    view.data = PyUnicode_DATA(text)
    view.end = len(text)
    return view


cdef inline str _exact(text):
    """``text`` as a str: a str's subclass (lxml's attribute values from XPath) copied."""
    if type(text) is str:
        return <str>text
    if isinstance(text, str):
        return str.__str__(text)
    raise TypeError(f"expected a str, got {type(text).__name__}")


cdef inline Py_UCS4 _at(_Text t, Py_ssize_t pos) noexcept:
    """The character at ``pos`` (0 <= pos < t.end)."""
    return PyUnicode_READ(t.kind, t.data, pos)

# _Open.role: what a string inside the function is
cdef enum:
    NONE = 0
    IMAGE_SET = 1  # a URL (image-set("a.png" 1x))
    URL = 2  # the URL of the url() or src() it is in, the first one only


# what css._function_before's role names
cdef enum:
    NO_FUNCTION = 0
    URL_FUNCTION = 1  # url(
    SRC_FUNCTION = 2  # src(
    IMAGE_SET_FUNCTION = 3  # image-set(, -webkit-image-set(

_ROLES = {"": NO_FUNCTION, "url": URL_FUNCTION, "src": SRC_FUNCTION, "image-set": IMAGE_SET_FUNCTION}


cdef inline bint _name_char(Py_UCS4 c) noexcept:
    # css._NAME_CHAR: [\w\-\u0080-\U0010ffff], whose ASCII part is letters, digits, "_", "-"
    return (
        c >= 128 or c == u"_" or c == u"-" or u"0" <= c <= u"9" or u"a" <= _lower(c) <= u"z"
    )


cdef int _function_before(_Text t, str css, Py_ssize_t paren, Py_ssize_t* name_start) except -1:
    """css._function_before(css, paren): the role of the function whose "(" is at ``paren``,
    and where its name starts (``name_start``). A name with a character past ASCII is asked
    of css.py itself (its str.lower() is Unicode's: the Kelvin sign lowers to "k")."""
    cdef Py_ssize_t limit = paren - 18 if paren > 18 else 0  # the window: _LONGEST_FUNCTION + 1
    cdef Py_ssize_t start = paren
    cdef Py_ssize_t length
    cdef Py_UCS4 c
    cdef int role_code = NO_FUNCTION
    while start > limit:
        c = _at(t, start - 1)
        if c >= 128:
            role, found = _py_function_before(css, paren)
            name_start[0] = found
            return _ROLES[role]
        if not _name_char(c):
            break
        start -= 1
    name_start[0] = start
    length = paren - start
    if length == 3 and _word_at(t, start, "url"):
        role_code = URL_FUNCTION
    elif length == 3 and _word_at(t, start, "src"):
        role_code = SRC_FUNCTION
    elif length == 9 and _word_at(t, start, "image-set"):
        role_code = IMAGE_SET_FUNCTION
    elif length == 17 and _word_at(t, start, "-webkit-image-set"):
        role_code = IMAGE_SET_FUNCTION
    if role_code and start:
        c = _at(t, start - 1)
        if c == u"#" or c == u"@" or c == u"\\":
            return NO_FUNCTION  # "#url(" is a hash token, "@url(" an at-keyword: no function
    return role_code


cdef inline bint _space(Py_UCS4 c) noexcept:
    return c == u" " or c == u"\t" or c == u"\n"


cdef inline Py_UCS4 _lower(Py_UCS4 c) noexcept:
    if u"A" <= c <= u"Z":
        return <Py_UCS4>(<unsigned int>c + 32)
    return c


cdef inline bint _word_at(_Text t, Py_ssize_t pos, const char* word) noexcept:
    """Whether ``word`` (lower-case ASCII) is at ``pos``, ASCII letters in either case."""
    cdef Py_ssize_t i = 0
    if pos < 0:
        return False
    while word[i]:
        if pos + i >= t.end or _lower(_at(t, pos + i)) != <Py_UCS4>word[i]:
            return False
        i += 1
    return True


cdef Py_ssize_t _string_end(_Text t, Py_ssize_t start) noexcept:
    """_STRING[quote].match(css, start).end(), or -1 where it does not match: a string broken
    by a newline or by the end."""
    cdef Py_UCS4 quote = _at(t, start)
    cdef Py_UCS4 c
    cdef Py_ssize_t pos = start + 1
    while pos < t.end:
        c = _at(t, pos)
        if c == quote:
            return pos + 1
        if c == u"\n":
            return -1
        pos += 2 if c == u"\\" else 1  # an escape takes the next character, a newline too
    return -1


# Where the two skips stop, by ASCII code: what _SKIP_TOP's first alternative does not take
# (the quotes, "/", a backslash, "(" and "@"), and _TRIGGER_NESTED's class.
cdef bint _TOP_STOPS[128]
cdef bint _NESTED_STOPS[128]
# And where _may_hold_url looks: a backslash, a "(" after "url" or "src", "@import",
# "image-set" (in any case).
cdef bint _WORD_STOPS[128]
for _code in range(128):
    _TOP_STOPS[_code] = chr(_code) in "\"'/\\(@"
    _NESTED_STOPS[_code] = chr(_code) in "/\"'\\(@)[]{}"
    _WORD_STOPS[_code] = chr(_code) in "\\(@iI"


cdef inline Py_ssize_t _run(
    const _Unit* data, Py_ssize_t pos, Py_ssize_t end, bint* stops
) noexcept:
    while pos < end and not (data[pos] < 128 and stops[data[pos]]):
        pos += 1
    return pos


cdef inline Py_ssize_t _find_stop(_Text t, Py_ssize_t pos, bint* stops) noexcept:
    """The first position from ``pos`` of an ASCII character ``stops`` marks, or the end."""
    if t.kind == PyUnicode_1BYTE_KIND:
        return _run(<const Py_UCS1*>t.data, pos, t.end, stops)
    if t.kind == PyUnicode_2BYTE_KIND:
        return _run(<const Py_UCS2*>t.data, pos, t.end, stops)
    return _run(<const Py_UCS4*>t.data, pos, t.end, stops)


cdef Py_ssize_t _count_newlines(const _Unit* data, Py_ssize_t pos, Py_ssize_t end) noexcept:
    cdef Py_ssize_t count = 0
    while pos < end:
        if data[pos] == 10:
            count += 1
        pos += 1
    return count


cdef Py_ssize_t _comment_end(_Text t, Py_ssize_t pos) noexcept:
    """Past the first "*/" at or after ``pos``, or the end: a comment's end."""
    while pos + 1 < t.end:
        if _at(t, pos) == u"*" and _at(t, pos + 1) == u"/":
            return pos + 2
        pos += 1
    return t.end


cdef Py_ssize_t _skip_top(_Text t, Py_ssize_t pos) noexcept:
    """_SKIP_TOP.match(css, pos).end(): past everything that cannot start a URL."""
    cdef Py_UCS4 c
    cdef Py_ssize_t close
    while pos < t.end:
        pos = _find_stop(t, pos, _TOP_STOPS)  # the run of other characters
        if pos >= t.end:
            break
        c = _at(t, pos)
        if c == u'"' or c == u"'":
            close = _string_end(t, pos)
            if close < 0:
                return pos
            pos = close
        elif c == u"/":
            if pos + 1 < t.end and _at(t, pos + 1) == u"*":
                pos = _comment_end(t, pos + 2)
            else:
                pos += 1
        elif c == u"(":
            if _word_at(t, pos - 3, "url") or _word_at(t, pos - 3, "src"):
                return pos
            if _word_at(t, pos - 3, "set"):
                return pos
            pos += 1
        elif c == u"@":
            if _word_at(t, pos + 1, "import"):
                return pos
            pos += 1
        elif c == u"\\":
            return pos
        else:
            pos += 1
    return pos


cdef Py_ssize_t _next_trigger(_Text t, Py_ssize_t pos) noexcept:
    """_TRIGGER_NESTED.search(css, pos).start(), or -1."""
    pos = _find_stop(t, pos, _NESTED_STOPS)
    return pos if pos < t.end else -1


cdef bint _may_hold_url(str css):
    """css.css_urls' first test: a backslash, or one of its four words in the lower-cased
    text."""
    cdef Py_ssize_t pos
    cdef _Text t = _text(css)
    cdef Py_UCS4 c
    # Only ASCII letters are lowered here, where the reference lowers all of the text: the
    # same answer, because the only characters beyond ASCII whose lower case holds ASCII are
    # U+0130 (to "i" and U+0307, which no word continues with) and U+212A (to "k", in no word);
    # tests/test_compiled_syntax.py checks that this is still so.
    pos = 0
    while True:
        pos = _find_stop(t, pos, _WORD_STOPS)  # where a word may be told
        if pos >= t.end:
            return False
        c = _lower(_at(t, pos))
        pos += 1
        if c == u"\\":
            return True
        if c == u"(":
            if _word_at(t, pos - 4, "url") or _word_at(t, pos - 4, "src"):
                return True
        elif c == u"@":
            if _word_at(t, pos, "import"):
                return True
        elif c == u"i":
            if _word_at(t, pos - 1, "image-set"):
                return True


def css_urls(text):
    """css.css_urls(css): the same list of CSSURL."""
    cdef str css = _exact(text)
    if not _may_hold_url(css):
        return []  # most style attributes: nothing to tokenize
    return _scan(css)


cdef class _Open:
    """css._Open: an open function with a role for URLs, where it is among the open blocks."""

    cdef Py_ssize_t level
    cdef int role
    cdef Py_ssize_t found_at

    def __cinit__(self, Py_ssize_t level, int role=NONE, Py_ssize_t found_at=-1):
        self.level = level
        self.role = role
        self.found_at = found_at


cdef _Open _NO_ROLE = _Open(-1)  # css._NO_ROLE: the innermost open block has no role


cdef class _Lines:
    """css._scan's line_at: the 1-based line of an offset, counted on from the last one."""

    cdef str css  # held: the view reads its characters
    cdef _Text view
    cdef Py_ssize_t line
    cdef Py_ssize_t counted

    def __cinit__(self, str css):
        self.css = css
        self.view = _text(css)
        self.line = 1
        self.counted = 0

    cdef Py_ssize_t at(self, Py_ssize_t offset) noexcept:
        cdef Py_ssize_t pos = self.counted
        cdef const char* latin1 = <const char*>self.view.data
        cdef const void* found
        if self.view.kind == PyUnicode_1BYTE_KIND:  # css.count("\n", counted, offset)
            while pos < offset:  # a memchr a line
                found = memchr(latin1 + pos, 10, offset - pos)
                if found is NULL:
                    break
                self.line += 1
                pos = <const char*>found - latin1 + 1
        elif self.view.kind == PyUnicode_2BYTE_KIND:
            self.line += _count_newlines(<const Py_UCS2*>self.view.data, pos, offset)
        else:
            self.line += _count_newlines(<const Py_UCS4*>self.view.data, pos, offset)
        self.counted = offset
        return self.line


cdef list _scan(str css):
    """css._scan(css): the URL-bearing tokens. Read css._scan for the why of each step: this
    is it, with its regular expressions as C loops."""
    if "\r" in css or "\f" in css or "\x00" in css:
        css = css.replace("\x00", "\ufffd").replace("\r\n", "\n").replace("\r", "\n")
        css = css.replace("\f", "\n")
    cdef list found = []
    # css._Scan's open blocks: their closing characters, a byte each; those with a role
    cdef bytearray closers = bytearray()
    cdef list roles = []
    cdef _Open top
    cdef _Lines lines = _Lines(css)
    cdef Py_ssize_t in_url = 0
    cdef Py_ssize_t import_at = -1
    cdef Py_ssize_t pos = 0
    cdef _Text t = _text(css)
    cdef Py_ssize_t end = t.end
    cdef Py_ssize_t start, close, after_space, name_start, at
    cdef Py_UCS4 char
    cdef bint after_import
    cdef int role
    # a "(" whose function's name held an escape (css._escape_read): where, its role, its start
    cdef Py_ssize_t forced = -1
    cdef int forced_role = NO_FUNCTION
    cdef Py_ssize_t forced_start = 0
    new = tuple.__new__  # a CSSURL without NamedTuple's Python-level __new__
    while True:
        if forced >= 0:
            start = forced
        elif len(closers) > 0:
            start = _next_trigger(t, pos)
            if start < 0:
                break
        else:
            start = pos if pos == import_at else _skip_top(t, pos)
            if start >= end:
                break
        char = _at(t, start)
        pos = start + 1
        top = _NO_ROLE
        if roles and (<_Open>roles[len(roles) - 1]).level == len(closers) - 1:
            top = roles[len(roles) - 1]
        if char == u"/":
            if pos < end and _at(t, pos) == u"*":
                pos = _comment_end(t, pos + 1)
        elif char == u'"' or char == u"'":
            close = _string_end(t, start)
            url = None
            if close < 0:  # broken by a newline (a bad string: no URL), or by the end
                url, close = _string_token(css, start)
                if url is None:
                    pos = close
                    continue
            pos = close
            if start == import_at and not in_url:
                url = _string_value(css[start:close]) if url is None else url
                found.append(new(CSSURL, (url, "@import", lines.at(start))))
            elif top.role == IMAGE_SET and not in_url:
                url = _string_value(css[start:close]) if url is None else url
                found.append(new(CSSURL, (url, "image-set()", lines.at(start))))
            elif top.role == URL and top.found_at >= 0:
                slot = found[top.found_at]
                url = _string_value(css[start:close]) if url is None else url
                found[top.found_at] = new(CSSURL, (url, slot[1], slot[2]))
                top.found_at = -1
        elif char == u"(":
            if start == forced:
                role, name_start, forced = forced_role, forced_start, -1
            else:
                role = _function_before(t, css, start, &name_start)
            after_import = name_start == import_at
            after_space = pos
            while after_space < end and _space(_at(t, after_space)):
                after_space += 1
            if role == URL_FUNCTION and not (
                after_space < end and (_at(t, after_space) == u'"' or _at(t, after_space) == u"'")
            ):
                rest = _URL_REST.match(css, pos)
                if rest is None:  # escapes in it, or a bad url token (None: no URL)
                    url, pos = _url_token(css, pos)
                else:
                    url, pos = rest.group(1), rest.end()
                if url is not None and not in_url:
                    syntax = "@import" if after_import else "url()"
                    found.append(new(CSSURL, (url, syntax, lines.at(name_start))))
            elif role == URL_FUNCTION or role == SRC_FUNCTION:
                at = -1
                if not in_url:
                    at = len(found)
                    syntax = "@import" if after_import else "url()"
                    found.append(new(CSSURL, ("", syntax, lines.at(name_start))))
                roles.append(_Open(len(closers), URL, at))
                closers.append(41)  # ")"
                in_url += 1
            elif role == IMAGE_SET_FUNCTION:
                roles.append(_Open(len(closers), IMAGE_SET))
                closers.append(41)
            elif len(closers) > 0:
                closers.append(41)
        elif char == u"@":
            if css[pos : pos + 6].lower() == "import" and _name_ends(css, pos + 6):
                skip = _SKIP_SPACE_AND_COMMENTS.match(css, pos + 6)
                import_at = pos = skip.end() if skip else pos + 6
        elif char == u"\\":
            action, name_from, pos = _escape_read(css, start)
            if action == IMPORT:
                skip = _SKIP_SPACE_AND_COMMENTS.match(css, pos)
                import_at = pos = skip.end()
            elif action is not None:  # a "(" at pos, its function's role decided here
                forced, forced_role, forced_start = pos, _ROLES[action], name_from
        elif char == u"[":
            closers.append(93)  # "]"
        elif char == u"{":
            closers.append(125)  # "}"
        elif len(closers) > 0 and <Py_UCS4>closers[len(closers) - 1] == char:
            closers.pop()
            if top is not _NO_ROLE:
                roles.pop()
                _close(top, found)
                if top.role == URL:
                    in_url -= 1
    for block in roles:
        _close(block, found)
    return [item for item in found if item is not None]


cdef inline void _close(_Open block, list found):
    if block.role == URL and block.found_at >= 0:
        found[block.found_at] = None  # url() or src() without a string: no URL


include "_csyntax_srcset.pxi"
