/* lower_array_expr.c: operators on arrays (typing/array_expr.c chose the ufunc loop: its input
 * type in->optype, its output type in->resolved). The operands broadcast by NumPy's rule
 * (dimensions aligned from the right; a 1 stretches; other mismatches are a ValueError), the
 * result is a new C array (or the left array, in place), and one loop nest over the result
 * computes each element with the scalar operator in the loop's types, under NumPy's error
 * model (x // 0 is 0, x / 0 is inf, no exception), as numba's ufunc kernels do. */
#include "lower/lower_internal.h"

typedef struct operand {
    const cj_type *t;    /* an array */
    LLVMValueRef value;
} operand;

/* One operator of the loop (or ufunc, id >= 0; np.where and np.clip have three operands):
 * each operand is a fused operator (child), an array (leaf: loop pointer 1 + leaf) or a scalar
 * held in the type the element takes it in. */
typedef struct node {
    int op, sub; /* an operator (CJ_I_BINOP ...), or -1: the ufunc id */
    int id, nin;
    int vars[3], child[3], leaf[3];
    LLVMValueRef scalar[3];     /* NULL for np.clip's None bound */
    const cj_type *type[3];     /* the operand's own type */
    const cj_type *in_type[3];  /* the type the element takes it in */
    const cj_type *loop_in, *loop_out;
} node;

typedef struct elementwise {
    node nodes[CJ_FUSED_NODES];
    int nnodes;
    operand leaves[CJ_LOOP_NEST_PTRS - 1];
    int nleaves;
    const cj_type *out_dtype;
    int failed; /* an element could not be lowered: the exception is set */
} elementwise;

int cj_elementwise_operands(const cj_instr *in, const int **vars) {
    if (in->op == CJ_I_CALL) {
        const cj_call *call = in->resolved;
        *vars = call->args;
        return call->nin;
    }
    *vars = in->args;
    return in->op == CJ_I_UNARY ? 1 : 2;
}

/* Adds `in` (and the operators fused into it, lower_array_fuse.c, which keeps within the
 * bounds) to the loop: its node's index, or -1 with an exception. */
static int add_node(cj_lower *L, elementwise *e, cj_instr *in) {
    if (e->nnodes == CJ_FUSED_NODES) {
        CJ_UNREACHABLE("too many fused array operators");
        return -1;
    }
    int k = e->nnodes++;
    node *n = &e->nodes[k];
    const cj_call *call = in->op == CJ_I_CALL ? in->resolved : NULL;
    const int *vars;
    *n = (node){.op = in->op, .sub = in->sub, .id = call ? call->builtin : -1, .nin = cj_elementwise_operands(in, &vars),
                .child = {-1, -1, -1}, .leaf = {-1, -1, -1},
                .loop_in = call ? call->loop_in : in->optype,
                .loop_out = call ? call->loop_out : in->resolved};
    if (call != NULL) {
        n->op = cj_ufunc_operator(call->builtin, &n->sub); /* np.add: + */
    }
    for (int i = 0; i < n->nin; i++) {
        int v = n->vars[i] = vars[i];
        n->type[i] = CJ_VAR(L->ir, v)->type;
        n->in_type[i] = n->loop_in;
        if (n->id == CJ_B_NP_WHERE && i == 0) { /* the condition: its truth, in its type */
            n->in_type[i] = n->type[i]->kind == CJ_ARRAY ? n->type[i]->dtype : n->type[i];
        }
        if (n->type[i]->kind == CJ_NONE) {
            continue; /* np.clip's absent bound */
        }
        if (L->fused != NULL && L->fused[v] != NULL) {
            if ((n->child[i] = add_node(L, e, L->fused[v])) < 0) {
                return -1;
            }
        } else if (n->type[i]->kind == CJ_ARRAY) {
            if (e->nleaves == CJ_LOOP_NEST_PTRS - 1) {
                CJ_UNREACHABLE("too many arrays in one fused loop");
                return -1;
            }
            n->leaf[i] = e->nleaves;
            e->leaves[e->nleaves++] = (operand){n->type[i], cj_load_var(L, v)};
        } else {
            n->scalar[i] = cj_cast(L, cj_load_var(L, v), n->type[i], n->in_type[i]);
        }
    }
    return k;
}

