# Included by _chtml5.pyx (one module: the walk calls lexbor, which is compiled into it): the
# native walk, find/walk.raw_links over lexbor's own nodes, with no lxml tree made.
#
# It is find/_cwalk.pyx's walk step for step (read the rules there and in find/walk.py: they
# are theirs), over the nodes as the copy into lxml makes them (_chtml5_tree.c: a <template>'s
# contents as its children, a <noscript> settled into elements, names of SVG and MathML
# elements and attributes in lower case, each element's line as the copy gives it). The table
# is find/walk.py's _Table, read when the Walker is made, as _cwalk.Scanner reads it: no second
# table. A row's condition, kind rule or text reader is find/'s own Python, called with a
# _Node (tag, get, iterancestors, text, sourceline: what they read of an element).
#
# What it cannot give as the walk over the copy would, it declines (links returns None, and the
# caller walks the lxml tree): a line past 65,534 (libxml2's line field is 16 bits, and lxml's
# sourceline then looks further), an anchor whose text anchor.py must compute (an anchor inside
# an anchor), a table with an attribute name lxml reads as "{ns}name".

from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_DECREF, Py_INCREF
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE, PyTuple_SET_ITEM
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.string cimport memcmp

cdef extern from "_chtml5_tree.h":
    ctypedef unsigned char lxb_char_t
    ctypedef struct lxb_dom_node_t
    ctypedef struct lxb_dom_attr_t
    lxb_dom_node_t *h5_root(lxb_html_document_t *doc)
    lxb_dom_node_t *h5_child(lxb_dom_node_t *node)
    lxb_dom_node_t *h5_after(lxb_dom_node_t *node, const lxb_dom_node_t *top, int *ups)
    lxb_dom_node_t *h5_next(lxb_dom_node_t *node)
    int h5_kind(const lxb_dom_node_t *node)
    int h5_foreign(const lxb_dom_node_t *node)
    size_t h5_line(const lxb_dom_node_t *node, size_t parent_line)
    const lxb_char_t *h5_name(lxb_dom_node_t *node, size_t *len)
    lxb_dom_attr_t *h5_attrs(lxb_dom_node_t *node)
    lxb_dom_attr_t *h5_attr_next(lxb_dom_attr_t *attr)
    const lxb_char_t *h5_attr_name(lxb_dom_attr_t *attr, size_t *len)
    const lxb_char_t *h5_attr_value(lxb_dom_attr_t *attr, size_t *len)
    const lxb_char_t *h5_text(lxb_dom_node_t *node, size_t *len)

cdef enum:
    _ELEMENT = 1
    _TEXT = 3
    _HAND = 1  # as _cwalk's: a tag handed on whatever its attributes
    _NAME_ROOM = 256  # a name longer than this is looked up in Python
    _LAST_LINE = 65535  # libxml2's: this line and any after it


cdef inline unsigned int _fnv(const unsigned char* name, size_t size) noexcept nogil:
    cdef unsigned int h = 2166136261u
    cdef size_t i
    for i in range(size):
        h = (h ^ name[i]) * 16777619u
    return h


cdef class _Set:
    """Names with a small int each, looked up by (bytes, length): open addressing, a table at
    most a quarter full (as _cwalk._Names, for names that are not NUL-ended)."""

    cdef list _kept
    cdef const unsigned char** _slots
    cdef size_t* _sizes
    cdef int* _values
    cdef unsigned int _mask

    def __cinit__(self, dict names):
        cdef unsigned int size = 16
        cdef unsigned int i
        cdef bytes encoded
        while size < 4 * len(names):
            size *= 2
        self._mask = size - 1
        self._kept = []
        self._slots = <const unsigned char**>PyMem_Malloc(size * sizeof(void*))
        self._sizes = <size_t*>PyMem_Malloc(size * sizeof(size_t))
        self._values = <int*>PyMem_Malloc(size * sizeof(int))
        if self._slots == NULL or self._sizes == NULL or self._values == NULL:
            raise MemoryError()
        for i in range(size):
            self._slots[i] = NULL
        for name, value in names.items():
            encoded = name.encode("utf-8")
            self._kept.append(encoded)
            i = _fnv(<const unsigned char*><const char*>encoded, len(encoded)) & self._mask
            while self._slots[i] != NULL:
                i = (i + 1) & self._mask
            self._slots[i] = <const unsigned char*><const char*>encoded
            self._sizes[i] = len(encoded)
            self._values[i] = value

    def __dealloc__(self):
        PyMem_Free(self._slots)
        PyMem_Free(self._sizes)
        PyMem_Free(self._values)

    cdef int find_py(self, str name) except -1:
        cdef bytes encoded = name.encode("utf-8")
        return self.find(<const unsigned char*><const char*>encoded, len(encoded))

    cdef inline int find(self, const unsigned char* name, size_t size) noexcept nogil:
        cdef unsigned int i = _fnv(name, size) & self._mask
        while self._slots[i] != NULL:
            if self._sizes[i] == size and memcmp(self._slots[i], name, size) == 0:
                return self._values[i]
            i = (i + 1) & self._mask
        return 0


