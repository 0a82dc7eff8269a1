# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""_cresolve: the resolve stage's problem codes in C (optional; diagnose.py is the reference).

:func:`bind` takes diagnose.py's namespace and returns its ``diagnose``, the same tests in the
same order, step for step, with each regular expression that runs on every reference replaced
by one pass of C over the string's characters:

    rfc1738.FAST.fullmatch       _fast (a well-formed http or https URL: RFC 1738 §5's
                                 httpurl, or ip-schemepart; possessive, as the pattern is)
    url.SCHEME_RE.match          _scheme_end
    _RFC3986_SCHEME.match        the same run, beginning with a letter
    _COLON_IN_FIRST.match        _colon_first
    _INVALID.search              _invalid
    _BAD_ESCAPE.search           _bad_escape

What is rare stays Python, called through the namespace: the base's facts (``_base_facts``,
asked once per base, not per reference), ``_above_root``, ``_path_as_netloc``, the RFC 1738
rules (``rfc1738.codes``) and the control-character search. Why by hand: the expressions'
engine costs 10-20 ns a character and these URLs are long (the corpus's absolute http URLs
average over 100 characters); a loop over a table costs one or two. tests/test_compiled_resolve.py
compares both diagnoses on the corpus's shapes, on tables of near misses and on generated text,
and each scanner with its expression.
"""

from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_DECREF, Py_INCREF
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE, PyTuple_SET_ITEM
from cpython.unicode cimport PyUnicode_GET_LENGTH, PyUnicode_FromObject


cdef extern from "Python.h":
    # The string's storage, read in place: its kind (1, 2 or 4 bytes a character) and data,
    # fetched once a string rather than once a character.
    int PyUnicode_KIND(object)
    void* PyUnicode_DATA(object)
    Py_UCS4 PyUnicode_READ(int, void*, Py_ssize_t) nogil
    Py_ssize_t PyUnicode_FindChar(object, Py_UCS4, Py_ssize_t, Py_ssize_t, int) except -2
    PyObject* PyType_GenericAlloc(PyTypeObject* cls, Py_ssize_t items) except NULL
    ctypedef struct _Allocating "PyTypeObject":
        void* tp_alloc

include "_cresolve_scan.pxi"


# diagnose.py's namespace, as bind() found it
cdef object _base_facts, _above_root, _path_as_netloc, _codes, _controls, _fast_regex
cdef object _pure_diagnose
cdef frozenset _known
cdef tuple _flagged
# The last base asked about and its facts: a document's references share one base.
cdef str _last_base = None
cdef tuple _last_facts = None


def bind_diagnose(dict namespace):
    """diagnose.diagnose, compiled, with the helpers and tables of ``namespace`` (diagnose.py's
    globals()): the one copy of each."""
    global _base_facts, _above_root, _path_as_netloc, _codes, _controls, _fast_regex
    global _known, _flagged, _last_base, _last_facts, _pure_diagnose
    _pure_diagnose = namespace["diagnose"]
    _base_facts = namespace["_base_facts"]
    _above_root = namespace["_above_root"]
    _path_as_netloc = namespace["_path_as_netloc"]
    _codes = namespace["rfc1738"].codes
    _controls = namespace["CONTROL_CHARACTERS"].search
    _fast_regex = namespace["rfc1738"].FAST.fullmatch
    _known = namespace["_KNOWN_SCHEMES"]
    _flagged = namespace["_FLAGGED"]
    _last_base = _last_facts = None
    return diagnose


cdef tuple _facts(str base):
    global _last_base, _last_facts
    if base is not _last_base:
        _last_facts = _base_facts(base)
        _last_base = base
    return _last_facts


def scanners():
    """Each C scanner as a Python function, for the tests to hold against its expression."""
    return {
        "fast": lambda s: _fast(s),
        "scheme_end": lambda s: _scheme_end(s),
        "colon_first": lambda s: _colon_first(s),
        "invalid": lambda s: _invalid(s),
        "bad_escape": lambda s: _bad_escape(s),
    }


def diagnose(base, embedded, result):
    """diagnose.diagnose, step for step (the comments are there). Text that is not exactly a
    str (a subclass, such as lxml's smart strings) goes to the pure function."""
    if type(base) is str and type(embedded) is str and (result is None or type(result) is str):
        return _diagnose(base, embedded, result)
    return _pure_diagnose(base, embedded, result)


cdef tuple _diagnose(str base, str embedded, result):
    cdef bint well_formed = False, clean = False, netloc
    cdef bint no_base = False, loophole = False, colon = False, unsuitable = False
    cdef bint invalid, bad_escape, above_root = False, as_netloc = False, control = False
    cdef int fast
    cdef Py_ssize_t end
    cdef str text, scheme
    cdef tuple syntax = ()
    if result is not None:
        text = result
        fast = _fast(text)
        well_formed = fast == 1 if fast >= 0 else _fast_regex(text) is not None
        clean = well_formed and u"#" not in text
        if clean and text == embedded and u"%" not in text and u".." not in text:
            return ()
    end = _scheme_end(embedded)
    if end:
        netloc = embedded.startswith(u"//", end)
        scheme = embedded[: end - 1].lower()
        if base and not netloc:
            loophole = scheme == _facts(base)[0]
        colon = not _is(embedded[0], ALPHA) or (not netloc and scheme not in _known)
    else:
        colon = _colon_first(embedded)
        if not base:
            no_base = len(embedded) > 0
        else:
            unsuitable = _facts(base)[1]
    invalid = _invalid(embedded)
    bad_escape = _bad_escape(embedded)
    if result is not None:
        if u".." in text:
            above_root = _above_root(text)
        as_netloc = u"/.//" in text and _path_as_netloc(text)
        if not no_base and (not well_formed or _bad_escape(text)):
            syntax = _codes(text)
        control = not clean and not text.isprintable() and _controls(text) is not None
    if not (
        no_base or result is None or invalid or bad_escape or loophole or colon or unsuitable
        or above_root or as_netloc or control
    ):
        return syntax
    flags = (
        no_base, result is None, invalid, bad_escape, loophole, colon, unsuitable, above_root,
        as_netloc, control,
    )
    return tuple([code for code, on in zip(_flagged, flags) if on]) + syntax


# --- RFC 1808 §4, resolve.py's _RFC1808.resolve -----------------------------------------------

# resolve.py's namespace, as bind_resolve() found it
cdef object _remove_dot_segments, _pure_resolve


def bind_resolve(dict namespace):
    """Take resolve.py's ``_remove_dot_segments`` (Step 6's a to d, the rare path) and the
    pure ``_RFC1808.resolve``."""
    global _remove_dot_segments, _pure_resolve
    _remove_dot_segments = namespace["_remove_dot_segments"]
    _pure_resolve = namespace["_RFC1808"].resolve


cdef inline bint _dotty(str path):
    # resolve._has_dot_segment
    return u"./" in path or path.endswith(u".")


cdef str _recombine(
    str scheme, str netloc, str path, str params, str query, str fragment, bint netloc_present
):
    """url.recombine (RFC 1808 §4 Step 7), the same rules in the same order (they are
    explained there)."""
    cdef list out = []
    if scheme:
        out += [scheme, u":"]
    if netloc or netloc_present:
        out += [u"//", netloc]
        if (path[:1] != u"/") if path else (params or query):
            out.append(u"/")
    elif path[:2] == u"//":
        out.append(u"/.")
    out.append(path)
    if params:
        out += [u";", params]
    if query:
        out += [u"?", query]
    if fragment:
        out += [u"#", fragment]
    return u"".join(out)


cdef class RFC1808:
    """The parsed base of a resolve._RFC1808, as its __init__ left it (:func:`resolve_rfc1808`)."""

    cdef str base, scheme, prefix, directory, path, params, query
    cdef object netloc  # str, or None when the base has no net_loc
    cdef bint directory_dotty

    def __init__(self, resolver):
        parts = resolver._base_parts
        self.base = PyUnicode_FromObject(resolver.base)  # a str subclass as a str
        self.scheme, self.path, self.params, self.query = (
            parts.scheme, parts.path, parts.params, parts.query
        )
        self.netloc = resolver._netloc
        self.prefix = resolver._prefix
        self.directory = resolver._dir
        self.directory_dotty = resolver._dir_dotty

    cdef str resolve(self, str embedded):
        # resolve._RFC1808.resolve, Step by Step; the RFC's words are quoted there
        cdef Py_ssize_t n, end, start = 0, at
        cdef str fragment = u"", query = u"", params = u"", path, prefix
        cdef object netloc = None
        # Step 1
        if not self.base:
            return embedded
        # Step 2a
        if not embedded:
            return self.base
        # Step 2b (so url.split finds no scheme below)
        if _scheme_end(embedded):
            return embedded
        # Step 2: url.split, §2.4.1 then §2.4.3 to §2.4.6, by positions
        n = end = PyUnicode_GET_LENGTH(embedded)
        at = PyUnicode_FindChar(embedded, u"#", 0, n, 1)
        if at >= 0:
            fragment = embedded[at + 1 :]
            end = at
        if end >= 2 and embedded.startswith(u"//"):
            at = PyUnicode_FindChar(embedded, u"/", 2, end, 1)
            start = end if at < 0 else at
            netloc = embedded[2:start]
        at = PyUnicode_FindChar(embedded, u"?", start, end, 1)
        if at >= 0:
            query = embedded[at + 1 : end]
            end = at
        at = PyUnicode_FindChar(embedded, u";", start, end, 1)
        if at >= 0:
            params = embedded[at + 1 : end]
            end = at
        path = embedded[start:end]
        # Step 2c and Step 3
        if netloc:
            return _recombine(self.scheme, netloc, path, params, query, fragment, False)
        netloc = self.netloc
        # Step 4
        if path[:1] == u"/":
            if params:
                path += u";" + params
            if query:
                path += u"?" + query
            prefix = (
                self.prefix + u"/." if path[:2] == u"//" and netloc is None else self.prefix
            )
            return prefix + path + (u"#" + fragment if fragment else u"")
        # Step 5
        if not path:
            path = self.path
            if not params:
                params = self.params
                if not query:
                    query = self.query
        else:
            # Step 6
            dotty = self.directory_dotty or _dotty(path)
            path = self.directory + path
            if dotty:
                if path[:1] == u"/":
                    path = u"/" + _remove_dot_segments(path[1:])
                else:
                    path = _remove_dot_segments(path)
        # Step 7
        return _recombine(
            self.scheme, netloc or u"", path, params, query, fragment, netloc is not None
        )


def resolve_rfc1808(self, embedded, trace=None):
    """resolve._RFC1808.resolve, as the method of the resolver that holds an :class:`RFC1808`
    as ``_c``; a ``trace``, or a reference that is not exactly a str, goes to the pure one."""
    if trace is not None or type(embedded) is not str:
        return _pure_resolve(self, embedded, trace)
    return (<RFC1808>self._c).resolve(embedded)


# --- the records: resolve/link.py's Linker.link -------------------------------------------------------

# resolve/link.py's namespace, as bind_link() found it
cdef object _Link, _BaselinksError, _encoding_parse
cdef str _WHITESPACE
cdef Py_ssize_t _MEMO_KEPT


def bind_link(dict namespace):
    """Take resolve/link.py's Link, BaselinksError, encoding_parse, ASCII_WHITESPACE and
    MEMO_KEPT."""
    global _Link, _BaselinksError, _encoding_parse, _WHITESPACE, _MEMO_KEPT
    Link = namespace["Link"]
    # _made makes Links as tuple_subtype_new would: a tuple's layout, nothing more
    if not (
        Link.__bases__ == (tuple,)
        and Link.__basicsize__ == tuple.__basicsize__
        and Link.__itemsize__ == tuple.__itemsize__
        and Link.__dictoffset__ == 0
        and Link.__weakrefoffset__ == 0
        and (<_Allocating*>Link).tp_alloc == <void*>PyType_GenericAlloc
    ):
        raise TypeError("Link must be a NamedTuple: a tuple's layout")
    _Link = Link
    _BaselinksError = namespace["BaselinksError"]
    _encoding_parse = namespace["encoding_parse"]
    _WHITESPACE = namespace["ASCII_WHITESPACE"]
    _MEMO_KEPT = namespace["MEMO_KEPT"]


cdef class Records:
    """A link.Linker's state for one document, as its __init__ left it (:func:`link_raw`)."""

    cdef object linker, resolver, resolve, codec, origin, base, source, name
    cdef bint nofollow  # the page's robots directives: every link nofollow
    cdef RFC1808 rfc1808  # the compiled RFC 1808 resolver's base, when that is the resolver
    cdef dict memo
    cdef str base_text  # the base as a str, for _diagnose

    def __init__(self, linker):
        self.linker = linker
        self.resolver = linker.resolver
        self.resolve = self.resolver.resolve
        compiled = getattr(self.resolver, "_c", None)
        self.rfc1808 = compiled if isinstance(compiled, RFC1808) else None
        self.codec = linker.query_codec
        self.origin = linker.origin
        self.memo = linker.memo
        self.base = self.resolver.base
        self.base_text = PyUnicode_FromObject(self.base)
        self.source = linker.source
        self.name = linker.name
        self.nofollow = linker.nofollow

    cdef tuple _resolved(self, str value):
        # Linker._resolve against the document's base
        cdef object url
        try:
            if self.codec is not None:
                url = _encoding_parse(self.resolver, value, self.codec)
            elif self.rfc1808 is not None:
                url = self.rfc1808.resolve(value)
            else:
                url = self.resolve(value)
        except _BaselinksError:
            url = None
        if url is not None and type(url) is not str:
            return (url, _pure_diagnose(self.base, value, url))
        return (value if url is None else url, _diagnose(self.base_text, value, url))

    cdef object link(self, raw):
        # Linker.link, step for step (the comments are there). A RawLink is a tuple of eleven:
        # its fields read in place (unpacking a tuple subclass would iterate over it).
        if not isinstance(raw, tuple) or len(<tuple>raw) != 11:
            written, tag, attr, kind, line, text, rel, codebase, found_problems, _, hreflang = raw
        cdef tuple fields = <tuple>raw if isinstance(raw, tuple) else tuple(raw)
        written, tag, attr, kind = fields[0], fields[1], fields[2], fields[3]
        line, text, rel, codebase, found_problems = (
            fields[4], fields[5], fields[6], fields[7], fields[8]
        )
        hreflang = fields[10]
        cdef str value = written.strip(_WHITESPACE)
        cdef tuple found
        if codebase and codebase.strip(_WHITESPACE):
            url, problems, base, source = self.linker._against_codebase(value, codebase)
        elif not value and kind == u"form":
            url, problems, base, source = self.linker._form_document()
        else:
            found = self.memo.get(value)
            if found is None:
                found = self._resolved(value)
                if len(self.memo) >= _MEMO_KEPT:
                    self.memo.clear()
                self.memo[value] = found
            url, problems = found
            base, source = self.base, self.source
        if found_problems:
            problems += found_problems
        cdef bint nofollow = self.nofollow or (
            u"nofollow" in <str>rel and u"nofollow" in (<str>rel).split()
        )
        return _made(
            _Link,
            (
                url, written, base, source, tag, attr, line, self.name, text, rel, kind,
                problems, nofollow, hreflang, self.origin,
            ),
        )


cdef object _made(object cls, tuple values):
    """tuple.__new__(cls, values) for the Link NamedTuple (a tuple's layout, checked by
    bind_link), without the call through Python (2,000 instructions a link): what CPython's
    tuple_subtype_new does, the class's tp_alloc and the items set (_cwalk's _record)."""
    cdef Py_ssize_t place
    cdef Py_ssize_t size = PyTuple_GET_SIZE(values)
    cdef object made = <object>PyType_GenericAlloc(<PyTypeObject*>cls, size)
    Py_DECREF(made)  # the allocation's own reference: `made` holds one
    for place in range(size):
        item = <object>PyTuple_GET_ITEM(values, place)
        Py_INCREF(item)  # PyTuple_SET_ITEM takes the reference
        PyTuple_SET_ITEM(made, place, item)
    return made


def link_raw(self, raw):
    """link.Linker.link, as the method of the linker that holds a :class:`Records` as ``_c``."""
    return (<Records>self._c).link(raw)
