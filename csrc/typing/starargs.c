/* starargs.c: *args (numba's StarArgTuple). A jitted function `def f(a, *rest)` takes its
 * extra positional arguments as one tuple parameter, the last (after keyword-only ones, as in
 * co_varnames; frontend/build.c gives it its ARG). A call of it from compiled code packs them:
 * the call's last argument is CJ_ARG_PACKED, its type the tuple of their types (literals
 * widened, as a Python caller's would be typed), its variables recorded after the call's
 * arguments; lower/lower_starargs.c builds the tuple. A call g(*t) inside compiled code (the
 * frontend's CJ_F_STAR_CALL) of a jitted function takes t's items as its positional arguments
 * (CJ_ARG_STAR_ITEM slots, extracted where the call is lowered). */
#include "typing/infer_internal.h"

const cj_type *cj_call_slot_type(cj_infer_ctx *c, int v, const cj_type *star) {
    return v <= CJ_ARG_STAR_ITEM(0) ? star->items[CJ_ARG_STAR_INDEX(v)] : cj_vt(c, v);
}

int cj_pack_star_arguments(cj_infer_ctx *c, cj_call *call, const int *pos, int n,
                           const cj_type *star_tuple) {
    const cj_type *items[CJ_MAX_ARGS];
    int star = call->nargs;
    if (n > CJ_MAX_ARGS) {
        return cj_unsupported_error(c, NULL, "*args of more than %d items", CJ_MAX_ARGS);
    }
    for (int k = 0; k < n; k++) {
        items[k] = cj_type_unliteral(cj_call_slot_type(c, pos[k], star_tuple));
        call->args[star + 1 + k] = pos[k];
    }
    call->args[star] = CJ_ARG_PACKED;
    call->defaults[star] = NULL;
    call->argtypes[star] = cj_type_tuple(n, items);
    call->nargs = star + 1;
    return call->argtypes[star] != NULL ? 0 : -1;
}

int cj_type_star_call(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    const cj_type *callee = cj_vt(c, in->args[0]), *t = cj_vt(c, in->args[1]);
    PyObject *pyfunc = callee->kind == CJ_CONST_OBJ && c->env->dispatcher_pyfunc != NULL
                           ? c->env->dispatcher_pyfunc(callee->obj)
                           : NULL;
    if (pyfunc == NULL) {
        return cj_unsupported_error(c, in, "cujit compiles a call f(*args) only of a jitted "
                                           "function, not of %s", callee->name);
    }
    if (t->kind != CJ_TUPLE) {
        return cj_unsupported_error(c, in, "f(*args) with args of type %s: cujit unpacks "
                                           "tuples only", t->name);
    }
    return cj_type_jitted_star_call(c, in, callee->obj, pyfunc, t, out);
}
