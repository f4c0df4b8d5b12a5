/*
 * graphsr.io._walk -- one pass over a tree that lxml has parsed, in C.
 *
 * walk(element) -> (tags, ints, offsets, codes, hashes)
 *
 *   tags     tuple of str: the document's distinct element labels, in order of first use: the local
 *            name for the document element's namespace, "prefix:local" for another (a fixed prefix for
 *            well-known namespaces, else the file's), see label_prefix
 *   ints     int32 array (4, n): tag (index into tags), parent (pre-order
 *            index, -1 for the root), depth (root = 1), position (1-based among
 *            same-name siblings)
 *   offsets  int64 array (2, n): start, end -- character offsets [start, end)
 *            of the element's descendant text (INEX convention: Unicode
 *            characters of text and CDATA nodes; an entity reference left unexpanded (graphsr.io.entities
 *            expands the document's own, internal entities before the walk)
 *            counts as one; comments and processing instructions are not text)
 *   codes    uint64 array (T, 4): the four codes of each tag name
 *   hashes   uint64 array (4, n): per element (column) its 2-lane label-path
 *            hash (rows 0, 1) and its 2-lane child-label-set hash (rows 2, 3) -- the summary key hashes defined
 *            in graphsr/summaries/_keys.py, which has the reference implementation
 *
 * The caller (graphsr.io.collection) checks that `element` is an lxml element.
 * The tree is only read.  This is the same computation as the pure-Python
 * walker in collection.py; tests check that both agree.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

/* lxml's headers define helpers this module does not use: their warnings are lxml's, not ours */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "lxml-version.h"
#include "etree_defs.h"
#include "etree_api.h"
#pragma GCC diagnostic pop

typedef struct {
    int32_t *tag, *parent, *depth, *position, *subtree_end;
    int64_t *start, *end;
    Py_ssize_t n, cap;
} Arrays;

typedef struct {
    const xmlChar *name;
    const xmlChar *prefix;
    uint64_t code[4];
} TagKey;

#define GOLD 0x9E3779B97F4A7C15ULL
#define MIX1 0xBF58476D1CE4E5B9ULL
#define MIX2 0x94D049BB133111EBULL

static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * MIX1;
    z = (z ^ (z >> 27)) * MIX2;
    return z ^ (z >> 31);
}

static inline uint64_t fnv1a(uint64_t h, const xmlChar *s) {
    for (; *s; ++s) {
        h ^= *s;
        h *= 0x100000001B3ULL;
    }
    return h;
}

/* the four codes of a tag name "prefix:local" (or "local") */
static void tag_codes(const xmlChar *name, const xmlChar *prefix, uint64_t code[4]) {
    uint64_t h = 0xCBF29CE484222325ULL;
    int j;
    if (prefix) {
        h = fnv1a(h, prefix);
        h = fnv1a(h, (const xmlChar *)":");
    }
    h = fnv1a(h, name);
    for (j = 0; j < 4; ++j)
        code[j] = mix64(h + (uint64_t)(j + 1) * GOLD);
}

static int arrays_grow(Arrays *a) {
    Py_ssize_t cap = a->cap ? a->cap * 2 : 256;
#define GROW(field, type)                                                    \
    do {                                                                     \
        type *p = (type *)PyMem_Realloc(a->field, (size_t)cap * sizeof(type)); \
        if (!p) return -1;                                                   \
        a->field = p;                                                        \
    } while (0)
    GROW(tag, int32_t);
    GROW(parent, int32_t);
    GROW(depth, int32_t);
    GROW(position, int32_t);
    GROW(subtree_end, int32_t);
    GROW(start, int64_t);
    GROW(end, int64_t);
#undef GROW
    a->cap = cap;
    return 0;
}

static void arrays_free(Arrays *a) {
    PyMem_Free(a->tag);
    PyMem_Free(a->parent);
    PyMem_Free(a->depth);
    PyMem_Free(a->position);
    PyMem_Free(a->subtree_end);
    PyMem_Free(a->start);
    PyMem_Free(a->end);
}

/* Unicode characters in a NUL-terminated UTF-8 string: bytes that are not
 * continuation bytes (10xxxxxx), counted eight at a time. */
static inline int64_t utf8_chars(const xmlChar *s) {
    size_t len, i = 0;
    int64_t cont = 0;
    if (!s) return 0;
    len = strlen((const char *)s);
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        if (w & 0x8080808080808080ULL) {
            /* continuation byte: bit 7 set and bit 6 clear */
            uint64_t c = w & ~(w << 1) & 0x8080808080808080ULL;
            cont += __builtin_popcountll(c);
        }
    }
    for (; i < len; ++i)
        cont += ((s[i] & 0xC0) == 0x80);
    return (int64_t)len - cont;
}

