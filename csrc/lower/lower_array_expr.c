/* lower_array_expr.c: operators on arrays (typing/array_expr.c chose the ufunc loop: its input
 * type in->optype, its output type in->resolved). The operands broadcast by NumPy's rule
 * (dimensions aligned from the right; a 1 stretches; other mismatches are a ValueError), the
 * result is a new C array (or the left array, in place), and one loop nest over the result
 * computes each element with the scalar operator in the loop's types, under NumPy's error
 * model (x // 0 is 0, x / 0 is inf, no exception), as numba's ufunc kernels do. */
#include "lower/lower_internal.h"

typedef struct operand {
    const cj_type *t;    /* an array, or a scalar */
    LLVMValueRef value;  /* the array, or the scalar in the loop's input type */
} operand;

typedef struct elementwise {
    cj_instr *in;
    int nin;
    operand ops[2];
    const cj_type *loop_in, *loop_out, *out_dtype;
} elementwise;

static LLVMValueRef input(cj_lower *L, const elementwise *e, int i, LLVMValueRef ptr) {
    const operand *o = &e->ops[i];
    if (o->t->kind != CJ_ARRAY) {
        return o->value;
    }
    return cj_cast(L, cj_load_element(L, ptr, o->t->dtype), o->t->dtype, e->loop_in);
}

/* The loop's result for the elements at ptrs[1..] (in the loop's output type). */
static LLVMValueRef element(cj_lower *L, const elementwise *e, LLVMValueRef *ptrs) {
    cj_instr *in = e->in;
    LLVMValueRef x = input(L, e, 0, ptrs[1]), r;
    if (in->op == CJ_I_UNARY) {
        r = cj_lower_unary(L, in->sub, x, e->loop_in, e->loop_out);
    } else if (in->op == CJ_I_COMPARE) {
        r = cj_lower_compare(L, in->sub, x, e->loop_in, input(L, e, 1, ptrs[2]), e->loop_in,
                             e->loop_in);
    } else if (e->loop_in->kind == CJ_BOOL && (in->sub == CJ_ADD || in->sub == CJ_MUL)) {
        /* NumPy's boolean add and multiply are `or` and `and` */
        LLVMValueRef y = input(L, e, 1, ptrs[2]);
        r = in->sub == CJ_ADD ? LLVMBuildOr(L->b, x, y, "") : LLVMBuildAnd(L->b, x, y, "");
    } else {
        r = cj_lower_binop(L, in->sub, x, e->loop_in, input(L, e, 1, ptrs[2]), e->loop_in,
                           e->loop_in, e->loop_out);
    }
    return r;
}

static void compute(cj_lower *L, LLVMValueRef *ptrs, void *ctx) {
    const elementwise *e = ctx;
    LLVMValueRef r = cj_cast(L, element(L, e, ptrs), e->loop_out, e->out_dtype);
    LLVMTypeRef elem = cj_elem_type(L->ctx, e->out_dtype);
    if (e->out_dtype->kind == CJ_BOOL) {
        r = LLVMBuildZExt(L->b, r, elem, "");
    }
    LLVMBuildStore(L->b, r, LLVMBuildBitCast(L->b, ptrs[0], LLVMPointerType(elem, 0), ""));
}

/* The broadcast shape (rank `ndim`) of the array operands; ValueError when they do not
 * broadcast. */
static void broadcast(cj_lower *L, const elementwise *e, int ndim, LLVMValueRef *shape) {
    LLVMTypeRef i1 = LLVMInt1TypeInContext(L->ctx);
    LLVMValueRef bad = LLVMConstNull(i1), one = cj_i64(L, 1);
    for (int d = 0; d < ndim; d++) {
        shape[d] = one;
        for (int i = 0; i < e->nin; i++) {
            const cj_type *t = e->ops[i].t;
            int k = t->kind == CJ_ARRAY ? d - (ndim - t->ndim) : -1;
            if (k < 0) {
                continue;
            }
            LLVMValueRef n = cj_array_dim(L, e->ops[i].value, CJ_ARR_SHAPE, k);
            LLVMValueRef n_is_one = LLVMBuildICmp(L->b, LLVMIntEQ, n, one, "");
            LLVMValueRef so_far_one = LLVMBuildICmp(L->b, LLVMIntEQ, shape[d], one, "");
            LLVMValueRef differ = LLVMBuildICmp(L->b, LLVMIntNE, n, shape[d], "");
            bad = LLVMBuildOr(L->b, bad, LLVMBuildAnd(L->b, differ,
                                                      LLVMBuildNot(L->b,
                                                                   LLVMBuildOr(L->b, n_is_one,
                                                                               so_far_one, ""),
                                                                   ""), ""), "");
            shape[d] = LLVMBuildSelect(L->b, so_far_one, n, shape[d], "");
        }
    }
    cj_emit_raise_if(L, bad, CJ_EXC_BROADCAST);
}

