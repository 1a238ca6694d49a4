/* build_bigtuple.c: a tuple display of more than 30 items. CPython builds it as a list
 * (BUILD_LIST, a LIST_APPEND per item) turned into a tuple (LIST_TO_TUPLE / 3.12's
 * INTRINSIC_LIST_TO_TUPLE); made here the one BUILD_TUPLE of its items, as numba's bytecode
 * front end does, so heterogeneous items type. Each LIST_APPEND's method read and call
 * (build_inline.c) become copies of the item nothing reads. */
#include "frontend/build_internal.h"

#include <string.h>

/* Whether `in` is the GETATTR `v.append` that cj_fe_method_call emits for LIST_APPEND. */
static int reads_append(const cj_instr *in, int v) {
    return in->op == CJ_I_GETATTR && in->nargs == 1 && in->args[0] == v && in->obj != NULL &&
           PyUnicode_Check(in->obj) && PyUnicode_CompareWithASCIIString(in->obj, "append") == 0;
}

/* The items appended to `v` (BUILD_LIST at position `at` of the block) into `items`: their
 * count, or -1 when v is read by anything else than an append (not this display). */
static int appended_items(cj_block *blk, int at, int v, int *items, int cap) {
    int n = 0;
    for (int i = at + 1; i < blk->instrs.len; i++) {
        const cj_instr *in = CJ_INSTR(blk, i);
        if (reads_append(in, v) && i + 1 < blk->instrs.len) {
            const cj_instr *call = CJ_INSTR(blk, i + 1);
            if (call->op != CJ_I_CALL || call->nargs != 2 || call->args[0] != in->dst ||
                n >= cap) {
                return -1;
            }
            items[n++] = call->args[1];
            i++;
            continue;
        }
        for (int k = 0; k < in->nargs; k++) {
            if (in->args[k] == v) {
                return -1;
            }
        }
    }
    return n;
}

int cj_fe_appended_tuple(cj_builder *b) {
    enum { MAX_ITEMS = 4096 };
    cj_block *blk = CJ_BLOCK(b->ir, b->cur);
    int v = b->sp > 0 ? b->stack[b->sp - 1] : -1, at = -1;
    for (int i = blk->instrs.len - 1; v >= 0 && i >= 0 && at < 0; i--) {
        at = CJ_INSTR(blk, i)->dst == v ? i : -1;
    }
    if (v >= 0 && at < 0) { /* the list began in an earlier block: its items branch */
        return cj_unsupported_at(b->ir, b->line, "cujit does not support a tuple display of "
                                 "more than 30 items, or a starred one, whose items branch (a "
                                 "conditional expression inside): build it from smaller "
                                 "tuples");
    }
    cj_instr *list = at >= 0 ? CJ_INSTR(blk, at) : NULL;
    if (list == NULL || list->op != CJ_I_BUILD_TUPLE || !(list->flags & CJ_F_LIST)) {
        return 0;
    }
    int lead = list->nargs;
    int *items = cj_arena_alloc(&b->ir->arena, sizeof(int) * MAX_ITEMS);
    if (items == NULL) {
        return -1;
    }
    if (lead > 0) { /* BUILD_LIST 0 has no args array */
        memcpy(items, list->args, sizeof(int) * (size_t)lead);
    }
    int n = appended_items(blk, at, v, items + lead, MAX_ITEMS - lead);
    if (n <= 0) {
        return 0;
    }
    for (int i = at + 1; i < blk->instrs.len; i++) { /* v.append(x): two dead copies of x */
        cj_instr *in = CJ_INSTR(blk, i);
        if (reads_append(in, v)) {
            int item = CJ_INSTR(blk, i + 1)->args[1];
            in->op = CJ_I_COPY;
            in->obj = NULL;
            in->args[0] = item;
            in = CJ_INSTR(blk, ++i);
            in->op = CJ_I_COPY;
            in->nargs = 1;
            in->index = 0;
            in->args[0] = item;
        }
    }
    list->flags &= ~CJ_F_LIST; /* the empty BUILD_LIST: an unread () */
    list->nargs = 0;
    int dst = cj_fe_temp(b);
    if (dst < 0 || cj_fe_emit(b, CJ_I_BUILD_TUPLE, dst, lead + n, items) == NULL) {
        return -1;
    }
    b->stack[b->sp - 1] = dst;
    return 1;
}
