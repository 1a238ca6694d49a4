/* cpointer.c: typing of C pointers (numba's CPointer, types/cpointer.c) and of cffi's
 * ffi.from_buffer, numba's way to hand an array to a foreign function
 * (numba/core/typing/cffi_utils.py, numba's texts):
 *   ffi.from_buffer(a)   CPointer(a.dtype) of a C-contiguous (or 1-d F) array: its data
 *   p[i]                 the element at p + i (numba: no bounds check, no negative wrap)
 *   p[i] = v             v converted to the element type, stored there
 * The ffi is a global cffi.FFI() (or a compiled module's ffi), known by its class's module
 * and name so cujit does not import cffi. Lowering: lower_cpointer.c; from_buffer is a cast
 * of the array to the pointer (lower_types.c's cj_cast). */
#include "typing/infer_internal.h"

#include <string.h>

/* Whether class `cls` is cffi's FFI: cffi.api.FFI or _cffi_backend.FFI (compiled modules). */
static int is_ffi_class(PyObject *cls) {
    PyObject *module = PyObject_GetAttrString(cls, "__module__");
    PyObject *name = module ? PyObject_GetAttrString(cls, "__name__") : NULL;
    int found = module != NULL && name != NULL && PyUnicode_Check(module) &&
                PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, "FFI") == 0 &&
                (PyUnicode_CompareWithASCIIString(module, "cffi.api") == 0 ||
                 PyUnicode_CompareWithASCIIString(module, "_cffi_backend") == 0);
    Py_XDECREF(module);
    Py_XDECREF(name);
    PyErr_Clear();
    return found;
}

int cj_is_ffi_instance(PyObject *obj) {
    PyObject *mro = Py_TYPE(obj)->tp_mro; /* a subclass of FFI too */
    for (Py_ssize_t i = 0; mro != NULL && i < PyTuple_GET_SIZE(mro); i++) {
        if (is_ffi_class(PyTuple_GET_ITEM(mro, i))) {
            return 1;
        }
    }
    return 0;
}

int cj_type_ffi_getattr(cj_infer_ctx *c, cj_instr *in, const cj_type *t, const char *name,
                        const cj_type **out) {
    if (strcmp(name, "from_buffer") != 0) { /* numba types only this one (its type "ffi") */
        return cj_typing_error(c, in, "Unknown attribute '%s' of type ffi", name);
    }
    *out = cj_type_bound(t, in->obj);
    return *out ? 1 : -1;
}

/* numba's index of a pointer: an integer (a bool is no Integer there). */
static int is_pointer_index(const cj_type *idx) { return idx->kind == CJ_INT; }

int cj_type_cpointer_getitem(cj_infer_ctx *c, cj_instr *in, const cj_type *t,
                             const cj_type *idx, const cj_type **out) {
    if (t->dtype == NULL || !is_pointer_index(idx)) { /* voidptr: nothing to read */
        return cj_invalid_use(c, in, "getitem");
    }
    *out = t->dtype;
    return 1;
}

int cj_type_cpointer_setitem(cj_infer_ctx *c, cj_instr *in, const cj_type *t,
                             const cj_type *idx, const cj_type *val) {
    if (t->dtype == NULL || !is_pointer_index(idx) || !cj_can_convert(val, t->dtype)) {
        return cj_invalid_use(c, in, "setitem");
    }
    return 1;
}

/* ffi.from_buffer(a): numba's FFI_from_buffer template. */
int cj_type_ffi_method(cj_infer_ctx *c, cj_instr *in, const cj_type *bound,
                       const cj_type **out) {
    if (in->nargs != 2 || in->index != 0) { /* index: the keyword count */
        return cj_typing_error(c, in, "ffi.from_buffer() takes one array (cujit does not "
                                      "support its other arguments)");
    }
    const cj_type *a = cj_vt(c, in->args[1]);
    if (a->kind != CJ_ARRAY) {
        return cj_typing_error(c, in, "from_buffer() expected a buffer object, got %s",
                               a->name);
    }
    if (a->layout != 'C' && a->layout != 'F') {
        return cj_typing_error(c, in, "from_buffer() unsupported on non-contiguous buffers "
                                      "(got %s)", a->name);
    }
    if (a->layout != 'C' && a->ndim > 1) {
        return cj_typing_error(c, in, "from_buffer() only supports multidimensional arrays "
                                      "with C layout (got %s)", a->name);
    }
    const cj_type *ptr = cj_type_cpointer(a->dtype);
    if (ptr == NULL) {
        return cj_reraise_at(c, in, NULL);
    }
    if (cj_plain_call(c, in, CJ_CALL_CAST, -1) == NULL) { /* the data pointer, cj_cast */
        return -1;
    }
    *out = ptr;
    return 1;
}
