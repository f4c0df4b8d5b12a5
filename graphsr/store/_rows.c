/* graphsr.store._rows -- the literal text of a batch of routes for create_steps (cypher/routes.cypher), and of a
 * chunk's elements for create_elements, in C.
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
 *
 * elements(key, pre, tag, depth, start, length, members, names, parent) -> (rows: str, edges: str), or None
 *
 *   The element rows of create_elements (cypher) for a chunk of documents, as
 *   graphsr.store.collection_writes._element_literal writes them document by document (tests compare both):
 *   key, pre, tag, depth, start, length: int64 columns of one length n (buffers, native byte order), tag
 *   indexing names (a list of str, each an encoded string literal, written as it is); members: a tuple of four,
 *   each an int64 column of length n or None (written null); parent: the row (0-based, within the chunk) of each
 *   element's parent, -1 for a root.  Rows "[key,pre,tag,depth,start,length,m0,m1,m2,m3]" joined by commas;
 *   edges "[parent row,row]" for each element with a parent, in row order, joined by commas.  None where a name
 *   is not text UTF-8 can encode (a lone surrogate): the caller encodes that chunk in Python.
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


/* a signed 64-bit integer in decimal */
static int put_int(Buf *b, long long x) {
    char text[24], *end = text + sizeof text, *p = end;
    unsigned long long u = x < 0 ? 0ULL - (unsigned long long)x : (unsigned long long)x;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (x < 0)
        *--p = '-';
    return put(b, p, (size_t)(end - p));
}

/* an int64 column of n values from a buffer object (0 and an exception where it is not one) */
static int int64_column(PyObject *obj, Py_buffer *view, Py_ssize_t n, const char *what) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return 0;
    if (view->itemsize != 8 || view->format == NULL || strchr("qlQL", view->format[0]) == NULL ||
        view->format[1] != '\0' || view->len != n * 8) {
        PyErr_Format(PyExc_ValueError, "%s: expected an int64 column of %zd values", what, n);
        PyBuffer_Release(view);
        return 0;
    }
    return 1;
}

#define COLUMNS 6
#define MEMBERS 4

