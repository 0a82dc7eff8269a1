# Included by _chtml5_walk.pxi: the link-source table's conditions and kind rules as the native
# walk reads them, decided in C with no call of Python per element.
#
# find/rules.py's records (ValueIs, AttributeIs, Within, MetadataFamily, RelKind, ForeignKind,
# MetadataKind) are read when the Walker is made: each becomes one of the classes below, its
# fields copied, so that a row of find/linktable.py reaches this walk with no change here. What
# is of another shape (a function of the element: a condition a caller's attributes= makes) is
# called as find/walk.py calls it, with a _Node; tests/test_native.py checks that no row of the
# table is.

from cpython.unicode cimport PyUnicode_FromKindAndData

cdef extern from "Python.h":
    int PyUnicode_KIND(object)
    void* PyUnicode_DATA(object)
    Py_ssize_t PyUnicode_GET_LENGTH(object)
    Py_UCS4 PyUnicode_READ(int, void*, Py_ssize_t)
    bint Py_UNICODE_ISSPACE(Py_UCS4)
    int PyUnicode_4BYTE_KIND

# How a condition, a kind rule or a syntax is decided
cdef enum:
    _PYTHON = 0  # find/'s own callable, with a _Node
    _VALUE = 1  # AttributeIs: one attribute's value (ValueIs)
    _WITHIN = 2  # Within: an ancestor's tag (the open elements' ancestry bits)
    _FAMILY = 3  # MetadataFamily: a <meta>'s property or name
    _REL = 4  # RelKind: by rel (kept per rel)
    _FOREIGN = 5  # ForeignKind: by the tag, or Within
    _METADATA = 6  # MetadataKind: by the <meta>'s property or name

cdef enum:
    _S_URL = 1
    _S_URLS = 2
    _S_COMMA_URLS = 3
    _S_SRCSET = 4
    _S_CSS = 5
    _S_OTHER = 6  # refresh, srcdoc: find/walk._other_syntax

cdef object _UNSET = object()  # a <meta>'s family not looked up yet
cdef str _ASCII_SPACE = u"\t\n\x0c\r "


cdef inline bint _ascii_space(unsigned char c) noexcept nogil:
    # tokens.ASCII_WHITESPACE: TAB, LF, FF, CR, SPACE
    return c == 32 or c == 9 or c == 10 or c == 12 or c == 13


cdef class _Test:
    """rules.ValueIs over an attribute's UTF-8 bytes: stripped of ASCII whitespace (the part
    before ";" with ``essence``), then compared ASCII case-insensitively. A value past ASCII
    (whose lower() Python decides: the Kelvin sign is a "k") is asked of the record itself."""

    cdef bytes value
    cdef bint essence
    cdef object python

    def __cinit__(self, test):
        self.python = test
        self.essence = test.essence
        self.value = test.value.encode("utf-8") if test.value.isascii() else None

    cdef bint holds(self, const lxb_char_t* data, size_t size) except -1:
        cdef size_t i, start = 0, end = size
        cdef const unsigned char* expected
        cdef unsigned char c
        for i in range(size):
            if data[i] >= 0x80:
                return self.python(_text_of(data, size))
        if self.value is None:
            return self.python(_text_of(data, size))
        if self.essence:
            for i in range(size):
                if data[i] == 59:  # ;
                    end = i
                    break
        while start < end and _ascii_space(data[start]):
            start += 1
        while end > start and _ascii_space(data[end - 1]):
            end -= 1
        if end - start != <size_t>len(self.value):
            return False
        expected = <const unsigned char*><const char*>self.value
        for i in range(end - start):
            c = data[start + i]
            if 65 <= c <= 90:
                c += 32
            if c != expected[i]:
                return False
        return True


cdef class _Cond:
    """A row's condition (linktable.CONDITIONS' record), as the walk decides it."""

    cdef int how
    cdef bytes attr  # _VALUE: the attribute's name
    cdef _Test test
    cdef unsigned int bits  # _WITHIN: the tags' ancestry bits
    cdef bint itself, negated
    cdef str family  # _FAMILY
    cdef object python  # _PYTHON: the callable


cdef class _Rule:
    """A row's kind rule (linktable.KIND_RULES' record), as the walk decides it."""

    cdef int how
    cdef object python
    cdef dict kinds  # _REL: rel -> kind, as far as met
    cdef frozenset tags  # _FOREIGN: the tags of kind ``inside``
    cdef _Cond within
    cdef str inside, otherwise


