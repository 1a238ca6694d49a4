/* build_format.c: f-strings. FORMAT_VALUE becomes a call of str() (CPython's format(v, '') is
 * str(v) for the ints, floats and strings compiled code formats) and BUILD_STRING a chain of
 * `+`, so typing and lowering see only what strings already have (typing/strings.c). A format
 * spec (f"{x:.2f}") and the !r / !a conversions are an UnsupportedError. Both opcodes are the
 * same in 3.11 and 3.12. */
#include "frontend/build_internal.h"

/* FVC_MASK and FVS_HAVE_SPEC: CPython's FORMAT_VALUE flags (ceval.h) */

/* FORMAT_VALUE flags: [spec] value -> str(value) */
int cj_fe_op_FORMAT_VALUE(cj_builder *b, const cj_bc *in) {
    if ((in->arg & FVS_HAVE_SPEC) || (in->arg & FVC_MASK) > 1) {
        return cj_unsupported_at(b->ir, b->line, "cujit does not support %s in f-strings "
                                 "(plain {value} and {value!s} are supported)",
                                 (in->arg & FVS_HAVE_SPEC) ? "format specs" : "!r and !a");
    }
    int v, fn;
    if (cj_fe_pop(b, &v) < 0 || cj_fe_check_value(b, v) < 0) {
        return -1;
    }
    cj_instr *g = cj_fe_emit_push(b, CJ_I_GLOBAL, 0, NULL);
    if (g == NULL || cj_fe_pop(b, &fn) < 0) {
        return -1;
    }
    g->obj = (PyObject *)&PyUnicode_Type; /* static: lives as long as the interpreter */
    int args[2] = {fn, v};
    return cj_fe_emit_push(b, CJ_I_CALL, 2, args) != NULL ? 0 : -1;
}

/* BUILD_STRING n: s1 ... sn -> s1 + ... + sn ('' for none) */
int cj_fe_op_BUILD_STRING(cj_builder *b, const cj_bc *in) {
    int n = in->arg;
    if (n < 0 || n > b->sp) {
        PyErr_SetString(PyExc_SystemError, "cujit: BUILD_STRING below the stack");
        return -1;
    }
    if (n == 0) {
        PyObject *empty = PyUnicode_FromString("");
        cj_instr *c = empty != NULL && cj_ir_keep(b->ir, empty) != NULL
                          ? cj_fe_emit_push(b, CJ_I_CONST, 0, NULL) : NULL;
        Py_XDECREF(empty); /* the IR keeps its own */
        if (c == NULL) {
            return -1;
        }
        c->obj = empty;
        return 0;
    }
    int first = b->sp - n, acc = b->stack[first];
    for (int i = 1; i < n; i++) {
        int args[2] = {acc, b->stack[first + i]};
        int dst = cj_fe_temp(b);
        cj_instr *add = dst < 0 ? NULL : cj_fe_emit(b, CJ_I_BINOP, dst, 2, args);
        if (add == NULL) {
            return -1;
        }
        add->sub = CJ_ADD;
        acc = dst;
    }
    b->sp = first;
    return cj_fe_push(b, acc);
}
