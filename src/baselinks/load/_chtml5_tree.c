/*
 * _chtml5_tree: HTML parsed as a browser parses it (the HTML standard's tree construction, by
 * lexbor, vendor/lexbor), then copied into libxml2 nodes under an lxml root, so that lxml,
 * cssselect, XPath, the pure walk (find/walk.py) and the compiled walk (find/_cwalk.pyx, which
 * reads libxml2's structs) see an ordinary lxml HTML tree. load/html5.py is its Python side.
 *
 * - lexbor is compiled into this extension: no other wheel's binary interface is used.
 * - libxml2 is lxml's own copy: its functions are looked up in lxml.etree's shared object
 *   (dlopen RTLD_NOLOAD, dlsym), so every node is allocated, and every name interned in the
 *   document's dict, by the library that frees them. lxml's Linux and macOS wheels export
 *   these symbols; its Windows etree.pyd exports only PyInit_etree (setup.py builds nothing
 *   there, and load/html5.py falls back to lxml's parser).
 * - Source lines: lexbor keeps none. The tokenizer's token callback is wrapped: it counts
 *   lines up to each start tag's '>' (where libxml2 2.14 dates an element), hands the token to
 *   the tree builder, and stamps the elements made for it (node->user).
 * - The same callback guards the two inputs on which lexbor's work grows with the square of
 *   the input (measured: 20,000 nested <div> took 1.1 s, 200,000 distinct tag names 23 s):
 *   past max_depth open elements (each start tag walks the stack of open elements to find
 *   what is in scope) or max_names tag and attribute names of the page's own (lexbor keeps
 *   them in a hash of 128 buckets that never grows, core/hash.c), it stops and says why;
 *   load/html5.py then flattens the document or gives it to libxml2.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lexbor/html/html.h"
#include "lexbor/html/parser.h"
#include "lexbor/html/tokenizer.h"
#include "lexbor/html/tree.h"
#include "lexbor/html/interfaces/document.h"
#include "lexbor/html/interfaces/template_element.h"
#include "lexbor/dom/interfaces/attr.h"
#include "lexbor/dom/interfaces/character_data.h"
#include "lexbor/dom/interfaces/document.h"
#include "lexbor/dom/interfaces/document_fragment.h"
#include "lexbor/dom/interfaces/element.h"

#include <libxml/dict.h>
#include <libxml/tree.h>

#include "_chtml5_tree.h"

/* ---- lxml's libxml2, bound once (h5_bind) ---------------------------------------------- */

typedef xmlNodePtr (*f_newDocNodeEatName)(xmlDocPtr, xmlNsPtr, xmlChar *, const xmlChar *);
typedef xmlNodePtr (*f_newDocTextLen)(xmlDocPtr, const xmlChar *, int);
typedef xmlNodePtr (*f_newDocComment)(xmlDocPtr, const xmlChar *);
typedef xmlAttrPtr (*f_newNsPropEatName)(xmlNodePtr, xmlNsPtr, xmlChar *, const xmlChar *);
typedef const xmlChar *(*f_dictLookup)(xmlDictPtr, const xmlChar *, int);
typedef void (*f_freeNode)(xmlNodePtr);

static const char *const SYMBOLS[] = {
    "xmlNewDocNodeEatName", "xmlNewDocTextLen", "xmlNewDocComment",
    "xmlNewNsPropEatName",  "xmlDictLookup",    "xmlFreeNode",
};
#define N_SYMBOLS (sizeof(SYMBOLS) / sizeof(SYMBOLS[0]))

static struct {
    f_newDocNodeEatName newDocNodeEatName;
    f_newDocTextLen newDocTextLen;
    f_newDocComment newDocComment;
    f_newNsPropEatName newNsPropEatName;
    f_dictLookup dictLookup;
    f_freeNode freeNode;
} X;

/* 0: bound. -1: lxml.etree's shared object is not loaded. k > 0: SYMBOLS[k - 1] is not
 * exported (h5_symbol names it). */
