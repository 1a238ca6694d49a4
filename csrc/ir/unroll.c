/* unroll.c: numba's literal_unroll over a heterogeneous tuple, as an IR transform.
 * requires: IR from the frontend (versioned), the sites typing asked for (cj_func_ir's
 * unroll_request: the call's block offset and index, the tuple's length); produces: each such
 * loop `for x in literal_unroll(t)` replaced by its body cloned once per item, the copy k fed
 * by `x = t[k]` (a STATIC_ITEM, typed with that item's own type) and leaving to copy k + 1
 * where the body went back to the loop's header; the locals versioned again, so each copy's
 * variables type on their own. The pipeline (jit/pipeline.c) builds the IR again with the
 * sites known and types it again. The body is every block reached from the loop's body
 * without passing its header or entering the code after the loop; temporaries written only
 * there get fresh copies, the loop's own stack variables are shared. */
#include "ir/ir.h"

#include <string.h>

typedef struct unroller {
    cj_func_ir *ir;
    int call_block;   /* the block of the literal_unroll call, and its instruction */
    int call_index;
    int header;       /* the loop's header: its ITERNEXT and branch */
    int item;         /* the ITERNEXT's value */
    int body, after;  /* the header's branch targets */
    int nblocks;      /* blocks before cloning */
    int nvars;        /* variables before cloning */
    int len;          /* the tuple's length: the number of copies */
    char *in_body;    /* per block: a block of the loop's body */
    int *clone;       /* per block: its clone in the copy being made */
    char *renamed;    /* per variable: a temporary written only in the body */
    int *fresh;       /* per variable: its copy in the copy being made */
} unroller;

PyObject *cj_literal_unroll_function(void) {
    static PyObject *fn;
    if (fn == NULL) {
        PyObject *module = PyImport_ImportModule("cujit.misc.literal");
        fn = module ? PyObject_GetAttrString(module, "literal_unroll") : NULL;
        Py_XDECREF(module);
    }
    return fn;
}

/* Whether `in` calls literal_unroll (a GLOBAL of it as the callee). */
static int is_unroll_call(cj_func_ir *ir, const cj_instr *in) {
    if (in->op != CJ_I_CALL || in->nargs < 1) {
        return 0;
    }
    const cj_instr *callee = cj_ir_first_def(ir, in->args[0]);
    return callee != NULL && callee->op == CJ_I_GLOBAL && callee->obj != NULL &&
           callee->obj == cj_literal_unroll_function();
}

static void successors(cj_func_ir *ir, int b, int out[3]) {
    cj_block *blk = CJ_BLOCK(ir, b);
    cj_instr *t = cj_block_terminator(blk);
    out[0] = t ? t->target : -1;
    out[1] = t && t->op == CJ_I_BRANCH ? t->target2 : -1;
    out[2] = blk->handler;
}

/* Marks in `seen` the blocks reached from `from` without entering `stop` or a block marked
 * in `avoid` (NULL: none); -1 on MemoryError. */
static int reach(unroller *u, int from, int stop, const char *avoid, char *seen) {
    int *stack = cj_arena_alloc(&u->ir->arena, sizeof(int) * (size_t)(3 * u->nblocks + 1));
    if (stack == NULL) {
        return -1;
    }
    int sp = 0;
    stack[sp++] = from;
    while (sp > 0) {
        int b = stack[--sp];
        if (b < 0 || b == stop || seen[b] || (avoid != NULL && avoid[b])) {
            continue;
        }
        seen[b] = 1;
        int next[3];
        successors(u->ir, b, next);
        for (int k = 0; k < 3; k++) {
            stack[sp++] = next[k];
        }
    }
    return 0;
}

/* The loop the call at (call_block, call_index) feeds: the call's result made an iterator by
 * a GETITER of its block, which jumps to a header whose ITERNEXT branches on its second
 * result. 1 found, 0 not that shape. */
static int find_loop(unroller *u) {
    cj_func_ir *ir = u->ir;
    cj_block *blk = CJ_BLOCK(ir, u->call_block);
    int result = CJ_INSTR(blk, u->call_index)->dst, getiter = 0;
    for (int i = u->call_index + 1; i < blk->instrs.len; i++) {
        cj_instr *in = CJ_INSTR(blk, i);
        getiter |= in->op == CJ_I_GETITER && in->args[0] == result;
    }
    cj_instr *jump = cj_block_terminator(blk);
    if (!getiter || jump == NULL || jump->op != CJ_I_JUMP) {
        return 0;
    }
    u->header = jump->target;
    cj_block *h = CJ_BLOCK(ir, u->header);
    cj_instr *next = h->instrs.len == 2 ? CJ_INSTR(h, 0) : NULL, *br = cj_block_terminator(h);
    if (next == NULL || next->op != CJ_I_ITERNEXT || br == NULL || br->op != CJ_I_BRANCH ||
        br->args[0] != next->dst2) {
        return 0;
    }
    u->item = next->dst;
    u->body = br->target;
    u->after = br->target2;
    return 1;
}

