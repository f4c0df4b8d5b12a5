/* graphsr.core._ties -- trec_eval's tie order of tied run lines, by document name, in C.
 *
 * names_descending(names, doc, group) -> int64 array | None
 *
 *   names   a list of str: the run's document names, by code
 *   doc     int64 array: the document code of each tied line, in the lines' current order
 *   group   int64 array, non-decreasing: each line's group of tied lines (one topic and score)
 *
 *   Returns the permutation of the lines that keeps the groups in order and puts each group's lines in
 *   document name descending order (names compared as their UTF-8 bytes: code point order, as C's strcmp
 *   compares trec_eval's docnos), which np.lexsort((-name_rank, group)) gives.  Only the names of the tied
 *   lines are compared, each with the few of its group, where ordering every name of a large collection would
 *   cost more than the rest of the ranking.  None where a name has no UTF-8 form (a lone surrogate: the numpy
 *   path orders it by code points).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

typedef struct {
    const char *s;
    Py_ssize_t len;
    int64_t line;
} Named;

/* <0, 0, >0 as a's name sorts before, with, after b's (bytes, then length) */
static int name_cmp(const Named *a, const Named *b) {
    Py_ssize_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->s, b->s, (size_t)n);
    if (c != 0) return c;
    return (a->len > b->len) - (a->len < b->len);
}

static int descending(const void *a, const void *b) { return name_cmp(b, a); }

/* the entries [lo, hi) in name descending order: insertion sort for the small groups real scores tie */
static void sort_group(Named *v, Py_ssize_t lo, Py_ssize_t hi) {
    if (hi - lo > 16) {
        qsort(v + lo, (size_t)(hi - lo), sizeof(Named), descending);
        return;
    }
    for (Py_ssize_t i = lo + 1; i < hi; ++i) {
        Named x = v[i];
        Py_ssize_t j = i;
        while (j > lo && name_cmp(&v[j - 1], &x) < 0) {
            v[j] = v[j - 1];
            --j;
        }
        v[j] = x;
    }
}

static PyObject *names_descending(PyObject *self, PyObject *args) {
    PyObject *names, *doc_obj, *group_obj;
    if (!PyArg_ParseTuple(args, "O!OO", &PyList_Type, &names, &doc_obj, &group_obj)) return NULL;
    PyArrayObject *doc = (PyArrayObject *)PyArray_FROMANY(doc_obj, NPY_INT64, 1, 1, NPY_ARRAY_IN_ARRAY);
    PyArrayObject *group = doc == NULL ? NULL : (PyArrayObject *)PyArray_FROMANY(group_obj, NPY_INT64, 1, 1,
                                                                                   NPY_ARRAY_IN_ARRAY);
    if (group == NULL) {
        Py_XDECREF(doc);
        return NULL;
    }
    npy_intp n = PyArray_DIM(doc, 0);
    PyObject *result = NULL;
    Named *v = NULL;
    if (PyArray_DIM(group, 0) != n) {
        PyErr_SetString(PyExc_ValueError, "doc and group must have the same length");
        goto done;
    }
    v = malloc((size_t)(n ? n : 1) * sizeof(Named));
    if (v == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    const int64_t *d = PyArray_DATA(doc), *g = PyArray_DATA(group);
    Py_ssize_t count = PyList_GET_SIZE(names);
    for (npy_intp i = 0; i < n; ++i) {
        if (d[i] < 0 || d[i] >= count || (i && g[i] < g[i - 1])) {
            PyErr_SetString(PyExc_ValueError, "a document code outside the names, or groups out of order");
            goto done;
        }
        if (i + 8 < n && d[i + 8] >= 0 && d[i + 8] < count) /* the names lie anywhere in memory: ask early */
            __builtin_prefetch(PyList_GET_ITEM(names, d[i + 8]));
        PyObject *name = PyList_GET_ITEM(names, d[i]);
        if (!PyUnicode_Check(name)) {
            PyErr_SetString(PyExc_TypeError, "document names must be str");
            goto done;
        }
        v[i].s = PyUnicode_AsUTF8AndSize(name, &v[i].len);
        if (v[i].s == NULL) {
            if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) goto done;
            PyErr_Clear();
            result = Py_None;
            Py_INCREF(result);
            goto done;
        }
        v[i].line = (int64_t)i;
    }
    for (npy_intp lo = 0, hi; lo < n; lo = hi) {
        for (hi = lo + 1; hi < n && g[hi] == g[lo]; ++hi) {
        }
        if (hi - lo > 1) sort_group(v, lo, hi);
    }
    npy_intp dims[1] = {n};
    result = PyArray_SimpleNew(1, dims, NPY_INT64);
    if (result != NULL) {
        int64_t *out = PyArray_DATA((PyArrayObject *)result);
        for (npy_intp i = 0; i < n; ++i) out[i] = v[i].line;
    }
done:
    free(v);
    Py_DECREF(doc);
    Py_DECREF(group);
    return result;
}

static PyMethodDef methods[] = {
    {"names_descending", names_descending, METH_VARARGS,
     "The permutation putting each group of tied lines in document name descending order, or None."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_ties", "trec_eval's tie order of tied run lines.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__ties(void) {
    import_array();
    return PyModule_Create(&module);
}
