/* literal_unroll.c: typing of numba's literal_unroll(container) (cujit.misc.literal). numba
 * unrolls the loop over it once per item, each with the item's own type. A heterogeneous tuple
 * (on the CPU; any tuple in CUDA code) has typing fail asking for that (the IR's
 * unroll_request): jit/pipeline.c builds the IR again with the loop's body cloned per item
 * (ir/unroll.c), where the call is the tuple itself. A tuple of one item type or a list made
 * in the function on the CPU is the container itself (a call of the module's jitted _same),
 * so the loop over it is the plain one. A list passed as an argument is numba's own refusal
 * (its text). */
#include "typing/infer_internal.h"

/* Fails asking the pipeline to unroll the loop over `t` at this call (its place: the block's
 * bytecode offset and the call's index there, the same in the next build). */
static int request_unroll(cj_infer_ctx *c, cj_instr *in, const cj_type *t) {
    cj_func_ir *ir = c->ir;
    for (int b = 0; b < ir->blocks.len; b++) {
        cj_block *blk = CJ_BLOCK(ir, b);
        for (int i = 0; i < blk->instrs.len; i++) {
            if (CJ_INSTR(blk, i) == in) {
                ir->unroll_request = (cj_unroll_site){.offset = blk->offset, .index = i,
                                                      .len = t->n};
                ir->unroll_wanted = 1;
            }
        }
    }
    return cj_unsupported_error(c, in, "literal_unroll over %s: its loop is to be unrolled per "
                                       "item (cujit's pipeline does that)", t->name);
}

int cj_type_literal_unroll(cj_infer_ctx *c, cj_instr *in, PyObject *obj, const cj_type **out) {
    PyObject *fn = cj_literal_unroll_function();
    if (fn == NULL || obj != fn) {
        return fn == NULL ? -1 : 2;
    }
    if (in->nargs != 2 || in->index != 0) { /* numba's text */
        return cj_unsupported_error(c, in, "literal_unroll takes one argument, found %d",
                                    in->nargs - 1);
    }
    const cj_type *t = cj_vt(c, in->args[1]);
    if (t->kind == CJ_LIST && t->reflected == 1) {
        return cj_unsupported_error(c, in, "Invalid use of literal_unroll with a function "
                                           "argument, only tuples are supported as function "
                                           "arguments, found %s", t->name);
    }
    if (t->kind == CJ_TUPLE &&
        (!cj_type_is_unituple(t) || t->n == 0 || c->env->target != CJ_TARGET_CPU)) {
        return request_unroll(c, in, t);
    }
    if (t->kind != CJ_TUPLE && t->kind != CJ_LIST) {
        return cj_unsupported_error(c, in, "literal_unroll of %s: a tuple or a list is needed",
                                    t->name);
    }
    if (c->env->target != CJ_TARGET_CPU) {
        return cj_unsupported_error(c, in, "literal_unroll of a list is not supported in CUDA "
                                           "code: pass a tuple");
    }
    int vars[1] = {in->args[1]};
    return cj_type_library_helper_call(c, in, "cujit.misc.literal:_same", 1, vars,
                                       (PyObject *const[1]){NULL}, out);
}
