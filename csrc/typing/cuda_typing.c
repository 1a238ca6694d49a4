/* cuda_typing.c: typing of the CUDA intrinsics (numba-cuda's types: threadIdx.x is int32,
 * cuda.grid(1) is int64, atomics return the array's dtype, ...). The intrinsics are Python
 * objects registered by pkg/cujit/cuda/intrinsics.py and found by identity; their calls
 * resolve to CJ_CALL_CUDA records (builtin = intrinsic id) that lower_cuda.c lowers.
 * Hooks called by the core: cj_cuda_type_call (builtins.c), cj_cuda_type_getattr (access.c). */
#include "typing/cuda_intrinsics.h"

#include <string.h>

#include "util/npy.h"

const char *const cj_cuda_intrinsic_names[CJ_CU_COUNT] = {
#define CJ_CUDA_NAME(id, name) name,
    CJ_CUDA_INTRINSICS(CJ_CUDA_NAME)
#undef CJ_CUDA_NAME
};

static PyObject *intrinsic_ids; /* dict: object -> intrinsic id */
static PyObject *intrinsic_objects[CJ_CU_COUNT]; /* id -> object, borrowed from the dict */

PyObject *cj_cuda_intrinsic_object(int id) {
    return id >= 0 && id < CJ_CU_COUNT ? intrinsic_objects[id] : NULL;
}

int cj_cuda_intrinsic_lookup(PyObject *obj) {
    if (intrinsic_ids == NULL) {
        return -1;
    }
    PyObject *v = PyDict_GetItemWithError(intrinsic_ids, obj); /* borrowed */
    if (v == NULL) {
        PyErr_Clear(); /* unhashable objects are simply not intrinsics */
        return -1;
    }
    return (int)PyLong_AsLong(v);
}

/* ---- helpers ---- */

static int is_thread_index(int id) {
    return id == CJ_CU_TID || id == CJ_CU_CTAID || id == CJ_CU_NTID || id == CJ_CU_NCTAID;
}

static int is_namespace(int id) {
    return id == CJ_CU_SHARED || id == CJ_CU_LOCAL || id == CJ_CU_CONST || id == CJ_CU_ATOMIC ||
           id == CJ_CU_CG_GRID_GROUP || id == CJ_CU_CG_THREAD_BLOCK;
}

static const char *iname(int id) { return cj_cuda_intrinsic_names[id]; }

/* The compile-time value of a variable: constants, copies of them, tuples built from them
 * (borrowed, kept by the IR; NULL when not known at compile time). */