int
h5_bind(const char *etree_path)
{
    void *found[N_SYMBOLS];
    void *library = dlopen(etree_path, RTLD_NOW | RTLD_NOLOAD);
    if (library == NULL) {
        return -1;
    }
    for (size_t i = 0; i < N_SYMBOLS; i++) {
        found[i] = dlsym(library, SYMBOLS[i]);
        if (found[i] == NULL) {
            return (int) i + 1;
        }
    }
    /* POSIX: a function pointer and an object pointer convert (dlsym's own contract) */
    X.newDocNodeEatName = (f_newDocNodeEatName) found[0];
    X.newDocTextLen = (f_newDocTextLen) found[1];
    X.newDocComment = (f_newDocComment) found[2];
    X.newNsPropEatName = (f_newNsPropEatName) found[3];
    X.dictLookup = (f_dictLookup) found[4];
    X.freeNode = (f_freeNode) found[5];
    return 0;
}

const char *
h5_symbol(int index)
{
    return index >= 1 && (size_t) index <= N_SYMBOLS ? SYMBOLS[index - 1] : "";
}

/* ---- the token callback: lines and guards ---------------------------------------------- */

typedef struct {
    const lxb_char_t *data;
    const lxb_char_t *end;
    const lxb_char_t *pos; /* lines are counted up to here */
    size_t line;           /* the line at pos (1-based) */
    lxb_html_tokenizer_token_f tree_cb;
    void *tree_ctx;
    lxb_html_tree_t *tree;
    lxb_html_tokenizer_t *tkz;
    size_t max_depth;
    size_t max_names;
    int why;
} h5_ctx;

static inline int
in_input(const h5_ctx *c, const lxb_char_t *p)
{
    return p != NULL && p >= c->data && p <= c->end;
}

static inline void
advance(h5_ctx *c, const lxb_char_t *stop)
{
    const lxb_char_t *p = c->pos;
    while (p < stop && (p = memchr(p, '\n', (size_t) (stop - p))) != NULL) {
        c->line++;
        p++;
    }
    c->pos = stop;
}

/* Where a start tag's '>' is: after its name and its last attribute (a quoted value may hold a
 * '>', and nothing after the last attribute can), as libxml2 2.14 dates an element. */
static const lxb_char_t *
tag_close(const h5_ctx *c, const lxb_html_token_t *token)
{
    const lxb_char_t *from = token->end;
    const lxb_html_token_attr_t *attr = token->attr_last;
    if (attr != NULL) {
        const lxb_char_t *last = attr->value_end != NULL ? attr->value_end : attr->name_end;
        if (in_input(c, last) && (from == NULL || last > from)) {
            from = last;
        }
    }
    if (!in_input(c, from)) {
        return NULL;
    }
    const lxb_char_t *gt = memchr(from, '>', (size_t) (c->end - from));
    return gt != NULL ? gt : c->end;
}

static inline void
stamp(lxb_dom_node_t *node, size_t line)
{
    if (node != NULL && node->type == LXB_DOM_NODE_TYPE_ELEMENT && node->user == NULL) {
        node->user = (void *) (uintptr_t) line;
    }
}

static inline int
is_html(const lxb_dom_node_t *node, lxb_tag_id_t tag)
{
    return node->local_name == tag && node->ns == LXB_NS_HTML;
}

static inline int
is_table_part(const lxb_dom_node_t *node)
{
    return is_html(node, LXB_TAG_TABLE) || is_html(node, LXB_TAG_TBODY)
        || is_html(node, LXB_TAG_TFOOT) || is_html(node, LXB_TAG_THEAD)
        || is_html(node, LXB_TAG_TR);
}

/* After the tree builder has handled a token, the elements it made for it are new (user is
 * NULL): the top of the stack of open elements (a start tag, the elements it implied,
 * adoption-agency clones), the current node's last child (a void element), its template
 * content's last child, or what foster parenting put before the last table. */
