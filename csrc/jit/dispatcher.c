/* dispatcher.c: the Dispatcher type (numba's CPUDispatcher): one compiled overload per
 * argument-type signature. The call path is C: typeof each argument, find the overload
 * (compiling it on a miss), unbox into a stack buffer, call, box the result or raise.
 * A miss compiles under a claim on the signature (threads.c): one thread compiles it while
 * others wait; the hit path takes no lock (the table only grows, see threads.c). */
#include "jit/jit.h"

#include <string.h>
#include <structmember.h>

#include "lower/lower.h"

struct cj_dispatcher {
    PyObject_HEAD
    PyObject *py_func;
    PyObject *dict;        /* __dict__: functools.update_wrapper sets __name__, __doc__... */
    vectorcallfunc vectorcall;
    cj_options opt;
    int locked;            /* explicit signatures: calls convert to them, no new compiles */
    int nparams;           /* a *args parameter last, when `star` (a tuple) */
    int star;
    cj_overload **ovs;     /* cj_table_reserve's: old arrays stay valid */
    int n, cap;
    PyObject *cache;       /* pkg/cujit/caching.py's Cache, or NULL */
    cj_pending_list pending; /* compilations under way (threads.c) */
};

PyTypeObject *cj_DispatcherType;

PyObject *cj_dispatcher_pyfunc(PyObject *obj) {
    if (cj_DispatcherType != NULL && PyObject_TypeCheck(obj, cj_DispatcherType)) {
        return ((cj_dispatcher *)obj)->py_func;
    }
    return NULL;
}

const cj_options *cj_dispatcher_options(cj_dispatcher *disp) { return &disp->opt; }

PyObject *cj_dispatcher_func(cj_dispatcher *disp) { return disp->py_func; }

cj_overload **cj_dispatcher_overloads(cj_dispatcher *disp, int *n) {
    *n = disp->n;
    return disp->ovs;
}

static int same_types(const cj_type *const *a, const cj_type *const *b, int n) {
    for (int i = 0; i < n; i++) {
        if (a[i] != b[i]) {
            return 0;
        }
    }
    return 1;
}

static cj_overload *find_exact(cj_dispatcher *d, const cj_type *const *types, int nargs) {
    for (int i = 0; i < d->n; i++) {
        cj_overload *ov = d->ovs[i];
        if (ov->nargs == nargs && same_types(ov->argtypes, types, nargs)) {
            return ov;
        }
    }
    return NULL;
}

static const cj_type *const *overload_argtypes(void *table, int i, int *nargs) {
    cj_overload *ov = ((cj_dispatcher *)table)->ovs[i];
    *nargs = ov->nargs;
    return ov->argtypes;
}

/* The overload the arguments convert to best (for explicit signatures), or NULL. */
static cj_overload *find_convertible(cj_dispatcher *d, const cj_type *const *types, int nargs) {
    int i = cj_best_conversion(types, nargs, overload_argtypes, d, d->n);
    return i < 0 ? NULL : d->ovs[i];
}

static int add_overload(cj_dispatcher *d, cj_overload *ov) {
    if (cj_table_reserve((void ***)&d->ovs, d->n, &d->cap) < 0) {
        return -1;
    }
    d->ovs[d->n] = ov;
    d->n++; /* visible to lookups once complete */
    return 0;
}


