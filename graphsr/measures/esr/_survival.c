/* ESR's survival along each assessment's events, in one pass (graphsr.measures.esr._survival).

   Events are the results ranked above an assessment's hit that may lead to it, grouped by assessment and in
   rank order within one; q[i] is the probability that event i leads to its assessment.  The assessment
   "survives" (is still to be found) after its events with the product of (1 - q) over them: for each event,
   found[i] = S_before * q[i] (what it finds: S_before - S_after), and s_hit[a] = S after a's last event
   (1 for an assessment without events).  The numpy fallback computes the same with cumulated logarithms. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

static PyObject *survival(PyObject *self, PyObject *args) {
    PyObject *pa_obj, *q_obj;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "OOn", &pa_obj, &q_obj, &n)) return NULL;
    PyArrayObject *pa = (PyArrayObject *)PyArray_FROMANY(pa_obj, NPY_INT64, 1, 1, NPY_ARRAY_IN_ARRAY);
    PyArrayObject *q = pa == NULL ? NULL : (PyArrayObject *)PyArray_FROMANY(q_obj, NPY_FLOAT64, 1, 1,
                                                                              NPY_ARRAY_IN_ARRAY);
    if (q == NULL) {
        Py_XDECREF(pa);
        return NULL;
    }
    npy_intp k = PyArray_DIM(pa, 0);
    if (PyArray_DIM(q, 0) != k || n < 0) {
        PyErr_SetString(PyExc_ValueError, "pa and q must have the same length, n >= 0");
        Py_DECREF(pa);
        Py_DECREF(q);
        return NULL;
    }
    npy_intp dk[1] = {k}, dn[1] = {n};
    PyObject *found = PyArray_SimpleNew(1, dk, NPY_FLOAT64), *s_hit = PyArray_SimpleNew(1, dn, NPY_FLOAT64);
    if (found == NULL || s_hit == NULL) {
        Py_XDECREF(found);
        Py_XDECREF(s_hit);
        Py_DECREF(pa);
        Py_DECREF(q);
        return NULL;
    }
    const int64_t *a = PyArray_DATA(pa);
    const double *p = PyArray_DATA(q);
    double *f = PyArray_DATA((PyArrayObject *)found), *s = PyArray_DATA((PyArrayObject *)s_hit);
    int bad = 0;
    for (npy_intp j = 0; j < n; ++j) s[j] = 1.0;
    int64_t prev = -1;
    double left = 1.0;
    for (npy_intp i = 0; i < k; ++i) {
        int64_t at = a[i];
        if (at < 0 || at >= n || at < prev) { /* assessments out of range or not grouped in order */
            bad = 1;
            break;
        }
        if (at != prev) {
            prev = at;
            left = 1.0;
        }
        f[i] = left * p[i];
        left *= 1.0 - p[i];
        s[at] = left;
    }
    Py_DECREF(pa);
    Py_DECREF(q);
    if (bad) {
        Py_DECREF(found);
        Py_DECREF(s_hit);
        PyErr_SetString(PyExc_ValueError, "pa must hold assessment numbers in 0 .. n-1, non-decreasing");
        return NULL;
    }
    return Py_BuildValue("(NN)", found, s_hit);
}


/* ---------------------------------------------------------------------------------------------------------
   accumulate: ESR's event grids for element runs (one node per result), in one pass over the
   (assessment, result) pairs, with the navigation looked up in a transition matrix.

   Each assessment a (topic a_topic[a], node a_node[a], navigation state a_state[a]) meets the results of its
   (topic, document) in rank order: g_node/g_pos/g_state[a_first[a] .. a_first[a] + a_count[a]).  Until the
   result that is a's node (its hit), each result j leads to a with q = P[state(j), state(a)] (clipped to
   [0, 1]; 0 where either state is unknown, -1): E[Near-misses] grows by rel * S * q at j's position and the
   survival S becomes S * (1 - q) (Eq 4).  At the hit, E[Hits] grows by rel * S and the near-misses lose
   rel * (1 - S).  Every mode (relevance vector, bucket of each position, number of cut-offs K) gets a grid of
   shape (3, T, K): near-misses, hits and the relevance of the hit assessments, by the bucket of the event's
   position (the first cut-off above it); positions in bucket K (beyond every cut-off) are dropped.  The
   caller cumulates the buckets.  Sums in the order of the pairs: equal to the numpy path up to rounding. */

