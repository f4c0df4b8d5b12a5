/* graphsr.store._rows -- the literal text of a batch of routes for create_steps (cypher/routes.cypher), in C.
 *
 * routes(routes, starts, ends, route_ids, users, topics, prefixes, src, dst, nodes, seqs, durations, times)
 *     -> str, or None
 *
 *   routes     list of int: the routes of the batch, by number (index into starts and ends)
 *   starts     list of int: each route's first row; ends: one past its last
 *   route_ids, users, topics: lists by row (a route's values are its first row's)
 *   prefixes   (route id prefix, step id prefix): str each
 *   src, dst   lists of int by row: the (document, XPath) pair of each step's from and to
 *   nodes      list by pair: the store's node id of the pair's element (int)
 *   seqs, durations, times: lists by row
 *
 *   Returns the rows as graphsr.store._falkor_params.params_header writes the same lists (tests compare both):
 *   [[route id, route_id, user, topic, steps' id prefix, [[node of from, node of to, seq, duration, time], ...]],
 *   ...], a route's id its prefix and its route_id escaped as graphsr.store.ids._part escapes it (a backslash
 *   doubled, a slash after a backslash), a step's prefix the same and a slash.  Values: None as null, booleans
 *   as true and false, integers in decimal, floats as repr writes them (ValueError for a non-finite one, as the
 *   encoder), strings double-quoted with backslash and double quote escaped.  None where any value is of
 *   another kind (a route_id that is not a string, a numpy scalar, a list): the caller encodes that batch in
 *   Python.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *data;
    size_t size, cap;
} Buf;

static int grow(Buf *b, size_t more) {
    if (b->size + more <= b->cap)
        return 1;
    size_t cap = b->cap ? b->cap : 1 << 16;
    while (cap < b->size + more)
        cap *= 2;
    char *data = realloc(b->data, cap);
    if (data == NULL) {
        PyErr_NoMemory();
        return 0;
    }
    b->data = data;
    b->cap = cap;
    return 1;
}

static int put(Buf *b, const char *s, size_t n) {
    if (!grow(b, n))
        return 0;
    memcpy(b->data + b->size, s, n);
    b->size += n;
    return 1;
}

#define PUT_LITERAL(b, s) put((b), (s), sizeof(s) - 1)

/* bytes of s (UTF-8), backslash and double quote escaped; with part set, also as graphsr.store.ids._part
   escapes a name (a backslash doubled, a slash after a backslash) before that */
static int put_escaped(Buf *b, const char *s, Py_ssize_t n, int part) {
    /* at most four bytes out per byte in (part: \ -> \\ -> \\\\; / -> \/ -> \\/) */
    if (!grow(b, (size_t)n * 4))
        return 0;
    char *out = b->data + b->size;
    for (Py_ssize_t i = 0; i < n; ++i) {
        char c = s[i];
        if (c == '\\') {
            *out++ = '\\';
            *out++ = '\\';
            if (part) {
                *out++ = '\\';
                *out++ = '\\';
            }
        } else if (c == '/' && part) {
            *out++ = '\\';
            *out++ = '\\';
            *out++ = '/';
        } else if (c == '"') {
            *out++ = '\\';
            *out++ = '"';
        } else
            *out++ = c;
    }
    b->size = (size_t)(out - b->data);
    return 1;
}

/* 1: written; 0: an error set; -1: a value of another kind (the caller encodes the batch in Python) */
static int put_value(Buf *b, PyObject *v) {
    if (v == Py_None)
        return PUT_LITERAL(b, "null");
    if (v == Py_True)
        return PUT_LITERAL(b, "true");
    if (v == Py_False)
        return PUT_LITERAL(b, "false");
    if (PyLong_CheckExact(v)) {
        int overflow = 0;
        long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (overflow)
            return -1;
        if (x == -1 && PyErr_Occurred())
            return 0;
        char text[32];
        int n = snprintf(text, sizeof text, "%lld", x);
        return put(b, text, (size_t)n);
    }
    if (PyFloat_CheckExact(v)) {
        double x = PyFloat_AS_DOUBLE(v);
        if (!isfinite(x)) {
            PyObject *r = PyObject_Repr(v);
            if (r != NULL) {
                PyErr_Format(PyExc_ValueError, "cannot send a non-finite number (%U) as a query parameter", r);
                Py_DECREF(r);
            }
            return 0;
        }
        char *text = PyOS_double_to_string(x, 'r', 0, Py_DTSF_ADD_DOT_0, NULL);
        if (text == NULL)
            return 0;
        int ok = put(b, text, strlen(text));
        PyMem_Free(text);
        return ok;
    }
    if (PyUnicode_CheckExact(v)) {
        Py_ssize_t n;
        const char *s = PyUnicode_AsUTF8AndSize(v, &n);
        if (s == NULL) {
            PyErr_Clear(); /* (a lone surrogate: the Python encoder's text, and its message when sent) */
            return -1;
        }
        return PUT_LITERAL(b, "\"") && put_escaped(b, s, n, 0) && PUT_LITERAL(b, "\"");
    }
    return -1;
}

/* "PREFIX" + part(name) [+ "/"] as a string literal; -1 where name is not a str */
static int put_id(Buf *b, PyObject *prefix, PyObject *name, int slash) {
    if (!PyUnicode_CheckExact(name))
        return -1;
    Py_ssize_t np, nn;
    const char *p = PyUnicode_AsUTF8AndSize(prefix, &np);
    if (p == NULL)
        return 0;
    const char *s = PyUnicode_AsUTF8AndSize(name, &nn);
    if (s == NULL) {
        PyErr_Clear();
        return -1;
    }
    if (!(PUT_LITERAL(b, "\"") && put_escaped(b, p, np, 0) && put_escaped(b, s, nn, 1)))
        return 0;
    if (slash && !PUT_LITERAL(b, "/"))
        return 0;
    return PUT_LITERAL(b, "\"");
}

