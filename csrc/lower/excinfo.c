/* excinfo.c: the exceptions compiled code can raise, by id. Compiled functions return the id
 * (1-based); the dispatcher raises a fresh exception from the entry: a class is called with no
 * arguments, an instance is rebuilt from its type and args (so tracebacks don't accumulate). */
#include "lower/lower.h"

static PyObject *registry; /* list of exception classes / instances; id = index + 1 */
static PyObject *index_of; /* dict: id(obj) -> id, so one object registers once */

int cj_exc_register(PyObject *exc) {
    PyObject *key = PyLong_FromVoidPtr(exc);
    if (key == NULL) {
        return -1;
    }
    PyObject *found = PyDict_GetItemWithError(index_of, key);
    if (found != NULL) {
        Py_DECREF(key);
        return (int)PyLong_AsLong(found);
    }
    Py_ssize_t id = PyList_GET_SIZE(registry) + 1;
    PyObject *value = PyErr_Occurred() ? NULL : PyLong_FromSsize_t(id);
    int rc = value == NULL || PyList_Append(registry, exc) < 0 ||
             PyDict_SetItem(index_of, key, value) < 0;
    Py_XDECREF(value);
    Py_DECREF(key);
    return rc ? -1 : (int)id;
}

void cj_exc_raise(int id) {
    if (id < 1 || id > PyList_GET_SIZE(registry)) {
        PyErr_Format(PyExc_SystemError, "cujit: compiled code raised unknown exception #%d", id);
        return;
    }
    PyObject *exc = PyList_GET_ITEM(registry, id - 1); /* borrowed */
    if (PyType_Check(exc)) {
        PyErr_SetNone(exc);
        return;
    }
    PyObject *args = PyObject_GetAttrString(exc, "args");
    if (args == NULL) {
        return;
    }
    PyObject *fresh = PyObject_Call((PyObject *)Py_TYPE(exc), args, NULL);
    Py_DECREF(args);
    if (fresh != NULL) {
        PyErr_SetObject((PyObject *)Py_TYPE(fresh), fresh);
        Py_DECREF(fresh);
    }
}

/* The built-in errors, registered first so their ids are the CJ_EXC_* constants. */
static int register_builtin(PyObject *type, const char *message) {
    PyObject *exc = PyObject_CallFunction(type, "s", message);
    if (exc == NULL) {
        return -1;
    }
    int id = cj_exc_register(exc);
    Py_DECREF(exc);
    return id;
}

int cj_excinfo_init(PyObject *module) {
    registry = PyList_New(0);
    index_of = PyDict_New();
    if (registry == NULL || index_of == NULL) {
        return -1;
    }
    if (register_builtin(PyExc_ZeroDivisionError, "integer division by zero") != CJ_EXC_INT_DIV_ZERO ||
        register_builtin(PyExc_ZeroDivisionError, "integer modulo by zero") != CJ_EXC_INT_MOD_ZERO ||
        register_builtin(PyExc_ZeroDivisionError, "division by zero") != CJ_EXC_DIV_ZERO ||
        register_builtin(PyExc_ZeroDivisionError, "modulo by zero") != CJ_EXC_MOD_ZERO ||
        register_builtin(PyExc_IndexError, "index is out of bounds") != CJ_EXC_INDEX ||
        register_builtin(PyExc_ValueError, "cannot unpack: the sequence has the wrong length "
                                           "or is empty") != CJ_EXC_UNPACK ||
        register_builtin(PyExc_ValueError, "slice step / range() arg 3 must not be zero") !=
            CJ_EXC_RANGE_STEP ||
        register_builtin(PyExc_ZeroDivisionError, "0 cannot be raised to a negative power") !=
            CJ_EXC_POW_ZERO) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_SystemError, "cujit: exception registry out of order");
        }
        return -1;
    }
    return 0;
}
