/* lower_reduce_axis.c: a reduction call (typing/array_reduce.c) on its array: the whole-array
 * forms go to lower_array_reduce.c, cumsum/cumprod/median to lower_reduce_scan.c, and sum,
 * prod, min/amin, max/amax, mean with axis= are lowered here. The axis (a constant or a
 * run-time int, negative from the end) out of range raises NumPy's AxisError (its exact text
 * for a constant); a 1-D array reduces to a number. Along an axis: a new C-order array of the
 * other dimensions, first filled with the reduction's identity (sum, prod, mean) or the
 * first slice (min, max: an empty axis is NumPy's ValueError), then one loop nest over the
 * input whose second pointer moves through the result with stride 0 along the axis; mean
 * divides by the axis's length at the end (NaN for 0, as NumPy's). Under parallel=True (CPU) a
 * big input's nest runs on the pool by parts of its first dimension that is not the axis. */
#include "lower/lower_internal.h"

/* numpy's AxisError class (borrowed from the numpy module), NULL with an exception. */
static PyObject *axis_error_class(PyObject **module) {
    *module = PyImport_ImportModule("numpy.exceptions");
    if (*module == NULL) { /* NumPy before 1.25 */
        PyErr_Clear();
        *module = PyImport_ImportModule("numpy");
    }
    return *module ? PyObject_GetAttrString(*module, "AxisError") : NULL;
}

/* The id of AxisError(axis, ndim) when the axis is known, else of a text without it. */
static int axis_error_id(cj_lower *L, PyObject *known, int ndim) {
    PyObject *module, *cls = axis_error_class(&module), *exc = NULL;
    if (cls != NULL) {
        exc = known ? PyObject_CallFunction(cls, "Oi", known, ndim)
                    : PyObject_CallFunction(cls, "N", PyUnicode_FromFormat(
                          "axis is out of bounds for array of dimension %d", ndim));
    }
    Py_XDECREF(module);
    Py_XDECREF(cls);
    int id = exc ? cj_exc_id(L, exc) : -1;
    Py_XDECREF(exc);
    return id;
}

/* The call's axis (lower_internal.h). */
LLVMValueRef cj_axis_value(cj_lower *L, const cj_call *call, int first_arg, int ndim,
                           int *none) {
    int var = call->nargs > first_arg ? call->args[first_arg] : -1;
    PyObject *known = var < 0 && call->nargs > first_arg ? call->defaults[first_arg] : NULL;
    *none = var < 0 && (known == NULL || known == Py_None);
    if (*none) {
        return cj_i64(L, 0);
    }
    LLVMValueRef axis;
    if (known != NULL) {
        long long k = PyLong_AsLongLong(known);
        if (k == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            k = (long long)1 << 62; /* out of range however big */
        }
        axis = cj_i64(L, k);
    } else {
        axis = cj_cast(L, cj_load_var(L, var), call->argtypes[first_arg], cj_t_int64);
    }
    LLVMValueRef n = cj_i64(L, ndim);
    LLVMValueRef neg = LLVMBuildICmp(L->b, LLVMIntSLT, axis, cj_i64(L, 0), "");
    axis = LLVMBuildSelect(L->b, neg, LLVMBuildAdd(L->b, axis, n, ""), axis, "axis");
    LLVMValueRef bad = LLVMBuildOr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, axis, cj_i64(L, 0), ""),
                                   LLVMBuildICmp(L->b, LLVMIntSGE, axis, n, ""), "");
    int id = axis_error_id(L, known, ndim);
    if (id < 0) {
        return NULL;
    }
    cj_emit_raise_if(L, bad, id);
    return axis;
}

typedef struct along {
    int id;
    const cj_type *dtype; /* the input's */
    const cj_type *rtype; /* the result's dtype, the accumulator */
} along;

static void copy_step(cj_lower *L, LLVMValueRef *ptrs, void *ctx) {
    const along *a = ctx;
    cj_store_element(L, ptrs[1],
                     cj_cast(L, cj_load_element(L, ptrs[0], a->dtype), a->dtype, a->rtype),
                     a->rtype);
}

