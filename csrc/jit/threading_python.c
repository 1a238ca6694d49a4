/* threading_python.c: the prange pool (abi/workqueue.c) seen from Python, with numba's names
 * and errors: set_num_threads(n) (for the calling thread), get_num_threads(), get_thread_id(),
 * and the pool's size (cujit.config.NUMBA_NUM_THREADS). */
#include "jit/jit.h"

static PyObject *set_num_threads(PyObject *module, PyObject *n) {
    if (!PyLong_Check(n) || PyBool_Check(n)) {
        PyErr_SetString(PyExc_TypeError, "The number of threads specified must be an integer");
        return NULL;
    }
    int overflow;
    long v = PyLong_AsLongAndOverflow(n, &overflow);
    if (v == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (overflow || v > INT32_MAX || cj_set_num_threads((int)v) < 0) {
        PyErr_Format(PyExc_ValueError, "The number of threads must be between 1 and %d",
                     cj_workqueue_size());
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *get_num_threads(PyObject *module, PyObject *unused) {
    return PyLong_FromLong(cj_get_num_threads());
}

static PyObject *get_thread_id(PyObject *module, PyObject *unused) {
    return PyLong_FromLong(cj_get_thread_id());
}

static PyObject *workqueue_size(PyObject *module, PyObject *unused) {
    return PyLong_FromLong(cj_workqueue_size());
}

static PyMethodDef threading_functions[] = {
    {"set_num_threads", set_num_threads, METH_O,
     "set_num_threads(n): the threads the calling thread's prange loops use (1..pool size)"},
    {"get_num_threads", get_num_threads, METH_NOARGS,
     "get_num_threads() -> the threads the calling thread's prange loops use"},
    {"get_thread_id", get_thread_id, METH_NOARGS,
     "get_thread_id() -> 0 outside the pool's workers, 1..n-1 in them"},
    {"workqueue_size", workqueue_size, METH_NOARGS,
     "workqueue_size() -> the pool's threads (NUMBA_NUM_THREADS, else the CPUs)"},
    {NULL, NULL, 0, NULL},
};

int cj_threading_python_init(PyObject *module) {
    return PyModule_AddFunctions(module, threading_functions);
}