cdef inline const unsigned char* _lowered(
    const lxb_char_t* name, size_t size, bint foreign, unsigned char* room
) noexcept nogil:
    """The name as the copy interns it: in lower case for a foreign element (in ``room``, at
    most _NAME_ROOM bytes; NULL when longer)."""
    cdef size_t i
    cdef bint upper = False
    if not foreign:
        return name
    for i in range(size):
        if 65 <= name[i] <= 90:
            upper = True
            break
    if not upper:
        return name
    if size > _NAME_ROOM:
        return NULL
    for i in range(size):
        room[i] = name[i] + 32 if 65 <= name[i] <= 90 else name[i]
    return room


cdef str _text_of(const lxb_char_t* data, size_t size):
    return PyUnicode_DecodeUTF8(<const char*>data, size, NULL)


cdef str _name_of(const lxb_char_t* name, size_t size, bint foreign):
    cdef str text = _text_of(name, size)
    # lower-cased as the copy's intern() does it: ASCII letters only
    return text.translate(_ASCII_LOWER) if foreign else text


_ASCII_LOWER = {code: code + 32 for code in range(65, 91)}


cdef class _Node:
    """An element of the walk as find/'s conditions, kind rules and text readers read one
    (lxml's tag, get, iterancestors, text, sourceline). Valid during the call it is given to."""

    cdef lxb_dom_node_t* node
    cdef _Open open
    cdef Py_ssize_t depth  # its place in the walk's stack of open elements
    cdef readonly object sourceline
    cdef str _tag

    @property
    def tag(self):
        if self._tag is None:
            self._tag = self.open.tag_at(self.depth)
        return self._tag

    def get(self, str name, default=None):
        found = _attribute(self.node, name)
        return default if found is None else found

    def keys(self):
        return _keys(self.node)

    @property
    def text(self):
        # lxml's: the text nodes before its first other child, joined; None if none
        cdef lxb_dom_node_t* child = h5_child(self.node)
        cdef size_t size
        cdef const lxb_char_t* data
        pieces = []
        while child is not NULL and h5_kind(child) == _TEXT:
            data = h5_text(child, &size)
            pieces.append(_text_of(data, size))
            child = h5_next(child)
        return "".join(pieces) if pieces else None

    def iterancestors(self, *tags):
        cdef Py_ssize_t place = self.depth - 1
        while place >= 0:
            tag = self.open.tag_at(place)
            if not tags or tag in tags:
                yield self.open.node_at(place)
            place -= 1


cdef list _keys(lxb_dom_node_t* node):
    cdef lxb_dom_attr_t* attr = h5_attrs(node)
    cdef size_t size
    cdef const lxb_char_t* name
    cdef bint foreign = h5_foreign(node)
    keys = []
    while attr is not NULL:
        name = h5_attr_name(attr, &size)
        keys.append(_name_of(name, size, foreign))
        attr = h5_attr_next(attr)
    return keys


cdef object _attribute(lxb_dom_node_t* node, str name):
    """element.get(name): the first attribute of that name, or None."""
    cdef lxb_dom_attr_t* attr = h5_attrs(node)
    cdef size_t size
    cdef const lxb_char_t* data
    cdef bint foreign = h5_foreign(node)
    while attr is not NULL:
        data = h5_attr_name(attr, &size)
        if _name_of(data, size, foreign) == name:
            data = h5_attr_value(attr, &size)
            return _text_of(data, size)
        attr = h5_attr_next(attr)
    return None


cdef object _value(lxb_dom_node_t* node, list keys, str name):
    """_cwalk's _value: the value of the first attribute ``name``, found by its place in
    ``keys``; None if the element has none."""
    cdef Py_ssize_t place
    cdef Py_ssize_t count = len(keys)
    cdef lxb_dom_attr_t* attr
    cdef size_t size
    cdef const lxb_char_t* data
    for place in range(count):
        if keys[place] == name:
            break
    else:
        return None
    attr = h5_attrs(node)
    while place:
        attr = h5_attr_next(attr)
        place -= 1
    data = h5_attr_value(attr, &size)
    return _text_of(data, size)


