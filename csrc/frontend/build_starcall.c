/* build_starcall.c: a call with a star argument, g(*t) (CALL_FUNCTION_EX): a CALL of g with
 * the one argument t, flagged CJ_F_STAR_CALL, whose items typing/starargs.c binds to g's
 * parameters once t's tuple type is known. A call mixing arguments and *t (g(a, *t), built
 * through a list) and **kwargs say so. */
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

/* LIST_TO_TUPLE (3.11) / CALL_INTRINSIC_1 INTRINSIC_LIST_TO_TUPLE (3.12): the argument list of
 * g(a, *t) or a starred tuple display (a, *t) */
int cj_fe_refuse_list_to_tuple(cj_builder *b) {
    return cj_unsupported_at(b->ir, b->line, "cujit does not support a star argument after "
                                             "other arguments (g(a, *t)) or a starred tuple "
                                             "display ((a, *t)): pass one tuple, g(*t)");
}

/* LIST_TO_TUPLE: list -> tuple */
int cj_fe_op_LIST_TO_TUPLE(cj_builder *b, const cj_bc *in) {
    (void)in;
    return cj_fe_refuse_list_to_tuple(b);
}
