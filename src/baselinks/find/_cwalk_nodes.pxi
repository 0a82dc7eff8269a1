# Included by _cwalk.pyx (Cython's include: one module, two files): how the walk reads a node,
# and how it makes the records it hands back. Each function names the lxml or CPython code whose
# answer it gives.

cdef extern from "Python.h":
    PyObject* PyType_GenericAlloc(PyTypeObject* cls, Py_ssize_t items) except NULL
    ctypedef struct _Allocating "PyTypeObject":
        void* tp_alloc


cdef object _record(type cls, tuple values):
    """tuple.__new__(cls, values) for a NamedTuple class (a tuple's layout: __slots__ = (),
    checked in Scanner.__cinit__), without the call through Python: what CPython's
    tuple_subtype_new does, the class's tp_alloc (a tuple subclass inherits
    PyType_GenericAlloc) and the items set."""
    cdef Py_ssize_t place
    cdef Py_ssize_t size = PyTuple_GET_SIZE(values)
    cdef object made = <object>PyType_GenericAlloc(<PyTypeObject*>cls, size)
    Py_DECREF(made)  # the allocation's own reference: `made` holds one
    for place in range(size):
        item = <object>PyTuple_GET_ITEM(values, place)
        Py_INCREF(item)  # PyTuple_SET_ITEM takes the reference
        PyTuple_SET_ITEM(made, place, item)
    return made


cdef tuple _names(str tag, list keys):
    """(tag, *keys), made in one allocation."""
    cdef Py_ssize_t place
    cdef Py_ssize_t count = len(keys)
    cdef tuple names = PyTuple_New(count + 1)
    Py_INCREF(tag)  # PyTuple_SET_ITEM takes the reference
    PyTuple_SET_ITEM(names, 0, tag)
    for place in range(count):
        key = keys[place]
        Py_INCREF(key)
        PyTuple_SET_ITEM(names, place + 1, key)
    return names


cdef object _value(xmlNode* c_node, list keys, str name):
    """element.get(name): the first attribute of that name (no namespace: the scan declines
    those), found by its place in ``keys``, the node's attribute names in order; None if the
    element has none."""
    cdef Py_ssize_t place
    cdef Py_ssize_t count = len(keys)
    cdef xmlAttr* c_attr
    for place in range(count):  # not keys.index: its ValueError for an absent rel cost more
        if keys[place] == name:
            break
    else:
        return None
    c_attr = c_node.properties
    while True:
        if c_attr.type == XML_ATTRIBUTE_NODE:
            if place == 0:
                return _attribute_value(c_node, c_attr)
            place -= 1
        c_attr = c_attr.next


cdef inline str _attribute_value(xmlNode* c_node, xmlAttr* c_attr):
    """lxml's attributeValue(c_node, c_attr), which copies what libxml2's xmlGetNsProp gives:
    an attribute's one text node is read in place here (libxml2's own first case, without its
    copy and the search by name); anything else (entity references) is asked of lxml."""
    cdef xmlNode* c_text = c_attr.children
    if c_text is NULL:
        return ""  # xmlGetNsProp's empty string
    if (
        c_text.next is NULL
        and (c_text.type == XML_TEXT_NODE or c_text.type == XML_CDATA_SECTION_NODE)
        and c_text.content is not NULL
    ):
        return (<const char*>c_text.content).decode("utf-8")  # lxml's funicode
    return cetree.attributeValue(c_node, c_attr)


cdef object _anchor_text(xmlNode* c_node, str tag, list keys, dict nested):
    """anchor.anchor_text(element, nested) where its answer is short and needs no other
    anchor: an area's alt; an anchor's text (its string-value, as tostring(method="text")
    gives it: every text and CDATA node inside, in order), else the alt of the first <img>
    inside with one. None where anchor_text must answer: an anchor inside an anchor (the
    texts of nested anchors come from one pass over the outermost), an entity reference
    (libxml2 reads the entity), a text past TEXT_CAP (it is cut there), bytes that are not
    UTF-8 (tostring raises)."""
    cdef xmlNode* c_inside
    cdef list pieces = None
    cdef const_xmlChar* first = NULL  # the one piece, while there is only one
    alt = None
    if tag == "area":
        text = " ".join((_value(c_node, keys, "alt") or "").split())
        return text if len(text) <= TEXT_CAP else None
    if nested:
        return None  # it may be one of them
    c_inside = c_node.children
    while c_inside is not NULL:
        if c_inside.type == XML_TEXT_NODE or c_inside.type == XML_CDATA_SECTION_NODE:
            if c_inside.content is not NULL:
                if first is NULL and pieces is None:
                    first = c_inside.content
                else:
                    if pieces is None:
                        pieces = [<bytes>first]
                    pieces.append(<bytes>c_inside.content)
        elif c_inside.type == XML_ELEMENT_NODE:
            if c_inside.ns is not NULL or strcmp(<const char*>c_inside.name, "a") == 0:
                return None
            if alt is None and strcmp(<const char*>c_inside.name, "img") == 0:
                alt = _value(c_inside, cetree.collectAttributes(c_inside, 1), "alt") or None
        elif c_inside.type == XML_ENTITY_REF_NODE:
            return None
        # the next node inside c_node, in document order
        if c_inside.children is not NULL:
            c_inside = c_inside.children
            continue
        while c_inside.next is NULL:
            c_inside = c_inside.parent
            if c_inside is c_node:
                break
        c_inside = NULL if c_inside is c_node else c_inside.next
    if pieces is None and (first is NULL or _collapsed(first)):
        # most anchors: one text node, already what " ".join(text.split()) would make of it
        text = "" if first is NULL else (<const char*>first).decode("ascii")
    else:
        try:
            text = " ".join(b"".join(pieces or [<bytes>first]).decode("utf-8").split())
        except UnicodeDecodeError:
            return None
    if not text and alt is not None:
        text = " ".join(alt.split())
    return text if len(text) <= TEXT_CAP else None


cdef bint _collapsed(const_xmlChar* text) noexcept:
    """Whether ``text`` (UTF-8, NUL-ended) is ASCII that " ".join(text.split()) gives back
    unchanged: words between single spaces, and none of the other characters str.split()
    takes for whitespace (tab, LF, VT, FF, CR, \\x1c-\\x1f)."""
    cdef const unsigned char* c = <const unsigned char*>text
    cdef bint after_space = True  # a leading space would be dropped
    if not c[0]:
        return False
    while c[0]:
        if c[0] >= 128 or (9 <= c[0] <= 13) or (28 <= c[0] <= 31):
            return False
        if c[0] == 32:
            if after_space:
                return False
            after_space = True
        else:
            after_space = False
        c += 1
    return not after_space  # nor a trailing one


cdef inline xmlNode* _first_element(xmlNode* c_node) noexcept nogil:
    while c_node is not NULL and c_node.type != XML_ELEMENT_NODE:
        c_node = c_node.next
    return c_node