static LLVMValueRef node_value(cj_lower *L, elementwise *e, const node *n, LLVMValueRef *ptrs);

/* Operand i of n, in n's input type (NULL with an exception). */
static LLVMValueRef input(cj_lower *L, elementwise *e, const node *n, int i,
                          LLVMValueRef *ptrs) {
    if (n->child[i] >= 0) { /* what the fused operator's array would have held */
        const node *s = &e->nodes[n->child[i]];
        const cj_type *dtype = n->type[i]->dtype;
        LLVMValueRef v = node_value(L, e, s, ptrs);
        return v ? cj_cast(L, cj_cast(L, v, s->loop_out, dtype), dtype, n->in_type[i]) : NULL;
    }
    if (n->leaf[i] >= 0) {
        const cj_type *dtype = n->type[i]->dtype;
        return cj_cast(L, cj_load_element(L, ptrs[1 + n->leaf[i]], dtype), dtype,
                       n->in_type[i]);
    }
    return n->scalar[i];
}

/* The operator's result for the elements at ptrs[1..] (in its loop's output type); NULL with
 * an exception. */
/* np.where's choice, np.clip's bounds (NaN propagates, as NumPy's np.clip). */
static LLVMValueRef select_value(cj_lower *L, elementwise *e, const node *n, LLVMValueRef *ptrs) {
    LLVMValueRef v[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3; i++) {
        if (n->type[i]->kind != CJ_NONE && (v[i] = input(L, e, n, i, ptrs)) == NULL) {
            return NULL;
        }
    }
    if (n->id == CJ_B_NP_WHERE) {
        return LLVMBuildSelect(L->b, cj_truth(L, v[0], n->in_type[0]), v[1], v[2], "where");
    }
    LLVMValueRef x = v[0];
    if (x != NULL && v[1] != NULL) {
        x = cj_lower_ufunc_element(L, CJ_B_NP_MAXIMUM, x, v[1], n->loop_in, n->loop_in);
    }
    if (x != NULL && v[2] != NULL) {
        x = cj_lower_ufunc_element(L, CJ_B_NP_MINIMUM, x, v[2], n->loop_in, n->loop_in);
    }
    return x;
}

static LLVMValueRef node_value(cj_lower *L, elementwise *e, const node *n, LLVMValueRef *ptrs) {
    const cj_type *loop_in = n->loop_in, *loop_out = n->loop_out;
    if (n->nin == 3) {
        return select_value(L, e, n, ptrs);
    }
    LLVMValueRef x = input(L, e, n, 0, ptrs);
    LLVMValueRef y = x && n->nin > 1 ? input(L, e, n, 1, ptrs) : NULL;
    if (x == NULL || (n->nin > 1 && y == NULL)) {
        return NULL;
    }
    if (n->op == CJ_I_COPY) { /* cj_array_assign */
        return x;
    }
    if (n->op < 0) {
        return cj_lower_ufunc_element(L, n->id, x, y, loop_in, loop_out);
    }
    if (n->op == CJ_I_UNARY) {
        return cj_lower_unary(L, n->sub, x, loop_in, loop_out);
    }
    if (n->op == CJ_I_COMPARE) {
        return cj_lower_compare(L, n->sub, x, loop_in, y, loop_in, loop_in);
    }
    if (loop_in->kind == CJ_BOOL && (n->sub == CJ_ADD || n->sub == CJ_MUL)) {
        /* NumPy's boolean add and multiply are `or` and `and` */
        return n->sub == CJ_ADD ? LLVMBuildOr(L->b, x, y, "") : LLVMBuildAnd(L->b, x, y, "");
    }
    return cj_lower_binop(L, n->sub, x, loop_in, y, loop_in, loop_in, loop_out);
}