static void
stamp_new(h5_ctx *c)
{
    lexbor_array_t *open = c->tree->open_elements;
    size_t line = c->line;
    if (open->length == 0) {
        return;
    }
    for (size_t i = open->length; i > 0; i--) {
        lxb_dom_node_t *node = open->list[i - 1];
        if (node->user != NULL) {
            break;
        }
        stamp(node, line);
    }
    lxb_dom_node_t *current = open->list[open->length - 1];
    if (is_html(current, LXB_TAG_TEMPLATE)) {
        lxb_dom_document_fragment_t *content = lxb_html_interface_template(current)->content;
        if (content != NULL) {
            stamp(content->node.last_child, line);
        }
    } else {
        stamp(current->last_child, line);
    }
    if (is_table_part(current)) {
        for (size_t i = open->length; i > 0; i--) {
            lxb_dom_node_t *node = open->list[i - 1];
            if (is_html(node, LXB_TAG_TABLE)) {
                stamp(node->prev, line);
                break;
            }
        }
    }
}

/* The names the page made lexbor add to its hashes (tags and attributes of its own). */
static inline size_t
own_names(const h5_ctx *c)
{
    return lexbor_dobject_allocated(c->tkz->tags->entries)
         + lexbor_dobject_allocated(c->tkz->attrs->entries);
}

static lxb_html_token_t *
h5_token(lxb_html_tokenizer_t *tkz, lxb_html_token_t *token, void *ctx)
{
    h5_ctx *c = ctx;
    const lxb_char_t *at = NULL;
    if (token->tag_id != LXB_TAG__TEXT && !(token->type & LXB_HTML_TOKEN_TYPE_CLOSE)) {
        at = tag_close(c, token);
    } else if (in_input(c, token->begin)) {
        at = token->begin;
    }
    if (at != NULL && at > c->pos) {
        advance(c, at);
    }
    lxb_html_token_t *out = c->tree_cb(tkz, token, c->tree_ctx);
    stamp_new(c);
    if (c->tree->open_elements->length > c->max_depth) {
        c->why = H5_DEEP;
        return NULL; /* the tokenizer stops: status LXB_STATUS_ERROR */
    }
    if (own_names(c) > c->max_names) {
        c->why = H5_NAMES;
        return NULL;
    }
    return out;
}

static void
hook(h5_ctx *c, lxb_html_document_t *doc, const lxb_char_t *data, size_t len,
     size_t first_line, size_t max_depth, size_t max_names)
{
    memset(c, 0, sizeof(*c));
    c->data = data;
    c->end = data + len;
    c->pos = data;
    c->line = first_line;
    c->max_depth = max_depth;
    c->max_names = max_names;
    lxb_html_parser_t *parser = doc->dom_document.parser;
    c->tkz = parser->tkz;
    c->tree = parser->tree;
    c->tree_cb = c->tkz->callback_token_done;
    c->tree_ctx = c->tkz->callback_token_ctx;
    lxb_html_tokenizer_callback_token_done_set(c->tkz, h5_token, c);
}

static void
unhook(h5_ctx *c, lxb_html_document_t *doc)
{
    lxb_html_parser_t *parser = doc->dom_document.parser;
    if (parser != NULL && parser->tkz != NULL && parser->tkz->callback_token_done == h5_token) {
        lxb_html_tokenizer_callback_token_done_set(parser->tkz, c->tree_cb, c->tree_ctx);
    }
}

/* ---- the parse --------------------------------------------------------------------------- */

static int settle_noscripts(lxb_html_document_t *doc, size_t max_depth, size_t max_names,
                            int *why);

/* The document, or NULL with *why set. Scripting on, as a browser parses: a <noscript>'s
 * contents are text (h5_to_libxml2 reads them as elements again). */