/* An overload from the on-disk cache, or NULL (no exception) on a miss. */
static cj_overload *cache_load(cj_dispatcher *d, const cj_type *const *types, int nargs,
                               PyObject *argtuple, PyObject *declared) {
    PyObject *entry = PyObject_CallMethod(d->cache, "load", "OO", argtuple, declared);
    cj_overload *ov = NULL;
    if (entry != NULL && PyDict_Check(entry)) {
        const cj_type *ret = cj_type_from_py(PyDict_GetItemString(entry, "ret"));
        PyCodeObject *code = (PyCodeObject *)PyFunction_GetCode(d->py_func);
        const char *qualname = PyUnicode_AsUTF8(code->co_qualname);
        if (ret != NULL && qualname != NULL) {
            ov = cj_overload_import(entry, types, nargs, ret, qualname);
        }
    }
    PyErr_Clear(); /* an unusable entry is a miss: the function is compiled again */
    if (entry != NULL && entry != Py_None && ov == NULL) {
        PyObject *r = PyObject_CallMethod(d->cache, "rejected", NULL); /* counts the miss */
        Py_XDECREF(r);
        PyErr_Clear();
    }
    Py_XDECREF(entry);
    return ov;
}

static void cache_save(cj_dispatcher *d, cj_overload *ov, PyObject *argtuple, PyObject *declared) {
    PyObject *entry = cj_overload_export(ov);
    if (entry != NULL && PyDict_Check(entry)) {
        PyObject *ret = cj_type_to_py(ov->ret);
        PyObject *r = ret && PyDict_SetItemString(entry, "ret", ret) == 0
                          ? PyObject_CallMethod(d->cache, "save", "OOO", argtuple, declared, entry)
                          : NULL;
        Py_XDECREF(r);
    }
    Py_XDECREF(entry);
    if (PyErr_Occurred()) { /* a cache that cannot be written is not an error of the call */
        PyErr_WriteUnraisable(d->py_func);
    }
}

#define OBJMODE_HINT "\n\ncujit compiles in nopython mode, as numba 0.59+ does: code it cannot " \
                     "compile can run in the interpreter inside `with cujit.objmode(...):`, " \
                     "or the whole function with jit(forceobj=True)."

/* A TypingError or UnsupportedError of a compile gets, once, the hint users of jit without
 * nopython=True need since numba 0.59 made nopython the default. */
static void add_objmode_hint(void) {
    if (!PyErr_ExceptionMatches(cj_TypingError) && !PyErr_ExceptionMatches(cj_UnsupportedError)) {
        return;
    }
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    PyObject *text = value ? PyObject_Str(value) : NULL;
    const char *s = text ? PyUnicode_AsUTF8(text) : NULL;
    if (s == NULL || strstr(s, "nopython mode, as numba 0.59") != NULL ||
        strstr(s, "objmode(") != NULL || strstr(s, "objmode argument") != NULL ||
        strstr(s, "objectmode") != NULL) { /* errors about a block need no hint */
        Py_XDECREF(text);
        PyErr_Clear();
        PyErr_Restore(type, value, tb);
        return;
    }
    PyErr_Format(type, "%U" OBJMODE_HINT, text);
    Py_DECREF(text);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
}

/* Reads the cache or compiles, and adds the overload; the caller holds the claim. */
static cj_overload *compile_claimed(cj_dispatcher *d, const cj_type *const *types, int nargs,
                                    const cj_type *declared_ret) {
    PyObject *argtuple = NULL, *declared = Py_None;
    if (d->cache != NULL) {
        argtuple = cj_types_tuple(types, nargs);
        declared = declared_ret ? cj_type_to_py(declared_ret) : Py_None;
        if (argtuple == NULL || declared == NULL) {
            Py_XDECREF(argtuple);
            return NULL;
        }
        cj_overload *cached = cache_load(d, types, nargs, argtuple, declared);
        if (cached != NULL) {
            Py_DECREF(argtuple);
            if (add_overload(d, cached) < 0) {
                cj_overload_free(cached);
                return NULL;
            }
            return cached;
        }
    }
    cj_overload *ov = cj_compile_cpu(d, types, nargs, declared_ret);
    if (ov == NULL) {
        add_objmode_hint();
    }
    if (ov != NULL && d->cache != NULL) {
        cache_save(d, ov, argtuple, declared);
    }
    Py_XDECREF(argtuple);
    if (ov != NULL && add_overload(d, ov) < 0) {
        cj_overload_free(ov);
        return NULL;
    }
    return ov;
}

