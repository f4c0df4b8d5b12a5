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

static PyMethodDef methods[] = {
    {"survival", survival, METH_VARARGS,
     "survival(pa, q, n) -> (found, s_hit): per event S_before * q, per assessment S after its events."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_survival", "ESR's survival along events.", -1, methods};

PyMODINIT_FUNC PyInit__survival(void) {
    import_array();
    return PyModule_Create(&module);
}
