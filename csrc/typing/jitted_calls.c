/* jitted_calls.c: calls to other jitted functions: keyword arguments and defaults folded into
 * parameter positions (numba's rules and messages), then the callee's overload for the
 * argument types from the env, or the function being compiled itself (recursion). The NumPy
 * functions cujit implements in Python (cujit.np.arraymath, as numba implements most of its
 * NumPy library) are such calls too, to their jitted implementation; so are the calls a C
 * typer makes of one of that module's helpers once it has read what must be constant
 * (np.searchsorted's side, array_search.c). Extensions' implementations (extensions.c) are
 * such calls too, with the receiver of a method or attribute as their first argument. */
#include "typing/infer_internal.h"

#include <string.h>

/* The passed arguments: positional variables pos[0..npos), then keyword variables kw[0..nkw)
 * named by the tuple `kwnames`. */
typedef struct passed_args {
    const int *pos;
    int npos;
    const int *kw;
    int nkw;
    PyObject *kwnames;
    const cj_type *star; /* the tuple whose items pos names (CJ_ARG_STAR_ITEM), or NULL */
} passed_args;

static int fold_arguments(cj_infer_ctx *c, cj_instr *in, PyObject *pyfunc, cj_call *call,
                          const passed_args *a) {
    PyCodeObject *code = (PyCodeObject *)PyFunction_GetCode(pyfunc);
    int nparams = code->co_argcount + code->co_kwonlyargcount; /* named: *args packed after */
    int nkw = a->nkw, npos = a->npos, star = (code->co_flags & CO_VARARGS) != 0;
    PyObject *names = PyObject_GetAttrString((PyObject *)code, "co_varnames");
    if (names == NULL) {
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < nparams; i++) {
        call->args[i] = -2;
    }
    if (npos > code->co_argcount && !star) {
        rc = cj_typing_error(c, in, "too many positional arguments for %U()", code->co_name);
    }
    for (int i = 0; rc == 0 && i < npos && i < code->co_argcount; i++) {
        call->args[i] = a->pos[i];
    }
    for (int k = 0; rc == 0 && k < nkw; k++) {
        PyObject *kw = PyTuple_GET_ITEM(a->kwnames, k);
        int found = -1;
        for (int p = 0; p < nparams; p++) {
            if (PyUnicode_Compare(PyTuple_GET_ITEM(names, p), kw) == 0) {
                found = p;
            }
        }
        if (found < 0 || call->args[found] != -2) {
            rc = cj_typing_error(c, in, found < 0 ? "unexpected keyword argument '%U'"
                                                  : "multiple values for argument '%U'", kw);
            break;
        }
        call->args[found] = a->kw[k];
    }
    PyObject *defaults = PyFunction_GetDefaults(pyfunc);     /* borrowed */
    PyObject *kwdefaults = PyFunction_GetKwDefaults(pyfunc); /* borrowed */
    int ndef = defaults ? (int)PyTuple_GET_SIZE(defaults) : 0;
    for (int p = 0; rc == 0 && p < nparams; p++) {
        if (call->args[p] != -2) {
            call->argtypes[p] = cj_call_slot_type(c, call->args[p], a->star);
            continue;
        }
        PyObject *d = NULL;
        if (p < code->co_argcount && p >= code->co_argcount - ndef) {
            d = PyTuple_GET_ITEM(defaults, p - (code->co_argcount - ndef));
        } else if (p >= code->co_argcount && kwdefaults) {
            d = PyDict_GetItemWithError(kwdefaults, PyTuple_GET_ITEM(names, p));
        }
        if (d == NULL) {
            rc = PyErr_Occurred() ? -1 : cj_typing_error(c, in, "missing argument '%U' in "
                                                                "call to %U()",
                                                         PyTuple_GET_ITEM(names, p),
                                                         code->co_name);
            break;
        }
        call->args[p] = -1;
        call->defaults[p] = d;
        call->argtypes[p] = cj_type_omitted(d);
        rc = call->argtypes[p] ? 0 : -1;
    }
    Py_DECREF(names);
    call->nargs = nparams;
    if (rc == 0 && star) { /* starargs.c */
        rc = cj_pack_star_arguments(c, call, a->pos + code->co_argcount,
                                    npos > code->co_argcount ? npos - code->co_argcount : 0,
                                    a->star);
    }
    return rc;
}

