# Included by _cresolve.pyx: the scans of diagnose that run on every reference, each a loop
# over the string's own storage and the ASCII class table; each is tested against the
# expression of diagnose.py or rfc1738 it stands for (tests/test_compiled_resolve.py).


# Bits of _CLASS, one table for every ASCII character (a character >= 128 has none).
cdef enum:
    ALNUM = 1        # [A-Za-z0-9]
    HTTP_PATH = 2    # httpurl's hpath:  [UNRESERVED;:@&=/%]  (grammar.FAST)
    HTTP_QUERY = 4   # httpurl's search: [UNRESERVED;:@&=%]
    HTTPS_PATH = 8   # ip-schemepart's urlpath: [UNRESERVED;/?:@&=%]
    SCHEME = 16      # url.SCHEME_RE: [A-Za-z0-9+.\-]
    HEX = 32         # [0-9A-Fa-f]
    INVALID = 64     # diagnose._INVALID below 128: [\x00-\x20\x7f<>"{}|\\^`]
    ALPHA = 128      # [A-Za-z]

cdef unsigned char _CLASS[128]


cdef void _fill() noexcept:
    cdef int c
    cdef bytes unreserved = b"$-_.+!*'(),"  # rfc1738.grammar.UNRESERVED, less the alphanumerics
    for c in range(128):
        _CLASS[c] = 0
    for c in range(128):
        if (65 <= c <= 90) or (97 <= c <= 122):
            _CLASS[c] |= ALNUM | ALPHA
        if (48 <= c <= 57) or (65 <= c <= 70) or (97 <= c <= 102):
            _CLASS[c] |= ALNUM | HEX
        if _CLASS[c] & ALNUM or c in unreserved:
            _CLASS[c] |= HTTP_PATH | HTTP_QUERY | HTTPS_PATH
        if c <= 0x20 or c == 0x7F or c in b'<>"{}|\\^`':
            _CLASS[c] |= INVALID
        if _CLASS[c] & ALNUM or c in b"+.-":
            _CLASS[c] |= SCHEME
    for c in b";:@&=%":
        _CLASS[c] |= HTTP_PATH | HTTP_QUERY | HTTPS_PATH
    _CLASS[ord("/")] |= HTTP_PATH | HTTPS_PATH
    _CLASS[ord("?")] |= HTTPS_PATH


_fill()


cdef inline bint _is(Py_UCS4 c, unsigned char bits) noexcept:
    return c < 128 and (_CLASS[c] & bits) != 0


cdef inline Py_UCS4 _at(int kind, void* s, Py_ssize_t i) noexcept:
    return PyUnicode_READ(kind, s, i)


cdef Py_ssize_t _label_end(int kind, void* s, Py_ssize_t i, Py_ssize_t n) noexcept:
    """The end of grammar.DOMAINLABEL at ``i``, ``[A-Za-z0-9]++(?:-++[A-Za-z0-9]++)*+``; -1
    when there is none. Possessive: a run of hyphens not followed by an alphanumeric is left."""
    cdef Py_ssize_t j
    if i >= n or not _is(_at(kind, s, i), ALNUM):
        return -1
    while i < n and _is(_at(kind, s, i), ALNUM):
        i += 1
    while True:
        j = i
        while j < n and _at(kind, s, j) == u"-":
            j += 1
        if j == i or j >= n or not _is(_at(kind, s, j), ALNUM):
            return i
        while j < n and _is(_at(kind, s, j), ALNUM):
            j += 1
        i = j


cdef Py_ssize_t _host_end(int kind, void* s, Py_ssize_t i, Py_ssize_t n) noexcept:
    """The end of grammar.HOSTNAME_RE at ``i``, ``(?:DOMAINLABEL\\.)*+TOPLABEL``; -1 when
    there is none. A label followed by "." is a domainlabel, taken whole; the first that is not
    must be the toplabel (an alphanumeric run beginning with a letter: TOPLABEL is DOMAINLABEL
    whose first character is a letter)."""
    cdef Py_ssize_t end
    while True:
        end = _label_end(kind, s, i, n)
        if end < 0:
            return -1
        if end < n and _at(kind, s, end) == u".":
            i = end + 1
            continue
        return end if _is(_at(kind, s, i), ALPHA) else -1


