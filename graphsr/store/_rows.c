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

/* In put_route: stop at a step that did not write (0: an exception is set; -1: a value it cannot write). */
#define TRY(call)                                                                                                  \
    do {                                                                                                           \
        int done_ = (call);                                                                                        \
        if (done_ != 1)                                                                                            \
            return done_;                                                                                          \
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

typedef struct {
    PyObject *starts, *ends, *route_ids, *users, *topics, *route_prefix, *step_prefix, *src, *dst, *nodes, *seqs,
        *durations, *times;
    Py_ssize_t n, n_routes, n_pairs;
} Columns;

/* Route r's row, after a comma unless it is the first (k == 0): 1 written, 0 an exception set, -1 a value it
 * cannot write (the caller answers None). */
static int put_route(Buf *b, const Columns *c, Py_ssize_t r, Py_ssize_t k) {
    Py_ssize_t first = index_at(c->starts, r, c->n), end = PyLong_AsSsize_t(PyList_GET_ITEM(c->ends, r));
    if (first < 0 || (end == -1 && PyErr_Occurred()))
        return 0;
    if (end <= first || end > c->n) {
        PyErr_SetString(PyExc_IndexError, "a route's rows out of the columns");
        return 0;
    }
    PyObject *name = PyList_GET_ITEM(c->route_ids, first);
    TRY(k ? PUT_LITERAL(b, ",[") : PUT_LITERAL(b, "["));
    TRY(put_id(b, c->route_prefix, name, 0));
    TRY(PUT_LITERAL(b, ","));
    TRY(put_value(b, name));
    TRY(PUT_LITERAL(b, ","));
    TRY(put_value(b, PyList_GET_ITEM(c->users, first)));
    TRY(PUT_LITERAL(b, ","));
    TRY(put_value(b, PyList_GET_ITEM(c->topics, first)));
    TRY(PUT_LITERAL(b, ","));
    TRY(put_id(b, c->step_prefix, name, 1));
    TRY(PUT_LITERAL(b, ",["));
    for (Py_ssize_t i = first; i < end; ++i) {
        TRY(i > first ? PUT_LITERAL(b, ",[") : PUT_LITERAL(b, "["));
        Py_ssize_t a = index_at(c->src, i, c->n_pairs), z = a < 0 ? -1 : index_at(c->dst, i, c->n_pairs);
        if (z < 0)
            return 0;
        PyObject *from = PyList_GET_ITEM(c->nodes, a), *to = PyList_GET_ITEM(c->nodes, z);
        if (!PyLong_CheckExact(from) || !PyLong_CheckExact(to)) {
            PyErr_SetString(PyExc_ValueError, "a step's element has no node id");
            return 0;
        }
        TRY(put_value(b, from));
        TRY(PUT_LITERAL(b, ","));
        TRY(put_value(b, to));
        TRY(PUT_LITERAL(b, ","));
        TRY(put_value(b, PyList_GET_ITEM(c->seqs, i)));
        TRY(PUT_LITERAL(b, ","));
        TRY(put_value(b, PyList_GET_ITEM(c->durations, i)));
        TRY(PUT_LITERAL(b, ","));
        TRY(put_value(b, PyList_GET_ITEM(c->times, i)));
        TRY(PUT_LITERAL(b, "]"));
    }
    return PUT_LITERAL(b, "]]");
}

static PyObject *routes(PyObject *self, PyObject *args) {
    PyObject *routes;
    Columns c;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!(UU)O!O!O!O!O!O!", &PyList_Type, &routes, &PyList_Type, &c.starts,
                          &PyList_Type, &c.ends, &PyList_Type, &c.route_ids, &PyList_Type, &c.users, &PyList_Type,
                          &c.topics, &c.route_prefix, &c.step_prefix, &PyList_Type, &c.src, &PyList_Type, &c.dst,
                          &PyList_Type, &c.nodes, &PyList_Type, &c.seqs, &PyList_Type, &c.durations, &PyList_Type,
                          &c.times))
        return NULL;
    c.n = PyList_GET_SIZE(c.route_ids);
    c.n_routes = PyList_GET_SIZE(c.starts);
    c.n_pairs = PyList_GET_SIZE(c.nodes);
    if (PyList_GET_SIZE(c.ends) != c.n_routes || PyList_GET_SIZE(c.users) != c.n || PyList_GET_SIZE(c.topics) != c.n ||
        PyList_GET_SIZE(c.src) != c.n || PyList_GET_SIZE(c.dst) != c.n || PyList_GET_SIZE(c.seqs) != c.n ||
        PyList_GET_SIZE(c.durations) != c.n || PyList_GET_SIZE(c.times) != c.n) {
        PyErr_SetString(PyExc_ValueError, "columns of different lengths");
        return NULL;
    }
    Buf b = {NULL, 0, 0};
    int done = PUT_LITERAL(&b, "[");
    for (Py_ssize_t k = 0; done == 1 && k < PyList_GET_SIZE(routes); ++k) {
        Py_ssize_t r = index_at(routes, k, c.n_routes);
        done = r < 0 ? 0 : put_route(&b, &c, r, k);
    }
    if (done == 1)
        done = PUT_LITERAL(&b, "]");
    if (done != 1) {  /* the one place the buffer is given back on a failure */
        free(b.data);
        if (done < 0)
            Py_RETURN_NONE;
        return NULL;
    }
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