/* The body's blocks, and the temporaries written only there (renamed in each copy). */
static int find_body(unroller *u) {
    cj_func_ir *ir = u->ir;
    char *outside = cj_arena_alloc(&ir->arena, (size_t)u->nblocks + 1);
    u->in_body = cj_arena_alloc(&ir->arena, (size_t)u->nblocks + 1);
    u->renamed = cj_arena_alloc(&ir->arena, (size_t)u->nvars + 1);
    char *outside_def = cj_arena_alloc(&ir->arena, (size_t)u->nvars + 1);
    if (outside == NULL || u->in_body == NULL || u->renamed == NULL || outside_def == NULL) {
        return -1;
    }
    memset(outside, 0, (size_t)u->nblocks);
    memset(u->in_body, 0, (size_t)u->nblocks);
    memset(u->renamed, 0, (size_t)u->nvars);
    memset(outside_def, 0, (size_t)u->nvars);
    if (reach(u, u->after, u->header, NULL, outside) < 0 ||
        reach(u, u->body, u->header, outside, u->in_body) < 0) {
        return -1;
    }
    for (int b = 0; b < u->nblocks; b++) {
        cj_block *blk = CJ_BLOCK(ir, b);
        for (int i = 0; i < blk->instrs.len; i++) {
            cj_instr *in = CJ_INSTR(blk, i);
            int defs[2] = {in->dst, in->dst2};
            for (int k = 0; k < 2; k++) {
                if (defs[k] < 0 || !CJ_VAR(ir, defs[k])->is_temp) {
                    continue;
                }
                if (u->in_body[b]) {
                    u->renamed[defs[k]] = 1;
                } else {
                    outside_def[defs[k]] = 1;
                }
            }
        }
    }
    for (int v = 0; v < u->nvars; v++) {
        u->renamed[v] &= !outside_def[v];
    }
    return 0;
}

/* Nested unrolling is numba's error too. */
static int check_not_nested(unroller *u) {
    for (int b = 0; b < u->nblocks; b++) {
        cj_block *blk = CJ_BLOCK(u->ir, b);
        for (int i = 0; u->in_body[b] && i < blk->instrs.len; i++) {
            if (is_unroll_call(u->ir, CJ_INSTR(blk, i))) {
                return cj_ir_error(u->ir, cj_UnsupportedError, CJ_INSTR(blk, i)->line,
                                   "Nesting of literal_unroll is unsupported");
            }
        }
    }
    return 0;
}

static int var_in_copy(unroller *u, int v) {
    return v >= 0 && v < u->nvars && u->fresh[v] >= 0 ? u->fresh[v] : v;
}

/* A block target in copy k: the header is the next copy's feed (after the last: the code
 * after the loop), a body block its clone. */
static int target_in_copy(unroller *u, int t, int next) {
    if (t == u->header) {
        return next;
    }
    return t >= 0 && t < u->nblocks && u->in_body[t] ? u->clone[t] : t;
}

/* Block b's clone in the current copy: every variable and target of that copy. */
static int clone_block(unroller *u, int b, int next) {
    cj_func_ir *ir = u->ir;
    int nb = u->clone[b];
    int handler = CJ_BLOCK(ir, b)->handler;
    CJ_BLOCK(ir, nb)->handler = handler >= 0 ? target_in_copy(u, handler, next) : -1;
    cj_block *blk = CJ_BLOCK(ir, b);
    for (int i = 0; i < blk->instrs.len; i++) {
        const cj_instr *in = CJ_INSTR(blk, i);
        cj_instr *ni = cj_ir_emit(ir, nb, in->op, var_in_copy(u, in->dst), in->nargs, in->args,
                                  in->line);
        if (ni == NULL) {
            return -1;
        }
        for (int a = 0; a < ni->nargs; a++) {
            ni->args[a] = var_in_copy(u, ni->args[a]);
        }
        ni->sub = in->sub;
        ni->flags = in->flags;
        ni->index = in->index;
        ni->obj = in->obj;
        ni->name = in->name;
        ni->dst2 = var_in_copy(u, in->dst2);
        ni->target = in->target >= 0 ? target_in_copy(u, in->target, next) : -1;
        ni->target2 = in->target2 >= 0 ? target_in_copy(u, in->target2, next) : -1;
    }
    return 0;
}

/* Copy k of the body, entered from `feed` (the item t[k]), leaving to `next`. */
static int make_copy(unroller *u, int k, int feed, int next, int tuple) {
    cj_func_ir *ir = u->ir;
    int line = CJ_INSTR(CJ_BLOCK(ir, u->header), 0)->line;
    for (int v = 0; v < u->nvars; v++) {
        u->fresh[v] = -1;
        if (u->renamed[v] || v == u->item) {
            int caught = CJ_VAR(ir, v)->caught;
            if ((u->fresh[v] = cj_ir_new_temp(ir, CJ_VAR(ir, v)->line)) < 0) {
                return -1;
            }
            CJ_VAR(ir, u->fresh[v])->caught = caught;
        }
    }
    for (int b = 0; b < u->nblocks; b++) {
        if (u->in_body[b] && (u->clone[b] = cj_ir_new_block(ir, CJ_BLOCK(ir, b)->offset)) < 0) {
            return -1;
        }
    }
    cj_instr *item = cj_ir_emit(ir, feed, CJ_I_STATIC_ITEM, u->fresh[u->item], 1, &tuple, line);
    cj_instr *jump = item ? cj_ir_emit(ir, feed, CJ_I_JUMP, -1, 0, NULL, line) : NULL;
    if (jump == NULL) {
        return -1;
    }
    item->index = k;
    item->sub = u->len; /* the count the tuple has */
    jump->target = target_in_copy(u, u->body, next);
    for (int b = 0; b < u->nblocks; b++) {
        if (u->in_body[b] && clone_block(u, b, next) < 0) {
            return -1;
        }
    }
    return 0;
}