static void reduce_step(cj_lower *L, LLVMValueRef *ptrs, void *ctx) {
    const along *a = ctx;
    LLVMValueRef acc = cj_load_element(L, ptrs[1], a->rtype);
    LLVMValueRef x = cj_load_element(L, ptrs[0], a->dtype);
    cj_store_element(L, ptrs[1], cj_reduce_step(L, a->id, a->dtype, a->rtype, acc, x), a->rtype);
}

typedef struct divide_by {
    const cj_type *t;
    LLVMValueRef n; /* in t, or in its parts' type */
} divide_by;

static void divide_step(cj_lower *L, LLVMValueRef ptr, void *ctx) {
    const divide_by *d = ctx;
    LLVMValueRef v = cj_load_element(L, ptr, d->t);
    if (d->t->kind == CJ_COMPLEX) {
        LLVMValueRef im;
        LLVMValueRef re = cj_complex_parts(L, v, &im);
        v = cj_make_complex(L, d->t, LLVMBuildFDiv(L->b, re, d->n, ""),
                            LLVMBuildFDiv(L->b, im, d->n, ""));
    } else {
        v = LLVMBuildFDiv(L->b, v, d->n, "");
    }
    cj_store_element(L, ptr, v, d->t);
}

/* shape[axis] of `arr`, the axis a run-time value. */
static LLVMValueRef axis_length(cj_lower *L, LLVMValueRef arr, int ndim, LLVMValueRef axis) {
    LLVMValueRef n = cj_i64(L, 0);
    for (int d = 0; d < ndim; d++) {
        LLVMValueRef here = LLVMBuildICmp(L->b, LLVMIntEQ, axis, cj_i64(L, d), "");
        n = LLVMBuildSelect(L->b, here, cj_array_dim(L, arr, CJ_ARR_SHAPE, d), n, "");
    }
    return n;
}

/* Part of a nest: [start, stop) of dimension `dim` (a run-time value, never the axis, so
 * parts write disjoint results). */
typedef struct part {
    LLVMValueRef dim, start, stop;
} part;

/* The bases and the shape moved to `p`'s part of dimension p->dim. */
static void narrow_to_part(cj_lower *L, cj_loop_nest *n, LLVMValueRef *bases, const part *p) {
    LLVMValueRef offsets[2] = {cj_i64(L, 0), cj_i64(L, 0)};
    for (int d = 0; d < n->ndim; d++) {
        LLVMValueRef here = LLVMBuildICmp(L->b, LLVMIntEQ, p->dim, cj_i64(L, d), "");
        n->shape[d] = LLVMBuildSelect(L->b, here, LLVMBuildSub(L->b, p->stop, p->start, ""),
                                      n->shape[d], "");
        for (int k = 0; k < 2; k++) {
            LLVMValueRef by = LLVMBuildMul(L->b, p->start, n->strides[k][d], "");
            offsets[k] = LLVMBuildSelect(L->b, here, by, offsets[k], "");
        }
    }
    LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
    for (int k = 0; k < 2; k++) {
        bases[k] = LLVMBuildGEP2(L->b, i8, bases[k], &offsets[k], 1, "");
    }
}

/* A nest over the input (its axis 1 long when `first_only`) and the result in step; over
 * part `p` of the input only when it is not NULL. */
