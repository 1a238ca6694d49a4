/* cache.c: overloads to and from on-disk cache entries (the files themselves are written by
 * pkg/cujit/caching.py). An entry holds the optimised module with its wrapper, the bitcode
 * callers link, the exceptions the code can raise (ids are stable across processes), and the
 * texts for inspect_*. Code that points into this process (frozen global arrays, a low-level
 * extension's lowering) is not exported: its entry is {"uncacheable": what it points at}. On import the symbols are renamed, so the entry can load beside anything.
 * caching.py hands over only entries this user signed, but every field is still checked:
 * anything unusable is an exception, which the dispatcher turns into a recompile. */
#include <limits.h>
#include <string.h>

#include "lower/lower.h"
#include "jit/jit.h"
#include "target/target.h"

PyObject *cj_overload_export(cj_overload *ov) {
    if (ov->jit_bitcode == NULL) {
        Py_RETURN_NONE;
    }
    if (PyList_GET_SIZE(ov->keep) > 0) { /* caching.py says why, for a low-level extension */
        return Py_BuildValue("{s:O}", "uncacheable", ov->keep);
    }
    PyObject *excs = PyList_New(0);
    PyObject *it = excs ? PyObject_GetIter(ov->exc_ids) : NULL, *id;
    while (it != NULL && (id = PyIter_Next(it)) != NULL) {
        long n = PyLong_AsLong(id);
        PyObject *exc = n >= CJ_EXC_BUILTIN_COUNT ? cj_exc_lookup((int)n) : NULL;
        PyObject *pair = exc ? PyTuple_Pack(2, id, exc) : NULL;
        if (n >= CJ_EXC_BUILTIN_COUNT && (pair == NULL || PyList_Append(excs, pair) < 0)) {
            Py_CLEAR(excs);
        }
        Py_XDECREF(pair);
        Py_DECREF(id);
        if (excs == NULL) {
            break;
        }
    }
    Py_XDECREF(it);
    if (excs == NULL || PyErr_Occurred()) {
        Py_XDECREF(excs);
        return NULL;
    }
    PyObject *entry = Py_BuildValue("{s:s,s:s,s:O,s:O,s:O,s:O,s:N}", "symbol", ov->symbol,
                                    "wrapper", ov->wrapper, "bitcode", ov->bitcode,
                                    "module", ov->jit_bitcode, "annotation", ov->annotation,
                                    "llvm_ir", ov->llvm_ir, "exceptions", excs);
    return entry;
}

/* Parses bitcode bytes into `ctx`; NULL + LoweringError. */
static LLVMModuleRef parse(LLVMContextRef ctx, PyObject *bytes) {
    if (bytes == NULL || !PyBytes_Check(bytes)) { /* the entry is data: check every field */
        PyErr_SetString(PyExc_TypeError, "cache entry: bitcode must be bytes");
        return NULL;
    }
    return cj_module_parse(ctx, bytes, "cached", "cache entry: unreadable bitcode");
}

static int rename_function(LLVMModuleRef mod, const char *from, const char *to) {
    LLVMValueRef f = LLVMGetNamedFunction(mod, from);
    if (f == NULL) {
        PyErr_Format(cj_LoweringError, "cache entry: no function %s", from);
        return -1;
    }
    LLVMSetValueName2(f, to, strlen(to));
    return 0;
}

static const char *entry_str(PyObject *entry, const char *key) {
    PyObject *v = PyDict_GetItemString(entry, key);
    if (v == NULL || !PyUnicode_Check(v)) {
        PyErr_Format(PyExc_TypeError, "cache entry: %s missing", key);
        return NULL;
    }
    return PyUnicode_AsUTF8(v);
}

