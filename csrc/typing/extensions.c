/* extensions.c: the one hook from typing into cujit.extending's registry (overload,
 * register_jitable, overload_method, overload_attribute).
 * requires: the callee / attribute being typed; produces: a CJ_CALL_DISPATCHER call record of
 * the implementation the registry chose (a CJ_CALL_EXTENSION one for the low-level API's,
 * extension_calls.c), compiled like a call of any other jitted function
 * (jitted_calls.c), or "not an extension" (2) so the core's own typing goes on.
 * The registry is Python (pkg/cujit/core/extending.py): it registers two dicts the core reads
 * (callees by identity, method/attribute names) and its resolver. With no extension
 * registered the cost of a call's typing is one size check. cujit's own functions written as
 * overloads (cujit.cpython.library: heapq, functools.reduce, the random distributions ...)
 * are registered on the first call typed, so importing cujit builds no registry. */
#include "typing/infer_internal.h"

#include <string.h>

static PyObject *ext_functions; /* dict: id(obj) -> obj, the callees that have overloads */
static PyObject *ext_members;   /* dict: name -> templates, the overloaded method/attr names */
static PyObject *ext_resolver;  /* resolve(kind, key, target, argtypes, kwnames) */
static PyObject *empty_tuple;   /* the kwnames of a call without keywords */
static PyObject *any_member;    /* "*": the key of attributes any name may resolve to
                                 * (AttributeTemplate.generic_resolve of an extension type) */

/* Whether `obj` has overloads: 1, 0, -1 with an exception. */
static int is_overloaded(PyObject *obj) {
    if (ext_functions == NULL || PyDict_GET_SIZE(ext_functions) == 0) {
        return 0;
    }
    PyObject *key = PyLong_FromVoidPtr(obj);
    if (key == NULL) {
        return -1;
    }
    int rc = PyDict_Contains(ext_functions, key);
    Py_DECREF(key);
    return rc;
}

static int is_overloaded_member(PyObject *name) {
    if (ext_members == NULL || PyDict_GET_SIZE(ext_members) == 0) {
        return 0;
    }
    return PyDict_Contains(ext_members, name);
}

int cj_reraise_at(cj_infer_ctx *c, const cj_instr *in, PyObject *prefix) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (value == NULL) {
        Py_XDECREF(type);
        Py_XDECREF(tb);
        PyErr_SetString(PyExc_SystemError, "extension typing failed without an exception");
        return -1;
    }
    if (!PyObject_IsInstance(value, PyExc_Exception)) { /* KeyboardInterrupt goes as it is */
        PyErr_Restore(type, value, tb);
        return -1;
    }
    if (tb != NULL) {
        PyException_SetTraceback(value, tb);
    }
    /* cujit's own errors keep their class (UnsupportedError stays a NotImplementedError);
     * anything else raised by a user's typing function becomes a TypingError naming it */
    int ours = PyObject_IsInstance(value, cj_CujitError) > 0;
    PyObject *cls = ours ? type : cj_TypingError;
    PyObject *msg = ours ? PyUnicode_FromFormat("%S", value)
                         : PyUnicode_FromFormat("%s: %S", ((PyTypeObject *)type)->tp_name, value);
    if (msg != NULL && prefix != NULL) {
        Py_SETREF(msg, PyUnicode_FromFormat("%U:\n%U", prefix, msg));
    }
    if (msg != NULL) {
        cj_ir_error(c->ir, cls, in->line, "%U", msg);
        Py_DECREF(msg);
    }
    PyObject *t2, *v2, *tb2;
    PyErr_Fetch(&t2, &v2, &tb2);
    PyErr_NormalizeException(&t2, &v2, &tb2);
    if (v2 != NULL) {
        PyException_SetCause(v2, value); /* steals */
        value = NULL;
    }
    PyErr_Restore(t2, v2, tb2);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    return -1;
}

/* The registry's answer for `kind` (new reference), argument types vars[0..n) of which the
 * last ones are the keywords `kwnames`; NULL with the exception re-raised at the call. */
static PyObject *ask(cj_infer_ctx *c, cj_instr *in, const char *kind, PyObject *key,
                     const int *vars, int n, PyObject *kwnames) {
    PyObject *types = PyTuple_New(n);
    for (int i = 0; types != NULL && i < n; i++) {
        PyObject *t = cj_type_to_py(cj_vt(c, vars[i])); /* borrowed */
        if (t == NULL) {
            Py_CLEAR(types);
            break;
        }
        PyTuple_SET_ITEM(types, i, Py_NewRef(t));
    }
    PyObject *r = types == NULL ? NULL
                                : PyObject_CallFunction(ext_resolver, "sOsOO", kind, key,
                                                        c->env->target == CJ_TARGET_CUDA
                                                            ? "cuda" : "cpu",
                                                        types, kwnames);
    Py_XDECREF(types);
    if (r == NULL) {
        cj_reraise_at(c, in, NULL);
    }
    return r;
}

