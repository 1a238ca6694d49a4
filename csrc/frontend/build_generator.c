/* build_generator.c: the bytecode of generator functions (numba's generators: yield in a
 * compiled function). requires: the builder (build.c); produces: CJ_I_YIELD instructions.
 * RETURN_GENERATOR and the POP_TOP after it make the generator object in CPython: here the
 * generator's call makes its frame (lower/lower_generator.c), so they build nothing. A yield
 * gives back None: send() is not supported (numba's neither), so nothing else arrives. */
#include "frontend/build_internal.h"

/* YIELD_VALUE (3.12: its arg the stack depth, unused): value -> None */
int cj_fe_op_YIELD_VALUE(cj_builder *b, const cj_bc *in) {
    int v;
    if (cj_fe_pop(b, &v) < 0 || cj_fe_check_value(b, v) < 0) {
        return -1;
    }
    if (!b->ir->is_generator || b->outer != NULL) {
        return cj_unsupported_at(b->ir, b->line, "cujit does not support 'yield' here (a "
                                                 "generator expression or inlined code)");
    }
    return cj_fe_emit_push(b, CJ_I_YIELD, 1, &v) ? 0 : -1;
}

/* RETURN_GENERATOR: -> (a stand-in for the generator, popped right after) */
int cj_fe_op_RETURN_GENERATOR(cj_builder *b, const cj_bc *in) {
    return cj_fe_push(b, CJ_NULL);
}

static int is_wrapper_handler(const cj_builder *b, const cj_try_range *r) {
    int k = cj_fe_bc_index_at(b, r->target);
    if (k < 0) {
        PyErr_Clear(); /* not an instruction's start: not the wrapper (reported later) */
        return 0;
    }
    const cj_bc *in = &b->bc.ins[k];
    return in->op == CJ_OP_CALL_INTRINSIC_1 && in->arg == 3; /* INTRINSIC_STOPITERATION_ERROR */
}

void cj_fe_drop_generator_wrapper(cj_builder *b) {
    if (!b->ir->is_generator) {
        return;
    }
    int kept = 0;
    for (int i = 0; i < b->nranges; i++) {
        if (!is_wrapper_handler(b, &b->ranges[i])) {
            b->ranges[kept++] = b->ranges[i];
        }
    }
    b->nranges = kept;
}

/* Generator expressions: `(f(x) for x in it)` is CPython's call of a nested generator
 * function with iter(it); here that function is compiled as a generator of its own (numba
 * turns it into a generator function too), taking the iterator by reference, so the
 * expression must not outlive the function making it (typing/generators.c refuses a return
 * of it). */
int cj_fe_make_genexpr(cj_builder *b, PyCodeObject *co, int has_closure) {
    if (has_closure || co->co_nfreevars > 0) {
        return cj_unsupported_at(b->ir, b->line, "cujit does not support generator "
                                 "expressions that read the enclosing function's variables "
                                 "(write a generator function taking them as arguments)");
    }
    PyObject *fn = PyFunction_New((PyObject *)co, b->globals);
    PyObject *cujit = fn ? PyImport_ImportModule("cujit") : NULL;
    PyObject *jitted = cujit ? PyObject_CallMethod(cujit, "njit", "O", fn) : NULL;
    Py_XDECREF(cujit);
    Py_XDECREF(fn);
    if (jitted == NULL) {
        return -1;
    }
    int rc = cj_fe_push_value(b, jitted, co->co_qualname); /* the IR keeps it */
    Py_DECREF(jitted);
    return rc;
}