lxb_html_document_t *
h5_parse(const char *data, size_t len, size_t max_depth, size_t max_names, int *why)
{
    *why = H5_FAILED;
    lxb_html_document_t *doc = lxb_html_document_create();
    if (doc == NULL) {
        return NULL;
    }
    lxb_html_document_scripting_set(doc, true);
    lxb_html_document_dom_opt_set(doc, LXB_DOM_DOCUMENT_OPT_WO_EVENTS);
    if (lxb_html_document_parse_chunk_begin(doc) != LXB_STATUS_OK) {
        return lxb_html_document_destroy(doc);
    }
    h5_ctx c;
    hook(&c, doc, (const lxb_char_t *) data, len, 1, max_depth, max_names);
    lxb_status_t status = lxb_html_document_parse_chunk(doc, (const lxb_char_t *) data, len);
    if (status == LXB_STATUS_OK) {
        status = lxb_html_document_parse_chunk_end(doc);
    }
    unhook(&c, doc);
    if (status != LXB_STATUS_OK) {
        *why = c.why != H5_DONE ? c.why : H5_FAILED;
        return lxb_html_document_destroy(doc);
    }
    if (settle_noscripts(doc, max_depth, max_names, why) != 0) {
        return lxb_html_document_destroy(doc);
    }
    *why = H5_DONE;
    return doc;
}

void
h5_free(lxb_html_document_t *doc)
{
    lxb_html_document_destroy(doc);
}

/* The text of a <noscript> that the parse (scripting on) read as text, parsed as a fragment in
 * <body> with scripting off: the elements a browser without scripting builds, which baselinks
 * reports with the problem code in-noscript. Lines go on from the noscript's. Its root (whose
 * children are the contents), or NULL with *why set. */
static lxb_dom_node_t *
h5_fragment(lxb_html_document_t *doc, const lexbor_str_t *text, size_t first_line,
            size_t max_depth, size_t max_names, int *why)
{
    *why = H5_FAILED;
    lxb_html_element_t *body =
        lxb_html_document_create_element(doc, (const lxb_char_t *) "body", 4, NULL);
    if (body == NULL) {
        return NULL;
    }
    bool scripting = doc->dom_document.scripting;
    doc->dom_document.scripting = false;
    lxb_status_t status =
        lxb_html_document_parse_fragment_chunk_begin(doc, lxb_dom_interface_element(body));
    lxb_dom_node_t *root = NULL;
    if (status == LXB_STATUS_OK) {
        h5_ctx c;
        hook(&c, doc, text->data, text->length, first_line, max_depth, max_names);
        status = lxb_html_document_parse_fragment_chunk(doc, text->data, text->length);
        if (status == LXB_STATUS_OK) { /* else the tokenizer has no token to end with */
            root = lxb_html_document_parse_fragment_chunk_end(doc);
        }
        unhook(&c, doc);
        *why = c.why != H5_DONE ? c.why : H5_FAILED;
    }
    doc->dom_document.scripting = scripting;
    if (root == NULL) {
        return NULL;
    }
    *why = H5_DONE;
    return root;
}

/* ---- lexbor's DOM → libxml2 nodes --------------------------------------------------------- */

typedef struct {
    lxb_html_document_t *doc;
    xmlDocPtr xdoc;
    const xmlChar *names[LXB_TAG__LAST_ENTRY]; /* the dict's name of each HTML tag id */
    size_t max_depth;
    size_t max_names;
    int why;
} h5_copy;

static inline void
append(xmlNodePtr parent, xmlNodePtr node)
{
    node->parent = parent;
    if (parent->last == NULL) {
        parent->children = parent->last = node;
    } else {
        node->prev = parent->last;
        parent->last->next = node;
        parent->last = node;
    }
}

/* libxml2 keeps a line in 16 bits: 65535 stands for any line past it (the lxml parse's own
 * tree says the same without its big-lines option, tests/test_compiled.py). */
static inline unsigned short
line_of(const lxb_dom_node_t *node, unsigned short fallback)
{
    uintptr_t line = (uintptr_t) node->user;
    if (line == 0) {
        return fallback;
    }
    return line > 65535 ? 65535 : (unsigned short) line;
}

/* A name interned in the document's dict, in lower case: SVG's and MathML's mixed-case names
 * (foreignObject, viewBox) as libxml2's HTML parser and baselinks' output have always written
 * them, so that a `tag` field and a --select are the same under both parsers. */
