/* optional.c (typing): where an OptionalType value (types/optional.c) is used.
 * requires: infer.c's rounds; produces: instructions typed with their Optional operands
 * unpacked (CJ_F_OPT_UNPACK), and, once typing is done, each such operand read through a new
 * temporary of the value's type (`$t = COPY x` before the instruction), whose store is the
 * checked cast of lower/lower_optional.c.
 * numba's rule (templates' apply): an operation that does not take an Optional is typed again
 * with each Optional argument replaced by its value type, and the cast raises TypeError at run
 * time when it is None. Native to Optional: copies, returns, `is` / `is not` (and == / != with
 * None), tuples, calls of
 * jitted functions (the callee is compiled for the Optional). Truth (`if x:`) is not: numba
 * refuses bool(OptionalType(T)), and so does infer.c's truth rule. */
#include "typing/infer_internal.h"

static int is_optional(const cj_type *t) {
    return t != NULL && t->kind == CJ_OPTIONAL;
}

/* Whether the instruction takes its Optional operands as they are. */
static int takes_optional(cj_infer_ctx *c, const cj_instr *in) {
    switch (in->op) {
    case CJ_I_COPY:
    case CJ_I_RETURN:
    case CJ_I_BRANCH:
    case CJ_I_TRUTH:
    case CJ_I_RAISE:
        return 1;
    case CJ_I_COMPARE: { /* x is None; x == None too (numba: True when x is None) */
        const cj_type *a = CJ_VAR(c->ir, in->args[0])->type, *b = CJ_VAR(c->ir, in->args[1])->type;
        int with_none = (a && a->kind == CJ_NONE) || (b && b->kind == CJ_NONE);
        return in->sub == CJ_IS || in->sub == CJ_ISNOT ||
               ((in->sub == CJ_EQ || in->sub == CJ_NE) && with_none);
    }
    case CJ_I_BUILD_TUPLE:
        return !(in->flags & (CJ_F_LIST | CJ_F_DICT));
    case CJ_I_CALL: {
        const cj_type *callee = CJ_VAR(c->ir, in->args[0])->type;
        if (callee == NULL || callee->kind != CJ_CONST_OBJ) {
            return 0;
        }
        int id = cj_builtin_lookup(callee->obj);
        if (id == CJ_B_ISINSTANCE || id == CJ_B_PRINT || cj_is_objmode_block(callee->obj)) {
            return 1; /* isinstance.c refuses it in numba's words; Python gets None or a value */
        }
        return c->env->dispatcher_pyfunc != NULL && c->env->dispatcher_pyfunc(callee->obj);
    }
    default:
        return 0;
    }
}

int cj_optional_unpacks(cj_infer_ctx *c, cj_instr *in) {
    int any = 0;
    for (int i = 0; i < in->nargs && !any; i++) {
        any = is_optional(CJ_VAR(c->ir, in->args[i])->type);
    }
    if (!any || takes_optional(c, in)) {
        return 0;
    }
    in->flags |= CJ_F_OPT_UNPACK;
    return 1;
}

/* The temporary holding the value of Optional variable `var` for this instruction: found in
 * map (pairs var, temp) or made, with its COPY appended to `out`. -1 with an exception. */
static int value_temp(cj_func_ir *ir, const cj_instr *in, int var, int *map, int *nmap,
                      cj_vec *out) {
    for (int k = 0; k < *nmap; k++) {
        if (map[2 * k] == var) {
            return map[2 * k + 1];
        }
    }
    const cj_type *value_t = CJ_VAR(ir, var)->type->dtype;
    int t = cj_ir_new_temp(ir, in->line);
    cj_instr *copy = t >= 0 ? cj_vec_push(&ir->arena, out, sizeof(cj_instr)) : NULL;
    int *args = copy ? cj_arena_alloc(&ir->arena, sizeof(int)) : NULL;
    if (args == NULL) {
        return -1;
    }
    CJ_VAR(ir, t)->type = value_t;
    CJ_VAR(ir, t)->known = 2; /* varies */
    args[0] = var;
    *copy = (cj_instr){.op = CJ_I_COPY, .dst = t, .dst2 = -1, .nargs = 1, .args = args,
                       .line = in->line, .rtype = value_t, .target = -1, .target2 = -1};
    map[2 * *nmap] = var;
    map[2 * *nmap + 1] = t;
    (*nmap)++;
    return t;
}