/* The compile error of an extension's implementation, re-raised at the call naming it. */
static int reraise_compile_error(cj_infer_ctx *c, cj_instr *in, cj_call *call, PyObject *label) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb); /* the prefix is made with no exception set */
    PyObject *types = PyUnicode_FromString("");
    for (int i = 0; types != NULL && i < call->nargs; i++) {
        Py_SETREF(types, PyUnicode_FromFormat("%U%s%s", types, i ? ", " : "",
                                              call->argtypes[i]->name));
    }
    PyObject *prefix = types ? PyUnicode_FromFormat("%U: its implementation failed to compile "
                                                    "for (%U)", label, types)
                             : NULL;
    Py_XDECREF(types);
    PyErr_Clear();
    PyErr_Restore(type, value, tb);
    if (prefix != NULL) {
        cj_reraise_at(c, in, prefix);
        Py_DECREF(prefix);
    }
    return -1;
}

/* The call (arguments folded) of jitted `callee`: its overload for the argument types.
 * With a `label` (an extension's implementation), a failure to compile names it. */
static int resolve_call(cj_infer_ctx *c, cj_instr *in, PyObject *callee, cj_call *call,
                        PyObject *label, const cj_type **out) {
    int nparams = call->nargs;
    /* recursion into this very compilation: its return type is what typing has so far */
    int self = c->env->self_dispatcher == callee && nparams == c->nargs;
    for (int i = 0; self && i < nparams; i++) {
        self = call->argtypes[i] == c->argtypes[i];
    }
    if (self && c->ir->is_generator) { /* its type would hold what it yields: numba's neither */
        return cj_unsupported_error(c, in, "recursive generators are not supported");
    }
    if (self) {
        call->kind = CJ_CALL_SELF;
        *out = c->ret;
        return c->ret ? 1 : 0;
    }
    const cj_type *ret;
    const void *handle;
    int rc = c->env->resolve_dispatcher(c->env, callee, nparams, call->argtypes, &ret, &handle);
    if (rc <= 0) {
        if (rc == 0) {
            CJ_UNREACHABLE("dispatcher not resolved");
        }
        return label != NULL ? reraise_compile_error(c, in, call, label) : -1;
    }
    call->callee = handle;
    *out = ret;
    return 1;
}

static int type_jitted_call(cj_infer_ctx *c, cj_instr *in, PyObject *callee, PyObject *pyfunc,
                            const int *pos, int npos, const int *kw, int nkw, PyObject *label,
                            const cj_type *star, const cj_type **out) {
    PyCodeObject *code = (PyCodeObject *)PyFunction_GetCode(pyfunc);
    int nparams = code->co_argcount + code->co_kwonlyargcount;
    if (code->co_flags & CO_VARARGS) { /* room for the *args tuple and what it packs */
        nparams += 1 + (npos > code->co_argcount ? npos - code->co_argcount : 0);
    }
    cj_call *call = cj_call_record(c, in, CJ_CALL_DISPATCHER, nparams);
    passed_args a = {.pos = pos, .npos = npos, .kw = kw, .nkw = nkw,
                     .kwnames = nkw > 0 ? in->obj : NULL, .star = star};
    if (call == NULL || fold_arguments(c, in, pyfunc, call, &a) < 0) {
        return -1;
    }
    return resolve_call(c, in, callee, call, label, out);
}

int cj_type_jitted_call(cj_infer_ctx *c, cj_instr *in, PyObject *callee, PyObject *pyfunc,
                        const int *pos, int npos, const int *kw, int nkw, PyObject *label,
                        const cj_type **out) {
    return type_jitted_call(c, in, callee, pyfunc, pos, npos, kw, nkw, label, NULL, out);
}

