# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""_cjsonl: JSON Lines of a batch of links in C (optional; formats.py's Python writer is the
reference).

One pass over the links writes each record's UTF-8 into one growing buffer: the key prefixes
given (``{"url": ``, ``, "raw": ``...), each value as json.dumps(..., ensure_ascii=False)
writes it, and the escapes formats.py adds after it (DEL, the C1 controls, U+2028, U+2029 as
``\\u00XX``), then one decode to str. No dict, no Python call per record. What the Python
writer would hand to json (a lone surrogate, which UTF-8 cannot hold; an int past 64 bits; a
value of another type) makes :func:`lines` return None, and formats.py writes the batch itself.
tests/test_compiled_jsonl.py holds it to the Python writer on hypothesis-generated records.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.ref cimport Py_DECREF, Py_INCREF, Py_XDECREF, PyObject
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdint cimport uint64_t
from libc.string cimport memcpy


cdef extern from "Python.h":
    int PyUnicode_KIND(object)
    void* PyUnicode_DATA(object)
    Py_ssize_t PyUnicode_GET_LENGTH(object)
    Py_UCS4 PyUnicode_READ(int, void*, Py_ssize_t)
    bint PyUnicode_CheckExact(object)
    bint PyLong_CheckExact(object)
    bint PyTuple_CheckExact(object)
    long long PyLong_AsLongLongAndOverflow(object, int*) except? -1
    int _PyBytes_Resize(PyObject** bytes, Py_ssize_t size) except -1


cdef struct Buffer:
    PyObject* owner  # the bytes object the lines are written into, grown in place
    char* data  # its bytes
    Py_ssize_t size
    Py_ssize_t capacity


cdef int _start(Buffer* buffer) except -1:
    made = PyBytes_FromStringAndSize(NULL, buffer.capacity)
    Py_INCREF(made)  # the buffer's own reference (``made``'s goes with it)
    buffer.owner = <PyObject*>made
    buffer.data = PyBytes_AS_STRING(<object>buffer.owner)
    return 0


cdef int _reserve(Buffer* buffer, Py_ssize_t more) except -1:
    cdef Py_ssize_t capacity = buffer.capacity
    if buffer.size + more <= capacity:
        return 0
    while capacity < buffer.size + more:
        capacity = capacity * 2 + 64
    _PyBytes_Resize(&buffer.owner, capacity)  # on failure: owner NULL, MemoryError raised
    buffer.data = PyBytes_AS_STRING(<object>buffer.owner)
    buffer.capacity = capacity
    return 0


cdef object _finish(Buffer* buffer):
    """The bytes written, the buffer's object cut to them (in place: no copy); the buffer is
    left empty."""
    _PyBytes_Resize(&buffer.owner, buffer.size)
    made = <object>buffer.owner  # a new reference
    Py_DECREF(made)
    buffer.owner = NULL
    return made


cdef inline void _bytes(Buffer* buffer, const char* data, Py_ssize_t size) noexcept:
    memcpy(buffer.data + buffer.size, data, size)
    buffer.size += size


cdef const char* HEX = b"0123456789abcdef"


cdef inline char* _escape(char* out, unsigned int c) noexcept:
    # \u00XX (json writes the C0 controls so; formats.py DEL, the C1 controls, U+2028/9)
    out[0] = 92  # backslash
    out[1] = 117  # u
    out[2] = HEX[(c >> 12) & 15]
    out[3] = HEX[(c >> 8) & 15]
    out[4] = HEX[(c >> 4) & 15]
    out[5] = HEX[c & 15]
    return out + 6


cdef inline char* _pair(char* out, char letter) noexcept:
    out[0] = 92  # backslash
    out[1] = letter
    return out + 2


cdef char* _special(char* out, unsigned int c) noexcept:
    """A character that is not printable ASCII, escaped or in UTF-8; NULL for a surrogate."""
    if c < 0x80:
        if c == 34 or c == 92:  # " and \
            return _pair(out, <char>c)
        if c == 10:
            return _pair(out, 110)  # n
        if c == 13:
            return _pair(out, 114)  # r
        if c == 9:
            return _pair(out, 116)  # t
        if c == 8:
            return _pair(out, 98)  # b
        if c == 12:
            return _pair(out, 102)  # f
        return _escape(out, c)  # another C0 control, or DEL
    if c < 0x800:
        if c < 0xA0:  # a C1 control
            return _escape(out, c)
        out[0] = <char>(0xC0 | (c >> 6))
        out[1] = <char>(0x80 | (c & 0x3F))
        return out + 2
    if c < 0x10000:
        if 0xD800 <= c < 0xE000:  # a lone surrogate: no UTF-8 holds it
            return NULL
        if c == 0x2028 or c == 0x2029:
            return _escape(out, c)
        out[0] = <char>(0xE0 | (c >> 12))
        out[1] = <char>(0x80 | ((c >> 6) & 0x3F))
        out[2] = <char>(0x80 | (c & 0x3F))
        return out + 3
    out[0] = <char>(0xF0 | (c >> 18))
    out[1] = <char>(0x80 | ((c >> 12) & 0x3F))
    out[2] = <char>(0x80 | ((c >> 6) & 0x3F))
    out[3] = <char>(0x80 | (c & 0x3F))
    return out + 4


cdef enum:
    CHUNK = 4096  # characters escaped between two checks of the buffer's room


cdef inline bint _plain8(const unsigned char* at) noexcept nogil:
    """Whether the 8 bytes at ``at`` are each written as they are (0x20-0x7e, no quote, no
    backslash): SWAR tests on one word, exact for "any byte" (Bit Twiddling Hacks, "Determine
    if a word has a byte less than n", "has a zero byte")."""
    cdef uint64_t w, x, y
    cdef uint64_t ones = 0x0101010101010101ULL
    cdef uint64_t high = 0x8080808080808080ULL
    memcpy(&w, at, 8)
    if w & high:
        return False  # a byte past ASCII
    x = w ^ (ones * 0x22)  # '"' becomes a zero byte
    y = w ^ (ones * 0x5C)  # '\\' too
    return (
        ((w - ones * 0x20) & ~w)  # a byte below 0x20
        | ((w + ones) & high)  # 0x7f (DEL): the one ASCII byte that reaches 0x80
        | ((x - ones) & ~x)
        | ((y - ones) & ~y)
    ) & high == 0


cdef int _string(Buffer* buffer, object text) except -1:
    """``text`` as a JSON string: 1 if it holds a surrogate (left to the Python writer). The
    room is made a chunk at a time (a character takes 6 bytes at most, ``\\u00XX``), so that
    a value of megabytes (a data: URL) needs no more than its own UTF-8 and 24 KB."""
    cdef Py_ssize_t length = PyUnicode_GET_LENGTH(text), i, start = 0, stop
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef const unsigned char* latin = <const unsigned char*>data
    cdef unsigned int c
    cdef char* out
    _reserve(buffer, 2)
    buffer.data[buffer.size] = 34  # "
    buffer.size += 1
    while start < length:
        stop = min(length, start + CHUNK)
        _reserve(buffer, 6 * (stop - start) + 1)
        out = buffer.data + buffer.size
        if kind == 1:  # the most common by far: Latin-1 (ASCII most of all), a byte a character
            i = start
            while i < stop:
                if i + 8 <= stop and _plain8(latin + i):  # 8 at a time: long URLs, data: URLs
                    memcpy(out, latin + i, 8)
                    out += 8
                    i += 8
                    continue
                c = latin[i]
                if 0x20 <= c < 0x7f and c != 34 and c != 92:
                    out[0] = <char>c
                    out += 1
                else:
                    out = _special(out, c)
                i += 1
        else:
            for i in range(start, stop):
                c = <unsigned int>PyUnicode_READ(kind, data, i)
                if 0x20 <= c < 0x7f and c != 34 and c != 92:
                    out[0] = <char>c
                    out += 1
                else:
                    out = _special(out, c)
                    if out is NULL:
                        return 1
        buffer.size = out - buffer.data
        start = stop
    _reserve(buffer, 1)
    buffer.data[buffer.size] = 34
    buffer.size += 1
    return 0


cdef int _integer(Buffer* buffer, long long number) except -1:
    # the decimal digits, as int.__repr__ writes them
    cdef char digits[24]
    cdef int at = 24
    cdef unsigned long long magnitude = <unsigned long long>number
    if number < 0:
        magnitude = 0 - magnitude
    while True:
        at -= 1
        digits[at] = <char>(48 + magnitude % 10)
        magnitude //= 10
        if magnitude == 0:
            break
    if number < 0:
        at -= 1
        digits[at] = 45  # -
    _reserve(buffer, 24 - at)
    _bytes(buffer, digits + at, 24 - at)
    return 0


cdef int _value(Buffer* buffer, object value) except -1:
    """``value`` as json writes it: 0, or 1 for what is left to the Python writer."""
    cdef int overflow = 0
    cdef long long number
    cdef Py_ssize_t i, count
    if PyUnicode_CheckExact(value):
        return _string(buffer, value)
    if value is None:
        _reserve(buffer, 4)
        _bytes(buffer, b"null", 4)
        return 0
    if value is True:  # before the ints: a bool is one (json writes true, false)
        _reserve(buffer, 4)
        _bytes(buffer, b"true", 4)
        return 0
    if value is False:
        _reserve(buffer, 5)
        _bytes(buffer, b"false", 5)
        return 0
    if PyLong_CheckExact(value):
        number = PyLong_AsLongLongAndOverflow(value, &overflow)
        if overflow:
            return 1
        _integer(buffer, number)
        return 0
    if PyTuple_CheckExact(value):  # problems: a list of strings
        count = PyTuple_GET_SIZE(value)
        _reserve(buffer, 2)
        _bytes(buffer, b"[", 1)
        for i in range(count):
            item = <object>PyTuple_GET_ITEM(value, i)
            if not PyUnicode_CheckExact(item):
                return 1
            if i:
                _reserve(buffer, 2)
                _bytes(buffer, b", ", 2)
            if _string(buffer, item):
                return 1
        _reserve(buffer, 1)
        _bytes(buffer, b"]", 1)
        return 0
    return 1


def lines(links, tuple fields, tuple prefixes, bytes end, Py_ssize_t own, bint utf8=False):
    """The JSON Lines of ``links`` (a sequence of Link), or None where the Python writer must
    write them. ``fields``: the index of each field written in :data:`~baselinks.resolve.link.FIELDS`
    order, the link's own below ``own`` (its item), the origin's from ``own`` on (the origin,
    the link's item ``own``, at that index less ``own``); ``prefixes``: what comes before each
    value (``{"url": ``, ``, "raw": ``...); ``end``: after the last (``}\\n``). ``utf8``:
    the lines as UTF-8 bytes (what a str of them would be encoded to), not a str."""
    found = _lines(links, fields, prefixes, end, own, -1)
    if found is None:
        return None
    data = found[0]
    return data if utf8 else PyUnicode_DecodeUTF8(data, len(data), NULL)


def within(links, tuple fields, tuple prefixes, bytes end, Py_ssize_t own, Py_ssize_t budget):
    """:func:`lines` as UTF-8 bytes, of the first of ``links`` whose lines stay within
    ``budget`` bytes, and how many they are: ``(data, count)``; or None, as :func:`lines`."""
    return _lines(links, fields, prefixes, end, own, budget)


cdef tuple _lines(links, tuple fields, tuple prefixes, bytes end, Py_ssize_t own, Py_ssize_t budget):
    # One pass, into one bytes object grown in place. A value that is the same object as the
    # one written in the same field of the record before (a document's name, its base, the
    # origin's seven, a kind, an empty text: two thirds of a crawl's bytes) is not escaped
    # again: its bytes are copied from where they were written. Each remembered value is
    # held (a reference) until the next takes its place, so its address names it.
    cdef Buffer buffer
    cdef Py_ssize_t count = len(fields), i, index, start, size, done = 0, record
    cdef Py_ssize_t* at
    cdef const char** before
    cdef Py_ssize_t* sizes
    cdef Py_ssize_t* last_at
    cdef Py_ssize_t* last_size
    cdef PyObject** last
    cdef Py_ssize_t most = 0
    cdef Py_ssize_t total = len(links)
    cdef const char* after = end
    cdef Py_ssize_t after_size = len(end)
    cdef object value, origin
    if len(prefixes) != count or count == 0:
        raise ValueError("one prefix per field")
    for i in range(count):
        index = fields[i]
        if index < 0:
            raise ValueError("a field index below 0")
        most = max(most, index)
    buffer.owner = NULL
    buffer.size = 0
    buffer.capacity = 256 * total + 64
    at = <Py_ssize_t*>PyMem_Malloc(count * sizeof(Py_ssize_t))
    sizes = <Py_ssize_t*>PyMem_Malloc(count * sizeof(Py_ssize_t))
    before = <const char**>PyMem_Malloc(count * sizeof(char*))
    last_at = <Py_ssize_t*>PyMem_Malloc(count * sizeof(Py_ssize_t))
    last_size = <Py_ssize_t*>PyMem_Malloc(count * sizeof(Py_ssize_t))
    last = <PyObject**>PyMem_Malloc(count * sizeof(PyObject*))
    try:
        if (
            at is NULL or sizes is NULL or before is NULL or last_at is NULL
            or last_size is NULL or last is NULL
        ):
            raise MemoryError()
        for i in range(count):
            at[i] = fields[i]
            before[i] = <bytes>prefixes[i]  # held by the tuple for the call
            sizes[i] = len(<bytes>prefixes[i])
            last[i] = NULL
        _start(&buffer)
        for link in links:
            # a Link: a tuple whose item ``own`` is its Origin, a tuple too
            if not isinstance(link, tuple) or PyTuple_GET_SIZE(link) <= own:
                return None
            origin = <object>PyTuple_GET_ITEM(link, own)
            if most >= own and (
                not isinstance(origin, tuple) or PyTuple_GET_SIZE(origin) <= most - own
            ):
                return None
            record = buffer.size
            for i in range(count):
                index = at[i]
                if index < own:
                    value = <object>PyTuple_GET_ITEM(link, index)
                else:
                    value = <object>PyTuple_GET_ITEM(origin, index - own)
                _reserve(&buffer, sizes[i])
                _bytes(&buffer, before[i], sizes[i])
                if <PyObject*>value is last[i]:
                    size = last_size[i]
                    _reserve(&buffer, size)
                    memcpy(buffer.data + buffer.size, buffer.data + last_at[i], size)
                    buffer.size += size
                    continue
                start = buffer.size
                if _value(&buffer, value):
                    return None
                Py_XDECREF(last[i])
                Py_INCREF(value)
                last[i] = <PyObject*>value
                last_at[i] = start
                last_size[i] = buffer.size - start
            _reserve(&buffer, after_size)
            _bytes(&buffer, after, after_size)
            if budget >= 0 and buffer.size > budget:
                buffer.size = record  # this record would pass the budget: the lines end before it
                break
            done += 1
            if done == 1 and total > 1:
                # room for the rest at the first record's size (a document's records differ
                # little: most of their bytes are its own), so that the buffer seldom moves;
                # never more than the budget holds
                size = (total - 1) * (buffer.size + buffer.size // 4)
                if budget >= 0:
                    size = min(size, budget + 1 - buffer.size)
                _reserve(&buffer, size)
        return (_finish(&buffer), done)
    finally:
        Py_XDECREF(buffer.owner)
        if last is not NULL:
            for i in range(count):
                Py_XDECREF(last[i])
        PyMem_Free(at)
        PyMem_Free(sizes)
        PyMem_Free(before)
        PyMem_Free(last_at)
        PyMem_Free(last_size)
        PyMem_Free(last)
