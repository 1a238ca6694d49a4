/* access.c: typing of attributes, indexing, item assignment and unpacking.
 * Array indexing follows numba's layout rules: integer indices on the left keep an array
 * C-contiguous, as does a step-less slice in the innermost indexed position; anything else
 * gives layout 'A'. None (np.newaxis) adds an axis of length 1 and leaves the layout to the
 * other indices. Arrays' .real/.imag and reshaping methods: array_shape.c. Module attributes are resolved now: the instruction becomes a constant
 * (math.pi) or a global object (math.sqrt). */
#include "typing/infer_internal.h"
#include "typing/cuda_intrinsics.h"

#include <string.h>

#include "util/npy.h"

/* ---- attributes ---- */

/* Rewrites `module.attr` into the value it names, typed as a constant or an object. */
static int resolve_module_attr(cj_infer_ctx *c, cj_instr *in, PyObject *owner,
                               const cj_type **out) {
    PyObject *value = PyObject_GetAttr(owner, in->obj);
    if (value == NULL) {
        PyErr_Clear();
        return cj_typing_error(c, in, "Unknown attribute '%U' of type %s", in->obj,
                               cj_vt(c, in->args[0])->name);
    }
    if (cj_ir_keep(c->ir, value) == NULL) {
        Py_DECREF(value);
        return -1;
    }
    Py_DECREF(value); /* the IR keeps it */
    int constant = PyLong_Check(value) || PyFloat_Check(value) || PyComplex_Check(value) ||
                   PyTuple_Check(value) || value == Py_None;
    in->name = in->obj;
    in->obj = value;
    in->nargs = 0;
    in->op = constant ? CJ_I_CONST : CJ_I_GLOBAL;
    if (constant) {
        return cj_const_type_at(c, in, value, out);
    }
    *out = cj_type_const_obj(value);
    return *out ? 1 : -1;
}

static const cj_type *dims_tuple(int ndim) {
    const cj_type *items[32];
    for (int i = 0; i < ndim; i++) {
        items[i] = cj_t_int64;
    }
    return cj_type_tuple(ndim, items);
}

/* The attribute read `in` becomes the constant `value` (a new reference, taken; kept alive by
 * the function's keep list): 0, or -1 with an exception. */
static int become_constant(cj_infer_ctx *c, cj_instr *in, PyObject *value) {
    if (value == NULL || cj_ir_keep(c->ir, value) == NULL) {
        Py_XDECREF(value);
        return -1;
    }
    Py_DECREF(value);
    in->op = CJ_I_CONST;
    in->obj = value;
    in->nargs = 0;
    return 0;
}

/* a.dtype is known at compile time: it becomes the np.dtype constant, usable wherever a
 * dtype is (np.zeros(n, a.dtype), a.astype(b.dtype)), as numba's DType. */
static int array_dtype_constant(cj_infer_ctx *c, cj_instr *in, const cj_type *t,
                                const cj_type **out) {
    PyObject *descr = t->dtype->kind == CJ_RECORD
                          ? Py_NewRef(t->dtype->obj) /* record.c keeps the dtype */
                          : (PyObject *)PyArray_DescrFromType(cj_type_npy_typenum(t->dtype));
    if (become_constant(c, in, descr) < 0) {
        return -1;
    }
    *out = cj_type_const_obj(descr);
    return *out ? 1 : -1;
}

static int array_attr(cj_infer_ctx *c, cj_instr *in, const cj_type *t, const char *name,
                      const cj_type **out) {
    if (t->dtype->kind == CJ_RECORD && !cj_record_array_attr_ok(name)) {
        if (cj_record_field_index(t->dtype, name) >= 0) { /* a.x: record_access.c */
            return cj_type_record_getattr(c, in, t, name, out);
        }
        return cj_typing_error(c, in, "Unknown attribute '%s' of type %s", name, t->name);
    }
    if (strcmp(name, "shape") == 0 || strcmp(name, "strides") == 0) {
        *out = dims_tuple(t->ndim);
        return *out ? 1 : -1;
    }
    if (strcmp(name, "size") == 0 || strcmp(name, "nbytes") == 0) {
        *out = cj_t_int64;
        return 1;
    }
    if (strcmp(name, "ndim") == 0 || strcmp(name, "itemsize") == 0) {
        /* known at compile time: becomes a constant */
        long v = strcmp(name, "ndim") == 0 ? t->ndim : (long)cj_abi_size(t->dtype);
        if (become_constant(c, in, PyLong_FromLong(v)) < 0) {
            return -1;
        }
        *out = cj_t_int64;
        return 1;
    }
    if (strcmp(name, "dtype") == 0) {
        return array_dtype_constant(c, in, t, out);
    }
    if (strcmp(name, "flat") == 0) { /* iterators.c */
        *out = cj_type_flat_of(t);
        return *out ? 1 : -1;
    }
    if (strcmp(name, "T") == 0) {
        *out = cj_transposed(t);
        return *out ? 1 : -1;
    }
    if (strcmp(name, "real") == 0 || strcmp(name, "imag") == 0) {
        *out = cj_array_part_type(c, in, t);
        return *out ? 1 : -1;
    }
    if ((cj_reduction_by_name(name) >= 0 && strcmp(name, "amin") != 0 &&
         strcmp(name, "amax") != 0) ||
        cj_array_method_by_name(name) >= 0 || cj_shape_method_by_name(name) >= 0 ||
        cj_sort_method_by_name(name) >= 0 || cj_search_method_by_name(name) >= 0) {
        /* a.sum(), a.copy(), a.reshape(), a.sort(): typed at the call */
        *out = cj_type_bound(t, in->obj);
        return *out ? 1 : -1;
    }
    return 2; /* not one of the core's */
}