int cj_type_jitted_star_call(cj_infer_ctx *c, cj_instr *in, PyObject *callee, PyObject *pyfunc,
                             const cj_type *star, const cj_type **out) {
    int pos[CJ_MAX_ARGS];
    if (star->n > CJ_MAX_ARGS) {
        return cj_unsupported_error(c, in, "f(*args) of more than %d items", CJ_MAX_ARGS);
    }
    for (int k = 0; k < star->n; k++) {
        pos[k] = CJ_ARG_STAR_ITEM(k);
    }
    return type_jitted_call(c, in, callee, pyfunc, pos, star->n, NULL, 0, NULL, star, out);
}

int cj_type_dispatcher_call(cj_infer_ctx *c, cj_instr *in, PyObject *callee, PyObject *pyfunc,
                            const cj_type **out) {
    int nkw = in->index, npos = in->nargs - 1 - nkw;
    return cj_type_jitted_call(c, in, callee, pyfunc, in->args + 1, npos, in->args + 1 + npos,
                               nkw, NULL, out);
}

/* The jitted implementation of `obj` in cujit.np.arraymath's IMPLEMENTATIONS (borrowed), or
 * NULL (with an exception only on failure). */
static PyObject *library_implementation(PyObject *obj) {
    static PyObject *table; /* the module's dict, kept for the process */
    if (table == NULL) {
        PyObject *module = PyImport_ImportModule("cujit.np.arraymath");
        table = module ? PyObject_GetAttrString(module, "IMPLEMENTATIONS") : NULL;
        Py_XDECREF(module);
        if (table == NULL || !PyDict_Check(table)) {
            Py_CLEAR(table);
            return NULL;
        }
    }
    PyObject *impl = PyDict_GetItemWithError(table, obj);
    if (impl == NULL && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear(); /* an unhashable callee is none of them */
    }
    return impl;
}

int cj_type_library_call(cj_infer_ctx *c, cj_instr *in, PyObject *obj, const cj_type **out) {
    if (c->env->target != CJ_TARGET_CPU || c->env->dispatcher_pyfunc == NULL) {
        return 2;
    }
    PyObject *impl = library_implementation(obj);
    if (impl == NULL) {
        return PyErr_Occurred() ? -1 : 2;
    }
    PyObject *pyfunc = c->env->dispatcher_pyfunc(impl);
    if (pyfunc == NULL) {
        CJ_UNREACHABLE("a library implementation that is not a jitted function");
        return -1;
    }
    return cj_type_dispatcher_call(c, in, impl, pyfunc, out);
}

int cj_type_library_helper_call(cj_infer_ctx *c, cj_instr *in, const char *name, int nargs,
                                const int *vars, PyObject *const *consts, const cj_type **out) {
    char module_name[64] = "cujit.np.arraymath";
    const char *colon = strchr(name, ':'); /* "module:name": another module's helper */
    if (colon != NULL) {
        PyOS_snprintf(module_name, sizeof(module_name), "%.*s", (int)(colon - name), name);
        name = colon + 1;
    }
    PyObject *module = PyImport_ImportModule(module_name);
    PyObject *impl = module ? PyObject_GetAttrString(module, name) : NULL;
    Py_XDECREF(module);
    if (impl == NULL) {
        return -1;
    }
    Py_DECREF(impl); /* the module keeps it */
    if (c->env->dispatcher_pyfunc == NULL || c->env->dispatcher_pyfunc(impl) == NULL) {
        CJ_UNREACHABLE("a library helper that is not a jitted function");
        return -1;
    }
    cj_call *call = cj_call_record(c, in, CJ_CALL_DISPATCHER, nargs);
    if (call == NULL) {
        return -1;
    }
    for (int i = 0; i < nargs; i++) {
        call->args[i] = vars[i];
        call->defaults[i] = vars[i] < 0 ? consts[i] : NULL;
        call->argtypes[i] = vars[i] < 0 ? cj_type_omitted(consts[i]) : cj_vt(c, vars[i]);
        if (call->argtypes[i] == NULL) {
            return -1;
        }
    }
    return resolve_call(c, in, impl, call, NULL, out);
}