/* The overload for `types`, compiled once whichever threads ask (NULL + exception). */
static cj_overload *compile_for(cj_dispatcher *d, const cj_type *const *types, int nargs,
                                const cj_type *declared_ret) {
    cj_overload *ov;
    cj_pending *claim = NULL;
    int rc = 0;
    while ((ov = find_exact(d, types, nargs)) == NULL &&
           (rc = cj_pending_begin(&d->pending, types, nargs, d->py_func, &claim)) == 0) {
        /* another thread compiled them meanwhile (or failed to: then we try) */
    }
    if (ov != NULL || rc < 0) {
        return ov;
    }
    ov = compile_claimed(d, types, nargs, declared_ret);
    cj_pending_end(&d->pending, claim);
    return ov;
}

cj_overload *cj_dispatcher_get_overload(cj_dispatcher *d, const cj_type *const *argtypes,
                                        int nargs) {
    cj_overload *ov = find_exact(d, argtypes, nargs);
    if (ov == NULL && d->locked) {
        ov = find_convertible(d, argtypes, nargs);
    }
    if (ov != NULL) {
        return ov;
    }
    if (d->locked) {
        PyErr_Format(PyExc_TypeError, "No matching definition for the argument types of %U",
                     ((PyFunctionObject *)d->py_func)->func_qualname);
        return NULL;
    }
    return compile_for(d, argtypes, nargs, NULL);
}

/* ---- the call path ---- */

static PyObject *no_match(cj_dispatcher *d, const cj_type *const *types, int nargs) {
    PyObject *sig = cj_signature_new(NULL, nargs, types);
    if (sig != NULL) {
        PyErr_Format(PyExc_TypeError, "No matching definition for argument type(s) %R of %U",
                     sig, ((PyFunctionObject *)d->py_func)->func_qualname);
        Py_DECREF(sig);
    }
    return NULL;
}

/* Unboxes, calls and boxes: the arguments are already in parameter order. */
static PyObject *invoke(cj_overload *ov, PyObject *const *full) {
    _Alignas(16) char small[1024];
    _Alignas(16) char ret_small[256];
    char *buf = ov->args_size <= sizeof(small) ? small : PyMem_Malloc(ov->args_size);
    size_t ret_size = cj_abi_value_size(ov->ret);
    char *ret = ret_size <= sizeof(ret_small) ? ret_small : PyMem_Malloc(ret_size);
    void *ptrs[64];
    PyObject *result = NULL;
    int unboxed = 0, status = -1; /* lists unboxed are dropped (reflect.c) */
    if (buf == NULL || ret == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (; unboxed < ov->nargs; unboxed++) {
        ptrs[unboxed] = buf + ov->arg_offsets[unboxed];
        if (full[unboxed] != NULL && cj_unbox(full[unboxed], ov->argtypes[unboxed],
                                              ptrs[unboxed]) < 0) {
            goto done;
        }
    }
    status = ov->entry(ret, ptrs);
    if (status != 0) {
        cj_exc_raise(status);
        goto done;
    }
    result = cj_box_result(ret, ov->ret, full, ov->nargs); /* generators keep the args */
    cj_nrt_release_value(ret, ov->ret); /* the function's reference: the box holds its own */
done:
    if (cj_reflect_args(ov->argtypes, unboxed, full, ptrs, status >= 0) < 0) {
        Py_CLEAR(result);
    }
    cj_objmode_release();
    if (buf != small) {
        PyMem_Free(buf);
    }
    if (ret != ret_small) {
        PyMem_Free(ret);
    }
    return result;
}

/* A failed typeof of argument `i`: the same exception, its message led by the argument's
 * position and name and the function (built only here, off the hit path). */
static void name_the_argument(cj_dispatcher *d, int i) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    PyObject *names = PyObject_GetAttrString(PyFunction_GetCode(d->py_func), "co_varnames");
    PyObject *name = names ? PyTuple_GetItem(names, i) : NULL; /* borrowed */
    if (name == NULL || value == NULL) {
        Py_XDECREF(names);
        PyErr_Clear();
        PyErr_Restore(type, value, tb);
        return;
    }
    PyErr_Format(type, "argument %d '%U' of %U: %S", i, name,
                 ((PyFunctionObject *)d->py_func)->func_qualname, value);
    Py_DECREF(names);
    Py_DECREF(type);
    Py_DECREF(value);
    Py_XDECREF(tb);
}

