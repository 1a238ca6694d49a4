/* lower_array_join.c: the calls typed by typing/array_join.c. Every joining function is one
 * concatenation along an axis of the result: each input is first "lifted" to the result's
 * rank by 1-sized axes (stride 0) at numba's places: np.stack inserts one at its axis (known
 * at run time), np.hstack/vstack/dstack at the places of np.atleast_1d/2d/3d, np.column_stack
 * after a 1-d input. The result's shape is then the inputs' off the axis (they must match:
 * numba's ValueError "input sizes over dimension d do not match"; np.stack and numba's stack
 * paths of vstack/dstack first require equal shapes, with numba's words) and their sum along
 * it; a new array (C, or F when the type says so) is made, and each input is copied, cast,
 * into its slice (a view of the result) by cj_array_assign_disjoint. An axis out of range is
 * NumPy's AxisError (cj_axis_value). np.atleast_1d/2d/3d return a view of each argument. */
#include "lower/lower_internal.h"

typedef struct join {
    int id;
    int ndim;          /* the result's */
    LLVMValueRef axis; /* i64 in 0..ndim-1 */
} join;

/* Inserts a 1-sized axis (stride 0) at `pos` into shape/strides of rank *ndim. */
static void insert_one(cj_lower *L, int *ndim, int pos, LLVMValueRef *sh, LLVMValueRef *st) {
    for (int d = *ndim; d > pos; d--) {
        sh[d] = sh[d - 1];
        st[d] = st[d - 1];
    }
    sh[pos] = cj_i64(L, 1);
    st[pos] = cj_i64(L, 0);
    (*ndim)++;
}

/* numba's np.atleast_<min>d: 1-sized axes at 0, 0, then 2, until the rank is `min`. */
static void at_least(cj_lower *L, int min, int *ndim, LLVMValueRef *sh, LLVMValueRef *st) {
    static const int places[3] = {0, 0, 2};
    for (int i = 0; i < min; i++) {
        if (*ndim < i + 1) {
            insert_one(L, ndim, places[i], sh, st);
        }
    }
}

static LLVMValueRef pick(cj_lower *L, LLVMValueRef cond, LLVMValueRef a, LLVMValueRef b) {
    return LLVMBuildSelect(L->b, cond, a, b, "");
}

static LLVMValueRef is_dim(cj_lower *L, LLVMValueRef axis, LLVMIntPredicate p, int d) {
    return LLVMBuildICmp(L->b, p, cj_i64(L, d), axis, "");
}

/* The shape and strides of input `arr` lifted to the result's rank. */
static void lift(cj_lower *L, const join *j, LLVMValueRef arr, const cj_type *at,
                 LLVMValueRef *sh, LLVMValueRef *st) {
    int n = at->ndim;
    for (int d = 0; d < n; d++) {
        sh[d] = cj_array_dim(L, arr, CJ_ARR_SHAPE, d);
        st[d] = cj_array_dim(L, arr, CJ_ARR_STRIDES, d);
    }
    if (j->id == CJ_B_NP_STACK) { /* a 1 at the run-time axis: d < axis, axis, d > axis */
        LLVMValueRef osh[CJ_MAXDIM], ost[CJ_MAXDIM], one = cj_i64(L, 1), zero = cj_i64(L, 0);
        for (int d = 0; d < n; d++) {
            osh[d] = sh[d];
            ost[d] = st[d];
        }
        for (int d = 0; d <= n; d++) {
            LLVMValueRef below = is_dim(L, j->axis, LLVMIntSLT, d);
            LLVMValueRef at_axis = is_dim(L, j->axis, LLVMIntEQ, d);
            sh[d] = pick(L, at_axis, one, d > 0 ? osh[d - 1] : one);
            st[d] = pick(L, at_axis, zero, d > 0 ? ost[d - 1] : zero);
            sh[d] = d < n ? pick(L, below, osh[d], sh[d]) : sh[d];
            st[d] = d < n ? pick(L, below, ost[d], st[d]) : st[d];
        }
    } else if (j->id == CJ_B_NP_COLUMN_STACK && n == 1) {
        insert_one(L, &n, 1, sh, st);
    } else if (j->id == CJ_B_NP_HSTACK || j->id == CJ_B_NP_VSTACK || j->id == CJ_B_NP_DSTACK) {
        at_least(L, j->id - CJ_B_NP_HSTACK + 1, &n, sh, st); /* h, v, d: the table's order */
    }
}