static const xmlChar *
intern(h5_copy *k, const lxb_char_t *name, size_t len, int lower)
{
    size_t i = 0;
    if (lower) {
        while (i < len && !(name[i] >= 'A' && name[i] <= 'Z')) {
            i++;
        }
    }
    if (!lower || i == len) {
        return X.dictLookup(k->xdoc->dict, name, (int) len);
    }
    xmlChar small[128];
    xmlChar *copy = len <= sizeof(small) ? small : malloc(len);
    if (copy == NULL) {
        return NULL;
    }
    for (i = 0; i < len; i++) {
        lxb_char_t ch = name[i];
        copy[i] = (ch >= 'A' && ch <= 'Z') ? (xmlChar) (ch + 32) : ch;
    }
    const xmlChar *found = X.dictLookup(k->xdoc->dict, copy, (int) len);
    if (copy != small) {
        free(copy);
    }
    return found;
}

static int
has_property(xmlNodePtr target, const xmlChar *name)
{
    for (xmlAttrPtr p = target->properties; p != NULL; p = p->next) {
        if (p->name == name) {
            return 1;
        }
    }
    return 0;
}

/* `element`'s attributes onto `target`, in source order (only_new: those it has not). */
static int
copy_attributes(h5_copy *k, xmlNodePtr target, lxb_dom_element_t *element, int only_new)
{
    int foreign = element->node.ns != LXB_NS_HTML;
    for (lxb_dom_attr_t *attr = element->first_attr; attr != NULL; attr = attr->next) {
        size_t len = 0;
        const lxb_char_t *name = lxb_dom_attr_qualified_name(attr, &len);
        const xmlChar *xname = intern(k, name, len, foreign);
        if (xname == NULL) {
            return -1;
        }
        if (only_new && has_property(target, xname)) {
            continue;
        }
        xmlAttrPtr prop = X.newNsPropEatName(target, NULL, (xmlChar *) xname, NULL);
        if (prop == NULL) {
            return -1;
        }
        if (attr->value != NULL && attr->value->length > 0) {
            xmlNodePtr text =
                X.newDocTextLen(k->xdoc, attr->value->data, (int) attr->value->length);
            if (text == NULL) {
                return -1;
            }
            text->parent = (xmlNodePtr) prop;
            prop->children = prop->last = text;
        }
    }
    return 0;
}

static xmlNodePtr
make_element(h5_copy *k, lxb_dom_node_t *node, unsigned short line)
{
    lxb_dom_element_t *element = lxb_dom_interface_element(node);
    const xmlChar *xname = NULL;
    int cached = node->ns == LXB_NS_HTML && node->local_name < LXB_TAG__LAST_ENTRY;
    if (cached) {
        xname = k->names[node->local_name];
    }
    if (xname == NULL) {
        size_t len = 0;
        const lxb_char_t *name = lxb_dom_element_qualified_name(element, &len);
        xname = intern(k, name, len, node->ns != LXB_NS_HTML);
        if (xname == NULL) {
            return NULL;
        }
        if (cached) {
            k->names[node->local_name] = xname;
        }
    }
    xmlNodePtr made = X.newDocNodeEatName(k->xdoc, NULL, (xmlChar *) xname, NULL);
    if (made == NULL) {
        return NULL;
    }
    made->line = line_of(node, line);
    if (copy_attributes(k, made, element, 0) != 0) {
        X.freeNode(made);
        return NULL;
    }
    return made;
}

/* A libxml2 node for `node`; NULL for a doctype (none inside <html>) or when out of memory
 * (an element or text: h5_convert gives up). */
static xmlNodePtr
make_node(h5_copy *k, lxb_dom_node_t *node, unsigned short line)
{
    xmlNodePtr made = NULL;
    lexbor_str_t *s;
    switch (node->type) {
    case LXB_DOM_NODE_TYPE_ELEMENT:
        return make_element(k, node, line);
    case LXB_DOM_NODE_TYPE_TEXT:
        s = &lxb_dom_interface_character_data(node)->data;
        made = X.newDocTextLen(k->xdoc, s->data, (int) s->length);
        break;
    case LXB_DOM_NODE_TYPE_COMMENT:
        s = &lxb_dom_interface_character_data(node)->data;
        made = X.newDocComment(k->xdoc, s->data != NULL ? s->data : (const lxb_char_t *) "");
        break;
    default:
        return NULL;
    }
    if (made != NULL) {
        made->line = line;
    }
    return made;
}

