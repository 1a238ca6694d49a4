/* build_funcvalue.c: an inner function or lambda passed as an argument (apply(lambda v: v + 1,
 * x), sorted(l, key=lambda v: -v)). As numba's MakeFunctionToJitFunction does, the function is
 * made from its code with the enclosing function's globals and its constant defaults, and
 * jitted (cujit.njit); the call receives that dispatcher, a compile-time value (typing/
 * jitted_calls.c calls it). Its free variables would be values of the compiled caller: numba
 * bakes in a free variable bound once to a constant, cujit does not yet and says so. */
#include "frontend/build_internal.h"

/* UnsupportedError naming the first free variable of `code`, or 0 when it has none. */
static int refuse_free_variables(cj_builder *b, PyCodeObject *code) {
    PyObject *free = PyObject_GetAttrString((PyObject *)code, "co_freevars");
    if (free == NULL || !PyTuple_Check(free)) {
        Py_XDECREF(free);
        return PyErr_Occurred() ? -1 : 0;
    }
    int rc = 0;
    if (PyTuple_GET_SIZE(free) > 0) {
        rc = cj_unsupported_at(b->ir, b->line, "cujit cannot pass %U() as a value: it reads "
                               "variable '%U' of the enclosing function (numba bakes in such a "
                               "variable when it is a constant; cujit does not yet): pass the "
                               "value as an argument instead", code->co_name,
                               PyTuple_GET_ITEM(free, 0));
    }
    Py_DECREF(free);
    return rc;
}

/* A new reference to cujit.njit(function of `code`), or NULL with an exception. */
static PyObject *jitted_function(cj_builder *b, PyCodeObject *code, PyObject *defaults) {
    cj_builder *root = b;
    while (root->outer != NULL) {
        root = root->outer;
    }
    PyObject *func = PyFunction_New((PyObject *)code, root->globals);
    if (func == NULL || (defaults != NULL && PyFunction_SetDefaults(func, defaults) < 0)) {
        Py_XDECREF(func);
        return NULL;
    }
    PyObject *cujit = PyImport_ImportModule("cujit");
    PyObject *njit = cujit ? PyObject_GetAttrString(cujit, "njit") : NULL;
    PyObject *disp = njit ? PyObject_CallOneArg(njit, func) : NULL;
    Py_XDECREF(njit);
    Py_XDECREF(cujit);
    Py_DECREF(func);
    return disp;
}

static int made_as_value(cj_builder *b, int marker, int *out) {
    PyObject *defaults;
    int has_defaults;
    PyCodeObject *code = cj_fe_made_code(b, marker, &defaults, &has_defaults);
    if (has_defaults && defaults == NULL) {
        return cj_unsupported_at(b->ir, b->line, "cujit cannot pass %U() as a value: its "
                                 "defaults are not constants", code->co_name);
    }
    if (refuse_free_variables(b, code) < 0) {
        return -1;
    }
    PyObject *disp = jitted_function(b, code, defaults);
    if (disp == NULL) {
        return -1;
    }
    int rc = cj_fe_push_value(b, disp, code->co_name); /* the IR keeps its own reference */
    Py_DECREF(disp);
    return rc < 0 ? -1 : cj_fe_pop(b, out);
}

int cj_fe_made_arguments_as_values(cj_builder *b, int *args, int n) {
    for (int i = 0; i < n; i++) {
        if (cj_fe_is_made(args[i]) && made_as_value(b, args[i], &args[i]) < 0) {
            return -1;
        }
    }
    return 0;
}
