/* literal_unroll.c: typing of numba's literal_unroll(container) (cujit.misc.literal). numba
 * unrolls the loop over it once per item, each with the item's own type; cujit compiles it
 * where that changes nothing, a tuple of one item type or a list made in the function, as the
 * container itself (a call of the module's jitted _same), so the loop over it is the plain one.
 * A heterogeneous tuple (the unrolling proper), a list passed as an argument (numba's own
 * refusal, its text) and CUDA code are UnsupportedErrors naming what is missing. */
#include "typing/infer_internal.h"

/* cujit.misc.literal.literal_unroll (borrowed, kept for the process), or NULL. */
static PyObject *literal_unroll_function(void) {
    static PyObject *fn;
    if (fn == NULL) {
        PyObject *module = PyImport_ImportModule("cujit.misc.literal");
        fn = module ? PyObject_GetAttrString(module, "literal_unroll") : NULL;
        Py_XDECREF(module);
    }
    return fn;
}

int cj_type_literal_unroll(cj_infer_ctx *c, cj_instr *in, PyObject *obj, const cj_type **out) {
    PyObject *fn = literal_unroll_function();
    if (fn == NULL || obj != fn) {
        return fn == NULL ? -1 : 2;
    }
    if (in->nargs != 2 || in->index != 0) { /* numba's text */
        return cj_unsupported_error(c, in, "literal_unroll takes one argument, found %d",
                                    in->nargs - 1);
    }
    const cj_type *t = cj_vt(c, in->args[1]);
    if (c->env->target != CJ_TARGET_CPU) {
        return cj_unsupported_error(c, in, "literal_unroll is not supported in CUDA code yet");
    }
    if (t->kind == CJ_LIST && t->reflected == 1) {
        return cj_unsupported_error(c, in, "Invalid use of literal_unroll with a function "
                                           "argument, only tuples are supported as function "
                                           "arguments, found %s", t->name);
    }
    if (t->kind == CJ_TUPLE && !cj_type_is_unituple(t)) {
        return cj_unsupported_error(c, in, "literal_unroll over a heterogeneous tuple %s: "
                                           "cujit does not unroll a loop per item type yet",
                                    t->name);
    }
    if (t->kind != CJ_TUPLE && t->kind != CJ_LIST) {
        return cj_unsupported_error(c, in, "literal_unroll of %s: a tuple or a list is needed",
                                    t->name);
    }
    int vars[1] = {in->args[1]};
    return cj_type_library_helper_call(c, in, "cujit.misc.literal:_same", 1, vars,
                                       (PyObject *const[1]){NULL}, out);
}