static inline int
is_content(const lxb_dom_node_t *node)
{
    return node->type == LXB_DOM_NODE_TYPE_ELEMENT || node->type == LXB_DOM_NODE_TYPE_TEXT;
}

/* The children of an element: a <template>'s are its content fragment's. */
static inline lxb_dom_node_t *
first_child(lxb_dom_node_t *node)
{
    if (node->type != LXB_DOM_NODE_TYPE_ELEMENT) {
        return NULL;
    }
    if (is_html(node, LXB_TAG_TEMPLATE)) {
        lxb_dom_document_fragment_t *content = lxb_html_interface_template(node)->content;
        return content != NULL ? content->node.first_child : NULL;
    }
    return node->first_child;
}

static inline lxb_dom_node_t *
parent_of(lxb_dom_node_t *node)
{
    lxb_dom_node_t *parent = node->parent;
    if (parent != NULL && parent->type == LXB_DOM_NODE_TYPE_DOCUMENT_FRAGMENT) {
        return lxb_dom_interface_node(((lxb_dom_document_fragment_t *) parent)->host);
    }
    return parent;
}

/* A <noscript> whose contents the scripting-on parse made one text. */
static inline int
is_raw_noscript(const lxb_dom_node_t *node)
{
    return is_html(node, LXB_TAG_NOSCRIPT) && node->first_child != NULL
        && node->first_child == node->last_child
        && node->first_child->type == LXB_DOM_NODE_TYPE_TEXT;
}

/* The node after `node` in a depth-first walk under `top` that does not enter `node`: its next
 * sibling, or its nearest ancestor's; NULL at the end. *ups: how many levels it climbed. */
static lxb_dom_node_t *
next_after(lxb_dom_node_t *node, const lxb_dom_node_t *top, int *ups)
{
    *ups = 0;
    while (node->next == NULL) {
        node = parent_of(node);
        if (node == top || node == NULL) {
            return NULL;
        }
        (*ups)++;
    }
    return node->next;
}

/* The children of lexbor's `top` copied under `root`, depth first without recursion (a
 * noscript's contents as h5_parse settled them: settle_noscripts). */
static long
convert(h5_copy *k, lxb_dom_node_t *top, xmlNodePtr root)
{
    long made_count = 0;
    xmlNodePtr xparent = root;
    unsigned short line = root->line;
    lxb_dom_node_t *node = top->first_child;
    while (node != NULL) {
        xmlNodePtr made = make_node(k, node, line);
        if (made == NULL && is_content(node)) {
            k->why = H5_FAILED;
            return -1;
        }
        if (made != NULL) {
            append(xparent, made);
            made_count++;
            lxb_dom_node_t *child = first_child(node);
            if (child != NULL) {
                xparent = made;
                line = made->line;
                node = child;
                continue;
            }
        }
        int ups;
        node = next_after(node, top, &ups);
        for (; ups > 0; ups--) {
            xparent = xparent->parent;
            line = xparent->line;
        }
    }
    return made_count;
}

/*
 * Under `root` (an lxml <html> element without children, in an HTML document with a dict),
 * the children of lexbor's document element; and root gets its attributes. The number of
 * nodes made, or -1 with *why set (what was made is root's, freed with it). A noscript read as
 * text has its contents as elements already (h5_parse settled them, under its limits).
 */
long
h5_to_libxml2(lxb_html_document_t *doc, xmlNodePtr root, size_t max_depth, size_t max_names,
              int *why)
{
    h5_copy *k = calloc(1, sizeof(h5_copy));
    if (k == NULL) {
        *why = H5_FAILED;
        return -1;
    }
    k->doc = doc;
    k->xdoc = root->doc;
    k->max_depth = max_depth;
    k->max_names = max_names;
    long made = 0;
    lxb_dom_element_t *html = lxb_dom_document_element(&doc->dom_document);
    if (html != NULL) {
        lxb_dom_node_t *top = lxb_dom_interface_node(html);
        root->line = line_of(top, 1);
        made = copy_attributes(k, root, html, 1) != 0 ? -1 : convert(k, top, root);
        if (made < 0 && k->why == H5_DONE) {
            k->why = H5_FAILED;
        }
    }
    *why = k->why;
    free(k);
    return made;
}