static void nest_with_result(cj_lower *L, LLVMValueRef arr, const cj_type *at,
                             LLVMValueRef out, LLVMValueRef axis, int first_only, along *a,
                             const part *p) {
    cj_loop_nest n = {.ndim = at->ndim, .nptrs = 2, .versioned = 1, .ctx = a,
                      .fn = first_only ? copy_step : reduce_step,
                      .elem_size = {(int)cj_abi_size(at->dtype), (int)cj_abi_size(a->rtype)}};
    for (int d = 0; d < at->ndim; d++) {
        LLVMValueRef at_axis = LLVMBuildICmp(L->b, LLVMIntEQ, axis, cj_i64(L, d), "");
        LLVMValueRef before = LLVMBuildICmp(L->b, LLVMIntSGT, axis, cj_i64(L, d), "");
        LLVMValueRef len = cj_array_dim(L, arr, CJ_ARR_SHAPE, d);
        n.shape[d] = first_only ? LLVMBuildSelect(L->b, at_axis, cj_i64(L, 1), len, "") : len;
        n.strides[0][d] = cj_array_dim(L, arr, CJ_ARR_STRIDES, d);
        LLVMValueRef mine = d < at->ndim - 1 ? cj_array_dim(L, out, CJ_ARR_STRIDES, d)
                                             : cj_i64(L, 0);
        LLVMValueRef prev = d > 0 ? cj_array_dim(L, out, CJ_ARR_STRIDES, d - 1) : cj_i64(L, 0);
        n.strides[1][d] = LLVMBuildSelect(L->b, at_axis, cj_i64(L, 0),
                                          LLVMBuildSelect(L->b, before, mine, prev, ""), "");
    }
    LLVMValueRef bases[2] = {cj_array_bytes(L, arr), cj_array_bytes(L, out)};
    if (p != NULL) {
        narrow_to_part(L, &n, bases, p);
    }
    cj_emit_loop_nest(L, &n, bases);
}

/* What a chunk of a reduction along an axis needs besides extra = {arr, out, axis}. */
typedef struct along_chunk {
    along a;
    const cj_type *at, *rt;
} along_chunk;

/* The dimension the pool splits: the first one that is not the axis (ndim >= 2 here). */
static LLVMValueRef split_dim(cj_lower *L, LLVMValueRef axis) {
    LLVMValueRef first = LLVMBuildICmp(L->b, LLVMIntEQ, axis, cj_i64(L, 0), "");
    return LLVMBuildSelect(L->b, first, cj_i64(L, 1), cj_i64(L, 0), "split");
}

static int chunk_along(cj_lower *B, LLVMValueRef start, LLVMValueRef stop, LLVMValueRef *extra,
                       void *arg) {
    along_chunk *c = arg;
    LLVMValueRef arr = LLVMBuildLoad2(B->b, cj_llvm_type(B->ctx, c->at), extra[0], "");
    LLVMValueRef out = LLVMBuildLoad2(B->b, cj_llvm_type(B->ctx, c->rt), extra[1], "");
    LLVMValueRef axis = LLVMBuildLoad2(B->b, LLVMInt64TypeInContext(B->ctx), extra[2], "");
    part p = {split_dim(B, axis), start, stop};
    nest_with_result(B, arr, c->at, out, axis, 0, &c->a, &p);
    return 0;
}

/* The reduction's nest, by parts of the split dimension on the pool under parallel=True when
 * the input is big enough, else here. 0, or -1 with an exception. */
static int reduce_nest(cj_lower *L, LLVMValueRef arr, const cj_type *at, LLVMValueRef out,
                       const cj_type *rt, LLVMValueRef axis, along *a) {
    if (!cj_pool_wanted(L)) {
        nest_with_result(L, arr, at, out, axis, 0, a, NULL);
        return 0;
    }
    LLVMBasicBlockRef pool = cj_new_bb(L, "along_pool"), here = cj_new_bb(L, "along_serial");
    LLVMBasicBlockRef done = cj_new_bb(L, "along_done");
    LLVMValueRef big = LLVMBuildICmp(L->b, LLVMIntSGE, cj_array_size(L, arr, at),
                                     cj_i64(L, CJ_POOL_MIN_ELEMENTS), "");
    LLVMBuildCondBr(L->b, big, pool, here);
    LLVMPositionBuilderAtEnd(L->b, pool);
    along_chunk c = {*a, at, rt};
    LLVMValueRef extra[3] = {arr, out, axis};
    LLVMValueRef count = axis_length(L, arr, at->ndim, split_dim(L, axis));
    if (cj_run_on_pool(L, count, extra, 3, chunk_along, &c, NULL) < 0) {
        return -1;
    }
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, here);
    nest_with_result(L, arr, at, out, axis, 0, a, NULL);
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, done);
    return 0;
}