/* Puts the entry's exceptions at their ids: 1 all placed, 0 an id holds another one. */
static int place_exceptions(PyObject *entry) {
    PyObject *excs = PyDict_GetItemString(entry, "exceptions");
    if (excs == NULL || !PyList_Check(excs)) {
        PyErr_SetString(PyExc_TypeError, "cache entry: exceptions missing");
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(excs); i++) {
        PyObject *pair = PyList_GET_ITEM(excs, i);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_TypeError, "cache entry: bad exception record");
            return -1;
        }
        long id = PyLong_Check(PyTuple_GET_ITEM(pair, 0))
                      ? PyLong_AsLong(PyTuple_GET_ITEM(pair, 0)) : -1;
        if (id < CJ_EXC_BUILTIN_COUNT || id > INT_MAX) { /* only hashed ids are exported */
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "cache entry: bad exception id");
            return -1;
        }
        int rc = cj_exc_register_at((int)id, PyTuple_GET_ITEM(pair, 1));
        if (rc != 0) {
            return rc < 0 ? -1 : 0;
        }
    }
    return 1;
}

/* The callers' bitcode with the function renamed (new bytes). */
static PyObject *renamed_bitcode(PyObject *bytes, const char *from, const char *to) {
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef mod = parse(ctx, bytes);
    PyObject *out = NULL;
    if (mod != NULL && rename_function(mod, from, to) == 0) {
        out = cj_module_bitcode(mod);
    }
    if (mod != NULL) {
        LLVMDisposeModule(mod);
    }
    LLVMContextDispose(ctx);
    return out;
}

cj_overload *cj_overload_import(PyObject *entry, const cj_type *const *argtypes, int nargs,
                                const cj_type *ret, const char *qualname) {
    const char *old_sym = entry_str(entry, "symbol"), *old_wrap = entry_str(entry, "wrapper");
    if (old_sym == NULL || old_wrap == NULL) {
        return NULL;
    }
    int placed = place_exceptions(entry);
    if (placed <= 0) {
        return NULL; /* 0: not for this process, no exception */
    }
    cj_overload *ov = PyMem_Calloc(1, sizeof(cj_overload));
    if (ov == NULL || cj_fill_overload(ov, argtypes, nargs, ret) < 0) {
        cj_overload_free(ov);
        return ov ? NULL : (cj_overload *)PyErr_NoMemory();
    }
    ov->symbol = cj_make_symbol(qualname);
    size_t n = ov->symbol ? strlen(ov->symbol) + 16 : 0;
    ov->wrapper = n ? PyMem_Malloc(n) : NULL;
    if (ov->wrapper == NULL) {
        cj_overload_free(ov);
        return (cj_overload *)PyErr_NoMemory();
    }
    PyOS_snprintf(ov->wrapper, n, "%s.wrapper", ov->symbol);
    LLVMContextRef ctx = cj_cpu_context();
    LLVMModuleRef mod = ctx ? parse(ctx, PyDict_GetItemString(entry, "module")) : NULL;
    if (mod == NULL || rename_function(mod, old_sym, ov->symbol) < 0 ||
        rename_function(mod, old_wrap, ov->wrapper) < 0 || cj_verify_module(mod) < 0) {
        if (mod != NULL) {
            LLVMDisposeModule(mod);
        }
        cj_overload_free(ov);
        return NULL;
    }
    ov->bitcode = renamed_bitcode(PyDict_GetItemString(entry, "bitcode"), old_sym, ov->symbol);
    ov->annotation = Py_XNewRef(PyDict_GetItemString(entry, "annotation"));
    ov->llvm_ir = Py_XNewRef(PyDict_GetItemString(entry, "llvm_ir"));
    if (ov->bitcode == NULL || ov->annotation == NULL || ov->llvm_ir == NULL ||
        cj_cpu_add_module(mod) < 0) { /* takes mod */
        if (ov->bitcode == NULL || ov->annotation == NULL || ov->llvm_ir == NULL) {
            LLVMDisposeModule(mod);
        }
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "cache entry: texts missing");
        }
        cj_overload_free(ov);
        return NULL;
    }
    PyObject *excs = PyDict_GetItemString(entry, "exceptions");
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(excs); i++) {
        if (PySet_Add(ov->exc_ids, PyTuple_GET_ITEM(PyList_GET_ITEM(excs, i), 0)) < 0) {
            cj_overload_free(ov);
            return NULL;
        }
    }
    ov->entry = (int (*)(void *, void **))cj_cpu_lookup(ov->wrapper);
    if (ov->entry == NULL) {
        cj_overload_free(ov);
        return NULL;
    }
    return ov;
}