/* The call with arguments `full` in parameter order (NULL where `defaults` has the value). */
static PyObject *call_folded(cj_dispatcher *d, PyObject *const *full, PyObject *const *defaults) {
    const cj_type *types[64];
    for (int i = 0; i < d->nparams; i++) {
        types[i] = full[i] != NULL ? cj_typeof(full[i]) : cj_type_omitted(defaults[i]);
        if (types[i] == NULL) {
            if (full[i] != NULL) {
                name_the_argument(d, i);
            }
            return NULL;
        }
    }
    cj_overload *ov = find_exact(d, types, d->nparams);
    if (ov == NULL) {
        ov = d->locked ? find_convertible(d, types, d->nparams)
                       : compile_for(d, types, d->nparams, NULL);
        if (ov == NULL) {
            return PyErr_Occurred() ? NULL : no_match(d, types, d->nparams);
        }
    }
    return invoke(ov, full);
}

static PyObject *dispatcher_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf,
                                       PyObject *kwnames) {
    cj_dispatcher *d = (cj_dispatcher *)self;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyObject *folded[64], *defaults[64];
    if (kwnames == NULL && nargs == d->nparams && !d->star) {
        return call_folded(d, args, NULL); /* every argument given: no defaults read */
    }
    if (cj_fold_call_args(d->py_func, d->nparams, args, nargs, kwnames, folded, defaults) < 0) {
        return NULL; /* call_args.c */
    }
    PyObject *result = call_folded(d, folded, defaults);
    if (d->star) {
        Py_DECREF(folded[d->nparams - 1]); /* the *args tuple cj_fold_call_args made */
    }
    return result;
}

/* ---- Python-facing methods ---- */

/* The options dict of decorators.core_options; a bad value is a TypeError/ValueError here too,
   as the type is reachable from Python directly. */
static int parse_options(PyObject *options, cj_options *o) {
    *o = (cj_options){.opt = 3};
    PyObject *v;
    if (options == NULL) {
        return 0;
    }
    if ((v = PyDict_GetItemString(options, "error_model")) != NULL) {
        if (!PyUnicode_Check(v)) {
            PyErr_Format(PyExc_TypeError, "error_model must be a str, not %R", v);
            return -1;
        }
        int numpy = PyUnicode_CompareWithASCIIString(v, "numpy") == 0;
        o->error_model = numpy ? CJ_ERRORS_NUMPY : CJ_ERRORS_PYTHON;
        if (!numpy && PyUnicode_CompareWithASCIIString(v, "python") != 0) {
            PyErr_Format(PyExc_ValueError, "error_model must be 'python' or 'numpy', not %R",
                         v);
            return -1;
        }
    }
    if ((v = PyDict_GetItemString(options, "fastmath")) != NULL &&
        (o->fastmath = PyObject_IsTrue(v)) < 0) {
        return -1;
    }
    if ((v = PyDict_GetItemString(options, "boundscheck")) != NULL &&
        (o->boundscheck = PyObject_IsTrue(v)) < 0) {
        return -1;
    }
    if ((v = PyDict_GetItemString(options, "parallel")) != NULL &&
        (o->parallel = PyObject_IsTrue(v)) < 0) {
        return -1;
    }
    if ((v = PyDict_GetItemString(options, "opt")) != NULL) {
        if (!PyLong_Check(v)) {
            PyErr_Format(PyExc_TypeError, "opt must be an int, not %R", v);
            return -1;
        }
        int overflow;
        long level = PyLong_AsLongAndOverflow(v, &overflow);
        if (overflow || level < 0 || level > 3) {
            PyErr_Format(PyExc_ValueError, "opt must be in 0..3, not %R", v);
            return -1;
        }
        o->opt = (int)level;
    }
    return 0;
}

