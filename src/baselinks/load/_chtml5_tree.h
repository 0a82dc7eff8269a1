/* _chtml5_tree: lexbor's HTML5 parse, copied into libxml2 nodes under an lxml root
 * (_chtml5.pyx calls it; _chtml5_tree.c says how). */
#ifndef BASELINKS_CHTML5_TREE_H
#define BASELINKS_CHTML5_TREE_H

#include <stddef.h>

#include "lexbor/html/html.h"
#include <libxml/tree.h>

/* Why a parse or a copy gave up (h5_parse, h5_to_libxml2): *why is set to one of these. */
enum {
    H5_DONE = 0,
    H5_DEEP = 1,   /* more open elements than max_depth */
    H5_NAMES = 2,  /* more tag and attribute names of its own than max_names */
    H5_FAILED = 3  /* lexbor or libxml2 could not allocate */
};

int h5_bind(const char *etree_path);
const char *h5_symbol(int index);
lxb_html_document_t *h5_parse(const char *data, size_t len, size_t max_depth, size_t max_names,
                              int *why);
void h5_free(lxb_html_document_t *doc);
long h5_to_libxml2(lxb_html_document_t *doc, xmlNodePtr root, size_t max_depth,
                   size_t max_names, int *why);
long h5_count(lxb_html_document_t *doc);
int h5_valid_utf8(const unsigned char *data, size_t len);

#endif
