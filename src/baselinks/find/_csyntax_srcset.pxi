# Included by _csyntax.pyx (Cython's include: one module, two files): microsyntax.parse_srcset
# in C. Uses _csyntax.pyx's _Text, _text and _at.

cdef inline bint _ascii_space(Py_UCS4 c) noexcept:
    # microsyntax.ASCII_WHITESPACE
    return c == u"\t" or c == u"\n" or c == u"\x0c" or c == u"\r" or c == u" "


cdef enum:
    IN_DESCRIPTOR = 0
    IN_PARENS = 1
    AFTER_DESCRIPTOR = 2


def parse_srcset(text):
    """microsyntax.parse_srcset(value): the same list of Candidate (read the steps there)."""
    cdef str value = _exact(text)
    cdef list candidates = []
    cdef list descriptors
    cdef Py_ssize_t pos = 0
    cdef Py_ssize_t end = len(value)
    cdef Py_ssize_t start
    cdef int state
    cdef Py_UCS4 c
    cdef _Text v = _text(value)
    new = tuple.__new__
    while True:
        # 4. splitting loop: skip ASCII whitespace and commas
        while pos < end and (_ascii_space(_at(v, pos)) or _at(v, pos) == u","):
            pos += 1
        if pos >= end:
            return candidates
        # 6. the URL: code points that are not ASCII whitespace
        start = pos
        while pos < end and not _ascii_space(_at(v, pos)):
            pos += 1
        url = value[start:pos]
        descriptors = []
        if _at(v, pos - 1) == u",":
            url = url.rstrip(",")  # 7.1
        else:
            # 8. descriptor tokenizer; the descriptor is value[start:pos] (-1: none yet)
            while pos < end and _ascii_space(_at(v, pos)):
                pos += 1
            start = -1
            state = IN_DESCRIPTOR
            while True:
                if state == IN_DESCRIPTOR:
                    if pos >= end:
                        if start >= 0:
                            descriptors.append(value[start:pos])
                        break
                    c = _at(v, pos)
                    if _ascii_space(c):
                        if start >= 0:
                            descriptors.append(value[start:pos])
                        start = -1
                        state = AFTER_DESCRIPTOR
                    elif c == u",":
                        if start >= 0:
                            descriptors.append(value[start:pos])
                        pos += 1
                        break
                    else:
                        if start < 0:
                            start = pos
                        if c == u"(":
                            state = IN_PARENS
                elif state == IN_PARENS:
                    if pos >= end:
                        descriptors.append(value[start:pos])
                        break
                    if _at(v, pos) == u")":
                        state = IN_DESCRIPTOR
                else:  # after descriptor
                    if pos >= end:
                        break
                    if not _ascii_space(_at(v, pos)):
                        state = IN_DESCRIPTOR
                        continue  # reconsume
                pos += 1
        valid = _descriptors_valid(descriptors)
        candidates.append(new(Candidate, (url, tuple(descriptors), valid)))


cdef inline bint _digits(str text, Py_ssize_t pos, Py_ssize_t end) noexcept:
    """Whether text[pos:end] is one or more ASCII digits."""
    if pos >= end:
        return False
    while pos < end:
        if not (u"0" <= text[pos] <= u"9"):
            return False
        pos += 1
    return True


cdef Py_ssize_t _skip_digits(str text, Py_ssize_t pos, Py_ssize_t end) noexcept:
    while pos < end and u"0" <= text[pos] <= u"9":
        pos += 1
    return pos


cdef bint _is_float(str text, Py_ssize_t end) noexcept:
    """microsyntax._FLOAT.fullmatch(text[:end]): the HTML standard's valid floating-point
    number."""
    cdef Py_ssize_t pos = 0
    cdef Py_ssize_t after
    if pos < end and text[pos] == u"-":
        pos += 1
    after = _skip_digits(text, pos, end)
    if after > pos:  # digits, then optionally "." and digits
        pos = after
        if pos < end and text[pos] == u".":
            after = _skip_digits(text, pos + 1, end)
            if after == pos + 1:
                return False
            pos = after
    elif pos < end and text[pos] == u".":  # "." and digits
        after = _skip_digits(text, pos + 1, end)
        if after == pos + 1:
            return False
        pos = after
    else:
        return False
    if pos < end and (text[pos] == u"e" or text[pos] == u"E"):
        pos += 1
        if pos < end and (text[pos] == u"-" or text[pos] == u"+"):
            pos += 1
        return _digits(text, pos, end)
    return pos == end


cdef bint _descriptors_valid(list descriptors) except -1:
    """microsyntax._descriptors_valid: at most one of w/x, h only beside w; w and h valid
    non-negative integers above zero, x a valid floating-point number, not below zero nor
    beyond a double."""
    cdef bint w = False, x = False, h = False
    cdef Py_ssize_t n, pos
    cdef Py_UCS4 unit
    cdef str descriptor
    for descriptor in descriptors:
        n = len(descriptor)
        if n == 0:
            return False
        unit = descriptor[n - 1]
        n -= 1  # the number is descriptor[:n]
        if unit == u"x":
            if x:
                return False
            x = True
            if not _is_float(descriptor, n):
                return False
            value = float(descriptor[:n])
            if value < 0 or value == float("inf"):
                return False
        elif unit == u"w" or unit == u"h":
            if (w if unit == u"w" else h):
                return False
            if unit == u"w":
                w = True
            else:
                h = True
            if not _digits(descriptor, 0, n):
                return False
            pos = 0
            while pos < n and descriptor[pos] == u"0":
                pos += 1
            if pos == n:
                return False  # zero
        else:
            return False
    return not ((w and x) or (h and not w))