int cj_type_getattr(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    const cj_type *t = cj_vt(c, in->args[0]);
    if (t == NULL) {
        return 0;
    }
    const char *name = PyUnicode_AsUTF8(in->obj);
    if (name == NULL) {
        return -1;
    }
    if (t->kind == CJ_RECORD) { /* record_access.c */
        return cj_type_record_getattr(c, in, t, name, out);
    }
    int cuda = cj_cuda_type_getattr(c, in, out); /* CUDA intrinsics (cuda_typing.c) */
    if (cuda != 2) {
        return cuda;
    }
    if (t->kind == CJ_CONST_OBJ && (PyModule_Check(t->obj) || PyType_Check(t->obj) ||
                                    (strcmp(name, "value") == 0 &&
                                     cj_is_enum_member(t->obj)))) { /* enums.c: m.value */
        return resolve_module_attr(c, in, t->obj, out);
    }
    if (t->kind == CJ_CONST_OBJ && cj_is_ffi_instance(t->obj)) { /* cpointer.c */
        return cj_type_ffi_getattr(c, in, t, name, out);
    }
    if (t->kind == CJ_ARRAY) {
        int known = array_attr(c, in, t, name, out);
        if (known != 2) {
            return known;
        }
        int ext = cj_type_extension_getattr(c, in, t, out); /* extensions.c */
        return ext != 2 ? ext
                        : cj_unsupported_error(c, in, "array attribute '%s' of %s is not "
                                                      "supported yet", name, t->name);
    }
    if (t->kind == CJ_TUPLE && strcmp(name, "index") == 0) { /* t.index(x): tuples.c */
        *out = cj_type_bound(t, in->obj);
        return *out ? 1 : -1;
    }
    if (t->kind == CJ_LIST || t->kind == CJ_DICT || t->kind == CJ_SET) { /* methods: lists.c,
                                                                          * dicts.c, sets.c */
        *out = cj_type_bound(t, in->obj);
        return *out ? 1 : -1;
    }
    if ((t->kind == CJ_RANGE || t->kind == CJ_SLICE) &&
        (strcmp(name, "start") == 0 || strcmp(name, "stop") == 0 ||
         strcmp(name, "step") == 0)) { /* its fields (lower.c, lower_slice.c) */
        *out = cj_t_int64;
        return 1;
    }
    if (cj_type_is_number(t)) {
        if (strcmp(name, "real") == 0 || strcmp(name, "imag") == 0) {
            *out = t->kind == CJ_COMPLEX ? (t->bits == 64 ? cj_t_float32 : cj_t_float64)
                   : t->kind == CJ_BOOL  ? cj_t_int64 : t;
            return 1;
        }
        if (strcmp(name, "conjugate") == 0) {
            *out = cj_type_bound(t, in->obj);
            return *out ? 1 : -1;
        }
    }
    int ext = cj_type_extension_getattr(c, in, t, out); /* extensions.c */
    return ext != 2 ? ext
                    : cj_typing_error(c, in, "Unknown attribute '%s' of type %s", name, t->name);
}

/* ---- indexing ---- */

/* IDX_NONE: None / np.newaxis, a new axis of length 1 (stride 0, as NumPy's) */
enum { IDX_INT, IDX_SLICE2, IDX_SLICE3, IDX_NONE, IDX_BAD };

static int index_kind(const cj_type *t) {
    if (cj_type_is_integer(t) && t->kind != CJ_BOOL) {
        return IDX_INT;
    }
    if (t->kind == CJ_NONE) {
        return IDX_NONE;
    }
    if (t->kind == CJ_SLICE) {
        return t->n == 3 ? IDX_SLICE3 : IDX_SLICE2;
    }
    return IDX_BAD;
}

static int keeps_contiguity(int kind, int innermost) {
    return kind == IDX_INT || (innermost && kind == IDX_SLICE2);
}

