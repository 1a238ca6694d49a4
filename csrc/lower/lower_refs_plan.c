/* lower_refs_plan.c: which variables need no reference counting of their own (CPU), so that
 * the common statement `a = np.empty(n); a[0] = x` costs no atomic beyond the allocation's
 * own (numba's reference-count pruning does this on its LLVM IR; here the IR says it directly).
 *  - A borrowed temporary: defined once, by a copy of a variable of the same type, and read only
 *    later in that block, while nothing in the rest of the block stores the source. The source
 *    holds the reference for it (fused array operators read their operands later, but still in
 *    that block), so its copy, its stores and the exit count nothing.
 *  - A moved temporary: read exactly once, by a copy into another variable of the same type;
 *    the copy hands its reference over and leaves it empty (a NULL meminfo counts nothing).
 *  - A stack slot carried into a block ($phi, frontend/build.c), set only by the copies on the
 *    edges: it borrows too. What a stack slot holds was made by an instruction whose own
 *    variable keeps it until that instruction runs again, which happens only after the slot's
 *    value was used up (popped into a variable, a call, a list); a comprehension's list then
 *    goes round its loop with no count at all. */
#include "lower/lower_internal.h"

#include <string.h>

typedef struct var_uses {
    int defs, uses, def_block, def_pos, use_block, last_use, copy_uses, copy_dst, other_defs;
    int source; /* the variable a single-definition copy reads, else -1 */
} var_uses;

static void note_use(var_uses *u, int b, int k, const cj_instr *in) {
    u->use_block = u->uses == 0 || u->use_block == b ? b : -2;
    u->uses++;
    u->last_use = k;
    if (in->op == CJ_I_COPY) {
        u->copy_uses++;
        u->copy_dst = in->dst;
    }
}

static void note_def(var_uses *u, int b, int k, const cj_instr *in) {
    u->defs++;
    u->other_defs += in->op != CJ_I_COPY || in->nargs != 1;
    u->def_block = b;
    u->def_pos = k;
    u->source = in->op == CJ_I_COPY && in->nargs == 1 ? in->args[0] : -1;
}

static void count_uses(cj_func_ir *ir, var_uses *uses) {
    for (int b = 0; b < ir->blocks.len; b++) {
        cj_block *blk = CJ_BLOCK(ir, b);
        for (int k = 0; k < blk->instrs.len; k++) {
            cj_instr *in = CJ_INSTR(blk, k);
            for (int a = 0; a < in->nargs; a++) {
                note_use(&uses[in->args[a]], b, k, in);
            }
            for (int a = 0; in->call_args != NULL && a < in->sig_nargs; a++) {
                if (in->call_args[a] >= 0) {
                    note_use(&uses[in->call_args[a]], b, k, in);
                }
            }
            if (in->dst >= 0) {
                note_def(&uses[in->dst], b, k, in);
            }
            if (in->dst2 >= 0) {
                note_def(&uses[in->dst2], b, k, in);
            }
        }
    }
}

/* No instruction of block `b` from position `from` on writes variable `v`. */
static int unwritten_after(cj_func_ir *ir, int b, int from, int v) {
    cj_block *blk = CJ_BLOCK(ir, b);
    for (int k = from; k < blk->instrs.len; k++) {
        cj_instr *in = CJ_INSTR(blk, k);
        if (in->dst == v || in->dst2 == v) {
            return 0;
        }
    }
    return 1;
}

static int borrows(cj_func_ir *ir, const var_uses *uses, int t) {
    const var_uses *u = &uses[t];
    int src = u->source;
    return u->defs == 1 && src >= 0 && src != t && CJ_VAR(ir, src)->type == CJ_VAR(ir, t)->type &&
           (u->uses == 0 || (u->use_block == u->def_block && u->last_use > u->def_pos)) &&
           unwritten_after(ir, u->def_block, u->def_pos + 1, src);
}

int cj_plan_refs(cj_lower *L) {
    cj_func_ir *ir = L->ir;
    int n = ir->vars.len;
    L->ref_plan = cj_arena_alloc(&ir->arena, (size_t)n + 1);
    var_uses *uses = PyMem_Calloc((size_t)n + 1, sizeof(var_uses));
    if (L->ref_plan == NULL || uses == NULL) {
        PyMem_Free(uses);
        PyErr_NoMemory();
        return -1;
    }
    memset(L->ref_plan, CJ_REFS_OWNED, (size_t)n + 1);
    count_uses(ir, uses);
    for (int v = 0; v < n; v++) {
        cj_var *var = CJ_VAR(ir, v);
        if (var->is_temp && var->type != NULL && cj_counts_refs(L, var->type) &&
            borrows(ir, uses, v)) {
            L->ref_plan[v] = CJ_REFS_BORROWED;
        }
    }
    for (int v = 0; v < n; v++) {
        cj_var *var = CJ_VAR(ir, v);
        if (var->is_temp && var->type != NULL && cj_counts_refs(L, var->type) &&
            strncmp(var->name, "$phi", 4) == 0 && uses[v].defs > 0 && uses[v].other_defs == 0) {
            L->ref_plan[v] = CJ_REFS_BORROWED;
        }
    }
    for (int v = 0; v < n; v++) { /* a copy into a borrowing variable reads, never moves */
        const var_uses *u = &uses[v];
        if (CJ_VAR(ir, v)->is_temp && L->ref_plan[v] == CJ_REFS_OWNED && u->uses == 1 &&
            u->copy_uses == 1 && u->copy_dst >= 0 && u->copy_dst != v &&
            L->ref_plan[u->copy_dst] == CJ_REFS_OWNED && CJ_VAR(ir, v)->type != NULL &&
            CJ_VAR(ir, u->copy_dst)->type == CJ_VAR(ir, v)->type &&
            cj_counts_refs(L, CJ_VAR(ir, v)->type)) {
            L->ref_plan[v] = CJ_REFS_MOVED;
        }
    }
    PyMem_Free(uses);
    return 0;
}