/* The nodes of the parse, each touched once: the parse-only benchmark's pass over them. */
long
h5_count(lxb_html_document_t *doc)
{
    long n = 0;
    lxb_dom_element_t *html = lxb_dom_document_element(&doc->dom_document);
    if (html == NULL) {
        return 0;
    }
    lxb_dom_node_t *top = lxb_dom_interface_node(html);
    lxb_dom_node_t *node = top->first_child;
    while (node != NULL) {
        n++;
        lxb_dom_node_t *child = first_child(node);
        int ups;
        node = child != NULL ? child : next_after(node, top, &ups);
    }
    return n;
}

/* ---- noscripts settled ------------------------------------------------------------------- */

/* The line the copy gives `node`, knowing its parent's (line_of, as convert() applies it). */
static inline size_t
copy_line(const lxb_dom_node_t *node, size_t parent_line)
{
    return line_of(node, (unsigned short) parent_line);
}

/*
 * Each <noscript> whose contents the scripting-on parse made one text gets, in place of that
 * text, the elements a browser without scripting builds (h5_fragment, its lines going on from
 * the noscript's line as the copy has it): what the copy and the native walk both read, parsed
 * once, in document order, under the same limits (the copy did this as it went). 0, or -1
 * with *why set.
 */
static int
settle_noscripts(lxb_html_document_t *doc, size_t max_depth, size_t max_names, int *why)
{
    lxb_dom_element_t *html = lxb_dom_document_element(&doc->dom_document);
    if (html == NULL) {
        return 0;
    }
    lxb_dom_node_t *top = lxb_dom_interface_node(html);
    size_t room = 64, depth = 0;
    size_t *lines = malloc(room * sizeof(size_t));
    if (lines == NULL) {
        *why = H5_FAILED;
        return -1;
    }
    lines[0] = line_of(top, 1);
    lxb_dom_node_t *node = top->first_child;
    while (node != NULL) {
        size_t line = lines[depth];
        if (node->type == LXB_DOM_NODE_TYPE_ELEMENT) {
            size_t own = copy_line(node, line);
            if (is_raw_noscript(node)) {
                lxb_dom_node_t *text = node->first_child;
                lexbor_str_t *raw = &lxb_dom_interface_character_data(text)->data;
                lxb_dom_node_t *fragment =
                    h5_fragment(doc, raw, own, max_depth, max_names, why);
                if (fragment == NULL) {
                    free(lines);
                    return -1;
                }
                lxb_dom_node_remove_wo_events(text);
                lxb_dom_node_destroy(text);
                while (fragment->first_child != NULL) {
                    lxb_dom_node_t *moved = fragment->first_child;
                    lxb_dom_node_remove_wo_events(moved);
                    lxb_dom_node_insert_child_wo_events(node, moved);
                }
                lxb_dom_node_destroy_deep(fragment);
                /* what was parsed inside is no raw noscript: passed over, as the copy did */
            } else {
                lxb_dom_node_t *child = first_child(node);
                if (child != NULL) {
                    if (++depth == room) {
                        size_t *grown = realloc(lines, 2 * room * sizeof(size_t));
                        if (grown == NULL) {
                            free(lines);
                            *why = H5_FAILED;
                            return -1;
                        }
                        lines = grown;
                        room *= 2;
                    }
                    lines[depth] = own;
                    node = child;
                    continue;
                }
            }
        }
        int ups;
        node = next_after(node, top, &ups);
        depth -= (size_t) ups;
    }
    free(lines);
    return 0;
}

/* ---- lexbor's own nodes, as the copy makes them: for the native walk (_chtml5_walk.pxi) ---- */

lxb_dom_node_t *
h5_root(lxb_html_document_t *doc)
{
    lxb_dom_element_t *html = lxb_dom_document_element(&doc->dom_document);
    return html != NULL ? lxb_dom_interface_node(html) : NULL;
}