/* numba's np.stack paths (np.stack; vstack of 1-d, dstack of 1-d and 2-d inputs): every
 * input of input 0's shape. */
static int check_same_shapes(cj_lower *L, const join *j, LLVMValueRef tup, const cj_type *tt) {
    int n = tt->items[0]->ndim;
    int stacks = j->id == CJ_B_NP_STACK || (j->id == CJ_B_NP_VSTACK && n == 1) ||
                 (j->id == CJ_B_NP_DSTACK && (n == 1 || n == 2));
    if (!stacks || tt->n < 2) {
        return 0;
    }
    LLVMValueRef first = LLVMBuildExtractValue(L->b, tup, 0, "");
    LLVMValueRef bad = LLVMConstNull(LLVMInt1TypeInContext(L->ctx));
    for (int i = 1; i < tt->n; i++) {
        LLVMValueRef arr = LLVMBuildExtractValue(L->b, tup, (unsigned)i, "");
        for (int d = 0; d < n; d++) {
            LLVMValueRef ne = LLVMBuildICmp(L->b, LLVMIntNE, cj_array_dim(L, arr, CJ_ARR_SHAPE, d),
                                            cj_array_dim(L, first, CJ_ARR_SHAPE, d), "");
            bad = LLVMBuildOr(L->b, bad, ne, "");
        }
    }
    return cj_emit_raise_text_if(L, bad, PyExc_ValueError,
                                 "np.stack(): all input arrays must have the same shape");
}

/* The result's shape: the inputs' (lifted) off the axis, checked equal, their sum along it. */
static int joined_shape(cj_lower *L, const join *j, LLVMValueRef tup, const cj_type *tt,
                        LLVMValueRef *shape) {
    LLVMValueRef total[CJ_MAXDIM], bad[CJ_MAXDIM], sh[CJ_MAXDIM], st[CJ_MAXDIM];
    for (int i = 0; i < tt->n; i++) {
        lift(L, j, LLVMBuildExtractValue(L->b, tup, (unsigned)i, ""), tt->items[i], sh, st);
        for (int d = 0; d < j->ndim; d++) {
            if (i == 0) {
                shape[d] = total[d] = sh[d];
                bad[d] = LLVMConstNull(LLVMInt1TypeInContext(L->ctx));
                continue;
            }
            total[d] = LLVMBuildAdd(L->b, total[d], sh[d], "");
            bad[d] = LLVMBuildOr(L->b, bad[d],
                                 LLVMBuildICmp(L->b, LLVMIntNE, sh[d], shape[d], ""), "");
        }
    }
    for (int d = 0; d < j->ndim; d++) {
        LLVMValueRef along = is_dim(L, j->axis, LLVMIntEQ, d);
        if (tt->n > 1) {
            char text[96];
            snprintf(text, sizeof text, "np.concatenate(): input sizes over dimension %d do "
                                        "not match", d);
            LLVMValueRef off_axis = LLVMBuildNot(L->b, along, "");
            LLVMValueRef wrong = LLVMBuildAnd(L->b, bad[d], off_axis, "");
            if (cj_emit_raise_text_if(L, wrong, PyExc_ValueError, text) < 0) {
                return -1;
            }
        }
        shape[d] = pick(L, along, total[d], shape[d]);
    }
    return 0;
}

/* The axis of the concatenation (concatenate/stack: the argument, checked). */
static LLVMValueRef join_axis(cj_lower *L, const cj_call *call, int ndim) {
    int none;
    switch (call->builtin) {
    case CJ_B_NP_CONCATENATE:
    case CJ_B_NP_STACK:
        return cj_axis_value(L, call, 1, ndim, &none);
    case CJ_B_NP_HSTACK:
        return cj_i64(L, ndim == 1 ? 0 : 1);
    case CJ_B_NP_VSTACK:
        return cj_i64(L, 0);
    case CJ_B_NP_DSTACK:
        return cj_i64(L, 2);
    default: /* column_stack */
        return cj_i64(L, 1);
    }
}

