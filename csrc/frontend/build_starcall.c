/* build_starcall.c: a call with a star argument, g(*t) (CALL_FUNCTION_EX): a CALL of g with
 * the one argument t, flagged CJ_F_STAR_CALL, whose items typing/starargs.c binds to g's
 * parameters once t's tuple type is known; g(a, *t) (its arguments built as a list) with the
 * tuple (a,) + t; g(*t, a) and g(*t1, *t2) with t + (a,) and t1 + t2. **kwargs say so. */
#include "frontend/build_internal.h"

/* CALL_FUNCTION_EX flags: NULL, callable, args[, kwargs] -> result */
int cj_fe_op_CALL_FUNCTION_EX(cj_builder *b, const cj_bc *in) {
    if (in->arg & 1) {
        return cj_unsupported_at(b->ir, b->line, "cujit does not support calls with **kwargs "
                                                 "(f(**d))");
    }
    int args[2], null;
    if (cj_fe_pop(b, &args[1]) < 0 || cj_fe_pop(b, &args[0]) < 0 || cj_fe_pop(b, &null) < 0) {
        return -1;
    }
    if (null != CJ_NULL) {
        return cj_unsupported_at(b->ir, b->line, "cujit does not support a method called with "
                                                 "*args (obj.method(*t))");
    }
    if (cj_fe_check_value(b, args[0]) < 0 || cj_fe_check_value(b, args[1]) < 0) {
        return -1;
    }
    cj_instr *call = cj_fe_emit_push(b, CJ_I_CALL, 2, args);
    if (call == NULL) {
        return -1;
    }
    call->flags |= CJ_F_STAR_CALL;
    call->obj = NULL;
    call->index = 0;
    return 0;
}

/* The instruction of the current block that defines `v`, or NULL. */
static cj_instr *defined_here(cj_builder *b, int v) {
    cj_block *blk = CJ_BLOCK(b->ir, b->cur);
    for (int i = blk->instrs.len - 1; i >= 0; i--) {
        cj_instr *in = CJ_INSTR(blk, i);
        if (in->dst == v) {
            return in;
        }
    }
    return NULL;
}

/* LIST_TO_TUPLE (3.11) / CALL_INTRINSIC_1 INTRINSIC_LIST_TO_TUPLE (3.12): list -> tuple. The
 * list of g(a, *t)'s arguments or of a starred display (a, *t): BUILD_LIST of the leading
 * items and a LIST_EXTEND per star, in this block; made the tuple (a,) + t, each part in
 * place (the BUILD_LIST a tuple, each extension a tuple +), so heterogeneous items type. An
 * item after a star (LIST_APPEND: g(*t, a)) says so. */
/* Whether the list `v` of this block had an item appended (its method read: LIST_APPEND). */
static int appended_to(cj_builder *b, int v) {
    cj_block *blk = CJ_BLOCK(b->ir, b->cur);
    for (int i = 0; i < blk->instrs.len; i++) {
        const cj_instr *in = CJ_INSTR(blk, i);
        if (in->op == CJ_I_GETATTR && in->nargs >= 1 && in->args[0] == v) {
            return 1;
        }
    }
    return 0;
}

/* The parts of the list `v`: 1 when it is a BUILD_LIST extended by LIST_EXTENDs only. */
static int star_parts_only(cj_builder *b, int v) {
    for (cj_instr *in = defined_here(b, v); in != NULL && (in->flags & CJ_F_LIST);) {
        if (appended_to(b, in->dst)) {
            return 0;
        }
        if (in->op == CJ_I_BUILD_TUPLE) {
            return 1;
        }
        if (in->op != CJ_I_COPY || in->nargs != 2) {
            return 0;
        }
        in = defined_here(b, in->args[1]);
    }
    return 0;
}

int cj_fe_list_to_tuple(cj_builder *b) {
    int appended = cj_fe_appended_tuple(b); /* (x0, ..., x31): build_bigtuple.c */
    if (appended != 0) {
        return appended < 0 ? -1 : 0;
    }
    int v = b->sp > 0 ? b->stack[b->sp - 1] : -1;
    if (v < 0 || !star_parts_only(b, v)) {
        return cj_unsupported_at(b->ir, b->line, "cujit does not support this starred tuple "
                                 "display (a list appended to before a star): pass one tuple, "
                                 "g(*(t + (a,)))");
    }
    cj_instr *in = defined_here(b, v);
    while (in->op == CJ_I_COPY) { /* LIST_EXTEND's COPY {extension, list}: list + extension */
        int extension = in->args[0], list = in->args[1];
        in->flags &= ~CJ_F_LIST;
        in->op = CJ_I_BINOP;
        in->sub = CJ_ADD;
        in->args[0] = list;
        in->args[1] = extension;
        in = defined_here(b, list);
    }
    in->flags &= ~CJ_F_LIST; /* the BUILD_LIST of the leading items: a tuple */
    return 0;
}

int cj_fe_star_append(cj_builder *b, int list, int v) {
    cj_instr *ext = defined_here(b, list);
    if (ext == NULL || ext->op != CJ_I_COPY || ext->nargs != 2 || !(ext->flags & CJ_F_LIST) ||
        !star_parts_only(b, list)) {
        return 0; /* no star part before: a list being built, appended to */
    }
    int one = cj_fe_temp(b), dst = cj_fe_temp(b);
    cj_instr *item = one < 0 || dst < 0 ? NULL : cj_fe_emit(b, CJ_I_BUILD_TUPLE, one, 1, &v);
    int args[2] = {one, list};
    cj_instr *copy = item ? cj_fe_emit(b, CJ_I_COPY, dst, 2, args) : NULL;
    if (copy == NULL) {
        return -1;
    }
    copy->flags |= CJ_F_LIST; /* as LIST_EXTEND of (v,) would: list_to_tuple adds it */
    for (int k = b->sp - 1; k >= 0; k--) {
        if (b->stack[k] == list) {
            b->stack[k] = dst;
            break;
        }
    }
    return 1;
}

/* LIST_TO_TUPLE: list -> tuple */
int cj_fe_op_LIST_TO_TUPLE(cj_builder *b, const cj_bc *in) {
    (void)in;
    return cj_fe_list_to_tuple(b);
}