static void compute(cj_lower *L, LLVMValueRef *ptrs, void *ctx) {
    elementwise *e = ctx;
    const node *root = &e->nodes[0];
    LLVMValueRef r = e->failed ? NULL : node_value(L, e, root, ptrs);
    if (r == NULL) {
        e->failed = 1;
        return;
    }
    r = cj_cast(L, r, root->loop_out, e->out_dtype);
    LLVMTypeRef elem = cj_elem_type(L->ctx, e->out_dtype);
    if (e->out_dtype->kind == CJ_BOOL) {
        r = LLVMBuildZExt(L->b, r, elem, "");
    }
    LLVMBuildStore(L->b, r, LLVMBuildBitCast(L->b, ptrs[0], LLVMPointerType(elem, 0), ""));
}

/* The shape (rank `ndim`) the arrays broadcast to: their NumPy broadcast, or, with a
 * destination `dest` (in place, out=), dest's own shape, which the operands stretch to but
 * never change. ValueError when they do not broadcast. */
static void broadcast(cj_lower *L, const elementwise *e, int ndim, LLVMValueRef dest,
                      LLVMValueRef *shape) {
    LLVMTypeRef i1 = LLVMInt1TypeInContext(L->ctx);
    LLVMValueRef bad = LLVMConstNull(i1), one = cj_i64(L, 1), no = LLVMConstNull(i1);
    for (int d = 0; d < ndim; d++) {
        shape[d] = dest ? cj_array_dim(L, dest, CJ_ARR_SHAPE, d) : one;
        for (int i = 0; i < e->nleaves; i++) {
            const operand *o = &e->leaves[i];
            int k = d - (ndim - o->t->ndim);
            if (k < 0) {
                continue;
            }
            LLVMValueRef n = cj_array_dim(L, o->value, CJ_ARR_SHAPE, k);
            LLVMValueRef n_is_one = LLVMBuildICmp(L->b, LLVMIntEQ, n, one, "");
            LLVMValueRef so_far_one = dest ? no : LLVMBuildICmp(L->b, LLVMIntEQ, shape[d], one, "");
            LLVMValueRef differ = LLVMBuildICmp(L->b, LLVMIntNE, n, shape[d], "");
            LLVMValueRef stretches = LLVMBuildOr(L->b, n_is_one, so_far_one, "");
            bad = LLVMBuildOr(L->b, bad,
                              LLVMBuildAnd(L->b, differ, LLVMBuildNot(L->b, stretches, ""), ""),
                              "");
            shape[d] = LLVMBuildSelect(L->b, so_far_one, n, shape[d], "");
        }
    }
    cj_emit_raise_if(L, bad, CJ_EXC_BROADCAST);
}

/* An array's byte stride along result dimension d: 0 where it is absent or stretched. */
static LLVMValueRef stride_of(cj_lower *L, const operand *o, int ndim, int d) {
    int k = d - (ndim - o->t->ndim);
    if (k < 0) {
        return cj_i64(L, 0);
    }
    LLVMValueRef n = cj_array_dim(L, o->value, CJ_ARR_SHAPE, k);
    LLVMValueRef s = cj_array_dim(L, o->value, CJ_ARR_STRIDES, k);
    return LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, n, cj_i64(L, 1), ""),
                           cj_i64(L, 0), s, "");
}

/* The variable a ufunc writes into: the left array of `a += b`, a ufunc's out=; or -1. */
static int destination_of(cj_lower *L, const cj_instr *in) {
    if (in->op == CJ_I_CALL) {
        const cj_call *call = in->resolved;
        return call->nargs > call->nin ? call->args[call->nin] : -1;
    }
    int inplace = (in->flags & CJ_F_INPLACE) && in->op == CJ_I_BINOP &&
                  CJ_VAR(L->ir, in->args[0])->type == in->rtype;
    return inplace ? in->args[0] : -1;
}

