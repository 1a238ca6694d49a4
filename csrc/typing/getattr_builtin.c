/* getattr_builtin.c: typing of the built-ins getattr(x, "name"[, default]) and
 * hasattr(x, "name"), decided at compile time as numba decides them (the name a constant
 * string). requires: x's type; produces: getattr becomes the GETATTR `x.name` it stands for,
 * or, when x's type has no such attribute and a default is given, a COPY of the default;
 * hasattr becomes a bool known from the types (the isinstance record: call->truth, lowered as
 * a constant and pruned like isinstance's). */
#include "typing/infer_internal.h"

/* Whether x's type has attribute `name`: 1, 0, 2 when x is not typed yet, -1 on an error
 * other than the attribute's TypingError or UnsupportedError (asked of a copy of the
 * instruction, so the probe leaves `in` as it was). */
static int has_attribute(cj_infer_ctx *c, cj_instr *in, int x, PyObject *name) {
    cj_instr probe = *in;
    probe.op = CJ_I_GETATTR;
    probe.obj = name;
    probe.args = (int[1]){x};
    probe.nargs = 1;
    probe.flags = 0;
    probe.resolved = NULL;
    const cj_type *t;
    int rc = cj_type_getattr(c, &probe, &t);
    if (rc < 0 && PyErr_ExceptionMatches(cj_CujitError)) {
        PyErr_Clear();
        return 0;
    }
    return rc < 0 ? -1 : rc == 0 ? 2 : 1;
}

/* The constant string name of args[2] (borrowed), or NULL with numba's TypingError. */
static PyObject *attribute_name(cj_infer_ctx *c, cj_instr *in, const char *what) {
    PyObject *name = cj_const_of(c, in->args[2]);
    if (name == NULL || !PyUnicode_Check(name)) {
        cj_typing_error(c, in, "%s(): the attribute name must be a constant string", what);
        return NULL;
    }
    return name;
}

int cj_type_getattr_builtin(cj_infer_ctx *c, cj_instr *in, int is_has, const cj_type **out) {
    const char *what = is_has ? "hasattr" : "getattr";
    int n = in->nargs - 1;
    if (in->index > 0) {
        return cj_typing_error(c, in, "%s() takes no keyword arguments", what);
    }
    if (n < 2 || n > (is_has ? 2 : 3)) { /* CPython's words */
        return is_has ? cj_typing_error(c, in, "hasattr expected 2 arguments, got %d", n)
                      : cj_typing_error(c, in, "getattr expected at %s, got %d",
                                        n < 2 ? "least 2 arguments" : "most 3 arguments", n);
    }
    PyObject *name = attribute_name(c, in, what);
    if (name == NULL) {
        return -1;
    }
    int x = in->args[1];
    int found = is_has || n == 3 ? has_attribute(c, in, x, name) : 1;
    if (found < 0 || found == 2) {
        return found < 0 ? -1 : 0;
    }
    if (is_has) {
        cj_call *call = cj_plain_call(c, in, CJ_CALL_BUILTIN, CJ_B_ISINSTANCE);
        if (call == NULL) {
            return -1;
        }
        call->truth = found;
        *out = cj_t_bool;
        return 1;
    }
    in->resolved = NULL;
    in->index = 0;
    if (!found) { /* the default */
        in->op = CJ_I_COPY;
        in->args = in->args + 3;
        in->nargs = 1;
        *out = cj_vt(c, in->args[0]);
        return 1;
    }
    in->op = CJ_I_GETATTR; /* x.name */
    in->obj = name;
    in->args = in->args + 1;
    in->nargs = 1;
    return cj_type_getattr(c, in, out);
}
