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
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE, PyTuple_New, PyTuple_SET_ITEM
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
    """Names with a small int and a str each, looked up by (bytes, length): open addressing, a
    table at most a quarter full (as _cwalk._Names, for names that are not NUL-ended). Names
    may be added (:meth:`add`), up to ``most``: the tags of a page the table does not name, so
    that the next page's <div> is found, not decoded again."""

    cdef list _kept
    cdef const unsigned char** _slots
    cdef size_t* _sizes
    cdef int* _values
    cdef PyObject** _names
    cdef unsigned int _mask
    cdef Py_ssize_t count, most

    def __cinit__(self, dict names, Py_ssize_t most=0):
        cdef unsigned int size = 16
        while size < 4 * len(names):
            size *= 2
        self._kept = []
        self.count = 0
        self.most = max(most, len(names))
        self._allocate(size)
        for name, value in names.items():
            self.add(name, value)

    cdef int _allocate(self, unsigned int size) except -1:
        cdef unsigned int i
        self._mask = size - 1
        self._slots = <const unsigned char**>PyMem_Malloc(size * sizeof(void*))
        self._sizes = <size_t*>PyMem_Malloc(size * sizeof(size_t))
        self._values = <int*>PyMem_Malloc(size * sizeof(int))
        self._names = <PyObject**>PyMem_Malloc(size * sizeof(PyObject*))
        if self._slots == NULL or self._sizes == NULL or self._values == NULL or self._names == NULL:
            raise MemoryError()
        for i in range(size):
            self._slots[i] = NULL
        return 0

    def __dealloc__(self):
        PyMem_Free(self._slots)
        PyMem_Free(self._sizes)
        PyMem_Free(self._values)
        PyMem_Free(self._names)

    cdef int add(self, str name, int value) except -1:
        """Add ``name`` (kept: the slots point into its bytes, and give it back): 1, or 0 where
        the set holds ``most`` names already."""
        cdef bytes encoded = name.encode("utf-8")
        cdef unsigned int i, size
        cdef const unsigned char** slots
        cdef size_t* sizes
        cdef int* values
        cdef PyObject** names
        if self.count >= self.most:
            return 0
        if 4 * (self.count + 1) > self._mask + 1:  # grow: the old slots into a table twice the size
            slots, sizes, values, names = self._slots, self._sizes, self._values, self._names
            size = self._mask + 1
            try:
                self._allocate(2 * size)
                for i in range(size):
                    if slots[i] != NULL:
                        self._put(slots[i], sizes[i], values[i], names[i])
            finally:
                PyMem_Free(slots)
                PyMem_Free(sizes)
                PyMem_Free(values)
                PyMem_Free(names)
        self._kept.append((encoded, name))
        self._put(<const unsigned char*><const char*>encoded, len(encoded), value, <PyObject*>name)
        self.count += 1
        return 1

    cdef void _put(
        self, const unsigned char* data, size_t size, int value, PyObject* name
    ) noexcept:
        cdef unsigned int i = _fnv(data, size) & self._mask
        while self._slots[i] != NULL:
            i = (i + 1) & self._mask
        self._slots[i] = data
        self._sizes[i] = size
        self._values[i] = value
        self._names[i] = name

    cdef inline int slot(self, const unsigned char* name, size_t size) noexcept nogil:
        """The name's slot, or -1 if it is not in the set."""
        cdef unsigned int i = _fnv(name, size) & self._mask
        while self._slots[i] != NULL:
            if self._sizes[i] == size and memcmp(self._slots[i], name, size) == 0:
                return i
            i = (i + 1) & self._mask
        return -1

    cdef int slot_py(self, str name) except -2:
        cdef bytes encoded = name.encode("utf-8")
        return self.slot(<const unsigned char*><const char*>encoded, len(encoded))


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


include "_chtml5_rules.pxi"


cdef inline str _attr_text(lxb_dom_attr_t* attr):
    cdef size_t size
    cdef const lxb_char_t* data = h5_attr_value(attr, &size)
    return _text_of(data, size)


cdef inline bint _is_img(const lxb_char_t* name, bint foreign) noexcept:
    # a three-byte name is "img" (a foreign one as the copy lower-cases it)
    cdef unsigned char a = name[0], b = name[1], c = name[2]
    if foreign:
        a, b, c = a | 32, b | 32, c | 32
    return a == 105 and b == 109 and c == 103


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
    cdef object meta  # the element's metadata family and kind (Walker._metadata), or _UNSET

    def __cinit__(self):
        self.meta = _UNSET
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