static inline int same_str(const xmlChar *a, const xmlChar *b) {
    if (a == b) return 1;
    if (!a || !b) return 0;
    return strcmp((const char *)a, (const char *)b) == 0;
}

/* Prefixes element labels show for well-known namespaces (the same table as collection.KNOWN_PREFIXES). */
static const char *const KNOWN[][2] = {
    {"http://projectmallard.org/1.0/", "mal"}, {"http://projectmallard.org/ui/1.0/", "ui"},
    {"http://projectmallard.org/if/1.0/", "if"}, {"http://projectmallard.org/experimental/", "e"},
    {"http://www.w3.org/2005/11/its", "its"}, {"http://www.w3.org/1999/xlink", "xlink"},
    {"http://www.w3.org/1999/xhtml", "html"}, {"http://www.w3.org/1998/Math/MathML", "mml"},
    {"http://www.w3.org/2000/svg", "svg"}, {"http://www.w3.org/2001/XInclude", "xi"},
    {"http://docbook.org/ns/docbook", "db"}, {"http://www.tei-c.org/ns/1.0", "tei"},
    {"http://creativecommons.org/ns#", "cc"}, {"http://web.resource.org/cc/", "cc0"},
    {"http://purl.org/dc/elements/1.1/", "dc"}, {"http://purl.org/dc/terms/", "dcterms"},
    {"http://purl.org/dc/dcmitype/", "dcmitype"}, {"http://www.w3.org/1999/02/22-rdf-syntax-ns#", "rdf"},
    {"http://www.w3.org/2000/01/rdf-schema#", "rdfs"}, {"http://www.w3.org/2002/07/owl#", "owl"},
    {"http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd", "sodipodi"}, {"http://inkscape.sourceforge.net/DTD/sodipodi-0.dtd", "sodipodi0"},
    {"http://www.inkscape.org/namespaces/inkscape", "inkscape"}, {"http://www.w3.org/2001/XMLSchema-instance", "xsi"},
    {"http://www.w3.org/2001/XMLSchema", "xs"}, {"http://www.w3.org/1999/XSL/Transform", "xsl"},
    {"http://www.w3.org/2005/Atom", "atom"}, {"http://www.music-encoding.org/ns/mei", "mei"},
    {"http://www.opengis.net/kml/2.2", "kml"}, {"http://www.topografix.com/GPX/1/1", "gpx"},
    {"http://ns.adobe.com/AdobeIllustrator/10.0/", "i"}, {"http://ns.adobe.com/Extensibility/1.0/", "x"},
    {"http://ns.adobe.com/SaveForWeb/1.0/", "sfw"}, {"http://ns.adobe.com/Graphs/1.0/", "graph"},
    {"http://ns.adobe.com/Variables/1.0/", "v"}, {"http://ns.adobe.com/AdobeSVGViewerExtensions/3.0/", "a"},
    {"http://ns.adobe.com/xap/1.0/", "xmp"}, {"http://ns.adobe.com/pdf/1.3/", "pdf"},
    {"http://ns.adobe.com/photoshop/1.0/", "photoshop"}, {"http://www.bohemiancoding.com/sketch/ns", "sketch"},
    {"http://www.serif.com/", "serif"}, {"http://www.w3.org/XML/1998/namespace", "xml"}};

/* Prefixes derived for namespaces not in KNOWN ("ns" and the URI's 32-bit FNV-1a hash in hex, as
   collection.derived_prefix), one per namespace URI met in a walk, freed when it ends. */
typedef struct Derived {
    const xmlChar *href;
    struct Derived *next;
    char prefix[11];
} Derived;

static const xmlChar *derived_prefix(Derived **list, const xmlChar *href) {
    for (Derived *d = *list; d; d = d->next)
        if (same_str(d->href, href)) return (const xmlChar *)d->prefix;
    Derived *d = (Derived *)PyMem_Malloc(sizeof(Derived));
    if (!d) return NULL;
    uint32_t h = 0x811C9DC5u;
    for (const xmlChar *p = href; *p; ++p) h = (h ^ *p) * 0x01000193u;
    snprintf(d->prefix, sizeof d->prefix, "ns%08x", (unsigned)h);
    d->href = href;
    d->next = *list;
    *list = d;
    return (const xmlChar *)d->prefix;
}