class _Declined(Exception):
    pass


cdef class _Open:
    """One walk's state: the stack of open elements, each one's line, placement mask and tag
    (made when asked). One per call of Walker.walk: the Python it calls may let another
    thread walk with the same Walker meanwhile."""

    cdef lxb_dom_node_t** stack
    cdef size_t* lines
    cdef unsigned int* masks
    cdef list tags
    cdef Py_ssize_t room

    def __cinit__(self):
        self.room = 64
        self.stack = <lxb_dom_node_t**>PyMem_Malloc(self.room * sizeof(void*))
        self.lines = <size_t*>PyMem_Malloc(self.room * sizeof(size_t))
        self.masks = <unsigned int*>PyMem_Malloc(self.room * sizeof(unsigned int))
        if self.stack == NULL or self.lines == NULL or self.masks == NULL:
            raise MemoryError()
        self.tags = [None] * self.room

    def __dealloc__(self):
        PyMem_Free(self.stack)
        PyMem_Free(self.lines)
        PyMem_Free(self.masks)

    cdef int grow(self) except -1:
        cdef Py_ssize_t room = self.room * 2
        cdef void* grown = PyMem_Realloc(self.stack, room * sizeof(void*))
        if grown == NULL:
            raise MemoryError()
        self.stack = <lxb_dom_node_t**>grown
        grown = PyMem_Realloc(self.lines, room * sizeof(size_t))
        if grown == NULL:
            raise MemoryError()
        self.lines = <size_t*>grown
        grown = PyMem_Realloc(self.masks, room * sizeof(unsigned int))
        if grown == NULL:
            raise MemoryError()
        self.masks = <unsigned int*>grown
        self.tags.extend([None] * (room - self.room))
        self.room = room
        return 0

    cdef str tag_at(self, Py_ssize_t depth):
        cdef size_t size
        cdef const lxb_char_t* name
        tag = self.tags[depth]
        if tag is None:
            node = self.stack[depth]
            name = h5_name(node, &size)
            tag = self.tags[depth] = _name_of(name, size, h5_foreign(node))
        return tag

    cdef _Node node_at(self, Py_ssize_t depth):
        cdef _Node made = _Node.__new__(_Node)
        made.node = self.stack[depth]
        made.open = self
        made.depth = depth
        made.sourceline = self.lines[depth]
        return made


