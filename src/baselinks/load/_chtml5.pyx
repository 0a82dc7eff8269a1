# cython: language_level=3
"""_chtml5: HTML parsed as a browser parses it, by lexbor (vendor/lexbor), into an lxml tree
(optional; load/html5.py is its Python side, and chooses lxml's own parser where this module
is not built or cannot bind).

The C half, _chtml5_tree.c, parses and copies; this half hands it lxml's objects: the root of
an empty HTML document lxml made (so that the tree is lxml's, with lxml's dict), and lxml.etree's
shared object, whose libxml2 functions the copy calls.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from libc.stddef cimport size_t
cimport lxml.includes.etreepublic as cetree
from lxml.includes.tree cimport xmlNode

from lxml import etree

cdef extern from "_chtml5_tree.h":
    ctypedef struct lxb_html_document_t
    enum:
        H5_DONE
        H5_DEEP
        H5_NAMES
        H5_FAILED
    int h5_bind(const char *etree_path)
    const char *h5_symbol(int index)
    lxb_html_document_t *h5_parse(
        const char *data, size_t len, size_t max_depth, size_t max_names, int *why
    ) nogil
    void h5_free(lxb_html_document_t *doc) nogil
    long h5_to_libxml2(
        lxb_html_document_t *doc, xmlNode *root, size_t max_depth, size_t max_names, int *why
    ) nogil
    long h5_count(lxb_html_document_t *doc) nogil
    int h5_valid_utf8(const unsigned char *data, size_t len) nogil

cetree.import_lxml__etree()

# Why tree() gave no tree: the reasons load/html5.py acts on.
DEEP = "deep"
NAMES = "names"
FAILED = "failed"
_WHY = {H5_DEEP: DEEP, H5_NAMES: NAMES, H5_FAILED: FAILED}

# The empty document each tree is built in: lxml's own parse, with load/document.py's options.
_PARSER = etree.HTMLParser(
    encoding="utf-8",
    no_network=True,
    remove_comments=False,
    remove_pis=False,
    huge_tree=True,
    default_doctype=False,
)
_EMPTY = b"<html></html>"
_bound = False


def bind(str etree_path) -> str:
    """Look up the libxml2 functions the copy calls in lxml.etree's shared object (already
    loaded): "" when each was found, else what is missing."""
    global _bound
    cdef int found = h5_bind(etree_path.encode())
    if found == -1:
        return f"{etree_path} is not loaded"
    if found > 0:
        return f"lxml.etree exports no {h5_symbol(found).decode()}"
    _bound = True
    return ""


def tree(bytes data, size_t max_depth, size_t max_names):
    """(the lxml root ``<html>`` of ``data``, UTF-8 bytes, parsed as HTML5, None) or (None,
    why: DEEP or NAMES, a limit passed; FAILED, out of memory)."""
    if not _bound:
        raise RuntimeError("_chtml5.bind() has not succeeded")
    cdef const char *start = data
    cdef size_t size = len(data)
    cdef int why = H5_DONE
    cdef lxb_html_document_t *doc
    with nogil:
        doc = h5_parse(start, size, max_depth, max_names, &why)
    if doc == NULL:
        return None, _WHY.get(why, FAILED)
    cdef long made
    cdef xmlNode *c_root
    try:
        root = etree.fromstring(_EMPTY, _PARSER)
        c_root = (<cetree._Element>root)._c_node
        with nogil:
            made = h5_to_libxml2(doc, c_root, max_depth, max_names, &why)
    finally:
        h5_free(doc)
    if made < 0:
        return None, _WHY.get(why, FAILED)
    return root, None


def parse_only(bytes data, size_t max_depth, size_t max_names) -> int:
    """lexbor's parse alone (lines and guards as :func:`tree`'s) and one pass over its nodes,
    for benchmarks/: how many nodes, or -1."""
    cdef const char *start = data
    cdef size_t size = len(data)
    cdef int why = H5_DONE
    cdef long count = -1
    cdef lxb_html_document_t *doc
    with nogil:
        doc = h5_parse(start, size, max_depth, max_names, &why)
        if doc != NULL:
            count = h5_count(doc)
            h5_free(doc)
    return count


include "_chtml5_walk.pxi"


def valid_utf8(bytes data) -> bool:
    """Whether ``data`` is well-formed UTF-8 (what ``data.decode()`` accepts), without
    building its text."""
    cdef const unsigned char *start = <const unsigned char *> (<const char *> data)
    cdef size_t size = len(data)
    cdef int valid
    with nogil:
        valid = h5_valid_utf8(start, size)
    return bool(valid)
