/* lower_array_fuse.c: which operators on arrays are computed inside another's loop (numba's
 * array-expression rewrite): in `a * b + c`, the product is a temporary read once, by the sum
 * in the same block, so the sum's loop computes a[i] * b[i] + c[i] and the product never makes
 * an array. An operator fuses into its reader when
 *   - both are element-wise operators or ufuncs on arrays giving a new array (not in place,
 *     nor out=: `a += b` writes memory its operands may share),
 *   - its result is a temporary, read by that one instruction only, later in the same block,
 *   - nothing in between can change what its operands hold: only constants, globals, copies
 *     into temporaries, attribute and item reads, tuples and slices, and other operators
 *     that make new values lie between (a call, a store, `x := ...` stop it),
 *   - the fused loop stays within the loop nest's pointers (CJ_LOOP_NEST_PTRS) and
 *     CJ_FUSED_NODES operators.
 * L->fused[v] is then the instruction defining v, whose lowering emits nothing; the reader's
 * lowering (lower_array_expr.c) computes it per element. */
#include "lower/lower_internal.h"

typedef struct fuse_scan {
    cj_lower *L;
    int *reads;    /* per variable: how many instruction operands read it */
    int *leaves;   /* per variable: the array loads its value's tree needs once fused */
    int *nodes;    /* per variable: the operators in its tree */
    int *def_pos;  /* per variable: its definition's position in the current block, or -1 */
    int *impure;   /* per position in the current block: impure instructions before it */
} fuse_scan;

/* An operator or ufunc on arrays that makes a new array by one loop over its operands. */
int cj_is_elementwise_array_op(cj_lower *L, const cj_instr *in) {
    if (in->rtype == NULL || in->rtype->kind != CJ_ARRAY) {
        return 0;
    }
    if (in->op == CJ_I_CALL) {
        const cj_call *call = in->resolved;
        return call != NULL && call->kind == CJ_CALL_UFUNC && call->nargs == call->nin;
    }
    if (in->op != CJ_I_BINOP && in->op != CJ_I_UNARY && in->op != CJ_I_COMPARE) {
        return 0;
    }
    if ((in->flags & CJ_F_INPLACE) || in->optype == NULL ||
        (in->op == CJ_I_BINOP && in->sub == CJ_MATMUL)) {
        return 0;
    }
    for (int i = 0; i < in->nargs; i++) {
        if (CJ_VAR(L->ir, in->args[i])->type->kind == CJ_ARRAY) {
            return 1;
        }
    }
    return 0;
}

/* Whether `in` may lie between an operator and its fused reader. */
static int is_pure(cj_lower *L, const cj_instr *in) {
    if (in->dst >= 0 && !CJ_VAR(L->ir, in->dst)->is_temp) {
        return 0; /* a named local changes (`x := ...`) */
    }
    switch (in->op) {
    case CJ_I_GETATTR:
        return !(in->flags & CJ_F_ATTR_CALL); /* an extension's attribute is a call */
    case CJ_I_CONST:
    case CJ_I_ARG:
    case CJ_I_GLOBAL:
    case CJ_I_COPY:
    case CJ_I_GETITEM:
    case CJ_I_BUILD_TUPLE:
    case CJ_I_BUILD_SLICE:
    case CJ_I_STATIC_ITEM:
    case CJ_I_TRUTH:
        return 1;
    case CJ_I_BINOP:
    case CJ_I_UNARY:
    case CJ_I_COMPARE:
        return !(in->flags & CJ_F_INPLACE);
    case CJ_I_CALL: /* a ufunc making a new array changes nothing */
        return cj_is_elementwise_array_op(L, in);
    default:
        return 0;
    }
}