cdef class _Step:
    """One step of an element's (find/walk._Table.steps_of's tuple): its attribute, syntax,
    kind or kind rule, condition, codebase rule, codes, and what an absent attribute is."""

    cdef str attr
    cdef object syntax  # the table's name of it, for _other_syntax
    cdef int how  # _S_...
    cdef object kind
    cdef _Rule rule
    cdef _Cond when
    cdef bint by_codebase
    cdef tuple codes
    cdef object absent


cdef str _collapsed(str text, Py_ssize_t cap):
    """``" ".join(text.split())`` (Python's whitespace: Py_UNICODE_ISSPACE), then, with
    ``cap`` >= 0, anchor._capped: past ``cap`` characters, the first ``cap - 1`` stripped
    of a trailing space and "…". The text itself where nothing changes."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text), i, size = 0, room
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_UCS4 c
    cdef Py_UCS4* out
    cdef bint space = False, changed = False
    room = n if cap < 0 or cap + 1 > n else cap + 1
    out = <Py_UCS4*>PyMem_Malloc((room + 1) * sizeof(Py_UCS4))
    if out == NULL:
        raise MemoryError()
    try:
        for i in range(n):
            c = PyUnicode_READ(kind, data, i)
            if Py_UNICODE_ISSPACE(c):
                if c != 32 or space or size == 0:
                    changed = True
                space = True
                continue
            if space and size:
                if size == room:
                    break
                out[size] = 32
                size += 1
            space = False
            if size == room:
                break
            out[size] = c
            size += 1
        else:
            if space:
                changed = True  # a trailing space
        if cap >= 0 and size > cap:
            size = cap - 1
            while size > 0 and Py_UNICODE_ISSPACE(out[size - 1]):
                size -= 1
            out[size] = 0x2026  # …
            return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out, size + 1)
        if not changed and size == n:
            return text
        return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out, size)
    finally:
        PyMem_Free(out)


cdef str _lower_collapsed(str text):
    """``" ".join(text.lower().split())``, as the walk normalises a rel: lower-cased by C
    where the text is ASCII (the common case), by Python's str.lower otherwise."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text), i
    cdef const unsigned char* data
    if not text.isascii():
        return _collapsed(text.lower(), -1)
    data = <const unsigned char*>PyUnicode_DATA(text)
    for i in range(n):
        if 65 <= data[i] <= 90:
            return _collapsed(text.lower(), -1)
    return _collapsed(text, -1)


cdef lxb_dom_attr_t* _named(lxb_dom_node_t* node, const char* name, size_t size, bint foreign):
    """The element's first attribute of that name (lower case: a foreign element's compared as
    the copy lower-cases it), or NULL."""
    cdef lxb_dom_attr_t* attr = h5_attrs(node)
    cdef const lxb_char_t* found
    cdef size_t length, i
    cdef unsigned char c
    while attr is not NULL:
        found = h5_attr_name(attr, &length)
        if length == size:
            if not foreign:
                if memcmp(found, name, size) == 0:
                    return attr
            else:
                for i in range(size):
                    c = found[i]
                    if 65 <= c <= 90:
                        c += 32
                    if c != <unsigned char>name[i]:
                        break
                else:
                    return attr
        attr = h5_attr_next(attr)
    return NULL


cdef object _named_value(lxb_dom_node_t* node, const char* name, size_t size, bint foreign):
    """element.get(name): the value of its first attribute of that name, or None."""
    cdef lxb_dom_attr_t* attr = _named(node, name, size, foreign)
    cdef const lxb_char_t* data
    cdef size_t length
    if attr is NULL:
        return None
    data = h5_attr_value(attr, &length)
    return _text_of(data, length)


cdef str _own_text(lxb_dom_node_t* node):
    """lxml's element.text: the text nodes before its first other child, joined ("" if none)."""
    cdef lxb_dom_node_t* child = h5_child(node)
    cdef size_t size
    cdef const lxb_char_t* data
    cdef list pieces = None
    cdef str first = u""
    while child is not NULL and h5_kind(child) == _TEXT:
        data = h5_text(child, &size)
        if pieces is None and not first:
            first = _text_of(data, size)
        else:
            if pieces is None:
                pieces = [first]
            pieces.append(_text_of(data, size))
        child = h5_next(child)
    return first if pieces is None else u"".join(pieces)