#define TRY(call)                                                                                                  \
    do {                                                                                                           \
        int done_ = (call);                                                                                        \
        if (done_ != 1) {                                                                                          \
            free(b.data);                                                                                          \
            if (done_ < 0)                                                                                         \
                Py_RETURN_NONE;                                                                                    \
            return NULL;                                                                                           \
        }                                                                                                          \
    } while (0)

static Py_ssize_t index_at(PyObject *list, Py_ssize_t i, Py_ssize_t bound) {
    Py_ssize_t x = PyLong_AsSsize_t(PyList_GET_ITEM(list, i));
    if (x == -1 && PyErr_Occurred())
        return -1;
    if (x < 0 || x >= bound) {
        PyErr_SetString(PyExc_IndexError, "an index out of its list");
        return -1;
    }
    return x;
}

static PyObject *routes(PyObject *self, PyObject *args) {
    PyObject *routes, *starts, *ends, *route_ids, *users, *topics, *route_prefix, *step_prefix, *src, *dst, *nodes,
        *seqs, *durations, *times;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!(UU)O!O!O!O!O!O!", &PyList_Type, &routes, &PyList_Type, &starts,
                          &PyList_Type, &ends, &PyList_Type, &route_ids, &PyList_Type, &users, &PyList_Type, &topics,
                          &route_prefix, &step_prefix, &PyList_Type, &src, &PyList_Type, &dst, &PyList_Type, &nodes,
                          &PyList_Type, &seqs, &PyList_Type, &durations, &PyList_Type, &times))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(route_ids), n_routes = PyList_GET_SIZE(starts), n_pairs = PyList_GET_SIZE(nodes);
    if (PyList_GET_SIZE(ends) != n_routes || PyList_GET_SIZE(users) != n || PyList_GET_SIZE(topics) != n ||
        PyList_GET_SIZE(src) != n || PyList_GET_SIZE(dst) != n || PyList_GET_SIZE(seqs) != n ||
        PyList_GET_SIZE(durations) != n || PyList_GET_SIZE(times) != n) {
        PyErr_SetString(PyExc_ValueError, "columns of different lengths");
        return NULL;
    }
    Buf b = {NULL, 0, 0};
    TRY(PUT_LITERAL(&b, "["));
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(routes); ++k) {
        Py_ssize_t r = index_at(routes, k, n_routes);
        if (r < 0) {
            free(b.data);
            return NULL;
        }
        Py_ssize_t first = index_at(starts, r, n), end = PyLong_AsSsize_t(PyList_GET_ITEM(ends, r));
        if (first < 0 || (end == -1 && PyErr_Occurred())) {
            free(b.data);
            return NULL;
        }
        if (end <= first || end > n) {
            free(b.data);
            PyErr_SetString(PyExc_IndexError, "a route's rows out of the columns");
            return NULL;
        }
        PyObject *name = PyList_GET_ITEM(route_ids, first);
        TRY(k ? PUT_LITERAL(&b, ",[") : PUT_LITERAL(&b, "["));
        TRY(put_id(&b, route_prefix, name, 0));
        TRY(PUT_LITERAL(&b, ","));
        TRY(put_value(&b, name));
        TRY(PUT_LITERAL(&b, ","));
        TRY(put_value(&b, PyList_GET_ITEM(users, first)));
        TRY(PUT_LITERAL(&b, ","));
        TRY(put_value(&b, PyList_GET_ITEM(topics, first)));
        TRY(PUT_LITERAL(&b, ","));
        TRY(put_id(&b, step_prefix, name, 1));
        TRY(PUT_LITERAL(&b, ",["));
        for (Py_ssize_t i = first; i < end; ++i) {
            TRY(i > first ? PUT_LITERAL(&b, ",[") : PUT_LITERAL(&b, "["));
            Py_ssize_t a = index_at(src, i, n_pairs), z = a < 0 ? -1 : index_at(dst, i, n_pairs);
            if (z < 0) {
                free(b.data);
                return NULL;
            }
            PyObject *from = PyList_GET_ITEM(nodes, a), *to = PyList_GET_ITEM(nodes, z);
            if (!PyLong_CheckExact(from) || !PyLong_CheckExact(to)) {
                free(b.data);
                PyErr_SetString(PyExc_ValueError, "a step's element has no node id");
                return NULL;
            }
            TRY(put_value(&b, from));
            TRY(PUT_LITERAL(&b, ","));
            TRY(put_value(&b, to));
            TRY(PUT_LITERAL(&b, ","));
            TRY(put_value(&b, PyList_GET_ITEM(seqs, i)));
            TRY(PUT_LITERAL(&b, ","));
            TRY(put_value(&b, PyList_GET_ITEM(durations, i)));
            TRY(PUT_LITERAL(&b, ","));
            TRY(put_value(&b, PyList_GET_ITEM(times, i)));
            TRY(PUT_LITERAL(&b, "]"));
        }
        TRY(PUT_LITERAL(&b, "]]"));
    }
    TRY(PUT_LITERAL(&b, "]"));
    PyObject *text = PyUnicode_DecodeUTF8(b.data, (Py_ssize_t)b.size, "strict");
    free(b.data);
    return text;
}

static PyMethodDef methods[] = {
    {"routes", routes, METH_VARARGS, "The literal text of a batch of routes for create_steps, or None."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_rows", "create_steps' rows as literal text.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__rows(void) { return PyModule_Create(&module); }
