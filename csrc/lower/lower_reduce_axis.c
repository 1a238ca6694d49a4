/* lower_reduce_axis.c: a reduction call (typing/array_reduce.c) on its array: the whole-array
 * forms go to lower_array_reduce.c, cumsum/cumprod/median to lower_reduce_scan.c, and sum,
 * prod, min/amin, max/amax, mean with axis= are lowered here. The axis (a constant or a
 * run-time int, negative from the end) out of range raises NumPy's AxisError (its exact text
 * for a constant); a 1-D array reduces to a number. Along an axis: a new C-order array of the
 * other dimensions, first filled with the reduction's identity (sum, prod, mean) or the
 * first slice (min, max: an empty axis is NumPy's ValueError), then one loop nest over the
 * input whose second pointer moves through the result with stride 0 along the axis; mean
 * divides by the axis's length at the end (NaN for 0, as NumPy's). */
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

/* A nest over the input (its axis 1 long when `first_only`) and the result in step. */
static void nest_with_result(cj_lower *L, LLVMValueRef arr, const cj_type *at,
                             LLVMValueRef out, LLVMValueRef axis, int first_only, along *a) {
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
    cj_emit_loop_nest(L, &n, bases);
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
        nest_with_result(L, arr, at, out, axis, 1, &a);
    } else {
        long long one = id == CJ_B_NP_PROD;
        cj_fill_array(L, out, rt, cj_cast(L, cj_i64(L, one), cj_t_int64, rt->dtype));
    }
    nest_with_result(L, arr, at, out, axis, 0, &a);
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