/* numba's layout of a view a[indices] for an array of `layout` (C or F; A stays A). A new
 * axis (None) is left out: its length is 1. */
static char view_layout(char layout, int ndim, const int *all_kinds, int nall) {
    int kinds[64], n = 0;
    for (int i = 0; i < nall; i++) {
        if (all_kinds[i] != IDX_NONE) {
            kinds[n++] = all_kinds[i];
        }
    }
    if (n == 0 || layout == 'A') {
        return layout == 'C' ? 'C' : 'A'; /* numba: F with only new axes is A */
    }
    if (layout == 'F' && n < ndim) {
        return 'A';
    }
    for (int i = 0; i < n; i++) {
        /* for C the innermost index is the last given; for F it is the first */
        int pos = layout == 'C' ? i : n - 1 - i;
        if (!keeps_contiguity(kinds[pos], i == n - 1)) {
            return 'A';
        }
    }
    return layout;
}

/* The type of array[index...], with `kinds` describing each index. */
static const cj_type *array_index_type(const cj_type *arr, const int *kinds, int n) {
    int ints = 0, nones = 0;
    for (int i = 0; i < n; i++) {
        ints += kinds[i] == IDX_INT;
        nones += kinds[i] == IDX_NONE;
    }
    int ndim = arr->ndim - ints + nones;
    if (ndim == 0) {
        return arr->dtype;
    }
    return cj_type_array(arr->dtype, ndim, view_layout(arr->layout, arr->ndim, kinds, n),
                         arr->readonly);
}

/* Index kinds of an index value (an int, a slice, None, or a tuple of them): at most `max`
 * that are not None, 64 in all; -1 when invalid. */
static int collect_kinds(const cj_type *idx, int *kinds, int max) {
    if (idx->kind == CJ_TUPLE) {
        int real = 0;
        if (idx->n > 64) {
            return -1;
        }
        for (int i = 0; i < idx->n; i++) {
            kinds[i] = index_kind(idx->items[i]);
            real += kinds[i] != IDX_NONE;
            if (kinds[i] == IDX_BAD || real > max) {
                return -1;
            }
        }
        return idx->n;
    }
    kinds[0] = index_kind(idx);
    return kinds[0] == IDX_BAD ? -1 : 1;
}

int cj_invalid_use(cj_infer_ctx *c, cj_instr *in, const char *what) {
    PyObject *types = cj_argtypes_text(c, in, 0);
    if (types == NULL) {
        return -1;
    }
    cj_typing_error(c, in, "Invalid use of %s with argument(s) of type(s): %U", what, types);
    Py_DECREF(types);
    return -1;
}

/* tuple[i] with a constant i (any tuple) or a run-time i (homogeneous tuples); a slice:
 * tuples.c. */
static int tuple_getitem(cj_infer_ctx *c, cj_instr *in, const cj_type *t, const cj_type *idx,
                         const cj_type **out) {
    if (idx->kind == CJ_SLICE) {
        return cj_type_tuple_slice(c, in, t, out);
    }
    if (!cj_type_is_integer(idx)) {
        return cj_invalid_use(c, in, "getitem");
    }
    PyObject *k = cj_const_of(c, in->args[1]);
    if (k != NULL && PyLong_Check(k)) {
        long i = PyLong_AsLong(k);
        if (i < 0) {
            i += t->n;
        }
        if (i < 0 || i >= t->n) {
            return cj_typing_error(c, in, "tuple index out of range (index %R of %s)", k,
                                   t->name);
        }
        in->sub = 1; /* static index */
        in->index = (int)i;
        *out = t->items[i];
        return 1;
    }
    if (t->n > 0 && cj_type_is_unituple(t)) {
        in->sub = 0;
        *out = t->items[0];
        return 1;
    }
    return cj_typing_error(c, in, "cannot index %s with a run-time index (its items differ)",
                           t->name);
}

int cj_type_getitem(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    const cj_type *t = cj_vt(c, in->args[0]), *idx = cj_vt(c, in->args[1]);
    if (t == NULL || idx == NULL) {
        return 0;
    }
    if (t->kind == CJ_TUPLE) {
        return tuple_getitem(c, in, t, idx, out);
    }
    if (cj_is_record_subject(t)) { /* rec['x'], a['x'] (record_access.c) */
        int rc = cj_type_record_getitem(c, in, t, out);
        if (rc != 2) {
            return rc;
        }
    }
    if (cj_type_is_flat(t)) { /* a.flat[i] */
        return cj_type_flat_getitem(c, in, t, idx, out);
    }
    if (t->kind == CJ_LIST) {
        return cj_type_list_getitem(c, in, t, idx, out); /* lists.c */
    }
    if (t->kind == CJ_DICT) {
        return cj_type_dict_getitem(c, in, t, idx, out); /* dicts.c */
    }
    if (t->kind == CJ_CPOINTER) {
        return cj_type_cpointer_getitem(c, in, t, idx, out); /* cpointer.c */
    }
    if (t->kind != CJ_ARRAY) {
        return cj_invalid_use(c, in, "getitem");
    }
    if (idx->kind == CJ_ARRAY) { /* array_fancy.c */
        return cj_type_fancy_getitem(c, in, t, idx, out);
    }
    int kinds[64];
    int n = collect_kinds(idx, kinds, t->ndim);
    if (n < 0) {
        if (idx->kind == CJ_TUPLE && idx->n <= t->ndim) {
            return cj_unsupported_error(c, in, "advanced (array or boolean) indexing of %s "
                                               "with %s is not supported yet", t->name,
                                        idx->name);
        }
        return cj_invalid_use(c, in, "getitem");
    }
    in->optype = idx;
    *out = array_index_type(t, kinds, n);
    return *out ? 1 : -1;
}