static PyObject *dispatcher_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    PyObject *func, *options = NULL;
    static char *kwlist[] = {"py_func", "options", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O!:Dispatcher", kwlist, &func,
                                     &PyDict_Type, &options)) {
        return NULL;
    }
    if (!PyFunction_Check(func)) {
        PyErr_Format(PyExc_TypeError, "cujit compiles Python functions, not %.200s",
                     Py_TYPE(func)->tp_name);
        return NULL;
    }
    PyCodeObject *code = (PyCodeObject *)PyFunction_GetCode(func);
    if (code->co_flags & CO_VARKEYWORDS) {
        PyErr_Format(cj_UnsupportedError, "cujit does not support **kwargs parameters (in %U)",
                     code->co_qualname);
        return NULL;
    }
    int star = (code->co_flags & CO_VARARGS) != 0;
    int np = code->co_argcount + code->co_kwonlyargcount + star;
    if (np > 64) {
        PyErr_SetString(cj_UnsupportedError, "functions of more than 64 parameters");
        return NULL;
    }
    cj_options opt;
    if (parse_options(options, &opt) < 0) {
        return NULL;
    }
    cj_dispatcher *d = (cj_dispatcher *)type->tp_alloc(type, 0);
    if (d == NULL) {
        return NULL;
    }
    Py_INCREF(func);
    d->py_func = func;
    d->nparams = np;
    d->star = star;
    d->vectorcall = dispatcher_vectorcall;
    d->opt = opt;
    return (PyObject *)d;
}

static int dispatcher_traverse(PyObject *self, visitproc visit, void *arg) {
    cj_dispatcher *d = (cj_dispatcher *)self;
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(d->py_func);
    Py_VISIT(d->dict);
    Py_VISIT(d->cache);
    return 0;
}

static int dispatcher_clear(PyObject *self) {
    cj_dispatcher *d = (cj_dispatcher *)self;
    Py_CLEAR(d->py_func);
    Py_CLEAR(d->dict);
    Py_CLEAR(d->cache);
    return 0;
}

