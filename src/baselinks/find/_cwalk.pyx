# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""_cwalk: walk.raw_links in C over libxml2's own nodes (optional; walk.py is the reference).

The scan of every element and attribute is C: an element goes further only if its tag or one
of its attribute names is in the link-source table (two small hash sets of UTF-8 names), which
is the pure loop's first test. For those, the loop's body and walk._element_links are repeated
step for step in Cython, calling what each value's syntax needs (srcset and CSS from
_csyntax.pyx where it is built, else the Python ones; refresh, split_urls), the table's
conditions and kind rules, and anchor.anchor_text where an anchor's text needs more than a pass
over its own nodes. tests/test_compiled.py compares the
two walks record for record on every fixture and on generated documents.

It reads libxml2's node structs (type, name, ns, properties, children, next, parent, line,
content) and calls lxml's public C API (elementFactory, collectAttributes, attributeValue,
textOf, hasChild, pyunicode) through the capsule lxml exports; never a libxml2 function of its
own. (lxml 6.1.3's wheel links libxml2 statically; its etree module exports the xml* symbols,
but Python loads extensions RTLD_LOCAL, so a call would not resolve, or would bind to another
libxml2: `nm -D` shows this module needs none.)

It declines (links returns None, and walk.py walks the pure way) a tree that is not an HTML
document (an XML parse may take attributes from a DTD), or holds a node or attribute with a
namespace (lxml's "{ns}name" matching is the pure walk's business); libxml2's HTML parser
makes neither.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_DECREF, Py_INCREF
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE, PyTuple_New, PyTuple_SET_ITEM
from libc.string cimport strcmp

cimport lxml.includes.etreepublic as cetree
from lxml.includes.tree cimport (
    XML_ATTRIBUTE_NODE,
    XML_CDATA_SECTION_NODE,
    XML_ELEMENT_NODE,
    XML_ENTITY_REF_NODE,
    XML_TEXT_NODE,
    XML_HTML_DOCUMENT_NODE,
    const_xmlChar,
    xmlAttr,
    xmlNode,
)

from baselinks.find.anchor import TEXT_CAP

cetree.import_lxml__etree()

# A tag's flags in the tag set: the element is handed to Python whatever its attributes (a
# row reads its text, or reads an attribute even when absent); or it holds what is inside it
# (<template>, <noscript>: bit 1 << (1 + its place in PLACEMENTS)).
cdef enum:
    HAND = 1


cdef inline unsigned int _hash(const_xmlChar* name) noexcept nogil:
    # FNV-1a over the name's UTF-8 bytes
    cdef unsigned int h = 2166136261u
    cdef const unsigned char* c = <const unsigned char*>name
    while c[0]:
        h = (h ^ c[0]) * 16777619u
        c += 1
    return h


cdef class _Names:
    """A set of names with a small int each, looked up by a libxml2 name (UTF-8, NUL-ended):
    open addressing, a power-of-two table at most a quarter full."""

    cdef list _kept  # the bytes objects the slots point into
    cdef const char** _slots
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
        self._slots = <const char**>PyMem_Malloc(size * sizeof(const char*))
        self._values = <int*>PyMem_Malloc(size * sizeof(int))
        if self._slots == NULL or self._values == NULL:
            raise MemoryError()
        for i in range(size):
            self._slots[i] = NULL
            self._values[i] = 0
        for name, value in names.items():
            encoded = name.encode("utf-8")
            if b"\0" in encoded:
                continue  # no libxml2 name holds one
            self._kept.append(encoded)
            i = _hash(<const_xmlChar*><const char*>encoded) & self._mask
            while self._slots[i] != NULL:
                i = (i + 1) & self._mask
            self._slots[i] = <const char*>encoded
            self._values[i] = value

    def __dealloc__(self):
        PyMem_Free(self._slots)
        PyMem_Free(self._values)

    cdef inline int find(self, const_xmlChar* name) noexcept nogil:
        """The name's value, or 0 if it is not in the set."""
        cdef unsigned int i = _hash(name) & self._mask
        while self._slots[i] != NULL:
            if strcmp(self._slots[i], <const char*>name) == 0:
                return self._values[i]
            i = (i + 1) & self._mask
        return 0


include "_cwalk_nodes.pxi"