typedef struct {
    PyArrayObject *rel, *bucket, *grid;
    const double *r;
    const int64_t *b;
    double *g;
    npy_intp L;
    int64_t K;
} esr_mode;

static PyArrayObject *as_array(PyObject *obj, int type) {
    return (PyArrayObject *)PyArray_FROMANY(obj, type, 1, 1, NPY_ARRAY_IN_ARRAY);
}

static PyObject *accumulate(PyObject *self, PyObject *args) {
    PyObject *o[11], *modes_obj;
    int dense;
    Py_ssize_t width, T;
    if (!PyArg_ParseTuple(args, "OOOOOOOOpOOOnnO", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &o[6], &o[7], &dense,
                          &o[8], &o[9], &o[10], &width, &T, &modes_obj))
        return NULL;
    static const int types[11] = {NPY_INT64, NPY_INT64, NPY_INT64, NPY_INT64, NPY_INT64, NPY_INT64, NPY_INT64,
                                  NPY_INT64, NPY_FLOAT64, NPY_INT64, NPY_INT64};
    PyArrayObject *arr[11] = {NULL};
    esr_mode *modes = NULL;
    Py_ssize_t n_modes = 0;
    PyObject *result = NULL;
    for (int i = 0; i < 11; ++i) {
        if ((i == 9 || i == 10) && dense) continue; /* a dense matrix has no indices or row pointers */
        if ((arr[i] = as_array(o[i], types[i])) == NULL) goto done;
    }
    if (!PyList_Check(modes_obj)) {
        PyErr_SetString(PyExc_TypeError, "modes must be a list of (rel, bucket_of, K)");
        goto done;
    }
    n_modes = PyList_GET_SIZE(modes_obj);
    modes = PyMem_Calloc(n_modes ? n_modes : 1, sizeof(esr_mode));
    if (modes == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    const npy_intp n = PyArray_DIM(arr[0], 0), k = PyArray_DIM(arr[5], 0);
    if (PyArray_DIM(arr[1], 0) != n || PyArray_DIM(arr[2], 0) != n || PyArray_DIM(arr[3], 0) != n ||
        PyArray_DIM(arr[4], 0) != n || PyArray_DIM(arr[6], 0) != k || PyArray_DIM(arr[7], 0) != k || T < 0 ||
        width < 0) {
        PyErr_SetString(PyExc_ValueError, "accumulate: arrays of unequal lengths");
        goto done;
    }
    for (Py_ssize_t i = 0; i < n_modes; ++i) {
        PyObject *rel_obj, *bucket_obj;
        long long K;
        PyObject *item = PyList_GET_ITEM(modes_obj, i);
        if (!PyArg_ParseTuple(item, "OOL", &rel_obj, &bucket_obj, &K)) goto done;
        esr_mode *m = &modes[i];
        if ((m->rel = (PyArrayObject *)PyArray_FROMANY(rel_obj, NPY_FLOAT64, 1, 1, NPY_ARRAY_IN_ARRAY)) == NULL ||
            (m->bucket = as_array(bucket_obj, NPY_INT64)) == NULL)
            goto done;
        if (PyArray_DIM(m->rel, 0) != n || K < 0) {
            PyErr_SetString(PyExc_ValueError, "accumulate: a relevance vector per assessment, K >= 0");
            goto done;
        }
        npy_intp dims[3] = {3, T, (npy_intp)K};
        if ((m->grid = (PyArrayObject *)PyArray_ZEROS(3, dims, NPY_FLOAT64, 0)) == NULL) goto done;
        m->r = PyArray_DATA(m->rel);
        m->b = PyArray_DATA(m->bucket);
        m->g = PyArray_DATA(m->grid);
        m->L = PyArray_DIM(m->bucket, 0);
        m->K = K;
        for (npy_intp p = 0; p < m->L; ++p)
            if (m->b[p] < 0 || m->b[p] > K) {
                PyErr_SetString(PyExc_ValueError, "accumulate: buckets must lie in 0 .. K");
                goto done;
            }
    }
    const int64_t *a_topic = PyArray_DATA(arr[0]), *a_node = PyArray_DATA(arr[1]), *a_state = PyArray_DATA(arr[2]),
                  *a_first = PyArray_DATA(arr[3]), *a_count = PyArray_DATA(arr[4]), *g_node = PyArray_DATA(arr[5]),
                  *g_pos = PyArray_DATA(arr[6]), *g_state = PyArray_DATA(arr[7]);
    const double *P = PyArray_DATA(arr[8]);
    const npy_intp nnz = PyArray_DIM(arr[8], 0);
    const int64_t *indices = dense ? NULL : PyArray_DATA(arr[9]), *indptr = dense ? NULL : PyArray_DATA(arr[10]);
    const npy_intp rows = dense ? (width ? nnz / width : 0) : PyArray_DIM(arr[10], 0) - 1;
    if (!dense && (PyArray_DIM(arr[9], 0) != nnz || rows < 0)) {
        PyErr_SetString(PyExc_ValueError, "accumulate: a CSR matrix needs data and indices of equal length");
        goto done;
    }
    int bad = 0;
    Py_BEGIN_ALLOW_THREADS
    for (npy_intp a = 0; a < n && !bad; ++a) {
        const int64_t t = a_topic[a], first = a_first[a], count = a_count[a], to = a_state[a];
        if (t < 0 || t >= T || first < 0 || count < 0 || first + count > k) {
            bad = 1;
            break;
        }
        double S = 1.0;
        for (int64_t i = first; i < first + count; ++i) {
            const int64_t pos = g_pos[i];
            if (pos < 0) {
                bad = 1;
                break;
            }
            if (g_node[i] == a_node[a]) { /* the hit: a is found here with probability S */
                for (Py_ssize_t mi = 0; mi < n_modes; ++mi) {
                    esr_mode *m = &modes[mi];
                    const int64_t bucket = pos < m->L ? m->b[pos] : m->K;
                    if (bucket >= m->K) continue;
                    const double rel = m->r[a];
                    double *row = m->g + t * m->K + bucket;
                    const npy_intp stride = (npy_intp)T * m->K;
                    row[0] -= rel * (1.0 - S);
                    row[stride] += rel * S;
                    row[2 * stride] += rel;
                }
                break;
            }
            const int64_t from = g_state[i];
            double q = 0.0;
            if (from >= 0 && to >= 0 && from < rows && to < width) {
                if (dense) {
                    q = P[from * width + to];
                } else { /* binary search of column `to` in row `from` (indices sorted) */
                    int64_t lo = indptr[from], hi = indptr[from + 1];
                    while (lo < hi) {
                        const int64_t mid = lo + (hi - lo) / 2;
                        if (indices[mid] < to) lo = mid + 1;
                        else hi = mid;
                    }
                    if (lo < indptr[from + 1] && indices[lo] == to) q = P[lo];
                }
            }
            if (!(q > 0.0)) continue; /* nothing leads from j to a: S unchanged, nothing found */
            if (q > 1.0) q = 1.0;
            const double found = S * q;
            for (Py_ssize_t mi = 0; mi < n_modes; ++mi) {
                esr_mode *m = &modes[mi];
                const int64_t bucket = pos < m->L ? m->b[pos] : m->K;
                if (bucket < m->K) m->g[t * m->K + bucket] += m->r[a] * found;
            }
            S *= 1.0 - q;
        }
    }
    Py_END_ALLOW_THREADS
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "accumulate: topics, pair ranges or positions out of range");
        goto done;
    }
    result = PyList_New(n_modes);
    if (result == NULL) goto done;
    for (Py_ssize_t i = 0; i < n_modes; ++i) {
        Py_INCREF(modes[i].grid);
        PyList_SET_ITEM(result, i, (PyObject *)modes[i].grid);
    }
done:
    for (int i = 0; i < 11; ++i) Py_XDECREF(arr[i]);
    if (modes != NULL) {
        for (Py_ssize_t i = 0; i < n_modes; ++i) {
            Py_XDECREF(modes[i].rel);
            Py_XDECREF(modes[i].bucket);
            Py_XDECREF(modes[i].grid);
        }
        PyMem_Free(modes);
    }
    return result;
}

static PyMethodDef methods[] = {
    {"survival", survival, METH_VARARGS,
     "survival(pa, q, n) -> (found, s_hit): per event S_before * q, per assessment S after its events."},
    {"accumulate", accumulate, METH_VARARGS,
     "accumulate(a_topic, a_node, a_state, a_first, a_count, g_node, g_pos, g_state, dense, data, indices, indptr, "
     "width, T, modes) -> [grid (3, T, K) per mode]: ESR's event grids of element runs in one pass."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_survival", "ESR's survival along events.", -1, methods};

PyMODINIT_FUNC PyInit__survival(void) {
    import_array();
    return PyModule_Create(&module);
}