static void free_derived(Derived *list) {
    while (list) {
        Derived *next = list->next;
        PyMem_Free(list);
        list = next;
    }
}

/* The prefix of an element's label, by namespace rather than by how the file spells it: none for no namespace
   or the document element's own namespace (default or prefixed alike), else one fixed by the namespace URI
   alone: KNOWN's, else a derived one.  Sets *failed on a memory error. */
static const xmlChar *label_prefix(const xmlNode *node, const xmlChar *root_href, Derived **derived,
                                   int *failed) {
    if (node->ns == NULL || node->ns->href == NULL) return NULL;
    if (root_href != NULL && same_str(node->ns->href, root_href)) return NULL;
    for (size_t k = 0; k < sizeof KNOWN / sizeof KNOWN[0]; ++k)
        if (same_str(node->ns->href, (const xmlChar *)KNOWN[k][0])) return (const xmlChar *)KNOWN[k][1];
    const xmlChar *p = derived_prefix(derived, node->ns->href);
    if (!p) *failed = 1;
    return p;
}

/* index of (name, prefix) in keys, adding it if new; -1 on memory error */
static int32_t tag_index(TagKey **keys, int32_t *ntags, int32_t *kcap, const xmlChar *name,
                         const xmlChar *prefix) {
    int32_t i;
    for (i = 0; i < *ntags; ++i)
        if ((*keys)[i].name == name && (*keys)[i].prefix == prefix) return i;
    for (i = 0; i < *ntags; ++i)
        if (same_str((*keys)[i].name, name) && same_str((*keys)[i].prefix, prefix)) return i;
    if (*ntags == *kcap) {
        int32_t cap = *kcap ? *kcap * 2 : 16;
        TagKey *p = (TagKey *)PyMem_Realloc(*keys, (size_t)cap * sizeof(TagKey));
        if (!p) return -1;
        *keys = p;
        *kcap = cap;
    }
    (*keys)[*ntags].name = name;
    (*keys)[*ntags].prefix = prefix;
    tag_codes(name, prefix, (*keys)[*ntags].code);
    return (*ntags)++;
}

/* The lxml element `arg` as libxml2's node, or NULL with a TypeError naming `who`.  rootNodeOrRaise returns a
 * new reference, let go at once: `arg` keeps the tree alive while the caller reads it. */
static xmlNode *element_node(PyObject *arg, const char *who) {
    struct LxmlElement *el = rootNodeOrRaise(arg);
    xmlNode *node;
    if (el == NULL) return NULL;
    node = el->_c_node;
    Py_DECREF((PyObject *)el);
    if (node == NULL || node->type != XML_ELEMENT_NODE) {
        PyErr_Format(PyExc_TypeError, "%s() expects an lxml element", who);
        return NULL;
    }
    return node;
}

