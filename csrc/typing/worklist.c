/* worklist.c: the worklist of type inference (infer.c): instructions by position, each
 * variable's readers (built once per compilation, in the IR's arena), and two heaps of
 * positions, this round's and the next's. */
#include "typing/infer_internal.h"

static void heap_push(int *h, int *n, int v) {
    int i = (*n)++;
    while (i > 0 && h[(i - 1) / 2] > v) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = v;
}

static int heap_pop(int *h, int *n) {
    int top = h[0], v = h[--(*n)], i = 0;
    for (;;) {
        int k = 2 * i + 1;
        if (k >= *n) {
            break;
        }
        if (k + 1 < *n && h[k + 1] < h[k]) {
            k++;
        }
        if (v <= h[k]) {
            break;
        }
        h[i] = h[k];
        i = k;
    }
    if (*n > 0) {
        h[i] = v;
    }
    return top;
}

static void queue(cj_worklist *w, int pos) {
    if (!w->queued[pos]) {
        w->queued[pos] = 1;
        if (pos > w->cur) {
            heap_push(w->now, &w->nnow, pos);
        } else {
            heap_push(w->next, &w->nnext, pos);
        }
    }
}

void cj_work_widened(cj_infer_ctx *c, int var, int known) {
    cj_worklist *w = c->work;
    if (var < 0) {
        for (int i = 0; i < w->ncalls; i++) {
            queue(w, w->calls[i]);
        }
        return;
    }
    for (int i = w->use_start[var]; i < w->use_start[var + 1]; i++) {
        queue(w, w->uses[i]);
    }
    if (known && w->is_cond[var]) {
        w->reach_dirty = 1;
    }
}

void cj_work_open_block(cj_infer_ctx *c, int b) {
    cj_worklist *w = c->work;
    CJ_BLOCK(c->ir, b)->reachable = 1;
    w->reach_dirty = 1;
    for (int pos = w->first[b]; pos < w->first[b + 1]; pos++) {
        queue(w, pos);
    }
}

void cj_work_wake_literal(cj_infer_ctx *c, int var) {
    cj_worklist *w = c->work;
    const cj_instr *def = c->def[var];
    if (def == NULL || !(def->flags & CJ_F_LIST)) {
        return;
    }
    for (int pos = 0; pos < w->ninstrs; pos++) {
        if (w->instr[pos] == def) {
            queue(w, pos);
            c->changed = 1; /* typed next round when it comes before the reader */
            return;
        }
    }
}

int cj_work_pop(cj_worklist *w) {
    int pos = heap_pop(w->now, &w->nnow);
    w->queued[pos] = 0;
    return pos;
}

/* An ARG reads its own variable too: its truth is known only while no other assignment
 * widens the variable past None. */
int cj_work_build(cj_infer_ctx *c, cj_worklist *w) {
    cj_func_ir *ir = c->ir;
    cj_arena *a = &ir->arena;
    int nb = ir->blocks.len, nv = ir->vars.len, n = 0;
    w->first = cj_arena_alloc(a, sizeof(int) * (size_t)(nb + 1));
    w->use_start = cj_arena_alloc(a, sizeof(int) * (size_t)(nv + 2));
    if (w->first == NULL || w->use_start == NULL) {
        return -1;
    }
    for (int b = 0; b < nb; b++) {
        w->first[b] = n;
        n += CJ_BLOCK(ir, b)->instrs.len;
    }
    w->first[nb] = w->ninstrs = n;
    w->instr = cj_arena_alloc(a, sizeof(cj_instr *) * (size_t)(n + 1));
    w->block_of = cj_arena_alloc(a, sizeof(int) * (size_t)(n + 1));
    w->queued = cj_arena_alloc(a, (size_t)n + 1);
    w->typed = cj_arena_alloc(a, (size_t)n + 1);
    w->now = cj_arena_alloc(a, sizeof(int) * (size_t)(n + 1));
    w->next = cj_arena_alloc(a, sizeof(int) * (size_t)(n + 1));
    w->calls = cj_arena_alloc(a, sizeof(int) * (size_t)(n + 1));
    w->is_cond = cj_arena_alloc(a, (size_t)nv + 1);
    w->seen = cj_arena_alloc(a, (size_t)nb + 1);
    w->stack = cj_arena_alloc(a, sizeof(int) * (size_t)(nb + 1));
    if (w->instr == NULL || w->block_of == NULL || w->queued == NULL || w->typed == NULL ||
        w->now == NULL || w->next == NULL || w->calls == NULL || w->is_cond == NULL ||
        w->seen == NULL || w->stack == NULL) {
        return -1;
    }
    int nuses = 0;
    for (int pass = 0; pass < 2; pass++) { /* count, then fill */
        for (int pos = 0, b = 0; b < nb; b++) {
            cj_block *blk = CJ_BLOCK(ir, b);
            for (int i = 0; i < blk->instrs.len; i++, pos++) {
                cj_instr *in = CJ_INSTR(blk, i);
                for (int k = -1; k < in->nargs; k++) {
                    int v = k >= 0 ? in->args[k] : in->op == CJ_I_ARG ? in->dst : -1;
                    if (v >= 0 && pass == 0) {
                        w->use_start[v + 1]++;
                    } else if (v >= 0) {
                        w->uses[w->use_start[v + 1]++] = pos;
                    }
                }
                if (pass == 0) {
                    w->instr[pos] = in;
                    w->block_of[pos] = b;
                    if (in->op == CJ_I_CALL) {
                        w->calls[w->ncalls++] = pos;
                    }
                    if (in->op == CJ_I_BRANCH) {
                        w->is_cond[in->args[0]] = 1;
                    }
                }
            }
        }
        if (pass == 0) {
            for (int v = 0; v < nv; v++) { /* counts to starts, shifted by one for the fill */
                nuses += w->use_start[v + 1];
                w->use_start[v + 1] = nuses - w->use_start[v + 1];
            }
            w->uses = cj_arena_alloc(a, sizeof(int) * (size_t)(nuses + 1));
            if (w->uses == NULL) {
                return -1;
            }
        }
    }
    w->reach_dirty = 1;
    w->cur = -1;
    return 0;
}

cj_instr *cj_work_first_untyped(cj_infer_ctx *c) {
    cj_worklist *w = c->work;
    for (int pos = 0; pos < w->ninstrs; pos++) {
        if (CJ_BLOCK(c->ir, w->block_of[pos])->reachable && !w->typed[pos]) {
            return w->instr[pos];
        }
    }
    return NULL;
}