/* Each Optional variable in vars[0..n) replaced by its value's temporary. */
static int unpack_vars(cj_func_ir *ir, const cj_instr *in, int *vars, int n, int *map,
                       int *nmap, cj_vec *out) {
    for (int i = 0; vars != NULL && i < n; i++) {
        if (vars[i] >= 0 && is_optional(CJ_VAR(ir, vars[i])->type)) {
            if (*nmap >= CJ_MAX_ARGS + 1) {
                PyErr_SetString(cj_UnsupportedError, "more than 65 Optional operands in one "
                                                    "expression");
                return -1;
            }
            if ((vars[i] = value_temp(ir, in, vars[i], map, nmap, out)) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

/* Whether `in` reads Optional operands that must be unpacked: one typed unpacked (a library
 * function's jitted implementation among them), or a call of a builtin or method whose folded
 * arguments (a method's receiver among them) hold one. */
static int reads_unpacked(const cj_instr *in, const cj_call **call) {
    *call = in->op == CJ_I_CALL ? in->resolved : NULL;
    if (in->flags & CJ_F_OPT_UNPACK) {
        return 1;
    }
    if (*call != NULL && ((*call)->kind == CJ_CALL_DISPATCHER || (*call)->kind == CJ_CALL_SELF ||
                          (*call)->kind == CJ_CALL_OBJMODE || /* print() too */
                          ((*call)->kind == CJ_CALL_BUILTIN &&
                           (*call)->builtin == CJ_B_ISINSTANCE))) {
        *call = NULL; /* they take Optionals (takes_optional) */
    }
    return *call != NULL;
}

/* One block's instructions again, a COPY before each reader of an Optional it unpacks. */
static int unpack_block(cj_func_ir *ir, cj_block *blk) {
    cj_vec out = {0};
    int map[2 * (CJ_MAX_ARGS + 2)];
    for (int i = 0; i < blk->instrs.len; i++) {
        cj_instr in = *CJ_INSTR(blk, i);
        const cj_call *call;
        int nmap = 0;
        if (reads_unpacked(&in, &call)) {
            int *args = cj_arena_alloc(&ir->arena, sizeof(int) * (size_t)(in.nargs + 1));
            if (args == NULL) {
                return -1;
            }
            memcpy(args, in.args, sizeof(int) * (size_t)in.nargs);
            in.args = args; /* the original may be shared with the call record */
            int skip = in.op == CJ_I_CALL; /* args[0]: the callee */
            if (unpack_vars(ir, &in, in.args + skip, in.nargs - skip, map, &nmap, &out) < 0 ||
                unpack_vars(ir, &in, in.call_args, in.sig_nargs, map, &nmap, &out) < 0 ||
                (call && unpack_vars(ir, &in, call->args, call->nargs, map, &nmap, &out) < 0)) {
                return -1;
            }
        }
        cj_instr *slot = cj_vec_push(&ir->arena, &out, sizeof(cj_instr));
        if (slot == NULL) {
            return -1;
        }
        *slot = in;
    }
    blk->instrs = out;
    return 0;
}

int cj_optional_unpack_pass(cj_infer_ctx *c) {
    cj_func_ir *ir = c->ir;
    for (int b = 0; b < ir->blocks.len; b++) {
        cj_block *blk = CJ_BLOCK(ir, b);
        if (blk->reachable && unpack_block(ir, blk) < 0) {
            return -1;
        }
    }
    return 0;
}
