/* cuda_exception.c: the Python exception for a debug kernel's exception record
 * (cj_exc_info: id, tid.xyz, ctaid.xyz, see lower_kernel.h), in numba-cuda's form:
 *     IndexError("tid=[10, 0, 0] ctaid=[0, 0, 0]: index is out of bounds")
 * _core.cuda_exception(record) -> the exception instance (not raised), or None for id 0. */
#include <Python.h>

#include "abi/abi.h"

static PyObject *with_location(PyObject *exc, const long *rec) {
    PyObject *args = PyObject_GetAttrString(exc, "args"); /* new */
    if (args == NULL) {
        return NULL;
    }
    PyObject *first = PyTuple_Check(args) && PyTuple_GET_SIZE(args) > 0
                          ? PyObject_Str(PyTuple_GET_ITEM(args, 0))
                          : PyUnicode_FromString("");
    PyObject *msg = first ? PyUnicode_FromFormat("tid=[%ld, %ld, %ld] ctaid=[%ld, %ld, %ld]: %U",
                                                 rec[1], rec[2], rec[3], rec[4], rec[5], rec[6],
                                                 first)
                          : NULL;
    Py_XDECREF(first);
    PyObject *new_args = NULL;
    if (msg != NULL) {
        Py_ssize_t n = PyTuple_Check(args) ? PyTuple_GET_SIZE(args) : 0;
        new_args = PyTuple_New(n > 0 ? n : 1);
        if (new_args != NULL) {
            PyTuple_SET_ITEM(new_args, 0, msg); /* steals msg */
            msg = NULL;
            for (Py_ssize_t i = 1; i < n; i++) {
                PyObject *item = PyTuple_GET_ITEM(args, i);
                Py_INCREF(item);
                PyTuple_SET_ITEM(new_args, i, item);
            }
        }
    }
    Py_XDECREF(msg);
    Py_DECREF(args);
    if (new_args == NULL) {
        return NULL;
    }
    PyObject *result = PyObject_Call((PyObject *)Py_TYPE(exc), new_args, NULL);
    Py_DECREF(new_args);
    return result;
}

static PyObject *cuda_exception(PyObject *self, PyObject *record) {
    long rec[7];
    PyObject *seq = PySequence_Fast(record, "the exception record must be a sequence");
    if (seq == NULL) {
        return NULL;
    }
    if (PySequence_Fast_GET_SIZE(seq) != 7) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "the exception record has 7 items");
        return NULL;
    }
    for (int i = 0; i < 7; i++) {
        rec[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (rec[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
    }
    Py_DECREF(seq);
    if (rec[0] == 0) {
        Py_RETURN_NONE;
    }
    /* the registry makes the exception; take it back out of the error indicator */
    cj_exc_raise((int)rec[0]);
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    Py_XDECREF(tb);
    Py_XDECREF(type);
    if (value == NULL) {
        return NULL;
    }
    PyObject *result = with_location(value, rec);
    Py_DECREF(value);
    return result;
}

static PyMethodDef cuda_exception_methods[] = {
    {"cuda_exception", cuda_exception, METH_O,
     "cuda_exception(record) -> the exception a debug kernel recorded, or None"},
    {NULL},
};

int cj_cuda_exception_init(PyObject *module) {
    return PyModule_AddFunctions(module, cuda_exception_methods);
}