static void count_reads(cj_lower *L, int *reads) {
    cj_func_ir *ir = L->ir;
    for (int b = 0; b < ir->blocks.len; b++) {
        cj_block *blk = CJ_BLOCK(ir, b);
        for (int k = 0; blk->reachable && k < blk->instrs.len; k++) {
            const cj_instr *in = CJ_INSTR(blk, k);
            for (int i = 0; i < in->nargs; i++) {
                reads[in->args[i]]++;
            }
            for (int i = 0; in->call_args != NULL && i < in->sig_nargs; i++) {
                if (in->call_args[i] >= 0) {
                    reads[in->call_args[i]]++; /* counted twice at most: only fuses less */
                }
            }
        }
    }
}

/* Decides, at reader `in` (position k of its block), which operands' operators it absorbs. */
static void fuse_operands(fuse_scan *s, cj_block *blk, cj_instr *in, int k) {
    cj_lower *L = s->L;
    const int *vars;
    int nin = cj_elementwise_operands(in, &vars), leaves = 0, nodes = 1;
    for (int i = 0; i < nin; i++) {
        leaves += CJ_VAR(L->ir, vars[i])->type->kind == CJ_ARRAY;
    }
    for (int i = 0; i < nin; i++) {
        int v = vars[i], p = s->def_pos[v];
        if (p < 0 || s->reads[v] != 1 || s->impure[k] != s->impure[p + 1] ||
            leaves - 1 + s->leaves[v] > CJ_LOOP_NEST_PTRS - 1 ||
            nodes + s->nodes[v] > CJ_FUSED_NODES) {
            continue;
        }
        L->fused[v] = CJ_INSTR(blk, p);
        leaves += s->leaves[v] - 1;
        nodes += s->nodes[v];
    }
    s->leaves[in->dst] = leaves;
    s->nodes[in->dst] = nodes;
}

static void scan_block(fuse_scan *s, cj_block *blk) {
    cj_lower *L = s->L;
    s->impure[0] = 0;
    for (int k = 0; k < blk->instrs.len; k++) {
        s->impure[k + 1] = s->impure[k] + !is_pure(L, CJ_INSTR(blk, k));
    }
    for (int k = 0; k < blk->instrs.len; k++) {
        cj_instr *in = CJ_INSTR(blk, k);
        if (!cj_is_elementwise_array_op(L, in)) {
            continue;
        }
        fuse_operands(s, blk, in, k);
        if (CJ_VAR(L->ir, in->dst)->is_temp) {
            s->def_pos[in->dst] = k;
        }
    }
    for (int k = 0; k < blk->instrs.len; k++) { /* positions are per block */
        const cj_instr *in = CJ_INSTR(blk, k);
        if (in->dst >= 0) {
            s->def_pos[in->dst] = -1;
        }
    }
}

int cj_find_fused_array_ops(cj_lower *L) {
    cj_func_ir *ir = L->ir;
    size_t nvars = (size_t)ir->vars.len + 1, longest = 1;
    for (int b = 0; b < ir->blocks.len; b++) {
        size_t len = (size_t)CJ_BLOCK(ir, b)->instrs.len + 1;
        longest = len > longest ? len : longest;
    }
    L->fused = cj_arena_alloc(&ir->arena, sizeof(cj_instr *) * nvars);
    int *ints = cj_arena_alloc(&ir->arena, sizeof(int) * (nvars * 4 + longest));
    if (L->fused == NULL || ints == NULL) {
        return -1;
    }
    fuse_scan s = {.L = L, .reads = ints, .leaves = ints + nvars, .nodes = ints + 2 * nvars,
                   .def_pos = ints + 3 * nvars, .impure = ints + 4 * nvars};
    for (size_t v = 0; v < nvars; v++) {
        L->fused[v] = NULL;
        s.reads[v] = s.leaves[v] = s.nodes[v] = 0;
        s.def_pos[v] = -1;
    }
    if (L->env->target != CJ_TARGET_CPU) {
        return 0; /* array expressions are CPU code only */
    }
    count_reads(L, s.reads);
    for (int b = 0; b < ir->blocks.len; b++) {
        if (CJ_BLOCK(ir, b)->reachable) {
            scan_block(&s, CJ_BLOCK(ir, b));
        }
    }
    return 0;
}