lxb_dom_node_t *
h5_child(lxb_dom_node_t *node)
{
    return first_child(node);
}

lxb_dom_node_t *
h5_after(lxb_dom_node_t *node, const lxb_dom_node_t *top, int *ups)
{
    return next_after(node, top, ups);
}

lxb_dom_node_t *
h5_next(lxb_dom_node_t *node)
{
    return node->next;
}

int
h5_kind(const lxb_dom_node_t *node)
{
    return node->type == LXB_DOM_NODE_TYPE_ELEMENT ? 1 : node->type == LXB_DOM_NODE_TYPE_TEXT ? 3 : 0;
}

/* 1 for an element of another namespace than HTML's (its names are lower-cased in the copy) */
int
h5_foreign(const lxb_dom_node_t *node)
{
    return node->ns != LXB_NS_HTML;
}

size_t
h5_line(const lxb_dom_node_t *node, size_t parent_line)
{
    return copy_line(node, parent_line);
}

const lxb_char_t *
h5_name(lxb_dom_node_t *node, size_t *len)
{
    return lxb_dom_element_qualified_name(lxb_dom_interface_element(node), len);
}

lxb_dom_attr_t *
h5_attrs(lxb_dom_node_t *node)
{
    return lxb_dom_interface_element(node)->first_attr;
}

lxb_dom_attr_t *
h5_attr_next(lxb_dom_attr_t *attr)
{
    return attr->next;
}

const lxb_char_t *
h5_attr_name(lxb_dom_attr_t *attr, size_t *len)
{
    return lxb_dom_attr_qualified_name(attr, len);
}

const lxb_char_t *
h5_attr_value(lxb_dom_attr_t *attr, size_t *len)
{
    if (attr->value == NULL || attr->value->data == NULL) {
        *len = 0;
        return (const lxb_char_t *) "";
    }
    *len = attr->value->length;
    return attr->value->data;
}

const lxb_char_t *
h5_text(lxb_dom_node_t *node, size_t *len)
{
    lexbor_str_t *s = &lxb_dom_interface_character_data(node)->data;
    *len = s->length;
    return s->data != NULL ? s->data : (const lxb_char_t *) "";
}

/* ---- UTF-8 ------------------------------------------------------------------------------ */

/* Whether `data` is well-formed UTF-8 (Unicode §3.9, Table 3-7: no overlong form, no
 * surrogate, nothing past U+10FFFF; what Python's strict decoder accepts). lexbor reads any
 * byte without a word, so load checks the bytes before it trusts them as UTF-8; Python has no
 * check that does not build the text (bytes.decode: 0.04 of an lxml parse on the corpus). */
int
h5_valid_utf8(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        while (i + 8 <= n) { /* ASCII, eight bytes at a time */
            uint64_t word;
            memcpy(&word, s + i, 8);
            if (word & 0x8080808080808080ULL) {
                break;
            }
            i += 8;
        }
        if (i >= n) {
            break;
        }
        unsigned char c = s[i];
        if (c < 0x80) {
            i++;
        } else if (c >= 0xC2 && c <= 0xDF) {
            if (i + 1 >= n || (s[i + 1] & 0xC0) != 0x80) {
                return 0;
            }
            i += 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            if (i + 2 >= n || (s[i + 1] & 0xC0) != 0x80 || (s[i + 2] & 0xC0) != 0x80) {
                return 0;
            }
            if ((c == 0xE0 && s[i + 1] < 0xA0) || (c == 0xED && s[i + 1] > 0x9F)) {
                return 0; /* overlong; a surrogate */
            }
            i += 3;
        } else if (c >= 0xF0 && c <= 0xF4) {
            if (i + 3 >= n || (s[i + 1] & 0xC0) != 0x80 || (s[i + 2] & 0xC0) != 0x80
                || (s[i + 3] & 0xC0) != 0x80) {
                return 0;
            }
            if ((c == 0xF0 && s[i + 1] < 0x90) || (c == 0xF4 && s[i + 1] > 0x8F)) {
                return 0; /* overlong; past U+10FFFF */
            }
            i += 4;
        } else {
            return 0;
        }
    }
    return 1;
}
