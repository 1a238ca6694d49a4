/* range_ops.c: typing of `x in r`, `x not in r` and `r[i]` for a range r, as numba's
 * rangeobj: each is compiled from Python, a call of cujit.cpython.rangeobj's jitted
 * range_contains, range_not_contains or range_getitem (jitted_calls.c's library helper call).
 * requires: the operands' types; produces: the CJ_F_HELPER_CALL flag and the instruction's
 * CJ_CALL_DISPATCHER record, which lowering lowers as a call (lower.c). Its attributes
 * (.start .stop .step) are that module's overload_attribute. */
#include "typing/infer_internal.h"

#define HELPERS "cujit.cpython.rangeobj:"

/* A helper call of the instruction's operands: 1, -1, or 2 when `t` is not a range's. */
static int helper(cj_infer_ctx *c, cj_instr *in, const char *name, int range, int other,
                  const cj_type **out) {
    int vars[2] = {range, other};
    PyObject *consts[2] = {NULL, NULL};
    int rc = cj_type_library_helper_call(c, in, name, 2, vars, consts, out);
    if (rc == 1) {
        in->flags |= CJ_F_HELPER_CALL;
    }
    return rc;
}

int cj_type_range_op(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    if (in->nargs != 2 || c->env->target != CJ_TARGET_CPU) {
        return 2;
    }
    const cj_type *a = cj_vt(c, in->args[0]), *b = cj_vt(c, in->args[1]);
    if (a == NULL || b == NULL) {
        return 2;
    }
    if (in->op == CJ_I_COMPARE && (in->sub == CJ_IN || in->sub == CJ_NOTIN) &&
        b->kind == CJ_RANGE && cj_type_is_number(a) && a->kind != CJ_COMPLEX) {
        return helper(c, in, in->sub == CJ_IN ? HELPERS "range_contains"
                                              : HELPERS "range_not_contains",
                      in->args[1], in->args[0], out);
    }
    if (in->op == CJ_I_GETITEM && a->kind == CJ_RANGE && cj_type_is_integer(b)) {
        return helper(c, in, HELPERS "range_getitem", in->args[0], in->args[1], out);
    }
    return 2;
}