/* Operand i's byte stride along result dimension d: 0 where it is absent or stretched. */
static LLVMValueRef stride_of(cj_lower *L, const operand *o, int ndim, int d) {
    int k = o->t->kind == CJ_ARRAY ? d - (ndim - o->t->ndim) : -1;
    if (k < 0) {
        return cj_i64(L, 0);
    }
    LLVMValueRef n = cj_array_dim(L, o->value, CJ_ARR_SHAPE, k);
    LLVMValueRef s = cj_array_dim(L, o->value, CJ_ARR_STRIDES, k);
    return LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, n, cj_i64(L, 1), ""),
                           cj_i64(L, 0), s, "");
}

LLVMValueRef cj_lower_array_op(cj_lower *L, cj_instr *in, int *fresh) {
    elementwise e = {.in = in, .nin = in->op == CJ_I_UNARY ? 1 : 2, .loop_in = in->optype,
                     .loop_out = in->resolved};
    int ndim = 0;
    for (int i = 0; i < e.nin; i++) {
        const cj_type *t = CJ_VAR(L->ir, in->args[i])->type;
        LLVMValueRef v = cj_load_var(L, in->args[i]);
        e.ops[i] = (operand){t, t->kind == CJ_ARRAY ? v : cj_cast(L, v, t, e.loop_in)};
        ndim = t->kind == CJ_ARRAY && t->ndim > ndim ? t->ndim : ndim;
    }
    if (in->rtype->kind != CJ_ARRAY) { /* 0-d arrays: one element, a number */
        LLVMValueRef ptrs[3] = {NULL, NULL, NULL};
        for (int i = 0; i < e.nin; i++) {
            ptrs[1 + i] = e.ops[i].t->kind == CJ_ARRAY ? cj_array_bytes(L, e.ops[i].value) : NULL;
        }
        int model = L->env->error_model;
        L->env->error_model = CJ_ERRORS_NUMPY;
        LLVMValueRef r = element(L, &e, ptrs);
        L->env->error_model = model;
        *fresh = 0;
        return r;
    }
    cj_loop_nest n = {.ndim = ndim, .nptrs = 1 + e.nin, .fn = compute, .ctx = &e};
    broadcast(L, &e, ndim, n.shape);
    int inplace = (in->flags & CJ_F_INPLACE) && in->op == CJ_I_BINOP && e.ops[0].t == in->rtype;
    /* the library's rule for in-place: the left array must already have the result's shape */
    LLVMValueRef out;
    if (inplace) {
        out = e.ops[0].value;
        LLVMValueRef mismatch = LLVMConstNull(LLVMInt1TypeInContext(L->ctx));
        for (int d = 0; d < ndim; d++) {
            mismatch = LLVMBuildOr(L->b, mismatch,
                                   LLVMBuildICmp(L->b, LLVMIntNE, n.shape[d],
                                                 cj_array_dim(L, out, CJ_ARR_SHAPE, d), ""), "");
        }
        cj_emit_raise_if(L, mismatch, CJ_EXC_BROADCAST);
    } else {
        out = cj_new_array(L, in->rtype, n.shape, 0);
    }
    e.out_dtype = in->rtype->dtype;
    LLVMValueRef bases[3] = {cj_array_bytes(L, out), NULL, NULL};
    n.versioned = 1;
    n.elem_size[0] = (int)cj_abi_size(e.out_dtype);
    for (int d = 0; d < ndim; d++) {
        n.strides[0][d] = cj_array_dim(L, out, CJ_ARR_STRIDES, d);
    }
    for (int i = 0; i < e.nin; i++) {
        for (int d = 0; d < ndim; d++) {
            n.strides[1 + i][d] = stride_of(L, &e.ops[i], ndim, d);
        }
        /* a scalar operand's pointer is unused (0: it stays) */
        n.elem_size[1 + i] = e.ops[i].t->kind == CJ_ARRAY ? (int)cj_abi_size(e.ops[i].t->dtype)
                                                          : 0;
        bases[1 + i] = e.ops[i].t->kind == CJ_ARRAY ? cj_array_bytes(L, e.ops[i].value)
                                                    : bases[0]; /* unused: the value is held */
    }
    int model = L->env->error_model; /* NumPy's: no exception from an element */
    L->env->error_model = CJ_ERRORS_NUMPY;
    cj_emit_loop_nest(L, &n, bases);
    L->env->error_model = model;
    *fresh = !inplace;
    return out;
}