/* Block b emptied down to one jump: the header into the first copy; the body's originals,
 * now dead, to themselves, so no definition flows from them (versioning sees no edge out). */
static int jump_only(cj_func_ir *ir, int b, int target, int line) {
    CJ_BLOCK(ir, b)->instrs.len = 0;
    CJ_BLOCK(ir, b)->handler = -1;
    cj_instr *jump = cj_ir_emit(ir, b, CJ_I_JUMP, -1, 0, NULL, line);
    if (jump == NULL) {
        return -1;
    }
    jump->target = target;
    return 0;
}

/* The call itself becomes the tuple, its GETITER a copy of it: nothing iterates. */
static void tuple_not_iterator(unroller *u) {
    cj_block *blk = CJ_BLOCK(u->ir, u->call_block);
    cj_instr *call = CJ_INSTR(blk, u->call_index);
    call->op = CJ_I_COPY;
    call->args[0] = call->args[call->nargs - 1];
    call->nargs = 1;
    call->index = 0;
    call->flags = 0;
    call->obj = NULL;
    for (int i = u->call_index + 1; i < blk->instrs.len; i++) {
        cj_instr *in = CJ_INSTR(blk, i);
        if (in->op == CJ_I_GETITER && in->args[0] == call->dst) {
            in->op = CJ_I_COPY;
        }
    }
}

/* The first literal_unroll call at the site's block offset and index (an original block: the
 * clones come after), or -1. */
static int find_call(unroller *u, const cj_unroll_site *site) {
    for (int b = 0; b < u->nblocks; b++) {
        cj_block *blk = CJ_BLOCK(u->ir, b);
        if (blk->offset == site->offset && site->index < blk->instrs.len &&
            is_unroll_call(u->ir, CJ_INSTR(blk, site->index))) {
            u->call_block = b;
            u->call_index = site->index;
            return b;
        }
    }
    return -1;
}

static int unroll_site(cj_func_ir *ir, const cj_unroll_site *site) {
    unroller u = {.ir = ir, .nblocks = ir->blocks.len, .nvars = ir->vars.len,
                  .len = site->len};
    if (find_call(&u, site) < 0) {
        PyErr_SetString(PyExc_SystemError, "cujit: the literal_unroll call to unroll is gone");
        return -1;
    }
    int line = CJ_INSTR(CJ_BLOCK(ir, u.call_block), u.call_index)->line;
    if (!find_loop(&u)) {
        return cj_ir_error(ir, cj_UnsupportedError, line, "Invalid use of literal_unroll: "
                           "cujit unrolls a loop over it, `for x in literal_unroll(t)`");
    }
    if (find_body(&u) < 0 || check_not_nested(&u) < 0) {
        return -1;
    }
    u.clone = cj_arena_alloc(&ir->arena, sizeof(int) * (size_t)(u.nblocks + 1));
    u.fresh = cj_arena_alloc(&ir->arena, sizeof(int) * (size_t)(u.nvars + 1));
    int *feeds = cj_arena_alloc(&ir->arena, sizeof(int) * (size_t)(site->len + 1));
    if (u.clone == NULL || u.fresh == NULL || feeds == NULL) {
        return -1;
    }
    tuple_not_iterator(&u);
    int tuple = CJ_INSTR(CJ_BLOCK(ir, u.call_block), u.call_index)->dst;
    for (int k = 0; k < site->len; k++) {
        if ((feeds[k] = cj_ir_new_block(ir, CJ_BLOCK(ir, u.header)->offset)) < 0) {
            return -1;
        }
    }
    for (int k = 0; k < site->len; k++) {
        int next = k + 1 < site->len ? feeds[k + 1] : u.after;
        if (make_copy(&u, k, feeds[k], next, tuple) < 0) {
            return -1;
        }
    }
    for (int b = 0; b < u.nblocks; b++) {
        if (u.in_body[b] && jump_only(ir, b, b, line) < 0) {
            return -1;
        }
    }
    return jump_only(ir, u.header, site->len > 0 ? feeds[0] : u.after, line);
}

int cj_unroll_loops(cj_func_ir *ir, const cj_unroll_site *sites, int nsites) {
    for (int s = 0; s < nsites; s++) {
        if (unroll_site(ir, &sites[s]) < 0) {
            return -1;
        }
    }
    return nsites > 0 ? cj_version_locals(ir) : 0;
}
