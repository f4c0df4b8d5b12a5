/* graphsr.store._paths -- the elements that positional XPaths name in documents' shapes, in C.
 *
 * find(depth, tag, doc_start, pair_doc, pair_path, path_start, path_steps) -> int64 array
 *
 *   depth       int64 array: the elements' depths (a root's 1) in pre-order, documents one after another
 *   tag         int64 array: the elements' tags, as ids shared by every document (>= 0)
 *   doc_start   int64 array of D + 1 entries: document d's elements are [doc_start[d], doc_start[d + 1])
 *   pair_doc    int64 array of A entries: the document of each (document, path) pair asked, non-decreasing
 *   pair_path   int64 array of A entries: the path of each pair
 *   path_start  int64 array of P + 1 entries: path p's steps are steps path_start[p] .. path_start[p + 1] - 1
 *   path_steps  int64 array of 2 * steps entries: each step's tag id (-1: a tag no document holds) and its
 *               1-based position among the siblings of that tag
 *
 *   Returns, per pair, the index (into depth and tag) of the element the path names in the document, or -1
 *   where it names none: the element XPath /t1[p1]/t2[p2]/... names when every element's XPath is its
 *   ancestors' steps and its own, its position counted among the earlier children of its parent with its tag
 *   (graphsr.store.trees._xpaths writes the same paths; tests compare both).  Each document asked about is
 *   walked once, its elements keyed by (parent, tag, position) in a hash table: linear in its elements and
 *   the steps asked.  None where a document asked about is not a tree of one root in pre-order (its first
 *   element at depth 1, every later one at depth 2 to one more than the element before it): the caller
 *   resolves those with the Python walk, which says what is wrong.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

typedef struct {
    int64_t parent, tag, pos, node; /* node -1: an empty slot */
} Slot;

static uint64_t mix(int64_t parent, int64_t tag, int64_t pos) {
    uint64_t h = (uint64_t)parent * 0x9E3779B97F4A7C15ULL;
    h ^= (uint64_t)tag + 0x7F4A7C159E3779B9ULL + (h << 6) + (h >> 2);
    h ^= (uint64_t)pos * 0xC2B2AE3D27D4EB4FULL + (h << 6) + (h >> 2);
    return h ^ (h >> 31);
}

/* the slot of key (parent, tag, pos) in the table of mask + 1 slots: its own, or the empty one it would take */
static Slot *slot_of(Slot *table, uint64_t mask, int64_t parent, int64_t tag, int64_t pos) {
    uint64_t at = mix(parent, tag, pos) & mask;
    while (table[at].node >= 0 && !(table[at].parent == parent && table[at].tag == tag && table[at].pos == pos))
        at = (at + 1) & mask;
    return &table[at];
}

/* whether start (parts + 1 entries) cuts [0, total) into parts in order; if not, a ValueError naming it and what
   it should cover */
static int covers(const int64_t *start, npy_intp parts, npy_intp total, const char *name, const char *items) {
    if (parts > 0 && (start[0] != 0 || start[parts] != total)) {
        PyErr_Format(PyExc_ValueError, "%s does not cover %s", name, items);
        return 0;
    }
    for (npy_intp k = 0; k < parts; ++k)
        if (start[k + 1] < start[k]) {
            PyErr_Format(PyExc_ValueError, "%s decreases", name);
            return 0;
        }
    return 1;
}

static PyArrayObject *as_int64(PyObject *obj) {
    return (PyArrayObject *)PyArray_FROMANY(obj, NPY_INT64, 1, 1, NPY_ARRAY_IN_ARRAY);
}