int cj_type_setitem(cj_infer_ctx *c, cj_instr *in) {
    const cj_type *t = cj_vt(c, in->args[0]), *idx = cj_vt(c, in->args[1]);
    const cj_type *val = cj_vt(c, in->args[2]);
    if (t == NULL || idx == NULL || val == NULL) {
        return 0;
    }
    if (cj_is_record_subject(t)) { /* rec.x = v, rec['x'] = v (record_access.c) */
        int rc = cj_type_record_setitem(c, in, t, val);
        if (rc != 2) {
            return rc;
        }
    } else if (in->flags & CJ_F_ATTR) {
        int rc = cj_type_extension_setattr(c, in, t); /* extensions.c */
        if (rc != 2) {
            return rc;
        }
        return cj_unsupported_error(c, in, "cujit does not support attribute assignment "
                                           "(to %s): only a record's fields take one", t->name);
    } else if (t->kind == CJ_LIST) {
        return cj_type_list_setitem(c, in, t, idx, val); /* lists.c */
    } else if (t->kind == CJ_DICT) {
        return cj_type_dict_setitem(c, in, t, idx, val); /* dicts.c */
    } else if (t->kind == CJ_CPOINTER) {
        return cj_type_cpointer_setitem(c, in, t, idx, val); /* cpointer.c */
    }
    const cj_type *arr = cj_type_is_flat(t) ? t->source : t; /* a.flat[i] = v: a's */
    if (arr->kind != CJ_ARRAY) {
        return cj_invalid_use(c, in, "setitem");
    }
    if (arr->readonly) {
        PyObject *types = cj_argtypes_text(c, in, 0);
        if (types == NULL) {
            return -1;
        }
        cj_typing_error(c, in, "Invalid use of setitem with argument(s) of type(s): %U\n"
                               " * Cannot modify readonly array of type: %s", types, arr->name);
        Py_DECREF(types);
        return -1;
    }
    if (arr != t) {
        return cj_type_flat_setitem(c, in, t, idx, val);
    }
    if (idx->kind == CJ_ARRAY) { /* array_fancy.c */
        return cj_type_fancy_setitem(c, in, t, idx, val);
    }
    int kinds[64];
    int n = collect_kinds(idx, kinds, t->ndim);
    if (n < 0) {
        return cj_invalid_use(c, in, "setitem");
    }
    const cj_type *target = array_index_type(t, kinds, n);
    if (target == NULL) {
        return -1;
    }
    int scalar_ok = (cj_type_is_number(val) && cj_type_is_number(t->dtype) &&
                     !(val->kind == CJ_COMPLEX && t->dtype->kind != CJ_COMPLEX)) ||
                    (val->kind == CJ_RECORD && val == t->dtype); /* a[i] = a[j] */
    int array_ok = val->kind == CJ_ARRAY && target->kind == CJ_ARRAY &&
                   cj_type_is_number(val->dtype) && cj_type_is_number(t->dtype) &&
                   val->ndim <= target->ndim &&
                   !(val->dtype->kind == CJ_COMPLEX && t->dtype->kind != CJ_COMPLEX);
    if (!scalar_ok && !array_ok) { /* an array broadcasts into the view (lower_array_expr.c) */
        return cj_invalid_use(c, in, "setitem");
    }
    in->optype = target; /* a scalar target stores one element, an array target fills */
    return 1;
}

/* seq[i] of UNPACK_SEQUENCE: a tuple of exactly `sub` items. */
int cj_type_static_item(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    const cj_type *t = cj_vt(c, in->args[0]);
    if (t == NULL) {
        return 0;
    }
    if (t->kind != CJ_TUPLE) {
        return cj_unsupported_error(c, in, "cujit can only unpack tuples, not %s", t->name);
    }
    if (t->n != in->sub) {
        return cj_typing_error(c, in, "cannot unpack %s into %d values", t->name, in->sub);
    }
    *out = t->items[in->index];
    return 1;
}