/* 0-d arrays only: one element, a number. */
static LLVMValueRef one_element(cj_lower *L, elementwise *e) {
    LLVMValueRef ptrs[CJ_LOOP_NEST_PTRS] = {NULL};
    for (int i = 0; i < e->nleaves; i++) {
        ptrs[1 + i] = cj_array_bytes(L, e->leaves[i].value);
    }
    return node_value(L, e, &e->nodes[0], ptrs);
}

/* The loops writing the elements of `out` (rank ndim, of the broadcast shape): all of them, or
 * (start non-NULL) the rows [start, stop) of its first dimension. */
static int emit_loops_from(cj_lower *L, elementwise *e, cj_loop_nest *n, LLVMValueRef out,
                           LLVMValueRef start, LLVMValueRef stop) {
    int ndim = n->ndim;
    LLVMValueRef bases[CJ_LOOP_NEST_PTRS] = {cj_array_bytes(L, out)};
    n->elem_size[0] = (int)cj_abi_size(e->out_dtype);
    for (int d = 0; d < ndim; d++) {
        n->strides[0][d] = cj_array_dim(L, out, CJ_ARR_STRIDES, d);
    }
    for (int i = 0; i < e->nleaves; i++) {
        for (int d = 0; d < ndim; d++) {
            n->strides[1 + i][d] = stride_of(L, &e->leaves[i], ndim, d);
        }
        n->elem_size[1 + i] = (int)cj_abi_size(e->leaves[i].t->dtype);
        bases[1 + i] = cj_array_bytes(L, e->leaves[i].value);
    }
    for (int k = 0; start != NULL && k < n->nptrs; k++) { /* the chunk's first row */
        LLVMValueRef skip = LLVMBuildMul(L->b, start, n->strides[k][0], "");
        bases[k] = LLVMBuildGEP2(L->b, LLVMInt8TypeInContext(L->ctx), bases[k], &skip, 1, "");
    }
    if (start != NULL) {
        n->shape[0] = LLVMBuildSub(L->b, stop, start, "rows");
    }
    cj_emit_loop_nest(L, n, bases);
    return e->failed ? -1 : 0;
}

static int emit_loops(cj_lower *L, elementwise *e, cj_loop_nest *n, LLVMValueRef out) {
    return emit_loops_from(L, e, n, out, NULL, NULL);
}

/* One chunk of an array expression on the pool: the plan made again in the chunk's function
 * (its operands read from the function's variables), the rows [start, stop) of out. */
static int chunk_rows(cj_lower *B, LLVMValueRef start, LLVMValueRef stop, LLVMValueRef *extra,
                      void *arg) {
    cj_instr *in = arg;
    elementwise e = {.nnodes = 0, .out_dtype = in->rtype->dtype};
    B->env->error_model = CJ_ERRORS_NUMPY;
    if (add_node(B, &e, in) < 0) {
        return -1;
    }
    LLVMValueRef out = LLVMBuildLoad2(B->b, cj_llvm_type(B->ctx, in->rtype), extra[0], "out");
    cj_loop_nest n = {.ndim = in->rtype->ndim, .nptrs = 1 + e.nleaves, .fn = compute, .ctx = &e,
                      .versioned = 1};
    for (int d = 0; d < n.ndim; d++) {
        n.shape[d] = cj_array_dim(B, out, CJ_ARR_SHAPE, d);
    }
    return emit_loops_from(B, &e, &n, out, start, stop);
}