static PyObject *walk(PyObject *self, PyObject *arg) {
    xmlNode *root = element_node(arg, "walk"), *cur, *child;
    Arrays a = {0};
    TagKey *keys = NULL;
    int32_t ntags = 0, kcap = 0;
    int32_t *stack = NULL;
    Py_ssize_t sp = 0, scap = 64;
    int64_t offset = 0;
    PyObject *result = NULL, *tags = NULL;
    uint64_t *hashes = NULL;
    Derived *derived = NULL;
    int failed = 0;

    if (root == NULL) return NULL;
    const xmlChar *root_href = root->ns ? root->ns->href : NULL;
    stack = (int32_t *)PyMem_Malloc((size_t)scap * sizeof(int32_t));
    if (!stack) goto nomem;

#define ENTER(node)                                                                    \
    do {                                                                               \
        int32_t t_;                                                                    \
        if (a.n == a.cap && arrays_grow(&a) < 0) goto nomem;                           \
        if (a.n >= INT32_MAX) { PyErr_SetString(PyExc_OverflowError, "too many elements"); goto fail; } \
        const xmlChar *p_ = label_prefix((node), root_href, &derived, &failed);         \
        if (failed) goto nomem;                                                        \
        t_ = tag_index(&keys, &ntags, &kcap, (node)->name, p_);                        \
        if (t_ < 0) goto nomem;                                                        \
        a.tag[a.n] = t_;                                                               \
        a.parent[a.n] = sp ? stack[sp - 1] : -1;                                       \
        a.depth[a.n] = (int32_t)sp + 1;                                                \
        a.start[a.n] = offset;                                                         \
        if (sp == scap) {                                                              \
            int32_t *s_ = (int32_t *)PyMem_Realloc(stack, (size_t)scap * 2 * sizeof(int32_t)); \
            if (!s_) goto nomem;                                                       \
            stack = s_;                                                                \
            scap *= 2;                                                                 \
        }                                                                              \
        stack[sp++] = (int32_t)a.n;                                                    \
        a.n++;                                                                         \
    } while (0)

    cur = root;
    ENTER(cur);
    child = cur->children;
    for (;;) {
        if (child != NULL) {
            switch (child->type) {
            case XML_ELEMENT_NODE:
                ENTER(child);
                cur = child;
                child = cur->children;
                continue;
            case XML_TEXT_NODE:
            case XML_CDATA_SECTION_NODE:
                offset += utf8_chars(child->content);
                break;
            case XML_ENTITY_REF_NODE:
                offset += 1;
                break;
            default:
                break;
            }
            child = child->next;
            continue;
        }
        {
            int32_t i = stack[--sp];
            a.end[i] = offset;
            a.subtree_end[i] = (int32_t)a.n;
        }
        if (cur == root) break;
        child = cur->next;
        cur = cur->parent;
    }
#undef ENTER

    /* positions: for each element, its children are j = i+1, subtree_end[j], ...;
     * a child of position 1 is the first with its tag: it adds its tag to the child-label set */
    hashes = (uint64_t *)PyMem_Malloc((size_t)(4 * (ntags + a.n) + 1) * sizeof(uint64_t));
    if (!hashes) goto nomem;
    {
        int32_t *stamp = NULL, *count = NULL;
        uint64_t *node = hashes + 4 * ntags;
        Py_ssize_t i;
        for (i = 0; i < ntags; ++i)
            memcpy(hashes + 4 * i, keys[i].code, 4 * sizeof(uint64_t));
        stamp = (int32_t *)PyMem_Malloc((size_t)(ntags ? ntags : 1) * sizeof(int32_t));
        count = (int32_t *)PyMem_Malloc((size_t)(ntags ? ntags : 1) * sizeof(int32_t));
        if (!stamp || !count) {
            PyMem_Free(stamp);
            PyMem_Free(count);
            goto nomem;
        }
        for (i = 0; i < ntags; ++i) stamp[i] = -1;
        a.position[0] = 1;
        for (i = 0; i < a.n; ++i) {
            int32_t j = (int32_t)i + 1, stop = a.subtree_end[i];
            uint64_t b2 = 0, b3 = 0, p0, p1;
            const uint64_t *c = keys[a.tag[i]].code;
            /* label path: parent's hash (or the seeds at the root) mixed with the own tag */
            if (i == 0) {
                p0 = GOLD;
                p1 = MIX1;
            } else {
                p0 = node[4 * a.parent[i]];
                p1 = node[4 * a.parent[i] + 1];
            }
            node[4 * i] = mix64(p0 ^ c[0]);
            node[4 * i + 1] = mix64(p1 ^ c[1]);
            while (j < stop) {
                int32_t t = a.tag[j];
                if (stamp[t] != (int32_t)i) {
                    stamp[t] = (int32_t)i;
                    count[t] = 0;
                    b2 ^= keys[t].code[2];
                    b3 ^= keys[t].code[3];
                }
                a.position[j] = ++count[t];
                j = a.subtree_end[j];
            }
            node[4 * i + 2] = b2;
            node[4 * i + 3] = b3;
        }
        PyMem_Free(stamp);
        PyMem_Free(count);
    }

    tags = PyTuple_New(ntags);
    if (!tags) goto fail;
    for (int32_t i = 0; i < ntags; ++i) {
        PyObject *s;
        if (keys[i].prefix)
            s = PyUnicode_FromFormat("%s:%s", (const char *)keys[i].prefix, (const char *)keys[i].name);
        else
            s = PyUnicode_FromString((const char *)keys[i].name);
        if (!s) goto fail;
        PyTuple_SET_ITEM(tags, i, s);
    }
    {
        npy_intp d_ints[2] = {4, a.n}, d_offs[2] = {2, a.n}, d_codes[2] = {ntags, 4}, d_hash[2] = {4, a.n};
        PyObject *ints = PyArray_SimpleNew(2, d_ints, NPY_INT32);
        PyObject *offs = PyArray_SimpleNew(2, d_offs, NPY_INT64);
        PyObject *codes = PyArray_SimpleNew(2, d_codes, NPY_UINT64);
        PyObject *hs = PyArray_SimpleNew(2, d_hash, NPY_UINT64);
        if (!ints || !offs || !codes || !hs) {
            Py_XDECREF(ints);
            Py_XDECREF(offs);
            Py_XDECREF(codes);
            Py_XDECREF(hs);
            goto fail;
        }
        {
            char *p = (char *)PyArray_DATA((PyArrayObject *)ints);
            size_t row = (size_t)a.n * sizeof(int32_t);
            memcpy(p, a.tag, row);
            memcpy(p + row, a.parent, row);
            memcpy(p + 2 * row, a.depth, row);
            memcpy(p + 3 * row, a.position, row);
            p = (char *)PyArray_DATA((PyArrayObject *)offs);
            row = (size_t)a.n * sizeof(int64_t);
            memcpy(p, a.start, row);
            memcpy(p + row, a.end, row);
            memcpy(PyArray_DATA((PyArrayObject *)codes), hashes, (size_t)ntags * 4 * sizeof(uint64_t));
            {
                uint64_t *h = (uint64_t *)PyArray_DATA((PyArrayObject *)hs);
                const uint64_t *node = hashes + 4 * ntags;
                Py_ssize_t i;
                int lane;
                for (lane = 0; lane < 4; ++lane)
                    for (i = 0; i < a.n; ++i)
                        h[lane * a.n + i] = node[4 * i + lane];
            }
        }
        result = PyTuple_Pack(5, tags, ints, offs, codes, hs);
        Py_DECREF(tags);
        Py_DECREF(ints);
        Py_DECREF(offs);
        Py_DECREF(codes);
        Py_DECREF(hs);
    }
    tags = NULL;
    goto done;

nomem:
    PyErr_NoMemory();
fail:
    Py_XDECREF(tags);
    result = NULL;
done:
    arrays_free(&a);
    PyMem_Free(hashes);
    PyMem_Free(keys);
    PyMem_Free(stack);
    free_derived(derived);
    return result;
}