static PyObject *elements(PyObject *self, PyObject *args) {
    PyObject *cols[COLUMNS], *members, *names, *parent_obj;
    if (!PyArg_ParseTuple(args, "OOOOOOO!O!O", &cols[0], &cols[1], &cols[2], &cols[3], &cols[4], &cols[5],
                          &PyTuple_Type, &members, &PyList_Type, &names, &parent_obj))
        return NULL;
    if (PyTuple_GET_SIZE(members) != MEMBERS) {
        PyErr_SetString(PyExc_ValueError, "expected four membership columns (or None)");
        return NULL;
    }
    static const char *labels[COLUMNS] = {"key", "pre", "tag", "depth", "start", "length"};
    Py_buffer views[COLUMNS + MEMBERS + 1];
    int held[COLUMNS + MEMBERS + 1] = {0};
    PyObject *out = NULL;
    Buf rows = {NULL, 0, 0}, edges = {NULL, 0, 0};
    const char **name_text = NULL;
    Py_ssize_t *name_size = NULL;
    Py_ssize_t n = PyObject_Length(cols[0]);
    if (n < 0)
        goto done;
    for (int c = 0; c < COLUMNS; ++c) {
        if (!int64_column(cols[c], &views[c], n, labels[c]))
            goto done;
        held[c] = 1;
    }
    const long long *m[MEMBERS];
    for (int k = 0; k < MEMBERS; ++k) {
        PyObject *col = PyTuple_GET_ITEM(members, k);
        m[k] = NULL;
        if (col == Py_None)
            continue;
        if (!int64_column(col, &views[COLUMNS + k], n, "membership"))
            goto done;
        held[COLUMNS + k] = 1;
        m[k] = views[COLUMNS + k].buf;
    }
    if (!int64_column(parent_obj, &views[COLUMNS + MEMBERS], n, "parent"))
        goto done;
    held[COLUMNS + MEMBERS] = 1;
    Py_ssize_t n_names = PyList_GET_SIZE(names);
    name_text = PyMem_Calloc((size_t)n_names + 1, sizeof *name_text);
    name_size = PyMem_Calloc((size_t)n_names + 1, sizeof *name_size);
    if (name_text == NULL || name_size == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n_names; ++i) {
        PyObject *name = PyList_GET_ITEM(names, i);
        if (!PyUnicode_Check(name)) {
            PyErr_SetString(PyExc_TypeError, "a tag's literal that is not a str");
            goto done;
        }
        name_text[i] = PyUnicode_AsUTF8AndSize(name, &name_size[i]);
        if (name_text[i] == NULL) { /* (a lone surrogate: the Python encoder's text) */
            PyErr_Clear();
            out = Py_None;
            Py_INCREF(out);
            goto done;
        }
    }
    const long long *key = views[0].buf, *pre = views[1].buf, *tag = views[2].buf, *depth = views[3].buf,
                    *start = views[4].buf, *length = views[5].buf, *parent = views[COLUMNS + MEMBERS].buf;
    int ok = 1;
    Py_ssize_t edges_written = 0;
    for (Py_ssize_t i = 0; ok && i < n; ++i) {
        if (tag[i] < 0 || tag[i] >= n_names || parent[i] < -1 || parent[i] >= n) {
            PyErr_SetString(PyExc_IndexError, "a tag or a parent out of its range");
            goto done;
        }
        ok = (i ? PUT_LITERAL(&rows, ",[") : PUT_LITERAL(&rows, "[")) && put_int(&rows, key[i]) &&
             PUT_LITERAL(&rows, ",") && put_int(&rows, pre[i]) && PUT_LITERAL(&rows, ",") &&
             put(&rows, name_text[tag[i]], (size_t)name_size[tag[i]]) && PUT_LITERAL(&rows, ",") &&
             put_int(&rows, depth[i]) && PUT_LITERAL(&rows, ",") && put_int(&rows, start[i]) &&
             PUT_LITERAL(&rows, ",") && put_int(&rows, length[i]);
        for (int k = 0; ok && k < MEMBERS; ++k)
            ok = PUT_LITERAL(&rows, ",") && (m[k] ? put_int(&rows, m[k][i]) : PUT_LITERAL(&rows, "null"));
        ok = ok && PUT_LITERAL(&rows, "]");
        if (ok && parent[i] >= 0) {
            ok = (edges_written++ ? PUT_LITERAL(&edges, ",[") : PUT_LITERAL(&edges, "[")) &&
                 put_int(&edges, parent[i]) && PUT_LITERAL(&edges, ",") && put_int(&edges, (long long)i) &&
                 PUT_LITERAL(&edges, "]");
        }
    }
    if (!ok)
        goto done;
    PyObject *r = PyUnicode_DecodeUTF8(rows.data ? rows.data : "", (Py_ssize_t)rows.size, "strict");
    PyObject *e = r ? PyUnicode_DecodeUTF8(edges.data ? edges.data : "", (Py_ssize_t)edges.size, "strict") : NULL;
    if (r != NULL && e != NULL)
        out = PyTuple_Pack(2, r, e);
    Py_XDECREF(r);
    Py_XDECREF(e);
done:
    for (int c = 0; c < COLUMNS + MEMBERS + 1; ++c)
        if (held[c])
            PyBuffer_Release(&views[c]);
    PyMem_Free(name_text);
    PyMem_Free(name_size);
    free(rows.data);
    free(edges.data);
    return out;
}

static PyMethodDef methods[] = {
    {"routes", routes, METH_VARARGS, "The literal text of a batch of routes for create_steps, or None."},
    {"elements", elements, METH_VARARGS, "The literal rows and CHILD edges of a chunk's elements, or None."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_rows", "create_steps' rows as literal text.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__rows(void) { return PyModule_Create(&module); }