/* emit_loops, or under parallel=True, for a big enough result, its rows over the pool. */
static int emit_loops_parallel(cj_lower *L, elementwise *e, cj_loop_nest *n, LLVMValueRef out,
                               cj_instr *in) {
    if (!cj_pool_wanted(L) || n->ndim == 0) {
        return emit_loops(L, e, n, out);
    }
    LLVMBasicBlockRef pool = cj_new_bb(L, "expr_pool"), here = cj_new_bb(L, "expr_serial");
    LLVMBasicBlockRef done = cj_new_bb(L, "expr_done");
    LLVMValueRef big = LLVMBuildICmp(L->b, LLVMIntSGE, cj_array_size(L, out, in->rtype),
                                     cj_i64(L, CJ_POOL_MIN_ELEMENTS), "");
    LLVMBuildCondBr(L->b, big, pool, here);
    LLVMPositionBuilderAtEnd(L->b, pool);
    if (cj_run_on_pool(L, n->shape[0], &out, 1, chunk_rows, in, NULL) < 0) {
        return -1;
    }
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, here);
    int rc = emit_loops(L, e, n, out);
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, done);
    return rc;
}

LLVMValueRef cj_lower_array_op(cj_lower *L, cj_instr *in, int *fresh) {
    if (in->op == CJ_I_BINOP && in->sub == CJ_MATMUL) { /* lower_array_linalg.c */
        return cj_lower_dot(L, in, in->args[0], in->args[1], -1, 0, fresh);
    }
    elementwise e = {.nnodes = 0};
    if (add_node(L, &e, in) < 0) {
        return NULL;
    }
    int model = L->env->error_model; /* NumPy's: no exception from an element */
    L->env->error_model = CJ_ERRORS_NUMPY;
    LLVMValueRef out;
    *fresh = 0;
    if (in->rtype->kind != CJ_ARRAY) {
        out = one_element(L, &e);
    } else {
        int dest = destination_of(L, in), ndim = in->rtype->ndim;
        cj_loop_nest n = {.ndim = ndim, .nptrs = 1 + e.nleaves, .fn = compute, .ctx = &e,
                          .versioned = 1};
        out = dest >= 0 ? cj_load_var(L, dest) : NULL;
        broadcast(L, &e, ndim, out, n.shape);
        out = out ? out : cj_new_array(L, in->rtype, n.shape, 0);
        *fresh = dest < 0;
        e.out_dtype = in->rtype->dtype;
        if (emit_loops_parallel(L, &e, &n, out, in) < 0) {
            out = NULL; /* the new array is not leaked: the function is not made */
        }
    }
    L->env->error_model = model;
    return out;
}

/* ---- dest[...] = src: a copy with broadcasting and casting ---- */

/* [lo, hi) of the bytes an array's elements span; an empty array spans nothing. */
static void extent(cj_lower *L, LLVMValueRef arr, const cj_type *t, LLVMValueRef *lo,
                   LLVMValueRef *hi) {
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMValueRef base = LLVMBuildPtrToInt(L->b, cj_array_bytes(L, arr), i64, "");
    LLVMValueRef zero = cj_i64(L, 0), down = zero, up = cj_i64(L, (long long)cj_abi_size(t->dtype));
    LLVMValueRef empty = LLVMConstNull(LLVMInt1TypeInContext(L->ctx));
    for (int d = 0; d < t->ndim; d++) {
        LLVMValueRef n = cj_array_dim(L, arr, CJ_ARR_SHAPE, d);
        LLVMValueRef span = LLVMBuildMul(L->b, LLVMBuildSub(L->b, n, cj_i64(L, 1), ""),
                                         cj_array_dim(L, arr, CJ_ARR_STRIDES, d), "");
        LLVMValueRef negative = LLVMBuildICmp(L->b, LLVMIntSLT, span, zero, "");
        down = LLVMBuildAdd(L->b, down, LLVMBuildSelect(L->b, negative, span, zero, ""), "");
        up = LLVMBuildAdd(L->b, up, LLVMBuildSelect(L->b, negative, zero, span, ""), "");
        empty = LLVMBuildOr(L->b, empty, LLVMBuildICmp(L->b, LLVMIntEQ, n, zero, ""), "");
    }
    *lo = LLVMBuildAdd(L->b, base, down, "");
    *hi = LLVMBuildSelect(L->b, empty, *lo, LLVMBuildAdd(L->b, base, up, ""), "");
}