cdef int _fast(str url) noexcept:
    """rfc1738.FAST.fullmatch(url): 1 a match, 0 none, -1 not decided here (the expression's
    ``(?i:https)`` matches U+017F, "ſ", as "s": a non-ASCII character in the scheme is left to
    the expression itself)."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(url), i, k
    cdef int kind = PyUnicode_KIND(url)
    cdef void* s = PyUnicode_DATA(url)
    cdef unsigned char path
    if n < 7:
        return 0
    for k in range(5):
        if _at(kind, s, k) >= 128:
            return -1
    if not (
        _at(kind, s, 0) in u"hH" and _at(kind, s, 1) in u"tT" and _at(kind, s, 2) in u"tT"
        and _at(kind, s, 3) in u"pP"
    ):
        return 0
    if _at(kind, s, 4) == u":" and _at(kind, s, 5) == u"/" and _at(kind, s, 6) == u"/":
        i, path = 7, HTTP_PATH
    elif (
        _at(kind, s, 4) in u"sS" and n >= 8 and _at(kind, s, 5) == u":"
        and _at(kind, s, 6) == u"/" and _at(kind, s, 7) == u"/"
    ):
        i, path = 8, HTTPS_PATH
    else:
        return 0
    i = _host_end(kind, s, i, n)
    if i < 0:
        return 0
    # (?::[0-9]++)?+
    if i + 1 < n and _at(kind, s, i) == u":" and u"0" <= _at(kind, s, i + 1) <= u"9":
        i += 2
        while i < n and u"0" <= _at(kind, s, i) <= u"9":
            i += 1
    if i < n and _at(kind, s, i) == u"/":
        i += 1
        while i < n and _is(_at(kind, s, i), path):
            i += 1
        # httpurl's (?:\\?search)?+ ; ip-schemepart's urlpath holds "?" already
        if path == HTTP_PATH and i < n and _at(kind, s, i) == u"?":
            i += 1
            while i < n and _is(_at(kind, s, i), HTTP_QUERY):
                i += 1
    # (?:#.*+)?+ , then the end
    return i == n or _at(kind, s, i) == u"#"


cdef Py_ssize_t _scheme_end(str url) noexcept:
    """url.SCHEME_RE.match(url).end(): a run of scheme characters, then ":"; 0 when none."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(url), i = 0
    cdef int kind = PyUnicode_KIND(url)
    cdef void* s = PyUnicode_DATA(url)
    while i < n and _is(_at(kind, s, i), SCHEME):
        i += 1
    return i + 1 if 0 < i < n and _at(kind, s, i) == u":" else 0


cdef bint _colon_first(str url) noexcept:
    """diagnose._COLON_IN_FIRST.match(url): a ":" before any of "/?#;"."""
    cdef Py_UCS4 c
    for c in url:
        if c == u":":
            return True
        if c == u"/" or c == u"?" or c == u"#" or c == u";":
            return False
    return False


cdef bint _invalid(str url) noexcept:
    """diagnose._INVALID.search(url): a control, space, non-ASCII or one of <>"{}|\\^`."""
    cdef Py_UCS4 c
    for c in url:
        if c >= 128 or _CLASS[c] & INVALID:
            return True
    return False


cdef bint _bad_escape(str url) except -1:
    """diagnose._BAD_ESCAPE.search(url): a "%" not followed by two hex digits. Each "%" is
    found by the string's own search (memchr), as the pure code's ``"%" in`` does."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(url)
    cdef Py_ssize_t i = PyUnicode_FindChar(url, u"%", 0, n, 1)
    cdef int kind = PyUnicode_KIND(url)
    cdef void* s = PyUnicode_DATA(url)
    while i >= 0:
        if i + 2 >= n or not _is(_at(kind, s, i + 1), HEX) or not _is(_at(kind, s, i + 2), HEX):
            return True
        i = PyUnicode_FindChar(url, u"%", i + 3, n, 1)
    return False