cdef class Walker:
    """find/walk.raw_links over a Parsed document's own nodes, for one link-source table
    (find/walk._Table): :meth:`Parsed.links`."""

    cdef _Set _attrs
    cdef _Set _tags
    cdef tuple _placements
    cdef object _table
    cdef frozenset _always
    cdef dict _text_rows
    cdef dict _text_needs
    cdef dict _steps
    cdef object _base_element
    cdef object _codebase
    cdef type RawLink
    cdef object split_urls, parse_srcset, css_urls, other_syntax, text_links, capped
    cdef object CSS_TEXT, URL, URLS, COMMA_URLS, SRCSET, CSS
    cdef frozenset _rel_elements
    cdef frozenset _text_elements
    cdef str _whitespace
    cdef tuple _invalid_srcset
    cdef readonly bint braced
    cdef Py_ssize_t _text_cap

    def __cinit__(self, table, holders, dict names):
        self._table = table
        self._always = table.always
        self._text_rows = table.text
        self._text_needs = table.text_needs
        self._steps = table.steps
        self._base_element = names["BASE_ELEMENT"]
        self._codebase = names["CODEBASE"]
        self.RawLink = names["RawLink"]
        if not (
            self.RawLink.__bases__ == (tuple,)
            and self.RawLink.__basicsize__ == tuple.__basicsize__
            and self.RawLink.__itemsize__ == tuple.__itemsize__
            and self.RawLink.__dictoffset__ == 0
            and self.RawLink.__weakrefoffset__ == 0
        ):
            raise TypeError("RawLink must be a NamedTuple: a tuple's layout")
        self.split_urls = names["split_urls"]
        self.parse_srcset = names["parse_srcset"]
        self.css_urls = names["css_urls"]
        self.other_syntax = names["_other_syntax"]
        self.text_links = names["_text_links"]
        self.capped = names["_capped"]
        self._text_cap = names["TEXT_CAP"]
        self.CSS_TEXT = names["CSS_TEXT"]
        self._rel_elements = names["REL_ELEMENTS"]
        self._text_elements = names["TEXT_ELEMENTS"]
        self._whitespace = names["ASCII_WHITESPACE"]
        self.URL = names["URL"]
        self.URLS = names["URLS"]
        self.COMMA_URLS = names["COMMA_URLS"]
        self.SRCSET = names["SRCSET"]
        self.CSS = names["CSS"]
        self._invalid_srcset = names["_INVALID_SRCSET"]
        self.braced = any(name.startswith("{") for name in table.attrs)
        cdef dict tags = {tag: _HAND for tag in table.always | table.text.keys()}
        codes = []
        for bit, (tag, code) in enumerate(holders):
            tags[tag] = tags.get(tag, 0) | (2 << bit)
            codes.append(code)
        self._attrs = _Set({name: 1 for name in table.attrs})
        self._tags = _Set(tags)
        self._placements = tuple(
            tuple(code for bit, code in enumerate(codes) if mask & (1 << bit))
            for mask in range(1 << len(codes))
        )
    cdef list walk(self, lxb_dom_node_t* top):
        """The RawLinks of the tree under ``top`` (the <html> element), in document order."""
        cdef list out = []
        cdef _Open open = _Open()
        cdef lxb_dom_node_t* node = top
        cdef lxb_dom_node_t* child
        cdef lxb_dom_attr_t* attr
        cdef Py_ssize_t depth = 0
        cdef size_t size
        cdef const lxb_char_t* name
        cdef const unsigned char* looked
        cdef unsigned char room[_NAME_ROOM]
        cdef int flags, ups
        cdef bint linked, foreign
        cdef size_t line
        open.stack[0] = top
        open.lines[0] = h5_line(top, 1)
        open.masks[0] = 0
        try:
            while node is not NULL:
                if h5_kind(node) == _ELEMENT:
                    line = open.lines[depth]
                    if line >= _LAST_LINE:
                        raise _Declined()
                    foreign = h5_foreign(node)
                    name = h5_name(node, &size)
                    looked = _lowered(name, size, foreign, room)
                    if looked == NULL:
                        flags = self._tags.find_py(_name_of(name, size, foreign))
                    else:
                        flags = self._tags.find(looked, size)
                    linked = False
                    attr = h5_attrs(node)
                    while attr is not NULL and not linked:
                        name = h5_attr_name(attr, &size)
                        looked = _lowered(name, size, foreign, room)
                        if looked == NULL:
                            linked = self._attrs.find_py(_name_of(name, size, foreign)) != 0
                        else:
                            linked = self._attrs.find(looked, size) != 0
                        attr = h5_attr_next(attr)
                    if linked or flags & _HAND:
                        self._element(open, depth, self._placements[open.masks[depth]], out, linked)
                    child = h5_child(node)
                    while child is not NULL and h5_kind(child) != _ELEMENT:
                        child = h5_next(child)
                    if child is not NULL:
                        depth += 1
                        if depth == open.room:
                            open.grow()
                        open.masks[depth] = open.masks[depth - 1] | <unsigned int>(flags >> 1)
                        open.stack[depth] = child
                        open.lines[depth] = h5_line(child, line)
                        open.tags[depth] = None
                        node = child
                        continue
                # the next element: a sibling, else an ancestor's sibling
                while True:
                    node = h5_after(node, top, &ups)
                    depth -= ups
                    open.tags[depth] = None
                    if node is NULL or h5_kind(node) == _ELEMENT:
                        break
                if node is not NULL:
                    open.stack[depth] = node
                    open.lines[depth] = h5_line(node, open.lines[depth - 1] if depth else 1)
        except _Declined:
            return None
        return out

    cdef int _element(
        self, _Open open, Py_ssize_t depth, tuple placed, list out, bint linked
    ) except -1:
        # _cwalk.Scanner._element, over lexbor's node (its rules: find/walk.py's)
        cdef lxb_dom_node_t* node = open.stack[depth]
        cdef str tag = open.tag_at(depth)
        cdef list keys = _keys(node)
        cdef _Node element = None
        cdef object line = open.lines[depth]
        cdef str rel = ""
        cdef str text = ""
        cdef str hreflang = ""
        cdef tuple codes
        RawLink = self.RawLink
        if tag in self._text_rows:
            needs = self._text_needs[tag]
            if needs is None or needs[1](_value(node, keys, needs[0]) or ""):
                element = open.node_at(depth)
                self._text_element(element, tag, self._text_rows[tag], placed, out)
        if tag == self._base_element:
            return 0
        if not linked and tag not in self._always:
            return 0
        if tag in self._rel_elements:
            written = _value(node, keys, "rel")
            if written:
                rel = " ".join(written.lower().split())
            written = _value(node, keys, "hreflang")
            if written:
                hreflang = written.strip(self._whitespace)
            if tag in self._text_elements:
                text = self._anchor_text(node, tag, keys)
        names = (tag, *keys)
        steps = self._steps.get(names)
        if steps is None:
            steps = self._table.steps_of(tag, keys, names)
        for _, attr, syntax, kind, rule, when, by_codebase, codes, absent in steps:
            if when is not None or rule is not None:
                if element is None:
                    element = open.node_at(depth)
                if when is not None and not when(element):
                    continue
            value = _value(node, keys, attr)
            if value is None:
                value = absent
            if placed:
                codes += placed
            if rule is not None:
                kind = rule(element, tag, rel)
            if syntax == self.URL:
                codebase = _value(node, keys, self._codebase) if by_codebase else None
                out.append(_made(RawLink, (value, tag, attr, kind, line, text, rel, codebase, codes, False, hreflang)))
            elif syntax == self.URLS or syntax == self.COMMA_URLS:
                codebase = _value(node, keys, self._codebase) if by_codebase else None
                for token in self.split_urls(value, "," if syntax == self.COMMA_URLS else None):
                    out.append(_made(RawLink, (token, tag, attr, kind, line, text, rel, codebase, codes, False, hreflang)))
            elif syntax == self.SRCSET:
                for url, _, valid in self.parse_srcset(value):
                    found = codes if valid else self._invalid_srcset + codes
                    out.append(_made(RawLink, (url, tag, attr, kind, line, "", rel, None, found, False, hreflang)))
            elif syntax == self.CSS:
                for url, _, _ in self.css_urls(value):
                    out.append(_made(RawLink, (url, tag, attr, kind, line, "", "", None, codes, False, "")))
            else:
                self.other_syntax(value, syntax, tag, attr, kind, line, codes, out)
        return 0

    cdef int _text_element(self, _Node element, str tag, source, tuple placed, list out) except -1:
        # _cwalk.Scanner._text_links
        if source.syntax != self.CSS_TEXT:
            self.text_links(element, tag, source, placed, out)
            return 0
        codes = ((source.problem,) if source.problem else ()) + placed
        base_line = element.sourceline or 1
        kind = source.kind
        for url, syntax, line in self.css_urls(element.text or ""):
            out.append(_made(self.RawLink, (url, tag, syntax, kind, base_line + line - 1, "", "", None, codes, False, "")))
        return 0

    cdef str _anchor_text(self, lxb_dom_node_t* node, str tag, list keys):
        """anchor.anchor_text where no other anchor is inside (else declined): an area's alt;
        an anchor's string-value (its text nodes, in order), else the alt of the first <img>
        inside with one; whitespace collapsed, capped at TEXT_CAP."""
        cdef lxb_dom_node_t* inside
        cdef lxb_dom_node_t* child
        cdef size_t size
        cdef const lxb_char_t* data
        cdef int ups
        cdef list pieces = []
        alt = None
        if tag == "area":
            return self.capped(" ".join((_value(node, keys, "alt") or "").split()))
        inside = h5_child(node)
        while inside is not NULL:
            if h5_kind(inside) == _TEXT:
                data = h5_text(inside, &size)
                pieces.append(_text_of(data, size))
            elif h5_kind(inside) == _ELEMENT:
                data = h5_name(inside, &size)
                inner = _name_of(data, size, h5_foreign(inside))
                if inner == "a":
                    raise _Declined()  # anchor.py's texts of nested anchors
                if alt is None and inner == "img":
                    alt = _attribute(inside, "alt") or None
                child = h5_child(inside)
                if child is not NULL:
                    inside = child
                    continue
            inside = h5_after(inside, node, &ups)
        text = " ".join("".join(pieces).split())
        if not text and alt is not None:
            text = " ".join(alt.split())
        return self.capped(text)