static PyObject *find(PyObject *self, PyObject *args) {
    PyObject *objs[7];
    if (!PyArg_ParseTuple(args, "OOOOOOO", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4], &objs[5], &objs[6]))
        return NULL;
    PyArrayObject *arrays[7] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    PyObject *result = NULL;
    Slot *table = NULL;
    int64_t *open = NULL;
    for (int k = 0; k < 7; ++k) {
        arrays[k] = as_int64(objs[k]);
        if (arrays[k] == NULL) goto done;
    }
    const int64_t *depth = PyArray_DATA(arrays[0]), *tag = PyArray_DATA(arrays[1]);
    const int64_t *doc_start = PyArray_DATA(arrays[2]), *pair_doc = PyArray_DATA(arrays[3]);
    const int64_t *pair_path = PyArray_DATA(arrays[4]), *path_start = PyArray_DATA(arrays[5]);
    const int64_t *steps = PyArray_DATA(arrays[6]);
    npy_intp n = PyArray_DIM(arrays[0], 0), docs = PyArray_DIM(arrays[2], 0) - 1;
    npy_intp pairs = PyArray_DIM(arrays[3], 0), paths = PyArray_DIM(arrays[5], 0) - 1;
    npy_intp n_steps = PyArray_DIM(arrays[6], 0) / 2;
    if (PyArray_DIM(arrays[1], 0) != n || docs < 0 || paths < 0 || PyArray_DIM(arrays[4], 0) != pairs ||
        PyArray_DIM(arrays[6], 0) % 2) {
        PyErr_SetString(PyExc_ValueError, "arrays of mismatched lengths");
        goto done;
    }
    if (!covers(doc_start, docs, n, "doc_start", "the elements") ||
        !covers(path_start, paths, n_steps, "path_start", "the steps"))
        goto done;
    for (npy_intp i = 0; i < pairs; ++i)
        if (pair_doc[i] < 0 || pair_doc[i] >= docs || pair_path[i] < 0 || pair_path[i] >= paths ||
            (i && pair_doc[i] < pair_doc[i - 1])) {
            PyErr_SetString(PyExc_ValueError, "a pair outside the documents or paths, or pairs out of order");
            goto done;
        }
    for (npy_intp i = 0; i < n; ++i)
        if (tag[i] < 0) {
            PyErr_SetString(PyExc_ValueError, "a negative tag id");
            goto done;
        }
    npy_intp dims[1] = {pairs};
    PyObject *out_obj = PyArray_SimpleNew(1, dims, NPY_INT64);
    if (out_obj == NULL) goto done;
    int64_t *out = PyArray_DATA((PyArrayObject *)out_obj);
    npy_intp largest = 0;
    for (npy_intp d = 0; d < docs; ++d)
        if (doc_start[d + 1] - doc_start[d] > largest) largest = doc_start[d + 1] - doc_start[d];
    uint64_t capacity = 16;
    while (capacity < 2 * (uint64_t)largest + 16) capacity <<= 1;
    /* one table holds two kinds of key: (parent, tag, 0) counts a parent's children of a tag so far (node: the
       count), (parent, tag, pos) finds the child (node: its index); positions are >= 1 */
    table = malloc(2 * capacity * sizeof(Slot));
    open = malloc((size_t)(largest + 2) * sizeof(int64_t));
    if (table == NULL || open == NULL) {
        Py_DECREF(out_obj);
        PyErr_NoMemory();
        goto done;
    }
    for (npy_intp lo = 0, hi; lo < pairs; lo = hi) {
        npy_intp d = pair_doc[lo];
        for (hi = lo + 1; hi < pairs && pair_doc[hi] == d; ++hi) {
        }
        int64_t first = doc_start[d], end = doc_start[d + 1], size = end - first;
        uint64_t cap = 16;
        while (cap < 4 * (uint64_t)size + 16) cap <<= 1;
        uint64_t mask = cap - 1;
        for (uint64_t s = 0; s < cap; ++s) table[s].node = -1;
        int ok = size > 0 && depth[first] == 1;
        if (ok) open[1] = first;
        for (int64_t i = first + 1; ok && i < end; ++i) {
            int64_t dp = depth[i];
            if (dp < 2 || dp > depth[i - 1] + 1) {
                ok = 0;
                break;
            }
            int64_t parent = open[dp - 1];
            Slot *count = slot_of(table, mask, parent, tag[i], 0);
            if (count->node < 0) {
                count->parent = parent;
                count->tag = tag[i];
                count->pos = 0;
                count->node = 0;
            }
            count->node += 1;
            Slot *child = slot_of(table, mask, parent, tag[i], count->node);
            child->parent = parent;
            child->tag = tag[i];
            child->pos = count->node;
            child->node = i;
            open[dp] = i;
        }
        if (!ok) {
            Py_DECREF(out_obj);
            result = Py_None;
            Py_INCREF(result);
            goto done;
        }
        for (npy_intp k = lo; k < hi; ++k) {
            int64_t p = pair_path[k], s = path_start[p], e = path_start[p + 1];
            int64_t at = -1;
            if (e > s && steps[2 * s] == tag[first] && steps[2 * s + 1] == 1) {
                at = first;
                for (int64_t j = s + 1; j < e && at >= 0; ++j) {
                    int64_t t = steps[2 * j], pos = steps[2 * j + 1];
                    if (t < 0 || pos < 1) {
                        at = -1;
                        break;
                    }
                    Slot *child = slot_of(table, mask, at, t, pos);
                    at = child->node;
                }
            }
            out[k] = at;
        }
    }
    result = out_obj;
done:
    free(table);
    free(open);
    for (int k = 0; k < 7; ++k) Py_XDECREF(arrays[k]);
    return result;
}

static PyMethodDef methods[] = {
    {"find", find, METH_VARARGS, "The element each (document, path) pair names in the documents' shapes, or -1."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_paths",
                                    "Positional XPaths resolved against document shapes.", -1, methods};

PyMODINIT_FUNC PyInit__paths(void) {
    import_array();
    return PyModule_Create(&module);
}
