/* call_args.c: a Python call of a dispatcher, its arguments in parameter order: positional,
 * keyword and default arguments folded as CPython binds them (its messages), and for a
 * function with *args (numba's StarArgTuple) the positional arguments past the named ones
 * packed into a tuple, the last parameter (after keyword-only ones, as in co_varnames). */
#include "jit/jit.h"

/* full[i] = the positional arguments, then the *args tuple (a new reference) when `star`. */
static int bind_positional(PyCodeObject *code, int np, int star, PyObject *const *args,
                           Py_ssize_t nargs, PyObject **full, PyObject **defaults) {
    Py_ssize_t named = nargs < code->co_argcount ? nargs : code->co_argcount;
    if (!star && nargs > code->co_argcount) {
        PyErr_Format(PyExc_TypeError, "%U() takes %d positional argument%s but %zd %s given",
                     code->co_qualname, code->co_argcount, code->co_argcount == 1 ? "" : "s",
                     nargs, nargs == 1 ? "was" : "were");
        return -1;
    }
    for (int i = 0; i < np; i++) {
        full[i] = i < named ? args[i] : NULL;
        defaults[i] = NULL;
    }
    if (star) {
        full[np - 1] = PyTuple_New(nargs - named);
        for (Py_ssize_t i = named; full[np - 1] != NULL && i < nargs; i++) {
            PyTuple_SET_ITEM(full[np - 1], i - named, Py_NewRef(args[i]));
        }
    }
    return star && full[np - 1] == NULL ? -1 : 0;
}

/* Keyword arguments by name among the named parameters. */
static int bind_keywords(PyCodeObject *code, int named, PyObject *names, PyObject *const *args,
                         Py_ssize_t nargs, PyObject *kwnames, PyObject **full) {
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *kw = PyTuple_GET_ITEM(kwnames, k);
        int found = -1;
        for (int p = 0; p < named; p++) {
            if (PyUnicode_Compare(PyTuple_GET_ITEM(names, p), kw) == 0) {
                found = p;
            }
        }
        if (found < 0 || full[found] != NULL) {
            PyErr_Format(PyExc_TypeError, found < 0 ? "%U() got an unexpected keyword "
                                                      "argument '%U'"
                                                    : "%U() got multiple values for "
                                                      "argument '%U'", code->co_name, kw);
            return -1;
        }
        full[found] = args[nargs + k];
    }
    return 0;
}

/* Defaults for the named parameters not passed (borrowed), full[p] staying NULL. */
static int bind_defaults(PyObject *py_func, PyCodeObject *code, int named, PyObject *names,
                         PyObject **full, PyObject **defaults) {
    PyObject *dflt = PyFunction_GetDefaults(py_func);
    PyObject *kwdflt = PyFunction_GetKwDefaults(py_func);
    int ndef = dflt ? (int)PyTuple_GET_SIZE(dflt) : 0;
    for (int p = 0; p < named; p++) {
        if (full[p] != NULL) {
            continue;
        }
        if (p < code->co_argcount && p >= code->co_argcount - ndef) {
            defaults[p] = PyTuple_GET_ITEM(dflt, p - (code->co_argcount - ndef));
        } else if (p >= code->co_argcount && kwdflt != NULL) {
            defaults[p] = PyDict_GetItemWithError(kwdflt, PyTuple_GET_ITEM(names, p));
        }
        if (defaults[p] == NULL) {
            if (!PyErr_Occurred()) {
                PyErr_Format(PyExc_TypeError, "%U() missing required argument '%U'",
                             code->co_name, PyTuple_GET_ITEM(names, p));
            }
            return -1;
        }
    }
    return 0;
}

int cj_fold_call_args(PyObject *py_func, int np, PyObject *const *args, Py_ssize_t nargs,
                      PyObject *kwnames, PyObject **full, PyObject **defaults) {
    PyCodeObject *code = (PyCodeObject *)PyFunction_GetCode(py_func);
    int star = (code->co_flags & CO_VARARGS) != 0, named = np - star;
    if (bind_positional(code, np, star, args, nargs, full, defaults) < 0) {
        return -1;
    }
    int complete = kwnames == NULL; /* every named parameter passed by position */
    for (int p = 0; complete && p < named; p++) {
        complete = full[p] != NULL;
    }
    if (complete) {
        return 0; /* the names (a new tuple each time on 3.11) are not needed */
    }
    PyObject *names = PyObject_GetAttrString((PyObject *)code, "co_varnames");
    int rc = names == NULL ? -1 : bind_keywords(code, named, names, args, nargs, kwnames, full);
    rc = rc < 0 ? -1 : bind_defaults(py_func, code, named, names, full, defaults);
    Py_XDECREF(names);
    if (rc < 0 && star) {
        Py_CLEAR(full[np - 1]);
    }
    return rc;
}