static PyObject *const_value(cj_infer_ctx *c, int var, int depth) {
    cj_instr *d = c->def[var];
    while (d != NULL && d->op == CJ_I_COPY) {
        d = c->def[d->args[0]];
    }
    if (d == NULL || depth > 8) {
        return NULL;
    }
    if (d->op == CJ_I_CONST || d->op == CJ_I_GLOBAL) {
        return d->obj;
    }
    if (d->op != CJ_I_BUILD_TUPLE) {
        return NULL;
    }
    PyObject *t = PyTuple_New(d->nargs);
    if (t == NULL) {
        PyErr_Clear();
        return NULL;
    }
    for (int i = 0; i < d->nargs; i++) {
        PyObject *item = const_value(c, d->args[i], depth + 1);
        if (item == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        Py_INCREF(item);
        PyTuple_SET_ITEM(t, i, item);
    }
    if (cj_ir_keep(c->ir, t) == NULL) {
        PyErr_Clear();
        Py_DECREF(t);
        return NULL;
    }
    Py_DECREF(t); /* the IR keeps it */
    return t;
}

/* The arguments of a call in parameter order, keywords folded by name; -1 with TypingError. */
static int fold(cj_infer_ctx *c, cj_instr *in, int id, const char *const *params, int nparams,
                int nrequired, int *vars) {
    int nkw = in->index, npos = in->nargs - 1 - nkw;
    if (npos > nparams) {
        return cj_typing_error(c, in, "cuda.%s() takes at most %d arguments (%d given)",
                               iname(id), nparams, npos);
    }
    for (int i = 0; i < nparams; i++) {
        vars[i] = i < npos ? in->args[1 + i] : -1;
    }
    for (int k = 0; k < nkw; k++) {
        PyObject *kw = PyTuple_GET_ITEM(in->obj, k);
        int found = -1;
        for (int p = 0; p < nparams; p++) {
            if (PyUnicode_CompareWithASCIIString(kw, params[p]) == 0) {
                found = p;
            }
        }
        if (found < 0 || vars[found] >= 0) {
            return cj_typing_error(c, in, found < 0 ? "cuda.%s() got an unexpected keyword "
                                                      "argument '%U'"
                                                    : "cuda.%s() got multiple values for '%U'",
                                   iname(id), kw);
        }
        vars[found] = in->args[1 + npos + k];
    }
    for (int p = 0; p < nrequired; p++) {
        if (vars[p] < 0) {
            return cj_typing_error(c, in, "cuda.%s() missing required argument '%s'",
                                   iname(id), params[p]);
        }
    }
    return 0;
}

cj_call *cj_cuda_record(cj_infer_ctx *c, cj_instr *in, int id, int nargs, const int *vars) {
    cj_arena *a = &c->ir->arena;
    cj_call *call = cj_arena_alloc(a, sizeof(cj_call));
    if (call == NULL) {
        return NULL;
    }
    call->kind = CJ_CALL_CUDA;
    call->builtin = id;
    call->nargs = nargs;
    call->args = cj_arena_alloc(a, sizeof(int) * (size_t)(nargs + 1));
    call->argtypes = cj_arena_alloc(a, sizeof(cj_type *) * (size_t)(nargs + 1));
    if (call->args == NULL || call->argtypes == NULL) {
        return NULL;
    }
    for (int i = 0; i < nargs; i++) {
        call->args[i] = vars[i];
        call->argtypes[i] = vars[i] >= 0 ? cj_vt(c, vars[i]) : NULL;
    }
    in->resolved = call;
    return call;
}

int cj_cuda_no_implementation(cj_infer_ctx *c, cj_instr *in, const char *qualname,
                              const char *name) {
    PyObject *types = cj_argtypes_text(c, in, 1);
    if (types == NULL) {
        return -1;
    }
    cj_typing_error(c, in, "No implementation of function %s found for signature:\n \n "
                           ">>> %s%U", qualname, name, types);
    Py_DECREF(types);
    return -1;
}

static int bad_args(cj_infer_ctx *c, cj_instr *in, int id) {
    char qualname[64];
    PyOS_snprintf(qualname, sizeof(qualname), "cuda.%s", iname(id));
    return cj_cuda_no_implementation(c, in, qualname, iname(id));
}

static int is_int(const cj_type *t) { return t != NULL && t->kind == CJ_INT; }
static int is_float(const cj_type *t) { return t != NULL && t->kind == CJ_FLOAT; }

typedef struct float_sigs {
    int n;
    const cj_type *t[2][3];
} float_sigs;

static const cj_type *const *float_sig(void *table, int i, int *nargs) {
    *nargs = ((float_sigs *)table)->n;
    return ((float_sigs *)table)->t[i];
}

/* numba-cuda's choice between the all-float32 and the all-float64 signature of cbrt (n = 1) or
 * fma (n = 3) by its conversion rule (int8/int16/uint8/bool/float16: float32; wider ints,
 * float64), NULL when neither takes the arguments. */
static const cj_type *float32_or_64(const cj_type *const *args, int n) {
    float_sigs s = {n, {{cj_t_float32, cj_t_float32, cj_t_float32},
                        {cj_t_float64, cj_t_float64, cj_t_float64}}};
    for (int i = 0; i < n; i++) {
        if (args[i] == NULL || args[i]->kind == CJ_COMPLEX) {
            return NULL;
        }
    }
    int i = cj_best_conversion(args, n, float_sig, &s, 2);
    return i < 0 ? NULL : s.t[i][0];
}

/* A dtype argument: a cujit type, a NumPy scalar class or a NumPy dtype (records too). */
static const cj_type *dtype_of(PyObject *obj) {
    if (obj == NULL) {
        return NULL;
    }
    const cj_type *t = cj_type_from_py(obj);
    if (t != NULL) {
        return cj_type_is_number(t) || t->kind == CJ_RECORD ? t : NULL;
    }
    PyArray_Descr *d = NULL;
    if (PyArray_DescrCheck(obj) && PyDataType_HASFIELDS((PyArray_Descr *)obj)) {
        t = cj_type_from_descr(obj); /* record.c */
        PyErr_Clear();                /* the caller says what a dtype must be */
        return t;
    }
    if (PyArray_DescrCheck(obj)) {
        d = (PyArray_Descr *)obj;
        Py_INCREF(d);
    } else if (PyType_Check(obj) &&
               PyType_IsSubtype((PyTypeObject *)obj, &PyGenericArrType_Type)) {
        d = PyArray_DescrFromTypeObject(obj);
    } else if (PyUnicode_Check(obj)) {
        const char *s = PyUnicode_AsUTF8(obj);
        t = s ? cj_type_by_name(s) : NULL;
        PyErr_Clear();
        return t;
    }
    if (d == NULL) {
        PyErr_Clear();
        return NULL;
    }
    t = cj_type_from_npy_typenum(d->type_num);
    Py_DECREF(d);
    return t;
}

/* ---- arrays: shared.array, local.array, const.array_like ---- */

/* cuda.const.array_like(ndarray): a C-contiguous array of the global's dtype and shape, its
 * data baked into the module. */
static int type_const_array_like(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    static const char *const p1[] = {"ndarray"};
    int vars[2];
    if (fold(c, in, id, p1, 1, 1, vars) < 0) {
        return -1;
    }
    PyObject *arr = const_value(c, vars[0], 0);
    if (arr == NULL || !PyArray_Check(arr)) {
        return cj_typing_error(c, in, "cuda.const.array_like() takes a NumPy array known "
                                      "at compile time (a global), not %s",
                               cj_vt(c, vars[0])->name);
    }
    const cj_type *at = cj_typeof(arr);
    if (at == NULL) {
        return -1;
    }
    cj_cuda_array_spec *spec = cj_arena_alloc(&c->ir->arena, sizeof(*spec));
    cj_call *call = spec ? cj_cuda_record(c, in, id, 1, vars) : NULL;
    if (call == NULL) {
        return -1;
    }
    spec->ndim = at->ndim;
    spec->dtype = at->dtype;
    spec->data = arr;
    call->callee = spec;
    *out = cj_type_array(at->dtype, at->ndim, 'C', 0);
    return *out ? 1 : -1;
}

/* Fills spec's ndim and shape from a compile-time int or tuple of 1 to 8 ints, and checks
 * them: positive (0 only for a dynamic 1-d shared array), the total within 2**31. */
static int array_shape(cj_infer_ctx *c, cj_instr *in, int id, PyObject *shape,
                       cj_cuda_array_spec *spec) {
    if (shape != NULL && PyLong_Check(shape)) {
        spec->ndim = 1;
        spec->shape[0] = PyLong_AsLongLong(shape);
    } else if (shape != NULL && PyTuple_Check(shape) && PyTuple_GET_SIZE(shape) >= 1 &&
               PyTuple_GET_SIZE(shape) <= 8) {
        spec->ndim = (int)PyTuple_GET_SIZE(shape);
        for (int i = 0; i < spec->ndim; i++) {
            PyObject *d = PyTuple_GET_ITEM(shape, i);
            spec->shape[i] = PyLong_Check(d) ? PyLong_AsLongLong(d) : -1;
        }
    } else {
        return cj_typing_error(c, in, "cuda.%s(): shape must be an int or a tuple of ints known "
                                      "at compile time", iname(id));
    }
    if (PyErr_Occurred()) {
        return -1;
    }
    long long total = 1;
    for (int i = 0; i < spec->ndim; i++) {
        int dynamic_ok = id == CJ_CU_SHARED_ARRAY && spec->ndim == 1;
        if (spec->shape[i] < 0 || (spec->shape[i] == 0 && !dynamic_ok) ||
            spec->shape[i] > (1LL << 31)) {
            return cj_typing_error(c, in, "cuda.%s(): invalid shape %R", iname(id), shape);
        }
        total *= spec->shape[i];
        if (total > (1LL << 31)) {
            return cj_typing_error(c, in, "cuda.%s(): shape %R is too large", iname(id), shape);
        }
    }
    return 0;
}

/* cuda.shared.array(shape, dtype), cuda.local.array(shape, dtype), cuda.const.array_like. */
static int type_array(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    static const char *const params[] = {"shape", "dtype"};
    int vars[2];
    if (id == CJ_CU_CONST_ARRAY_LIKE) {
        return type_const_array_like(c, in, id, out);
    }
    if (fold(c, in, id, params, 2, 2, vars) < 0) {
        return -1;
    }
    PyObject *shape = const_value(c, vars[0], 0);
    const cj_type *dtype = dtype_of(const_value(c, vars[1], 0));
    if (dtype == NULL) {
        return cj_typing_error(c, in, "cuda.%s(): dtype must be a scalar or record type known "
                                      "at compile time (float32, np.int64, ...), not %s",
                               iname(id),
                               cj_vt(c, vars[1])->name);
    }
    cj_cuda_array_spec *spec = cj_arena_alloc(&c->ir->arena, sizeof(*spec));
    if (spec == NULL || array_shape(c, in, id, shape, spec) < 0) {
        return -1;
    }
    spec->dtype = dtype;
    cj_call *call = cj_cuda_record(c, in, id, 2, vars);
    if (call == NULL) {
        return -1;
    }
    call->callee = spec;
    *out = cj_type_array(dtype, spec->ndim, 'C', 0);
    return *out ? 1 : -1;
}

/* ---- atomics ---- */

static int atomic_dtype_ok(int id, const cj_type *d) {
    int i32_64 = d->kind == CJ_INT && (d->bits == 32 || d->bits == 64);
    int f32_64 = d->kind == CJ_FLOAT && (d->bits == 32 || d->bits == 64);
    switch (id) {
    case CJ_CU_ATOMIC_ADD: /* float16 (sm_70+ PTX): beyond numba-cuda */
    case CJ_CU_ATOMIC_SUB:
    case CJ_CU_ATOMIC_MAX:
    case CJ_CU_ATOMIC_MIN:
    case CJ_CU_ATOMIC_NANMAX:
    case CJ_CU_ATOMIC_NANMIN:
        return i32_64 || f32_64 || d == cj_t_float16;
    case CJ_CU_ATOMIC_EXCH:
        return i32_64 || f32_64;
    case CJ_CU_ATOMIC_INC:
    case CJ_CU_ATOMIC_DEC:
        return i32_64 && !d->is_signed;
    default: /* and_ or_ xor cas */
        return i32_64;
    }
}

static int index_ok(const cj_type *idx, int ndim) {
    if (is_int(idx)) {
        return ndim == 1;
    }
    if (idx->kind != CJ_TUPLE || idx->n != ndim) {
        return 0;
    }
    for (int i = 0; i < idx->n; i++) {
        if (!is_int(idx->items[i])) {
            return 0;
        }
    }
    return 1;
}

static int type_atomic(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    static const char *const p3[] = {"ary", "idx", "val"};
    static const char *const p4[] = {"ary", "idx", "old", "val"};
    static const char *const pcas[] = {"ary", "old", "val"};
    int vars[4];
    int n = id == CJ_CU_ATOMIC_CAS ? 4 : 3;
    const char *const *params = id == CJ_CU_ATOMIC_CAS ? p4 : id == CJ_CU_ATOMIC_CAS2 ? pcas : p3;
    if (fold(c, in, id, params, n, n, vars) < 0) {
        return -1;
    }
    const cj_type *ary = cj_vt(c, vars[0]);
    if (ary->kind != CJ_ARRAY || ary->readonly || !atomic_dtype_ok(id, ary->dtype)) {
        return bad_args(c, in, id);
    }
    int first_value = 2;
    if (id == CJ_CU_ATOMIC_CAS2) {
        if (ary->ndim != 1) {
            return bad_args(c, in, id);
        }
        first_value = 1;
    } else if (!index_ok(cj_vt(c, vars[1]), ary->ndim)) {
        return bad_args(c, in, id);
    }
    for (int i = first_value; i < n; i++) {
        const cj_type *v = cj_vt(c, vars[i]);
        if (!cj_type_is_number(v) || v->kind == CJ_COMPLEX) {
            return bad_args(c, in, id);
        }
    }
    if (cj_cuda_record(c, in, id, n, vars) == NULL) {
        return -1;
    }
    *out = ary->dtype;
    return 1;
}

/* ---- warp functions ---- */

static const cj_type *shfl_value_type(const cj_type *t) {
    if (t->kind == CJ_BOOL || (t->kind == CJ_INT && t->bits <= 32 && t->is_signed)) {
        return cj_t_int32;
    }
    if (t->kind == CJ_INT) {
        return cj_t_int64;
    }
    if (t->kind == CJ_FLOAT) {
        return t->bits == 64 ? cj_t_float64 : cj_t_float32;
    }
    return NULL;
}

static int type_warp(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    int n = in->nargs - 1;
    const cj_type *a = n >= 1 ? cj_vt(c, in->args[1]) : NULL;
    const cj_type *b = n >= 2 ? cj_vt(c, in->args[2]) : NULL;
    const cj_type *d = n >= 3 ? cj_vt(c, in->args[3]) : NULL;
    if (in->index > 0) {
        return cj_typing_error(c, in, "cuda.%s() takes no keyword arguments", iname(id));
    }
    switch (id) {
    case CJ_CU_ACTIVEMASK:
    case CJ_CU_LANEMASK_LT:
        if (n != 0) {
            return bad_args(c, in, id);
        }
        *out = cj_t_uint32;
        break;
    case CJ_CU_ALL_SYNC:
    case CJ_CU_ANY_SYNC:
    case CJ_CU_EQ_SYNC:
    case CJ_CU_BALLOT_SYNC:
        if (n != 2 || !cj_type_is_integer(a) || !cj_rule_has_truth(b) || b->kind == CJ_NONE) {
            return bad_args(c, in, id);
        }
        *out = id == CJ_CU_BALLOT_SYNC ? cj_t_int32 : cj_t_bool;
        break;
    case CJ_CU_SHFL_SYNC:
    case CJ_CU_SHFL_UP_SYNC:
    case CJ_CU_SHFL_DOWN_SYNC:
    case CJ_CU_SHFL_XOR_SYNC:
        if (n != 3 || !cj_type_is_integer(a) || !cj_type_is_number(b) ||
            !cj_type_is_integer(d) || (*out = shfl_value_type(b)) == NULL) {
            return bad_args(c, in, id);
        }
        break;
    case CJ_CU_MATCH_ANY_SYNC:
    case CJ_CU_MATCH_ALL_SYNC: {
        if (n != 2 || !cj_type_is_integer(a) || !(is_int(b) || is_float(b))) {
            return bad_args(c, in, id);
        }
        if (id == CJ_CU_MATCH_ANY_SYNC) {
            *out = cj_t_int32;
        } else {
            const cj_type *items[2] = {cj_t_int32, cj_t_bool};
            *out = cj_type_tuple(2, items);
        }
        break;
    }
    default:
        return bad_args(c, in, id);
    }
    return cj_cuda_record(c, in, id, n, in->args + 1) ? (*out ? 1 : -1) : -1;
}

/* ---- bit functions, fma, cbrt, selp, fp16 ---- */

static int type_misc(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    int n = in->nargs - 1;
    const cj_type *a = n >= 1 ? cj_vt(c, in->args[1]) : NULL;
    const cj_type *b = n >= 2 ? cj_vt(c, in->args[2]) : NULL;
    const cj_type *d = n >= 3 ? cj_vt(c, in->args[3]) : NULL;
    if (in->index > 0) {
        return cj_typing_error(c, in, "cuda.%s() takes no keyword arguments", iname(id));
    }
    switch (id) {
    case CJ_CU_POPC:
    case CJ_CU_CLZ:
        *out = n == 1 && is_int(a) ? a : NULL;
        break;
    case CJ_CU_BREV:
        *out = n == 1 && is_int(a) && a->bits >= 32 ? (a->bits == 64 ? cj_t_uint64 : cj_t_uint32)
                                                    : NULL;
        break;
    case CJ_CU_FFS:
        *out = n == 1 && is_int(a) && a->bits >= 32 ? cj_t_uint32 : NULL;
        break;
    case CJ_CU_CBRT:
    case CJ_CU_FMA: {
        const cj_type *args[3] = {a, b, d};
        *out = n == (id == CJ_CU_FMA ? 3 : 1) ? float32_or_64(args, n) : NULL;
        break;
    }
    case CJ_CU_SELP:
        if (n == 3 && cj_rule_has_truth(a) && cj_type_is_number(b) && cj_type_is_number(d)) {
            *out = cj_unify(b, d);
        } else {
            *out = NULL;
        }
        break;
    default: { /* fp16 */
        int unary = id == CJ_CU_HNEG || id == CJ_CU_HABS || id >= CJ_CU_HSQRT;
        int ternary = id == CJ_CU_HFMA;
        int want = unary ? 1 : ternary ? 3 : 2;
        if (n != want) {
            return bad_args(c, in, id);
        }
        for (int i = 1; i <= n; i++) {
            if (cj_vt(c, in->args[i]) != cj_t_float16) {
                return bad_args(c, in, id);
            }
        }
        int cmp = id >= CJ_CU_HEQ && id <= CJ_CU_HLE;
        *out = cmp ? cj_t_bool : cj_t_float16;
        break;
    }
    }
    if (*out == NULL) {
        return bad_args(c, in, id);
    }
    return cj_cuda_record(c, in, id, n, in->args + 1) ? 1 : -1;
}

/* ---- print(): numbers and constant strings, formatted by vprintf ---- */

static int type_print(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    if (in->index > 0) {
        return cj_unsupported_error(c, in, "print() with keyword arguments (sep=, end=) is not "
                                           "supported in CUDA kernels");
    }
    for (int i = 1; i < in->nargs; i++) {
        const cj_type *t = cj_vt(c, in->args[i]);
        int ok = (cj_type_is_number(t) && t->kind != CJ_COMPLEX) ||
                 (t->kind == CJ_CONST_OBJ && PyUnicode_Check(t->obj)) || t->kind == CJ_NONE;
        if (!ok) {
            return cj_unsupported_error(c, in, "print() of %s in a CUDA kernel (numbers and "
                                               "constant strings are supported)", t->name);
        }
    }
    if (cj_cuda_record(c, in, CJ_CU_PRINT, in->nargs - 1, in->args + 1) == NULL) {
        return -1;
    }
    *out = cj_t_none;
    return 1;
}

/* ---- the hooks ---- */

int cj_cuda_type_call(cj_infer_ctx *c, cj_instr *in, PyObject *callee, const cj_type **out) {
    int id = cj_cuda_intrinsic_lookup(callee);
    if (id < 0) {
        return cj_cuda_type_libdevice(c, in, callee, out);
    }
    if (id == CJ_CU_PRINT && c->env->target != CJ_TARGET_CUDA) {
        return 2;
    }
    if (c->env->target != CJ_TARGET_CUDA) {
        return cj_unsupported_error(c, in, "cuda.%s() can only be used in CUDA kernels and "
                                           "device functions (cuda.jit), not in CPU code",
                                    iname(id));
    }
    int n = in->nargs - 1;
    switch (id) {
    case CJ_CU_GRID:
    case CJ_CU_GRIDSIZE: {
        PyObject *nd = n == 1 && in->index == 0 ? const_value(c, in->args[1], 0) : NULL;
        long ndim = nd != NULL && PyLong_Check(nd) ? PyLong_AsLong(nd) : 0;
        if (ndim < 1 || ndim > 3) {
            PyErr_Clear();
            return cj_typing_error(c, in, "cuda.%s() takes the number of dimensions as a "
                                          "constant 1, 2 or 3", iname(id));
        }
        cj_call *call = cj_cuda_record(c, in, id, 0, NULL);
        if (call == NULL) {
            return -1;
        }
        call->builtin = id;
        call->nargs = 0;
        cj_cuda_array_spec *spec = cj_arena_alloc(&c->ir->arena, sizeof(*spec));
        if (spec == NULL) {
            return -1;
        }
        spec->ndim = (int)ndim;
        call->callee = spec;
        const cj_type *items[3] = {cj_t_int64, cj_t_int64, cj_t_int64};
        *out = ndim == 1 ? cj_t_int64 : cj_type_tuple((int)ndim, items);
        return *out ? 1 : -1;
    }
    case CJ_CU_SYNCTHREADS:
    case CJ_CU_THREADFENCE:
    case CJ_CU_THREADFENCE_BLOCK:
    case CJ_CU_THREADFENCE_SYSTEM:
        if (n != 0) {
            return bad_args(c, in, id);
        }
        *out = cj_t_none;
        return cj_cuda_record(c, in, id, 0, NULL) ? 1 : -1;
    case CJ_CU_SYNCTHREADS_COUNT:
    case CJ_CU_SYNCTHREADS_AND:
    case CJ_CU_SYNCTHREADS_OR:
        if (n != 1 || in->index > 0 || !cj_rule_has_truth(cj_vt(c, in->args[1]))) {
            return bad_args(c, in, id);
        }
        *out = cj_t_int32;
        return cj_cuda_record(c, in, id, 1, in->args + 1) ? 1 : -1;
    case CJ_CU_SHARED_ARRAY:
    case CJ_CU_LOCAL_ARRAY:
    case CJ_CU_CONST_ARRAY_LIKE:
        return type_array(c, in, id, out);
    case CJ_CU_PRINT:
        return type_print(c, in, out);
    default:
        break;
    }
    if (id >= CJ_CU_ATOMIC_ADD && id <= CJ_CU_ATOMIC_CAS2) {
        return type_atomic(c, in, id, out);
    }
    if (id >= CJ_CU_ALL_SYNC && id <= CJ_CU_LANEMASK_LT) {
        return type_warp(c, in, id, out);
    }
    if (id >= CJ_CU_POPC && id <= CJ_CU_HRCP) {
        return type_misc(c, in, id, out);
    }
    if (id >= CJ_CU_SYNCWARP && id != CJ_CU_CG_GRID_GROUP && id != CJ_CU_CG_THREAD_BLOCK) {
        return cj_cuda_type_sync(c, in, id, out);
    }
    return cj_typing_error(c, in, "cuda.%s is not callable", iname(id));
}

static int value_attr(cj_infer_ctx *c, cj_instr *in, int id, int axis, const cj_type **out) {
    if (c->env->target != CJ_TARGET_CUDA) {
        return cj_unsupported_error(c, in, "cuda.%s can only be used in CUDA kernels and "
                                           "device functions (cuda.jit), not in CPU code",
                                    iname(id));
    }
    cj_cuda_attr *attr = (cj_cuda_attr *)in->resolved;
    if (attr == NULL) {
        attr = cj_arena_alloc(&c->ir->arena, sizeof(*attr));
        if (attr == NULL) {
            return -1;
        }
        attr->intrinsic = id;
        attr->axis = axis;
        in->resolved = attr;
    }
    *out = cj_t_int32;
    return 1;
}

int cj_cuda_type_getattr(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    const cj_type *t = cj_vt(c, in->args[0]);
    if (t == NULL || t->kind != CJ_CONST_OBJ || intrinsic_ids == NULL) {
        return 2;
    }
    const char *name = PyUnicode_AsUTF8(in->obj);
    if (name == NULL) {
        return -1;
    }
    int id = cj_cuda_intrinsic_lookup(t->obj);
    if (id >= 0 && is_thread_index(id)) {
        int axis = strcmp(name, "x") == 0 ? 0 : strcmp(name, "y") == 0 ? 1
                                              : strcmp(name, "z") == 0 ? 2 : -1;
        if (axis < 0) {
            return cj_typing_error(c, in, "Unknown attribute '%s' of cuda.%s (x, y or z)",
                                   name, iname(id));
        }
        return value_attr(c, in, id, axis, out);
    }
    if (id >= 0 && is_namespace(id)) {
        /* cuda.shared.array, cuda.atomic.add: the attribute is itself an intrinsic */
        PyObject *value = PyObject_GetAttr(t->obj, in->obj);
        if (value == NULL || cj_cuda_intrinsic_lookup(value) < 0) {
            Py_XDECREF(value);
            PyErr_Clear();
            return cj_typing_error(c, in, "Unknown attribute '%s' of cuda.%s", name, iname(id));
        }
        if (cj_ir_keep(c->ir, value) == NULL) {
            Py_DECREF(value);
            return -1;
        }
        Py_DECREF(value); /* the IR keeps it */
        in->name = in->obj;
        in->obj = value;
        in->nargs = 0;
        in->op = CJ_I_GLOBAL;
        *out = cj_type_const_obj(value);
        return *out ? 1 : -1;
    }
    if (PyModule_Check(t->obj)) {
        /* cuda.laneid, cuda.warpsize: values, not objects */
        PyObject *value = PyObject_GetAttr(t->obj, in->obj);
        if (value == NULL) {
            PyErr_Clear();
            return 2;
        }
        int vid = cj_cuda_intrinsic_lookup(value);
        Py_DECREF(value); /* the module keeps it */
        if (vid == CJ_CU_LANEID || vid == CJ_CU_WARPSIZE) {
            return value_attr(c, in, vid, 0, out);
        }
    }
    return 2;
}

/* ---- _core.cuda_register_intrinsic(obj, name) ---- */

static PyObject *register_intrinsic(PyObject *self, PyObject *args) {
    PyObject *obj;
    const char *name;
    if (!PyArg_ParseTuple(args, "Os:cuda_register_intrinsic", &obj, &name)) {
        return NULL;
    }
    for (int id = 0; id < CJ_CU_COUNT; id++) {
        if (strcmp(cj_cuda_intrinsic_names[id], name) == 0) {
            PyObject *v = PyLong_FromLong(id);
            int rc = v ? PyDict_SetItem(intrinsic_ids, obj, v) : -1;
            Py_XDECREF(v);
            if (rc < 0) {
                return NULL;
            }
            intrinsic_objects[id] = obj; /* the dict keeps it */
            Py_RETURN_NONE;
        }
    }
    PyErr_Format(PyExc_ValueError, "no CUDA intrinsic named %s", name);
    return NULL;
}

static PyObject *intrinsic_names(PyObject *self, PyObject *unused) {
    PyObject *list = PyList_New(CJ_CU_COUNT);
    for (int i = 0; list != NULL && i < CJ_CU_COUNT; i++) {
        PyObject *s = PyUnicode_FromString(cj_cuda_intrinsic_names[i]);
        if (s == NULL) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, s);
    }
    return list;
}

static PyMethodDef cuda_typing_methods[] = {
    {"cuda_register_intrinsic", register_intrinsic, METH_VARARGS,
     "cuda_register_intrinsic(obj, name): `obj` is the CUDA intrinsic `name` in kernels"},
    {"cuda_intrinsic_names", intrinsic_names, METH_NOARGS, "names of every CUDA intrinsic"},
    {NULL},
};

int cj_cuda_typing_init(PyObject *module) {
    intrinsic_ids = PyDict_New();
    if (intrinsic_ids == NULL) {
        return -1;
    }
    return PyModule_AddFunctions(module, cuda_typing_methods);
}