static void dispatcher_dealloc(PyObject *self) {
    cj_dispatcher *d = (cj_dispatcher *)self;
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    dispatcher_clear(self);
    for (int i = 0; i < d->n; i++) {
        /* the machine code stays in the JIT; only the bookkeeping goes */
        cj_overload_free(d->ovs[i]);
    }
    cj_table_free((void **)d->ovs);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *dispatcher_repr(PyObject *self) {
    return PyUnicode_FromFormat("CPUDispatcher(%R)", ((cj_dispatcher *)self)->py_func);
}

static PyObject *dispatcher_descr_get(PyObject *self, PyObject *obj, PyObject *type) {
    Py_INCREF(self); /* a plain function attribute, not a method */
    return self;
}

/* compile(signature): `signature` is a cujit Signature (its return type may be None). */
static PyObject *dispatcher_compile(PyObject *self, PyObject *sig) {
    cj_dispatcher *d = (cj_dispatcher *)self;
    if (!PyObject_TypeCheck(sig, cj_SignatureType)) {
        PyErr_SetString(PyExc_TypeError, "compile() takes a Signature (see cujit.typing)");
        return NULL;
    }
    cj_signature_obj *s = (cj_signature_obj *)sig;
    if (s->nargs != d->nparams) {
        PyErr_Format(PyExc_TypeError, "signature %R has %d argument%s; %U takes %d", sig,
                     s->nargs, s->nargs == 1 ? "" : "s",
                     ((PyFunctionObject *)d->py_func)->func_qualname, d->nparams);
        return NULL;
    }
    cj_overload *ov = find_exact(d, s->args, s->nargs);
    if (ov == NULL && (ov = compile_for(d, s->args, s->nargs, s->ret)) == NULL) {
        return NULL;
    }
    Py_INCREF(ov->signature);
    return ov->signature;
}

static PyObject *dispatcher_set_cache(PyObject *self, PyObject *cache) {
    cj_dispatcher *d = (cj_dispatcher *)self;
    Py_XSETREF(d->cache, cache == Py_None ? NULL : Py_NewRef(cache));
    d->opt.cache = d->cache != NULL;
    Py_RETURN_NONE;
}

static PyObject *dispatcher_lock(PyObject *self, PyObject *unused) {
    ((cj_dispatcher *)self)->locked = 1;
    Py_RETURN_NONE;
}

static PyObject *args_tuple(const cj_overload *ov) {
    return cj_types_tuple(ov->argtypes, ov->nargs);
}

static PyObject *get_signatures(PyObject *self, void *full) {
    cj_dispatcher *d = (cj_dispatcher *)self;
    PyObject *list = PyList_New(0);
    for (int i = 0; list != NULL && i < d->n; i++) {
        PyObject *item = full ? Py_NewRef(d->ovs[i]->signature) : args_tuple(d->ovs[i]);
        if (item == NULL || PyList_Append(list, item) < 0) {
            Py_XDECREF(item);
            Py_CLEAR(list);
            break;
        }
        Py_DECREF(item);
    }
    return list;
}

/* {args tuple: value} over the overloads, or the value for one signature. */
static PyObject *per_overload(cj_dispatcher *d, PyObject *sig, PyObject *(*get)(cj_overload *)) {
    if (sig != NULL && sig != Py_None) {
        for (int i = 0; i < d->n; i++) {
            PyObject *key = args_tuple(d->ovs[i]);
            int eq = key ? PyObject_RichCompareBool(key, sig, Py_EQ) : -1;
            if (eq == 0 && PyObject_TypeCheck(sig, cj_SignatureType)) {
                eq = PyObject_RichCompareBool(d->ovs[i]->signature, sig, Py_EQ);
            }
            Py_XDECREF(key);
            if (eq < 0) {
                return NULL;
            }
            if (eq) {
                return get(d->ovs[i]);
            }
        }
        PyErr_Format(PyExc_KeyError, "no compiled version for %R", sig);
        return NULL;
    }
    PyObject *dict = PyDict_New();
    for (int i = 0; dict != NULL && i < d->n; i++) {
        PyObject *key = args_tuple(d->ovs[i]);
        PyObject *value = key ? get(d->ovs[i]) : NULL;
        if (value == NULL || PyDict_SetItem(dict, key, value) < 0) {
            Py_CLEAR(dict);
        }
        Py_XDECREF(key);
        Py_XDECREF(value);
    }
    return dict;
}

static PyObject *ov_llvm(cj_overload *ov) { return Py_NewRef(ov->llvm_ir); }
static PyObject *ov_annotation(cj_overload *ov) { return Py_NewRef(ov->annotation); }
static PyObject *ov_signature(cj_overload *ov) { return Py_NewRef(ov->signature); }

static PyObject *dispatcher_inspect_llvm(PyObject *self, PyObject *args) {
    PyObject *sig = NULL;
    if (!PyArg_ParseTuple(args, "|O:inspect_llvm", &sig)) {
        return NULL;
    }
    return per_overload((cj_dispatcher *)self, sig, ov_llvm);
}

static PyObject *dispatcher_inspect_asm(PyObject *self, PyObject *args) {
    PyObject *sig = NULL;
    if (!PyArg_ParseTuple(args, "|O:inspect_asm", &sig)) {
        return NULL;
    }
    return per_overload((cj_dispatcher *)self, sig, cj_overload_asm);
}

/* cujit.annotation.annotate(self, signature=sig): the report inspect_types(pretty=True) returns. */
static PyObject *pretty_report(PyObject *self, PyObject *sig) {
    PyObject *module = PyImport_ImportModule("cujit.annotation");
    PyObject *fn = module ? PyObject_GetAttrString(module, "annotate") : NULL;
    Py_XDECREF(module);
    if (fn == NULL) {
        return NULL;
    }
    PyObject *args = PyTuple_Pack(1, self);
    PyObject *kwargs = args ? Py_BuildValue("{sO}", "signature", sig ? sig : Py_None) : NULL;
    PyObject *report = kwargs ? PyObject_Call(fn, args, kwargs) : NULL;
    Py_XDECREF(kwargs);
    Py_XDECREF(args);
    Py_DECREF(fn);
    return report;
}

/* inspect_types(signature=None, file=None, pretty=False): prints each version's source
 * annotated with the typed IR of each line, as numba's; pretty=True returns the report
 * (HTML in Jupyter) instead. */
static PyObject *dispatcher_inspect_types(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"signature", "file", "pretty", NULL};
    PyObject *sig = NULL, *file = NULL, *pretty = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OOO:inspect_types", kwlist, &sig, &file,
                                     &pretty)) {
        return NULL;
    }
    int want_report = pretty != NULL ? PyObject_IsTrue(pretty) : 0;
    if (want_report != 0) { /* -1: the error; 1: the report object (cujit/annotation.py) */
        return want_report < 0 ? NULL : pretty_report(self, sig);
    }
    if (file == NULL || file == Py_None) {
        file = PySys_GetObject("stdout"); /* borrowed */
    }
    PyObject *texts = per_overload((cj_dispatcher *)self, sig, ov_annotation);
    if (texts == NULL) {
        return NULL;
    }
    PyObject *values = PyDict_Check(texts) ? PyDict_Values(texts) : PyList_New(0);
    if (values != NULL && !PyDict_Check(texts) && PyList_Append(values, texts) < 0) {
        Py_CLEAR(values);
    }
    Py_DECREF(texts);
    if (values == NULL) {
        return NULL;
    }
    int rc = 0;
    for (Py_ssize_t i = 0; rc == 0 && i < PyList_GET_SIZE(values); i++) {
        rc = PyFile_WriteObject(PyList_GET_ITEM(values, i), file, Py_PRINT_RAW);
        if (rc == 0) {
            rc = PyFile_WriteString("\n========================================================"
                                    "========================\n", file);
        }
    }
    Py_DECREF(values);
    if (rc < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *ov_parallel(cj_overload *ov) {
    return ov->parallel ? Py_NewRef(ov->parallel) : PyList_New(0); /* from the cache: none */
}

/* parallel_diagnostics(signature=None, level=1): cujit.parallel.diagnostics prints the loops
 * each version runs on the thread pool (the lines lower/lower_prange.c wrote). */
static PyObject *dispatcher_parallel_diagnostics(PyObject *self, PyObject *args,
                                                 PyObject *kwargs) {
    static char *kwlist[] = {"signature", "level", NULL};
    PyObject *sig = NULL, *level = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:parallel_diagnostics", kwlist, &sig,
                                     &level)) {
        return NULL;
    }
    PyObject *loops = per_overload((cj_dispatcher *)self, sig, ov_parallel);
    PyObject *module = loops ? PyImport_ImportModule("cujit.parallel") : NULL;
    PyObject *r = module ? PyObject_CallMethod(module, "diagnostics", "OO", self, loops) : NULL;
    Py_XDECREF(module);
    Py_XDECREF(loops);
    return r;
}