/* text(element) -> str: the text of the element's subtree in document order, as walk() counts its offsets --
 * text and CDATA nodes as they are, an entity reference left unexpanded as U+FFFD (one character), comments
 * and processing instructions not at all; the element's own tail not included.  The same string as
 * graphsr.io.walk._text_parts joins (tests check that both agree). */
static PyObject *text(PyObject *self, PyObject *arg) {
    xmlNode *root = element_node(arg, "text"), *cur, *child;
    char *buf = NULL;
    size_t len = 0, cap = 4096;
    PyObject *result;

    if (root == NULL) return NULL;
    buf = (char *)PyMem_Malloc(cap);
    if (!buf) return PyErr_NoMemory();

#define APPEND(bytes, n)                                                               \
    do {                                                                               \
        size_t n_ = (n);                                                               \
        if (len + n_ > cap) {                                                          \
            size_t c_ = cap;                                                           \
            while (len + n_ > c_) c_ *= 2;                                             \
            char *b_ = (char *)PyMem_Realloc(buf, c_);                                 \
            if (!b_) {                                                                 \
                PyMem_Free(buf);                                                       \
                return PyErr_NoMemory();                                               \
            }                                                                          \
            buf = b_;                                                                  \
            cap = c_;                                                                  \
        }                                                                              \
        memcpy(buf + len, (bytes), n_);                                                \
        len += n_;                                                                     \
    } while (0)

    cur = root;
    child = cur->children;
    for (;;) {
        if (child != NULL) {
            switch (child->type) {
            case XML_ELEMENT_NODE:
                cur = child;
                child = cur->children;
                continue;
            case XML_TEXT_NODE:
            case XML_CDATA_SECTION_NODE:
                if (child->content) APPEND(child->content, strlen((const char *)child->content));
                break;
            case XML_ENTITY_REF_NODE:
                APPEND("\xEF\xBF\xBD", 3);
                break;
            default:
                break;
            }
            child = child->next;
            continue;
        }
        if (cur == root) break;
        child = cur->next;
        cur = cur->parent;
    }
#undef APPEND
    result = PyUnicode_DecodeUTF8(buf, (Py_ssize_t)len, "strict");
    PyMem_Free(buf);
    return result;
}

static PyMethodDef methods[] = {
    {"walk", walk, METH_O, "walk(element) -> (tags, ints, offsets, codes, hashes)"},
    {"text", text, METH_O, "text(element) -> str: the subtree's text, as walk() counts its offsets"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_walk", "C walker over lxml trees (see graphsr.io.collection).", -1, methods,
};

PyMODINIT_FUNC PyInit__walk(void) {
    if (import_lxml__etree() < 0) return NULL;
    import_array();
    return PyModule_Create(&module);
}