static LLVMValueRef reduce_along(cj_lower *L, int id, LLVMValueRef arr, const cj_type *at,
                                 LLVMValueRef axis, const cj_type *rt) {
    LLVMValueRef shape[CJ_MAXDIM];
    for (int j = 0; j < at->ndim - 1; j++) { /* the input's shape without the axis */
        LLVMValueRef before = LLVMBuildICmp(L->b, LLVMIntSGT, axis, cj_i64(L, j), "");
        shape[j] = LLVMBuildSelect(L->b, before, cj_array_dim(L, arr, CJ_ARR_SHAPE, j),
                                   cj_array_dim(L, arr, CJ_ARR_SHAPE, j + 1), "");
    }
    LLVMValueRef len = axis_length(L, arr, at->ndim, axis);
    int extreme = id >= CJ_B_NP_MIN && id <= CJ_B_NP_AMAX;
    if (extreme) {
        int want_min = id == CJ_B_NP_MIN || id == CJ_B_NP_AMIN;
        cj_emit_raise_if(L, LLVMBuildICmp(L->b, LLVMIntEQ, len, cj_i64(L, 0), ""),
                         want_min ? CJ_EXC_EMPTY_MIN : CJ_EXC_EMPTY_MAX);
    }
    LLVMValueRef out = cj_new_array(L, rt, shape, 0);
    along a = {.id = id, .dtype = at->dtype, .rtype = rt->dtype};
    if (extreme) {
        nest_with_result(L, arr, at, out, axis, 1, &a, NULL);
    } else {
        long long one = id == CJ_B_NP_PROD;
        cj_fill_array(L, out, rt, cj_cast(L, cj_i64(L, one), cj_t_int64, rt->dtype));
    }
    if (reduce_nest(L, arr, at, out, rt, axis, &a) < 0) {
        return NULL; /* the new array is not leaked: the function is not made */
    }
    if (id == CJ_B_NP_MEAN) {
        const cj_type *t = rt->dtype;
        const cj_type *part = t->kind == CJ_COMPLEX ? cj_complex_part(t) : t;
        divide_by d = {.t = t, .n = cj_cast(L, len, cj_t_int64, part)};
        cj_array_for_each(L, out, rt, divide_step, &d);
    }
    return out;
}

LLVMValueRef cj_lower_reduction(cj_lower *L, cj_instr *in, const cj_call *call,
                                LLVMValueRef arr, const cj_type *at, int first_arg) {
    int id = call->builtin, none;
    if (id == CJ_B_NP_CUMSUM || id == CJ_B_NP_CUMPROD) {
        return cj_lower_cumulative(L, id, arr, at, in->rtype);
    }
    if (id == CJ_B_NP_MEDIAN) {
        return cj_lower_median(L, arr, at);
    }
    if (id == CJ_B_NP_VAR || id == CJ_B_NP_STD) {
        int var = call->args[first_arg + 1]; /* ddof= */
        LLVMValueRef ddof = var >= 0 ? cj_cast(L, cj_load_var(L, var),
                                               call->argtypes[first_arg + 1], cj_t_float64)
                                     : cj_float_const(L, cj_t_float64, 0.0);
        return cj_lower_variance(L, id, arr, at, ddof);
    }
    LLVMValueRef axis = cj_axis_value(L, call, first_arg, at->ndim, &none);
    if (axis == NULL) {
        return NULL;
    }
    if (none || in->rtype->kind != CJ_ARRAY) { /* the whole array, or a 1-D one */
        return cj_lower_array_reduce(L, id, arr, at, in->rtype);
    }
    return reduce_along(L, id, arr, at, axis, in->rtype);
}