static PyObject *dispatcher_annotations(PyObject *self, PyObject *args) {
    PyObject *sig = NULL;
    if (!PyArg_ParseTuple(args, "|O:_annotations", &sig)) {
        return NULL;
    }
    return per_overload((cj_dispatcher *)self, sig, ov_annotation);
}

static PyObject *get_overloads(PyObject *self, void *closure) {
    return per_overload((cj_dispatcher *)self, NULL, ov_signature);
}

static PyObject *get_py_func(PyObject *self, void *closure) {
    return Py_NewRef(((cj_dispatcher *)self)->py_func);
}

static PyMethodDef dispatcher_methods[] = {
    {"compile", dispatcher_compile, METH_O, "compile(signature): compile one version now"},
    {"inspect_llvm", dispatcher_inspect_llvm, METH_VARARGS,
     "inspect_llvm(signature=None): the LLVM IR (a dict over versions without a signature)"},
    {"inspect_asm", dispatcher_inspect_asm, METH_VARARGS,
     "inspect_asm(signature=None): the assembly (a dict over versions without a signature)"},
    {"_annotations", dispatcher_annotations, METH_VARARGS, "typed IR per line, per version"},
    {"inspect_types", (PyCFunction)(void (*)(void))dispatcher_inspect_types,
     METH_VARARGS | METH_KEYWORDS,
     "inspect_types(signature=None, file=None, pretty=False): print the typed IR per source "
     "line; pretty=True returns the annotated report (HTML in Jupyter)"},
    {"parallel_diagnostics", (PyCFunction)(void (*)(void))dispatcher_parallel_diagnostics,
     METH_VARARGS | METH_KEYWORDS, "parallel_diagnostics(signature=None, level=1): print the "
     "loops each version runs on the thread pool (parallel=True)"},
    {"_lock", dispatcher_lock, METH_NOARGS, "no new versions: calls convert to existing ones"},
    {"_set_cache", dispatcher_set_cache, METH_O, "use an on-disk cache (caching.Cache) or None"},
    {NULL},
};