/* Calls the implementation `chosen` ((dispatcher, label) from the registry) with positional
 * variables pos[0..npos) and the instruction's keywords. */
static int call_chosen(cj_infer_ctx *c, cj_instr *in, PyObject *chosen, const int *pos,
                       int npos, int nkw, const cj_type **out) {
    if (PyTuple_Check(chosen) && PyTuple_GET_SIZE(chosen) == 5) { /* extension_calls.c */
        return nkw > 0 ? cj_typing_error(c, in, "low-level extensions take no keyword "
                                                "arguments")
                       : cj_type_lowlevel_call(c, in, chosen, pos, npos, out);
    }
    PyObject *disp, *label;
    if (!PyArg_ParseTuple(chosen, "OU", &disp, &label) || cj_ir_keep(c->ir, chosen) == NULL) {
        return cj_reraise_at(c, in, NULL);
    }
    PyObject *pyfunc = c->env->dispatcher_pyfunc ? c->env->dispatcher_pyfunc(disp) : NULL;
    if (pyfunc == NULL) {
        return cj_typing_error(c, in, "%U: the implementation is not a jitted function",
                               label);
    }
    const int *kw = nkw > 0 ? in->args + in->nargs - nkw : NULL;
    return cj_type_jitted_call(c, in, disp, pyfunc, pos, npos, kw, nkw, label, out);
}

/* Imports cujit.cpython.library once (it registers its overloads): 0, or -1 with an
 * exception. The flag is set first: the import itself compiles nothing, but must not recur. */
static int load_python_library(void) {
    static int loaded;
    if (loaded) {
        return 0;
    }
    loaded = 1;
    PyObject *module = PyImport_ImportModule("cujit.cpython.library");
    if (module == NULL) {
        loaded = 0;
        return -1;
    }
    Py_DECREF(module);
    return 0;
}

int cj_type_extension_call(cj_infer_ctx *c, cj_instr *in, PyObject *obj, const cj_type **out) {
    if (load_python_library() < 0) {
        return cj_reraise_at(c, in, NULL);
    }
    int rc = is_overloaded(obj);
    if (rc <= 0) {
        return rc < 0 ? -1 : 2;
    }
    int nkw = in->index;
    PyObject *r = ask(c, in, "call", obj, in->args + 1, in->nargs - 1,
                      nkw > 0 ? in->obj : empty_tuple);
    if (r == NULL || r == Py_None) {
        Py_XDECREF(r);
        return r == NULL ? -1 : 2; /* none chose these types: the core's own typing goes on */
    }
    rc = call_chosen(c, in, r, in->args + 1, in->nargs - 1 - nkw, nkw, out);
    Py_DECREF(r);
    return rc;
}

/* numba's "No implementation of function ..." from the registry's record of the failures. */
static int explain(cj_infer_ctx *c, cj_instr *in, const char *kind, PyObject *key,
                   const int *vars, int n, int nkw) {
    PyObject *text = ask(c, in, kind, key, vars, n, nkw > 0 ? in->obj : empty_tuple);
    if (text == NULL) {
        return -1;
    }
    int rc = cj_typing_error(c, in, "%S", text);
    Py_DECREF(text);
    return rc;
}

int cj_extension_no_match(cj_infer_ctx *c, cj_instr *in, PyObject *obj) {
    int rc = is_overloaded(obj);
    if (rc <= 0) {
        return rc < 0 ? -1 : 2;
    }
    if (!c->final) {
        return 0; /* a wider type may come: the error only if none does */
    }
    return explain(c, in, "explain", obj, in->args + 1, in->nargs - 1, in->index);
}

