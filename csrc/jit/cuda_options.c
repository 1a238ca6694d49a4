/* cuda_options.c: cuda.jit's options dict -> cj_cuda_options (jit.h). The dict comes from
 * cuda/compiler.py (_core_options) or from the private hooks, so every value is checked here:
 * a wrong type or range is a TypeError/ValueError naming the option. */
#include "jit/jit.h"
#include "lower/lower.h"

/* One int option in lo..hi (a bool counts as 0/1); absent or None leaves *dst. */
static int int_option(PyObject *options, const char *name, int *dst, int lo, int hi) {
    PyObject *v = options ? PyDict_GetItemString(options, name) : NULL; /* borrowed */
    if (v == NULL || v == Py_None) {
        return 0;
    }
    if (PyBool_Check(v) || PyLong_Check(v)) {
        long x = PyLong_AsLong(v);
        if (x == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (x < lo || x > hi) {
            PyErr_Format(PyExc_ValueError, "%s must be between %d and %d, not %ld", name, lo,
                         hi, x);
            return -1;
        }
        *dst = (int)x;
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "%s must be an int or a bool, not %.100s", name,
                 Py_TYPE(v)->tp_name);
    return -1;
}

static int cc_option(PyObject *options, cj_cuda_options *o) {
    PyObject *cc = options ? PyDict_GetItemString(options, "cc") : NULL;
    if (cc == NULL || cc == Py_None) {
        return 0;
    }
    if (!PyTuple_Check(cc) || PyTuple_GET_SIZE(cc) != 2 ||
        !PyLong_Check(PyTuple_GET_ITEM(cc, 0)) || !PyLong_Check(PyTuple_GET_ITEM(cc, 1))) {
        PyErr_Format(PyExc_ValueError, "cc must be a (major, minor) tuple of ints, not %R", cc);
        return -1;
    }
    long major = PyLong_AsLong(PyTuple_GET_ITEM(cc, 0));
    long minor = PyLong_AsLong(PyTuple_GET_ITEM(cc, 1));
    if (PyErr_Occurred()) {
        return -1;
    }
    if (major < 0 || major > 1000 || minor < 0 || minor > 1000) { /* fits an int */
        PyErr_Format(PyExc_ValueError, "compute capability %R is not valid for CUDA", cc);
        return -1;
    }
    o->cc_major = (int)major;
    o->cc_minor = (int)minor;
    return 0;
}

/* launch_bounds: an int or a tuple of 1 to 3 positive ints (numba-cuda's). */
static int launch_bounds_option(PyObject *options, cj_cuda_options *o) {
    PyObject *v = options ? PyDict_GetItemString(options, "launch_bounds") : NULL;
    if (v == NULL || v == Py_None) {
        return 0;
    }
    Py_ssize_t n = PyTuple_Check(v) ? PyTuple_GET_SIZE(v) : 1;
    if (!PyTuple_Check(v) && !PyLong_Check(v)) {
        PyErr_Format(PyExc_TypeError, "launch_bounds must be an int or a tuple of ints, not "
                                      "%.100s", Py_TYPE(v)->tp_name);
        return -1;
    }
    if (n < 1 || n > 3) {
        PyErr_Format(PyExc_ValueError, "Got %zd launch bounds: %R. A maximum of three are "
                                       "supported: (max_threads_per_block, min_blocks_per_sm, "
                                       "max_blocks_per_cluster)", n, v);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_Check(v) ? PyTuple_GET_ITEM(v, i) : v;
        long x = PyLong_Check(item) && !PyBool_Check(item) ? PyLong_AsLong(item) : -2;
        if (x == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (x < 1 || x > 0x7fffffffL) {
            PyErr_Format(PyExc_ValueError, "launch_bounds must be positive ints, not %R", v);
            return -1;
        }
        o->launch_bounds[i] = (int)x;
    }
    return 0;
}

int cj_cuda_parse_options(PyObject *options, cj_cuda_options *o) {
    *o = (cj_cuda_options){.opt = 3, .cc_major = 9, .cc_minor = 0};
    if (options != NULL && !PyDict_Check(options)) {
        PyErr_SetString(PyExc_TypeError, "options must be a dict");
        return -1;
    }
    int all_fastmath = CJ_FASTMATH_CONTRACT | CJ_FASTMATH_ARCP | CJ_FASTMATH_NNAN |
                       CJ_FASTMATH_NINF | CJ_FASTMATH_NSZ | CJ_FASTMATH_AFN |
                       CJ_FASTMATH_REASSOC;
    if (int_option(options, "debug", &o->debug, 0, 1) < 0 ||
        int_option(options, "lineinfo", &o->lineinfo, 0, 1) < 0 ||
        int_option(options, "fastmath", &o->fastmath, 0, all_fastmath) < 0 ||
        int_option(options, "max_registers", &o->max_registers, 0, 255) < 0 ||
        int_option(options, "opt", &o->opt, 0, 3) < 0 || cc_option(options, o) < 0 ||
        int_option(options, "lto", &o->lto, 0, 1) < 0 ||
        launch_bounds_option(options, o) < 0) {
        return -1;
    }
    if (o->fastmath & 1 && o->fastmath != 1) {
        PyErr_Format(PyExc_ValueError, "fastmath must be 0, 1 or a mask of flag bits, not %d",
                     o->fastmath);
        return -1;
    }
    return 0;
}