static PyGetSetDef dispatcher_getset[] = {
    {"py_func", get_py_func, NULL, "the Python function", NULL},
    {"signatures", get_signatures, NULL, "argument types of each compiled version", NULL},
    {"nopython_signatures", get_signatures, NULL, "signatures of compiled versions", (void *)1},
    {"overloads", get_overloads, NULL, "{argument types: signature}", NULL},
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL},
};

static PyMemberDef dispatcher_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(cj_dispatcher, vectorcall), READONLY},
    {"__dictoffset__", T_PYSSIZET, offsetof(cj_dispatcher, dict), READONLY},
    {NULL},
};

static PyType_Slot dispatcher_slots[] = {
    {Py_tp_new, dispatcher_new},
    {Py_tp_dealloc, dispatcher_dealloc},
    {Py_tp_traverse, dispatcher_traverse},
    {Py_tp_clear, dispatcher_clear},
    {Py_tp_repr, dispatcher_repr},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_descr_get, dispatcher_descr_get},
    {Py_tp_methods, dispatcher_methods},
    {Py_tp_getset, dispatcher_getset},
    {Py_tp_members, dispatcher_members},
    {Py_tp_doc, "A jitted function: compiles one version per argument-type signature."},
    {0, NULL},
};

static PyType_Spec dispatcher_spec = {
    .name = "cujit.Dispatcher",
    .basicsize = sizeof(cj_dispatcher),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC |
             Py_TPFLAGS_HAVE_VECTORCALL,
    .slots = dispatcher_slots,
};

int cj_dispatcher_init(PyObject *module) {
    cj_DispatcherType = (PyTypeObject *)PyType_FromSpec(&dispatcher_spec);
    if (cj_DispatcherType == NULL) {
        return -1;
    }
    Py_INCREF(cj_DispatcherType);
    return PyModule_AddObject(module, "Dispatcher", (PyObject *)cj_DispatcherType);
}