int cj_type_extension_getattr(cj_infer_ctx *c, cj_instr *in, const cj_type *t,
                              const cj_type **out) {
    if (load_python_library() < 0) {
        return cj_reraise_at(c, in, NULL);
    }
    int rc = is_overloaded_member(in->obj);
    if (rc == 0 && t->kind == CJ_EXT) {
        rc = is_overloaded_member(any_member);
    }
    if (rc <= 0) {
        return rc < 0 ? -1 : 2;
    }
    if (in->flags & CJ_F_ATTR_CALL) { /* typed again for a wider type: decided afresh */
        in->flags &= ~CJ_F_ATTR_CALL;
        in->resolved = NULL;
    }
    PyObject *r = ask(c, in, "getattr", in->obj, in->args, 1, empty_tuple);
    if (r == NULL || r == Py_None) {
        Py_XDECREF(r);
        return r == NULL ? -1 : 2;
    }
    if (PyUnicode_Check(r)) { /* a method: typed at its call */
        Py_DECREF(r);
        *out = cj_type_bound(t, in->obj);
        return *out ? 1 : -1;
    }
    in->flags |= CJ_F_ATTR_CALL; /* an attribute: the implementation called on the value */
    rc = call_chosen(c, in, r, in->args, 1, 0, out);
    Py_DECREF(r);
    return rc;
}

int cj_type_extension_method(cj_infer_ctx *c, cj_instr *in, const cj_type *bound,
                             const cj_type **out) {
    int rc = is_overloaded_member(bound->obj);
    if (rc <= 0) {
        return rc < 0 ? -1 : 2;
    }
    cj_instr *get = c->def[in->args[0]];
    if (get == NULL || get->op != CJ_I_GETATTR || in->nargs > CJ_MAX_ARGS) {
        return cj_unsupported_error(c, in, "a method of an extension (%U) can only be called "
                                           "where it is read (obj.%U(...)), with at most %d "
                                           "arguments", bound->obj, bound->obj, CJ_MAX_ARGS - 1);
    }
    int vars[CJ_MAX_ARGS + 1];
    vars[0] = get->args[0]; /* the receiver comes first */
    memcpy(vars + 1, in->args + 1, sizeof(int) * (size_t)(in->nargs - 1));
    int nkw = in->index;
    PyObject *r = ask(c, in, "method", bound->obj, vars, in->nargs,
                      nkw > 0 ? in->obj : empty_tuple);
    if (r == NULL || r == Py_None) {
        Py_XDECREF(r);
        if (r == NULL) {
            return -1;
        }
        return c->final ? explain(c, in, "explain_method", bound->obj, vars, in->nargs, nkw) : 0;
    }
    rc = call_chosen(c, in, r, vars, in->nargs - nkw, nkw, out);
    Py_DECREF(r);
    return rc;
}

int cj_type_extension_setattr(cj_infer_ctx *c, cj_instr *in, const cj_type *t) {
    PyObject *name = cj_const_of(c, in->args[1]); /* borrowed */
    if (t->kind != CJ_EXT || name == NULL || !PyUnicode_Check(name)) {
        return 2;
    }
    int vars[2] = {in->args[0], in->args[2]};
    PyObject *r = ask(c, in, "setattr", name, vars, 2, empty_tuple);
    if (r == NULL) {
        return -1;
    }
    if (r == Py_None) { /* numba's words */
        Py_DECREF(r);
        return cj_typing_error(c, in, "Cannot resolve setattr: (%s).%U = %s", t->name, name,
                               cj_vt(c, in->args[2])->name);
    }
    const cj_type *none;
    in->flags |= CJ_F_ATTR_CALL; /* lowered as a call of the lower_setattr (lower.c) */
    int rc = cj_type_lowlevel_call(c, in, r, vars, 2, &none);
    Py_DECREF(r);
    return rc;
}

/* _core.set_extension_registry(functions, members, resolve): cujit.extending's registry. */
static PyObject *set_registry(PyObject *module, PyObject *args) {
    PyObject *functions, *members, *resolve;
    if (!PyArg_ParseTuple(args, "O!O!O:set_extension_registry", &PyDict_Type, &functions,
                          &PyDict_Type, &members, &resolve)) {
        return NULL;
    }
    if (!PyCallable_Check(resolve)) {
        PyErr_SetString(PyExc_TypeError, "set_extension_registry: resolve must be callable");
        return NULL;
    }
    Py_XSETREF(ext_functions, Py_NewRef(functions));
    Py_XSETREF(ext_members, Py_NewRef(members));
    Py_XSETREF(ext_resolver, Py_NewRef(resolve));
    Py_RETURN_NONE;
}

static PyMethodDef extension_methods[] = {
    {"set_extension_registry", set_registry, METH_VARARGS,
     "set_extension_registry(functions, members, resolve): cujit.extending's registry"},
    {NULL},
};

int cj_extensions_init(PyObject *module) {
    empty_tuple = PyTuple_New(0);
    any_member = PyUnicode_InternFromString("*");
    return empty_tuple == NULL || any_member == NULL ? -1 : PyModule_AddFunctions(module, extension_methods);
}