/* Each input copied into its slice of `res` along the axis. */
static int copy_inputs(cj_lower *L, const join *j, LLVMValueRef tup, const cj_type *tt,
                       LLVMValueRef res, const cj_type *rt) {
    LLVMValueRef rst[CJ_MAXDIM], sh[CJ_MAXDIM], st[CJ_MAXDIM];
    LLVMValueRef step = cj_i64(L, 0), pos = cj_i64(L, 0);
    for (int d = 0; d < j->ndim; d++) {
        rst[d] = cj_array_dim(L, res, CJ_ARR_STRIDES, d);
        step = pick(L, is_dim(L, j->axis, LLVMIntEQ, d), rst[d], step);
    }
    const cj_type *dt = cj_type_array(rt->dtype, j->ndim, 'A', 0);
    for (int i = 0; i < tt->n; i++) {
        const cj_type *at = tt->items[i];
        const cj_type *st_t = cj_type_array(at->dtype, j->ndim, 'A', at->readonly);
        LLVMValueRef arr = LLVMBuildExtractValue(L->b, tup, (unsigned)i, "");
        lift(L, j, arr, at, sh, st);
        if (dt == NULL || st_t == NULL) {
            return -1;
        }
        LLVMValueRef offset = LLVMBuildMul(L->b, pos, step, "");
        LLVMValueRef dest = cj_array_view(L, res, offset, j->ndim, sh, rst, dt);
        LLVMValueRef src = cj_array_view(L, arr, cj_i64(L, 0), j->ndim, sh, st, st_t);
        if (cj_array_assign_disjoint(L, dest, dt, src, st_t) < 0) {
            return -1;
        }
        LLVMValueRef len = cj_i64(L, 0);
        for (int d = 0; d < j->ndim; d++) {
            len = pick(L, is_dim(L, j->axis, LLVMIntEQ, d), sh[d], len);
        }
        pos = LLVMBuildAdd(L->b, pos, len, "");
    }
    return 0;
}

/* np.atleast_<k>d's view of `arr`: arr itself, or a view with 1-sized axes (type rt). */
static LLVMValueRef atleast(cj_lower *L, int id, LLVMValueRef arr, const cj_type *at,
                            const cj_type *rt) {
    if (rt->ndim == at->ndim) {
        return arr;
    }
    LLVMValueRef sh[CJ_MAXDIM], st[CJ_MAXDIM];
    int n = at->ndim;
    for (int d = 0; d < n; d++) {
        sh[d] = cj_array_dim(L, arr, CJ_ARR_SHAPE, d);
        st[d] = cj_array_dim(L, arr, CJ_ARR_STRIDES, d);
    }
    at_least(L, id - CJ_B_NP_ATLEAST_1D + 1, &n, sh, st); /* 1d, 2d, 3d: the table's order */
    return cj_array_view(L, arr, cj_i64(L, 0), n, sh, st, rt);
}

/* np.atleast_<k>d(a, ...): one view, or a tuple of them. */
static LLVMValueRef atleast_call(cj_lower *L, cj_instr *in, const cj_call *call) {
    const cj_type *rt = in->rtype;
    if (call->nargs == 1) {
        return atleast(L, call->builtin, cj_load_var(L, call->args[0]), call->argtypes[0], rt);
    }
    LLVMValueRef tup = LLVMGetUndef(cj_llvm_type(L->ctx, rt));
    for (int i = 0; i < call->nargs; i++) {
        LLVMValueRef v = atleast(L, call->builtin, cj_load_var(L, call->args[i]),
                                 call->argtypes[i], rt->items[i]);
        tup = LLVMBuildInsertValue(L->b, tup, v, (unsigned)i, "");
    }
    return tup;
}

LLVMValueRef cj_lower_array_join(cj_lower *L, cj_instr *in, const cj_call *call) {
    if (!cj_builtin_joins_fresh(call->builtin)) {
        return atleast_call(L, in, call);
    }
    const cj_type *rt = in->rtype, *tt = call->argtypes[0];
    LLVMValueRef tup = cj_load_var(L, call->args[0]), shape[CJ_MAXDIM];
    join j = {.id = call->builtin, .ndim = rt->ndim, .axis = join_axis(L, call, rt->ndim)};
    if (j.axis == NULL || check_same_shapes(L, &j, tup, tt) < 0 ||
        joined_shape(L, &j, tup, tt, shape) < 0) {
        return NULL;
    }
    LLVMValueRef res = cj_new_array_as(L, rt, shape, 0);
    if (res == NULL || copy_inputs(L, &j, tup, tt, res, rt) < 0) {
        return NULL;
    }
    return res;
}