cdef extern from "Python.h":
    PyObject* PyType_GenericAlloc(PyTypeObject* cls, Py_ssize_t items) except NULL


cdef object _made(type cls, tuple values):
    """tuple.__new__(cls, values) for a NamedTuple (a tuple's layout, checked when the Walker
    is made), as _cwalk's _record makes it: the class's allocation, the items set."""
    cdef Py_ssize_t place
    cdef Py_ssize_t size = PyTuple_GET_SIZE(values)
    cdef object made = <object>PyType_GenericAlloc(<PyTypeObject*>cls, size)
    Py_DECREF(made)  # the allocation's own reference: `made` holds one
    for place in range(size):
        item = <object>PyTuple_GET_ITEM(values, place)
        Py_INCREF(item)
        PyTuple_SET_ITEM(made, place, item)
    return made


cdef class Parsed:
    """One document as lexbor parsed it (noscripts settled): its native walk (:meth:`links`),
    its first <base href> (:meth:`base_href`), and its lxml tree, copied when first asked
    (:meth:`tree`)."""

    cdef lxb_html_document_t* doc
    cdef object _root
    cdef size_t max_depth, max_names

    def __dealloc__(self):
        if self.doc != NULL:
            h5_free(self.doc)

    def tree(self):
        """The lxml root, as tree() gives it (copied once); None when the copy failed."""
        cdef long made
        cdef xmlNode* c_root
        cdef int why = H5_DONE
        if self._root is None and self.doc != NULL:
            root = etree.fromstring(_EMPTY, _PARSER)
            c_root = (<cetree._Element>root)._c_node
            with nogil:
                made = h5_to_libxml2(self.doc, c_root, self.max_depth, self.max_names, &why)
            if made >= 0:
                self._root = root
        return self._root

    def links(self, Walker walker):
        """The RawLinks find/walk.raw_links gives for the copy's tree, or None where it must be
        asked (see the top of _chtml5_walk.pxi)."""
        cdef lxb_dom_node_t* top = h5_root(self.doc) if self.doc != NULL else NULL
        if top is NULL or walker.braced:
            return None
        return walker.walk(top)

    def metas(self):
        """The (name, content) of every <meta> in tree order, as lxml's tree.iter("meta")
        gives them (find/directives.py reads the robots one)."""
        cdef lxb_dom_node_t* top = h5_root(self.doc) if self.doc != NULL else NULL
        cdef lxb_dom_node_t* node = top
        cdef lxb_dom_node_t* child
        cdef size_t size
        cdef const lxb_char_t* name
        cdef int ups
        found = []
        while node is not NULL:
            child = NULL
            if h5_kind(node) == _ELEMENT:
                name = h5_name(node, &size)
                if size == 4 and _name_of(name, size, h5_foreign(node)) == "meta":
                    found.append((_attribute(node, "name"), _attribute(node, "content")))
                child = h5_child(node)
            if child is not NULL:
                node = child
                continue
            node = h5_after(node, top, &ups) if node is not top else NULL
        return found

    def base_href(self):
        """The href of the first <base href> in tree order not inside a <template>, <noscript>,
        <svg> or <math> (base/layers.py's rule, on the copy's tree), or None."""
        cdef lxb_dom_node_t* top = h5_root(self.doc) if self.doc != NULL else NULL
        cdef lxb_dom_node_t* node = top
        cdef lxb_dom_node_t* child
        cdef size_t size
        cdef const lxb_char_t* name
        cdef int ups
        while node is not NULL:
            child = NULL
            if h5_kind(node) == _ELEMENT:
                name = h5_name(node, &size)
                tag = _name_of(name, size, h5_foreign(node))
                if tag == "base":
                    href = _attribute(node, "href")
                    if href is not None:
                        return href
                if tag not in _NOT_IN:
                    child = h5_child(node)
            if child is not NULL:
                node = child
                continue
            node = h5_after(node, top, &ups) if node is not top else NULL
        return None


# base/layers.py's _NOT_IN: no <base> inside these is the document's
_NOT_IN = frozenset({"template", "noscript", "svg", "math"})


def parse(bytes data, size_t max_depth, size_t max_names):
    """(a Parsed document, None), or (None, why: DEEP, NAMES or FAILED), as tree() says."""
    cdef const char *start = data
    cdef size_t size = len(data)
    cdef int why = H5_DONE
    cdef lxb_html_document_t *doc
    with nogil:
        doc = h5_parse(start, size, max_depth, max_names, &why)
    if doc == NULL:
        return None, _WHY.get(why, FAILED)
    cdef Parsed parsed = Parsed.__new__(Parsed)
    parsed.doc = doc
    parsed.max_depth = max_depth
    parsed.max_names = max_names
    return parsed, None
