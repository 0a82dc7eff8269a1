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

/* lexbor's nodes as the copy makes them (template contents as children, noscripts settled) */
lxb_dom_node_t *h5_root(lxb_html_document_t *doc);
lxb_dom_node_t *h5_child(lxb_dom_node_t *node);
lxb_dom_node_t *h5_after(lxb_dom_node_t *node, const lxb_dom_node_t *top, int *ups);
lxb_dom_node_t *h5_next(lxb_dom_node_t *node);
int h5_kind(const lxb_dom_node_t *node);
int h5_foreign(const lxb_dom_node_t *node);
size_t h5_line(const lxb_dom_node_t *node, size_t parent_line);
const lxb_char_t *h5_name(lxb_dom_node_t *node, size_t *len);
lxb_dom_attr_t *h5_attrs(lxb_dom_node_t *node);
lxb_dom_attr_t *h5_attr_next(lxb_dom_attr_t *attr);
const lxb_char_t *h5_attr_name(lxb_dom_attr_t *attr, size_t *len);
const lxb_char_t *h5_attr_value(lxb_dom_attr_t *attr, size_t *len);
const lxb_char_t *h5_text(lxb_dom_node_t *node, size_t *len);

#endif
