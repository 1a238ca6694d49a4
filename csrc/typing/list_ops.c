/* list_ops.c: typing of the list operators (numba's listobj): l1 + l2 (a new list of the
 * items unified), l * n and n * l, l += iterable-list and l *= n (in place: the same list),
 * and the comparisons l1 == l2 ... l1 >= l2 (item by item, then by length). requires: the
 * operands' types; produces: the CJ_F_LIST_OP flag and a CJ_CALL_LIST record (builtin: the
 * cj_list_op, args: the list first) that lower/lower_list_concat.c lowers. */
#include "typing/infer_internal.h"

/* Records operator `op` over vars[0..2) of `in`, its result `t`. */
static int resolve(cj_infer_ctx *c, cj_instr *in, int op, int a, int b, const cj_type *t,
                   const cj_type **out) {
    cj_call *call = cj_call_record(c, in, CJ_CALL_LIST, 2);
    if (call == NULL || t == NULL) {
        return -1;
    }
    int vars[2] = {a, b};
    call->builtin = op;
    for (int i = 0; i < 2; i++) {
        call->args[i] = vars[i];
        call->defaults[i] = NULL;
        call->argtypes[i] = cj_vt(c, vars[i]);
    }
    in->flags |= CJ_F_LIST_OP;
    *out = t;
    return 1;
}

static int type_binop(cj_infer_ctx *c, cj_instr *in, const cj_type *a, const cj_type *b,
                      const cj_type **out) {
    int inplace = (in->flags & CJ_F_INPLACE) != 0;
    if (in->sub == CJ_ADD && a->kind == CJ_LIST && b->kind == CJ_LIST) {
        if (a->dtype == NULL || b->dtype == NULL) {
            return 0; /* an empty list waits for its first append */
        }
        if (inplace) { /* numba: l += other extends l */
            return cj_can_convert(b->dtype, a->dtype)
                       ? resolve(c, in, CJ_LIST_IADD, in->args[0], in->args[1], a, out)
                       : 2;
        }
        const cj_type *item = cj_unify(a->dtype, b->dtype);
        return item != NULL ? resolve(c, in, CJ_LIST_CONCAT, in->args[0], in->args[1],
                                      cj_type_list(item, 0), out)
                            : 2;
    }
    if (in->sub == CJ_MUL && a->kind == CJ_LIST && cj_type_is_integer(b)) {
        if (a->dtype == NULL) {
            return 0;
        }
        int op = inplace ? CJ_LIST_IMUL : CJ_LIST_REPEAT;
        return resolve(c, in, op, in->args[0], in->args[1],
                       inplace ? a : cj_type_list(a->dtype, 0), out);
    }
    if (in->sub == CJ_MUL && b->kind == CJ_LIST && cj_type_is_integer(a)) {
        return b->dtype == NULL ? 0
               : resolve(c, in, CJ_LIST_REPEAT, in->args[1], in->args[0],
                         cj_type_list(b->dtype, 0), out);
    }
    return 2;
}

static int type_compare(cj_infer_ctx *c, cj_instr *in, const cj_type *a, const cj_type *b,
                        const cj_type **out) {
    if (a->kind != CJ_LIST || b->kind != CJ_LIST || in->sub > CJ_GE) {
        return 2;
    }
    if (a->dtype == NULL || b->dtype == NULL) {
        return 0;
    }
    const cj_type *item_op; /* items compare by their own rule (rules.c) */
    if (cj_rule_compare(in->sub, a, b, &item_op) == NULL) {
        return 2; /* infer.c's numba "No implementation of function" error */
    }
    return resolve(c, in, CJ_LIST_COMPARE, in->args[0], in->args[1], cj_t_bool, out);
}

int cj_type_list_operator(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    if ((in->op != CJ_I_BINOP && in->op != CJ_I_COMPARE) || in->nargs != 2) {
        return 2;
    }
    const cj_type *a = cj_vt(c, in->args[0]), *b = cj_vt(c, in->args[1]);
    if (a == NULL || b == NULL || (a->kind != CJ_LIST && b->kind != CJ_LIST)) {
        return 2;
    }
    return in->op == CJ_I_BINOP ? type_binop(c, in, a, b, out) : type_compare(c, in, a, b, out);
}