# A tag's flags in the walk's tag set (below _T_SHIFT), and above them its ancestry bits: one
# per holder of PLACEMENT_HOLDERS (<template>, <noscript>: their codes, in that order), then
# one per tag a Within condition names (<svg>, <math>). The open elements carry the ancestry
# bits of those above them.
cdef enum:
    _T_HAND = 1  # acted on whatever its attributes (a row read when absent, or its text)
    _T_TEXT = 2  # a text row reads it (<style>, <script>)
    _T_REL = 4  # its rel and hreflang are recorded (a, area, link)
    _T_ANCHOR = 8  # its text is recorded (a, area)
    _T_BASE = 16  # <base>: its href is the base, no link
    _T_ALWAYS = 32  # a row of it is read when its attribute is absent (<form action>)
    _T_SHIFT = 8
    _MOST_FOUND = 256  # link attributes of one element (a duplicate name is dropped by the parser)
    _MOST_TAGS = 4096  # tag names the set learns from pages (beside the table's)
    _MOST_PLANS = 8192  # element shapes kept (as walk._STEP_SETS)


cdef class Walker:
    """find/walk.raw_links over a Parsed document's own nodes, for one link-source table
    (find/walk._Table): :meth:`Parsed.links`. The table's steps are read when first needed
    for a tag and its link attributes, and kept compiled (_Step); conditions and kind rules
    are decided in C (_chtml5_rules.pxi)."""

    cdef _Set _attrs
    cdef _Set _tags
    cdef tuple _placements
    cdef unsigned int _holder_bits
    cdef object _table
    cdef dict _text_rows
    cdef dict _text_needs  # tag -> _Cond (a text row's value condition) or None
    cdef dict _plans  # (tag, *link attribute names) -> tuple of _Step
    cdef dict _conds  # a condition record -> _Cond
    cdef dict _rules  # a kind rule record -> _Rule
    cdef dict _within_bits  # tag -> its ancestry bit
    cdef type RawLink
    cdef object split_urls, parse_srcset, css_urls, other_syntax, text_links, by_names
    cdef object CSS_TEXT, URL, URLS, COMMA_URLS, SRCSET, CSS
    cdef object ValueIs, AttributeIs, Within, MetadataFamily, RelKind, ForeignKind, MetadataKind
    cdef str _whitespace
    cdef tuple _invalid_srcset
    cdef readonly bint braced
    cdef Py_ssize_t _text_cap
    cdef readonly list python  # the conditions and kind rules it calls (of no known shape)

    def __cinit__(self, table, holders, dict names):
        self._table = table
        self._text_rows = table.text
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
        self.by_names = names["metadata_names"]
        self.CSS_TEXT = names["CSS_TEXT"]
        self.URL = names["URL"]
        self.URLS = names["URLS"]
        self.COMMA_URLS = names["COMMA_URLS"]
        self.SRCSET = names["SRCSET"]
        self.CSS = names["CSS"]
        self.AttributeIs = names["AttributeIs"]
        self.Within = names["Within"]
        self.MetadataFamily = names["MetadataFamily"]
        self.RelKind = names["RelKind"]
        self.ForeignKind = names["ForeignKind"]
        self.MetadataKind = names["MetadataKind"]
        self._whitespace = names["ASCII_WHITESPACE"]
        self._text_cap = names["TEXT_CAP"]
        self.ValueIs = names["ValueIs"]
        self._invalid_srcset = names["_INVALID_SRCSET"]
        self.braced = any(name.startswith("{") for name in table.attrs)
        self._plans = {}
        self._conds = {}
        self._rules = {}
        self.python = []
        self._tags = _Set(self._tag_flags(table, holders, names), _MOST_TAGS)
        self._attrs = _Set({name: 1 for name in table.attrs})
        self._text_needs = {
            tag: None if needs is None else self._value_cond(needs[0], needs[1])
            for tag, needs in table.text_needs.items()
        }
        # each row's condition and kind rule compiled now: ``python`` lists those of no shape
        # this walk knows (tests/test_native.py: none of the table's own)
        for source in table.sources:
            condition = names["CONDITIONS"].get(source.when)
            if condition is not None:
                self._cond(condition)
            rule = names["KIND_RULES"].get(source.kind)
            if rule is not None:
                self._rule(rule)

    def _tag_flags(self, table, holders, dict names):
        """Every tag the table or its rules name, with its flags and ancestry bits."""
        cdef dict tags = {}
        codes = []

        def mark(tag, int flag):
            tags[tag] = tags.get(tag, 0) | flag

        for tag in table.named:
            mark(tag, 0)
        for tag in table.always | table.text.keys():
            mark(tag, _T_HAND)
        for tag in table.always:
            mark(tag, _T_ALWAYS)
        for tag in table.text:
            mark(tag, _T_TEXT)
        for tag in names["REL_ELEMENTS"]:
            mark(tag, _T_REL)
        for tag in names["TEXT_ELEMENTS"]:
            mark(tag, _T_ANCHOR)
        mark(names["BASE_ELEMENT"], _T_BASE)
        for bit, (tag, code) in enumerate(holders):
            mark(tag, 1 << (_T_SHIFT + bit))
            codes.append(code)
        self._holder_bits = (1 << len(codes)) - 1
        self._placements = tuple(
            tuple(code for bit, code in enumerate(codes) if mask & (1 << bit))
            for mask in range(1 << len(codes))
        )
        # the tags Within conditions name (in conditions and kind rules the table's rows use)
        within = set()
        for source in table.sources:
            for found in (names["CONDITIONS"].get(source.when), names["KIND_RULES"].get(source.kind)):
                if isinstance(found, self.ForeignKind):
                    found = found.within
                if isinstance(found, self.Within):
                    within.update(found.tags)
        self._within_bits = {}
        for tag in sorted(within):
            bit = len(codes) + len(self._within_bits)
            if _T_SHIFT + bit >= 31:
                break  # more than the bits hold: such a condition is called as Python
            self._within_bits[tag] = 1 << bit
            mark(tag, 1 << (_T_SHIFT + bit))
        return tags

    cdef _Cond _value_cond(self, str attr, test):
        """A condition on the value of ``attr``: ``test`` (a ValueIs) of it, "" when absent."""
        cdef _Cond made = _Cond.__new__(_Cond)
        if isinstance(test, self.ValueIs) and attr.isascii():
            made.how = _VALUE
            made.attr = attr.lower().encode("utf-8")
            made.test = _Test(test)
        else:
            made.how = _PYTHON
            made.python = lambda element: test(element.get(attr) or "")
            self.python.append(test)
        return made

    cdef _Cond _cond(self, condition):
        """The compiled form of a row's condition (kept per record)."""
        cdef _Cond made = self._conds.get(condition)
        cdef unsigned int bits = 0
        if made is not None:
            return made
        if isinstance(condition, self.AttributeIs):
            made = self._value_cond(condition.name, condition.test)
        elif isinstance(condition, self.Within) and all(
            tag in self._within_bits for tag in condition.tags
        ):
            made = _Cond.__new__(_Cond)
            made.how = _WITHIN
            for tag in condition.tags:
                bits |= self._within_bits[tag]
            made.bits = bits
            made.itself = condition.itself
            made.negated = condition.negated
        elif isinstance(condition, self.MetadataFamily):
            made = _Cond.__new__(_Cond)
            made.how = _FAMILY
            made.family = condition.family
        else:
            made = _Cond.__new__(_Cond)
            made.how = _PYTHON
            made.python = condition
            self.python.append(condition)
        self._conds[condition] = made
        return made

    cdef _Rule _rule(self, rule):
        """The compiled form of a row's kind rule (kept per record)."""
        cdef _Rule made = self._rules.get(rule)
        if made is not None:
            return made
        made = _Rule.__new__(_Rule)
        made.python = rule
        if isinstance(rule, self.RelKind):
            made.how = _REL
            made.kinds = {}
        elif isinstance(rule, self.ForeignKind):
            made.how = _FOREIGN
            made.tags = frozenset(rule.tags)
            made.within = self._cond(rule.within)
            made.inside = rule.inside
            made.otherwise = rule.otherwise
        elif isinstance(rule, self.MetadataKind):
            made.how = _METADATA
            made.otherwise = rule.otherwise
        else:
            made.how = _PYTHON
            self.python.append(rule)
        self._rules[rule] = made
        return made

    cdef tuple _plan(self, str tag, tuple key):
        """The compiled steps of an element ``tag`` with the link attributes of ``key``."""
        cdef _Step step
        made = []
        for _, attr, syntax, kind, rule, when, by_codebase, codes, absent in self._table.steps_of(
            tag, list(key[1:]), key
        ):
            step = _Step.__new__(_Step)
            slot = self._attrs.slot_py(attr)  # the set's own str: the scan's names are it
            step.attr = <str>self._attrs._names[slot] if slot >= 0 else attr
            step.syntax = syntax
            step.how = (
                _S_URL if syntax == self.URL
                else _S_URLS if syntax == self.URLS
                else _S_COMMA_URLS if syntax == self.COMMA_URLS
                else _S_SRCSET if syntax == self.SRCSET
                else _S_CSS if syntax == self.CSS
                else _S_OTHER
            )
            step.kind = kind
            step.rule = None if rule is None else self._rule(rule)
            step.when = None if when is None else self._cond(when)
            step.by_codebase = by_codebase
            step.codes = codes
            step.absent = absent
            made.append(step)
        if len(self._plans) >= _MOST_PLANS:
            self._plans.clear()
        found = self._plans[key] = tuple(made)
        return found

    cdef list walk(self, lxb_dom_node_t* top):
        """The RawLinks of the tree under ``top`` (the <html> element), in document order."""
        cdef list out = []
        cdef _Open open = _Open()
        cdef lxb_dom_node_t* node = top
        cdef lxb_dom_node_t* child
        cdef lxb_dom_attr_t* attr
        cdef lxb_dom_attr_t* found[_MOST_FOUND]
        cdef PyObject* found_names[_MOST_FOUND]
        cdef Py_ssize_t depth = 0, count
        cdef size_t size
        cdef const lxb_char_t* name
        cdef const unsigned char* looked
        cdef unsigned char room[_NAME_ROOM]
        cdef int flags, ups, slot
        cdef bint foreign
        cdef size_t line
        cdef object tag
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
                    slot = (
                        self._tags.slot_py(_name_of(name, size, foreign)) if looked == NULL
                        else self._tags.slot(looked, size)
                    )
                    flags = self._tags._values[slot] if slot >= 0 else 0
                    # the link attributes it has, in order: their nodes and names (the table's)
                    count = 0
                    attr = h5_attrs(node)
                    while attr is not NULL:
                        name = h5_attr_name(attr, &size)
                        looked = _lowered(name, size, foreign, room)
                        slot = (
                            self._attrs.slot_py(_name_of(name, size, foreign)) if looked == NULL
                            else self._attrs.slot(looked, size)
                        )
                        if slot >= 0:
                            if count == _MOST_FOUND:
                                raise _Declined()
                            found[count] = attr
                            found_names[count] = self._attrs._names[slot]
                            count += 1
                        attr = h5_attr_next(attr)
                    if count or flags & _T_HAND:
                        self._element(open, depth, flags, found, found_names, count, out)
                    child = h5_child(node)
                    while child is not NULL and h5_kind(child) != _ELEMENT:
                        child = h5_next(child)
                    if child is not NULL:
                        depth += 1
                        if depth == open.room:
                            open.grow()
                        open.masks[depth] = open.masks[depth - 1] | <unsigned int>(flags >> _T_SHIFT)
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

    cdef str _tag(self, _Open open, Py_ssize_t depth):
        """The element's tag, the set's own str where it has the name (learnt if not)."""
        cdef lxb_dom_node_t* node = open.stack[depth]
        cdef size_t size
        cdef const lxb_char_t* name = h5_name(node, &size)
        cdef unsigned char room[_NAME_ROOM]
        cdef bint foreign = h5_foreign(node)
        cdef const unsigned char* looked = _lowered(name, size, foreign, room)
        cdef int slot
        cdef str tag = open.tags[depth]
        if tag is not None:
            return tag
        slot = -1 if looked == NULL else self._tags.slot(looked, size)
        if slot >= 0:
            tag = <str>self._tags._names[slot]
        else:
            tag = _name_of(name, size, foreign)
            self._tags.add(tag, 0)  # a tag of no row: flags 0
        open.tags[depth] = tag
        return tag

    cdef int _element(
        self,
        _Open open,
        Py_ssize_t depth,
        int flags,
        lxb_dom_attr_t** found,
        PyObject** names,
        Py_ssize_t count,
        list out,
    ) except -1:
        # _cwalk.Scanner._element over lexbor's node (its rules: find/walk.py's), the table's
        # steps compiled: each value read from the attribute node found in the scan
        cdef lxb_dom_node_t* node = open.stack[depth]
        cdef bint foreign = h5_foreign(node)
        cdef unsigned int above = open.masks[depth]
        cdef unsigned int own = <unsigned int>(flags >> _T_SHIFT)
        cdef tuple placed = self._placements[above & self._holder_bits]
        cdef str tag = self._tag(open, depth)
        cdef object line = open.lines[depth]
        cdef str rel = u"", text = u"", hreflang = u""
        cdef _Step step
        cdef _Cond needs
        cdef tuple key, codes
        cdef Py_ssize_t i
        RawLink = self.RawLink
        open.meta = _UNSET
        if flags & _T_TEXT:
            needs = self._text_needs[tag]
            if needs is None or self._holds(needs, open, depth, node, foreign, above, own):
                self._text_element(open, depth, tag, self._text_rows[tag], placed, out)
        if flags & _T_BASE or not (count or flags & _T_ALWAYS):
            return 0
        if flags & _T_REL:
            written = _named_value(node, "rel", 3, foreign)
            if written:
                rel = _lower_collapsed(written)
            written = _named_value(node, "hreflang", 8, foreign)
            if written:
                hreflang = written.strip(self._whitespace)
            if flags & _T_ANCHOR:
                text = self._anchor_text(node, tag, foreign)
        key = PyTuple_New(count + 1)
        Py_INCREF(tag)
        PyTuple_SET_ITEM(key, 0, tag)
        for i in range(count):
            Py_INCREF(<object>names[i])
            PyTuple_SET_ITEM(key, i + 1, <object>names[i])
        steps = self._plans.get(key)
        if steps is None:
            steps = self._plan(tag, key)
        for step in <tuple>steps:
            if step.when is not None and not self._holds(
                step.when, open, depth, node, foreign, above, own
            ):
                continue
            value = step.absent
            for i in range(count):
                if names[i] == <PyObject*>step.attr:
                    value = _attr_text(found[i])
                    break
            codes = step.codes + placed if placed else step.codes
            kind = step.kind
            if step.rule is not None:
                kind = self._kind(step.rule, open, depth, node, foreign, above, own, tag, rel)
            if step.how == _S_URL:
                codebase = self._codebase(step, found, names, count)
                out.append(_made(RawLink, (value, tag, step.attr, kind, line, text, rel, codebase, codes, False, hreflang)))
            elif step.how == _S_URLS or step.how == _S_COMMA_URLS:
                codebase = self._codebase(step, found, names, count)
                for token in self.split_urls(value, u"," if step.how == _S_COMMA_URLS else None):
                    out.append(_made(RawLink, (token, tag, step.attr, kind, line, text, rel, codebase, codes, False, hreflang)))
            elif step.how == _S_SRCSET:
                for url, _, valid in self.parse_srcset(value):
                    out.append(_made(RawLink, (url, tag, step.attr, kind, line, u"", rel, None, codes if valid else self._invalid_srcset + codes, False, hreflang)))
            elif step.how == _S_CSS:
                for url, _, _ in self.css_urls(value):
                    out.append(_made(RawLink, (url, tag, step.attr, kind, line, u"", u"", None, codes, False, u"")))
            else:
                self.other_syntax(value, step.syntax, tag, step.attr, kind, line, codes, out)
        return 0

    cdef object _codebase(self, _Step step, lxb_dom_attr_t** found, PyObject** names, Py_ssize_t count):
        # the element's codebase attribute, where the row's base is it (HTML 4 §13.3)
        cdef Py_ssize_t i
        if not step.by_codebase:
            return None
        for i in range(count):
            if (<str>names[i]) == u"codebase":
                return _attr_text(found[i])
        return None

    cdef bint _holds(
        self, _Cond cond, _Open open, Py_ssize_t depth, lxb_dom_node_t* node, bint foreign,
        unsigned int above, unsigned int own,
    ) except -1:
        """Whether the element meets the condition (rules.py's records, decided here)."""
        cdef lxb_dom_attr_t* attr
        cdef const lxb_char_t* data
        cdef size_t size
        cdef bint inside
        if cond.how == _VALUE:
            attr = _named(node, <const char*>cond.attr, len(cond.attr), foreign)
            if attr is NULL:
                return cond.test.holds(<const lxb_char_t*>"", 0)
            data = h5_attr_value(attr, &size)
            return cond.test.holds(data, size)
        if cond.how == _WITHIN:
            inside = ((above | (own if cond.itself else 0)) & cond.bits) != 0
            return inside != cond.negated
        if cond.how == _FAMILY:
            found = self._metadata(open, node, foreign)
            return found is not None and (<tuple>found)[0] == cond.family
        return bool(cond.python(open.node_at(depth)))

    cdef object _metadata(self, _Open open, lxb_dom_node_t* node, bint foreign):
        """metadata.metadata_url of the element, asked once per element (the walk's state
        keeps it: ``open.meta``)."""
        if open.meta is _UNSET:
            open.meta = self.by_names(
                _named_value(node, "property", 8, foreign), _named_value(node, "name", 4, foreign)
            )
        return open.meta

    cdef object _kind(
        self, _Rule rule, _Open open, Py_ssize_t depth, lxb_dom_node_t* node, bint foreign,
        unsigned int above, unsigned int own, str tag, str rel,
    ):
        """The kind a row's kind rule gives the element (rules.py's records, decided here)."""
        if rule.how == _REL:
            kind = rule.kinds.get(rel)
            if kind is None:
                kind = rule.python(None, tag, rel)
                if len(rule.kinds) >= _MOST_PLANS:
                    rule.kinds.clear()
                rule.kinds[rel] = kind
            return kind
        if rule.how == _FOREIGN:
            if tag in rule.tags or self._holds(rule.within, open, depth, node, foreign, above, own):
                return rule.inside
            return rule.otherwise
        if rule.how == _METADATA:
            found = self._metadata(open, node, foreign)
            return rule.otherwise if found is None else (<tuple>found)[1]
        return rule.python(open.node_at(depth), tag, rel)

    cdef int _text_element(
        self, _Open open, Py_ssize_t depth, str tag, source, tuple placed, list out
    ) except -1:
        # _cwalk.Scanner._text_links: a <style>'s CSS here; another text row (a JSON-LD
        # <script>) is walk.py's own, with a _Node
        cdef lxb_dom_node_t* node = open.stack[depth]
        if source.syntax != self.CSS_TEXT:
            self.text_links(open.node_at(depth), tag, source, placed, out)
            return 0
        codes = ((source.problem,) if source.problem else ()) + placed
        base_line = open.lines[depth] or 1
        kind = source.kind
        for url, syntax, line in self.css_urls(_own_text(node)):
            out.append(_made(self.RawLink, (url, tag, syntax, kind, base_line + line - 1, u"", u"", None, codes, False, u"")))
        return 0

    cdef str _anchor_text(self, lxb_dom_node_t* node, str tag, bint foreign):
        """anchor.anchor_text where no other anchor is inside (else declined): an area's alt;
        an anchor's string-value (its text nodes, in order), else the alt of the first <img>
        inside with one; whitespace collapsed, capped at TEXT_CAP."""
        cdef lxb_dom_node_t* inside
        cdef lxb_dom_node_t* child
        cdef size_t size
        cdef const lxb_char_t* data
        cdef int ups
        cdef list pieces = []
        cdef str first = None
        alt = None
        if tag == u"area":
            return _collapsed(_named_value(node, "alt", 3, foreign) or u"", self._text_cap)
        inside = h5_child(node)
        while inside is not NULL:
            if h5_kind(inside) == _TEXT:
                data = h5_text(inside, &size)
                pieces.append(_text_of(data, size))
            elif h5_kind(inside) == _ELEMENT:
                data = h5_name(inside, &size)
                if size == 1 and (data[0] == 97 or (data[0] == 65 and h5_foreign(inside))):
                    raise _Declined()  # anchor.py's texts of nested anchors
                if alt is None and size == 3 and _is_img(data, h5_foreign(inside)):
                    alt = _named_value(inside, "alt", 3, h5_foreign(inside)) or None
                child = h5_child(inside)
                if child is not NULL:
                    inside = child
                    continue
            inside = h5_after(inside, node, &ups)
        text = _collapsed(pieces[0] if len(pieces) == 1 else u"".join(pieces), self._text_cap) if pieces else u""
        if not text and alt is not None:
            text = _collapsed(alt, self._text_cap)
        return text


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