cdef class _Holders:
    """The holders (<template>, <noscript>) a walk is inside: each one's node and the placement
    mask inside it, grown as needed. One per call of Scanner.links: the helpers it calls are
    Python, another thread may walk with the same Scanner meanwhile."""

    cdef xmlNode** open
    cdef unsigned int* masks
    cdef Py_ssize_t room

    def __cinit__(self):
        self.room = 64
        self.open = <xmlNode**>PyMem_Malloc(self.room * sizeof(xmlNode*))
        self.masks = <unsigned int*>PyMem_Malloc(self.room * sizeof(unsigned int))
        if self.open == NULL or self.masks == NULL:
            raise MemoryError()

    def __dealloc__(self):
        PyMem_Free(self.open)
        PyMem_Free(self.masks)

    cdef int grow(self) except -1:
        cdef Py_ssize_t room = self.room * 2
        cdef void* grown = PyMem_Realloc(self.open, room * sizeof(xmlNode*))
        if grown == NULL:
            raise MemoryError()
        self.open = <xmlNode**>grown
        grown = PyMem_Realloc(self.masks, room * sizeof(unsigned int))
        if grown == NULL:
            raise MemoryError()
        self.masks = <unsigned int*>grown
        self.room = room
        return 0


cdef class Scanner:
    """The walk for one link-source table (walk._Table): :meth:`links` gives the RawLinks of
    walk.raw_links, :meth:`scan` the elements it acts on."""

    cdef _Names _attrs
    cdef _Names _tags
    cdef tuple _placements
    # the table and the walk's own names (walk._compiled_scanner passes them)
    cdef object _table
    cdef frozenset _always
    cdef dict _text_rows
    cdef dict _text_needs
    cdef dict _steps
    cdef object _base_element
    cdef object _codebase
    cdef type RawLink
    cdef object anchor_text
    cdef object split_urls
    cdef object parse_srcset
    cdef object css_urls
    cdef object other_syntax
    cdef object text_links
    cdef object CSS_TEXT
    cdef frozenset _rel_elements
    cdef frozenset _text_elements
    cdef str _whitespace
    cdef object URL, URLS, COMMA_URLS, SRCSET, CSS
    cdef tuple _invalid_srcset
    cdef bint _braced

    def __cinit__(self, table, holders, dict names):
        """``table``: a walk._Table; ``holders``: PLACEMENT_HOLDERS, the tags in PLACEMENTS
        order whose insides carry that placement code; ``names``: the walk's helpers and
        constants, by their names there."""
        # every attribute name a row reads; the tags acted on whatever their attributes
        attrs = table.attrs
        hand = table.always | table.text.keys()
        self._table = table
        self._always = table.always
        self._text_rows = table.text
        self._text_needs = table.text_needs
        self._steps = table.steps
        self._base_element = names["BASE_ELEMENT"]
        self._codebase = names["CODEBASE"]
        self.RawLink = names["RawLink"]
        # _record makes RawLinks as tuple_subtype_new would: a tuple's layout, nothing more
        if not (
            self.RawLink.__bases__ == (tuple,)
            and self.RawLink.__basicsize__ == tuple.__basicsize__
            and self.RawLink.__itemsize__ == tuple.__itemsize__
            and self.RawLink.__dictoffset__ == 0
            and self.RawLink.__weakrefoffset__ == 0
            and (<_Allocating*>self.RawLink).tp_alloc == <void*>PyType_GenericAlloc
        ):
            raise TypeError("RawLink must be a NamedTuple: a tuple's layout")
        self.anchor_text = names["anchor_text"]
        self.split_urls = names["split_urls"]
        self.parse_srcset = names["parse_srcset"]
        self.css_urls = names["css_urls"]
        self.other_syntax = names["_other_syntax"]
        self.text_links = names["_text_links"]
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
        # element.get("{ns}name") reads a namespace, and an HTML attribute may be named so:
        # a table with such a name (attributes=) is left to the pure walk
        self._braced = any(name.startswith("{") for name in attrs)
        cdef dict tags = {tag: HAND for tag in hand}
        cdef int bit
        codes = []
        for bit, (tag, code) in enumerate(holders):
            tags[tag] = tags.get(tag, 0) | (2 << bit)
            codes.append(code)
        self._attrs = _Names({name: 1 for name in attrs})
        self._tags = _Names(tags)
        # the codes of each mask of holders above an element, in PLACEMENTS order
        self._placements = tuple(
            tuple(code for bit, code in enumerate(codes) if mask & (1 << bit))
            for mask in range(1 << len(codes))
        )

    def links(self, roots):
        """walk.raw_links' list of RawLinks for ``roots`` (lxml elements or trees), or None
        for a tree this walk leaves to the pure one: not an HTML document (an XML parse may
        give attributes from a DTD), or a node or attribute with a namespace."""
        cdef list out = []
        cdef dict nested = {}  # the texts of anchors inside anchors (see anchor.anchor_text)
        cdef _Holders holders = _Holders()
        cdef cetree._Element top
        if self._braced:
            return None
        for root in roots:
            if isinstance(root, cetree._Element):
                top = root  # a comment too (select may choose one): no element in it
            elif isinstance(root, cetree._ElementTree):
                top = cetree.rootNodeOrRaise(root)
            else:
                return None
            if top._doc._c_doc.type != XML_HTML_DOCUMENT_NODE:
                return None
            if self._scan(top, out, nested, holders) < 0:
                return None
        return out

    cdef int _scan(
        self, cetree._Element top, list out, dict nested, _Holders holders
    ) except -2:
        # Document order, as lxml's iter(etree.Element): the element, its children, then its
        # next sibling; comments, PIs and entity references are passed over, never entered.
        cdef cetree._Document doc = top._doc
        cdef xmlNode* c_top = top._c_node
        cdef xmlNode* c_node = c_top
        cdef xmlNode* c_next
        cdef xmlAttr* c_attr
        cdef Py_ssize_t depth = 0  # holders open
        cdef long mask
        cdef int flags
        cdef bint linked
        if c_node.type != XML_ELEMENT_NODE:
            return 0
        mask = self._above(c_top)
        if mask < 0:
            return -1
        holders.masks[0] = <unsigned int>mask
        while c_node is not NULL:
            if c_node.ns is not NULL:
                return -1
            # the pure walk's first test, in C: a tag acted on whatever its attributes, or an
            # attribute some row reads (linked: the pure walk's "not isdisjoint(keys)")
            flags = self._tags.find(c_node.name)
            linked = False
            c_attr = c_node.properties
            while c_attr is not NULL:
                if c_attr.ns is not NULL:
                    return -1
                if not linked and self._attrs.find(c_attr.name):
                    linked = True
                c_attr = c_attr.next
            if linked or flags & HAND:
                placed = self._placements[holders.masks[depth]]
                self._element(doc, c_node, placed, out, nested, linked)
            # the next element: the first child, else the next sibling, else an ancestor's
            c_next = _first_element(c_node.children)
            if c_next is not NULL:
                if flags > HAND:  # a holder: what is inside it carries its code
                    depth += 1
                    if depth == holders.room:
                        holders.grow()
                    holders.open[depth] = c_node
                    holders.masks[depth] = holders.masks[depth - 1] | <unsigned int>(flags >> 1)
                c_node = c_next
                continue
            while c_node is not c_top:
                c_next = _first_element(c_node.next)
                if c_next is not NULL:
                    break
                c_node = c_node.parent
                if depth and c_node is holders.open[depth]:
                    depth -= 1
            c_node = c_next if c_node is not c_top else NULL
        return 0

    cdef int _element(
        self,
        cetree._Document doc,
        xmlNode* c_node,
        tuple placed,
        list out,
        dict nested,
        bint linked,
    ) except -1:
        # walk.raw_links' loop body and walk._element_links, step for step (read them there:
        # the rules are theirs); what differs is how a value is read: the attribute's node
        # found by its place in keys and read by lxml's attributeValue (element.get's own
        # libxml2 call), the line from the node (lxml's sourceline where libxml2 would look
        # further), and the element's proxy made only for what needs one.
        cdef str tag = cetree.pyunicode(c_node.name)
        cdef list keys = cetree.collectAttributes(c_node, 1)
        cdef object element = None
        cdef object line
        cdef str rel = ""
        cdef str text = ""
        cdef str hreflang = ""
        cdef tuple codes
        RawLink = self.RawLink
        if tag in self._text_rows:
            # walk._Table.text_needs: (attribute, test of its value), or None; the value read
            # as element.get reads it, with no proxy made for an element that fails the test
            needs = self._text_needs[tag]
            if needs is None or needs[1](_value(c_node, keys, needs[0]) or ""):
                element = cetree.elementFactory(doc, c_node)
                self._text_links(element, tag, self._text_rows[tag], placed, out)
        if tag == self._base_element:
            return 0
        if not linked and tag not in self._always:
            return 0  # no link attribute
        if 0 < c_node.line < 65535:
            line = c_node.line
        else:  # 0 or 65535: xmlGetLineNo looks at the children (huge line numbers)
            if element is None:
                element = cetree.elementFactory(doc, c_node)
            line = element.sourceline
        if tag in self._rel_elements:
            written = _value(c_node, keys, "rel")
            if written:
                rel = " ".join(written.lower().split())
            written = _value(c_node, keys, "hreflang")
            if written:
                hreflang = written.strip(self._whitespace)
            if tag in self._text_elements:
                found = _anchor_text(c_node, tag, keys, nested)
                if found is None:
                    if element is None:
                        element = cetree.elementFactory(doc, c_node)
                    found = self.anchor_text(element, nested)
                text = found
        names = _names(tag, keys)  # (tag, *keys)
        steps = self._steps.get(names)
        if steps is None:
            steps = self._table.steps_of(tag, keys, names)
        for _, attr, syntax, kind, rule, when, by_codebase, codes, absent in steps:
            if when is not None or rule is not None:
                if element is None:
                    element = cetree.elementFactory(doc, c_node)
                if when is not None and not when(element):
                    continue
            value = _value(c_node, keys, attr)  # element.get(attr, absent): None is absent
            if value is None:
                value = absent
            if placed:
                codes += placed
            if rule is not None:
                kind = rule(element, tag, rel)
            if syntax == self.URL:
                codebase = _value(c_node, keys, self._codebase) if by_codebase else None
                link = (value, tag, attr, kind, line, text, rel, codebase, codes, False, hreflang)
                out.append(_record(RawLink, link))
            elif syntax == self.URLS or syntax == self.COMMA_URLS:
                codebase = _value(c_node, keys, self._codebase) if by_codebase else None
                for token in self.split_urls(value, "," if syntax == self.COMMA_URLS else None):
                    link = (
                        token, tag, attr, kind, line, text, rel, codebase, codes, False, hreflang
                    )
                    out.append(_record(RawLink, link))
            elif syntax == self.SRCSET:
                for url, _, valid in self.parse_srcset(value):
                    found = codes if valid else self._invalid_srcset + codes
                    link = (url, tag, attr, kind, line, "", rel, None, found, False, hreflang)
                    out.append(_record(RawLink, link))
            elif syntax == self.CSS:
                for url, _, _ in self.css_urls(value):
                    link = (url, tag, attr, kind, line, "", "", None, codes, False, "")
                    out.append(_record(RawLink, link))
            else:
                self.other_syntax(value, syntax, tag, attr, kind, line, codes, out)
        return 0

    cdef int _text_links(
        self, element, str tag, source, tuple placed, list out
    ) except -1:
        # walk._text_links (a <style>'s text), calling this walk's css_urls; another text row
        # (a JSON-LD <script>) is walk.py's own
        if source.syntax != self.CSS_TEXT:
            self.text_links(element, tag, source, placed, out)
            return 0
        codes = ((source.problem,) if source.problem else ()) + placed
        base_line = element.sourceline or 1
        kind = source.kind
        for url, syntax, line in self.css_urls(element.text or ""):
            link = (url, tag, syntax, kind, base_line + line - 1, "", "", None, codes, False, "")
            out.append(_record(self.RawLink, link))
        return 0

    cdef long _above(self, xmlNode* c_node) noexcept:
        """The holders above ``c_node`` (a root chosen by select may be inside one), as a
        mask; -1 for a namespaced ancestor."""
        cdef long mask = 0
        cdef int flags
        c_node = c_node.parent
        while c_node is not NULL and c_node.type == XML_ELEMENT_NODE:
            if c_node.ns is not NULL:
                return -1
            flags = self._tags.find(c_node.name)
            mask |= flags >> 1
            c_node = c_node.parent
        return mask