static int assign(cj_lower *L, LLVMValueRef dest, const cj_type *dt, LLVMValueRef src,
                  const cj_type *st) {
    elementwise e = {.nnodes = 1, .nleaves = 1, .out_dtype = dt->dtype};
    e.nodes[0] = (node){.op = CJ_I_COPY, .id = -1, .nin = 1, .child = {-1, -1, -1},
                        .leaf = {0, -1, -1}, .type = {st}, .in_type = {st->dtype},
                        .loop_in = st->dtype, .loop_out = st->dtype};
    e.leaves[0] = (operand){st, src};
    cj_loop_nest n = {.ndim = dt->ndim, .nptrs = 2, .fn = compute, .ctx = &e, .versioned = 1};
    broadcast(L, &e, dt->ndim, dest, n.shape);
    return emit_loops(L, &e, &n, dest);
}

int cj_array_assign_disjoint(cj_lower *L, LLVMValueRef dest, const cj_type *dt,
                             LLVMValueRef src, const cj_type *st) {
    return assign(L, dest, dt, src, st);
}

int cj_array_assign(cj_lower *L, LLVMValueRef dest, const cj_type *dt, LLVMValueRef src,
                    const cj_type *st) {
    /* NumPy's rule: as if src were copied first, when the two share memory (a[1:] = a[:-1]) */
    LLVMValueRef dlo, dhi, slo, shi;
    extent(L, dest, dt, &dlo, &dhi);
    extent(L, src, st, &slo, &shi);
    LLVMValueRef overlap = LLVMBuildAnd(L->b, LLVMBuildICmp(L->b, LLVMIntULT, dlo, shi, ""),
                                        LLVMBuildICmp(L->b, LLVMIntULT, slo, dhi, ""), "");
    LLVMBasicBlockRef copy = cj_new_bb(L, "assign_copy"), go = cj_new_bb(L, "assign");
    LLVMBasicBlockRef from = LLVMGetInsertBlock(L->b);
    LLVMBuildCondBr(L->b, overlap, copy, go);
    LLVMPositionBuilderAtEnd(L->b, copy);
    const cj_type *ct = cj_type_array(st->dtype, st->ndim, 'C', 0);
    LLVMValueRef shape[CJ_MAXDIM];
    for (int d = 0; d < st->ndim; d++) {
        shape[d] = cj_array_dim(L, src, CJ_ARR_SHAPE, d);
    }
    LLVMValueRef tmp = ct ? cj_new_array(L, ct, shape, 0) : NULL;
    if (tmp == NULL || assign(L, tmp, ct, src, st) < 0) {
        return -1;
    }
    LLVMBasicBlockRef copied = LLVMGetInsertBlock(L->b);
    LLVMBuildBr(L->b, go);
    LLVMPositionBuilderAtEnd(L->b, go);
    LLVMValueRef source = LLVMBuildPhi(L->b, LLVMTypeOf(src), "source");
    LLVMValueRef made = LLVMBuildPhi(L->b, LLVMTypeOf(src), "made"); /* the copy, or none */
    LLVMValueRef sources[2] = {src, tmp}, mades[2] = {LLVMConstNull(LLVMTypeOf(src)), tmp};
    LLVMBasicBlockRef blocks[2] = {from, copied};
    LLVMAddIncoming(source, sources, blocks, 2);
    LLVMAddIncoming(made, mades, blocks, 2);
    if (assign(L, dest, dt, source, st) < 0) {
        return -1;
    }
    cj_decref(L, made, ct); /* a NULL meminfo: nothing */
    return 0;
}
