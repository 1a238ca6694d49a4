/* extension_calls.c: typing of the low-level extension API's calls: a callee registered with
 * type_callable (lowered by its lower_builtin), an intrinsic, and an attribute of an
 * extension type (make_attribute_wrapper, lower_getattr).
 * requires: the registry's choice, ("lowlevel", return type, argument types or None, lowering
 * function, label) (pkg/cujit/core/lowlevel.py); produces: a CJ_CALL_EXTENSION call record
 * whose callee is that tuple, lowered by lower/lower_extension.c. */
#include "typing/infer_internal.h"

int cj_type_lowlevel_call(cj_infer_ctx *c, cj_instr *in, PyObject *chosen, const int *pos,
                          int npos, const cj_type **out) {
    PyObject *tag, *ret, *sigargs, *lower, *label;
    if (!PyArg_ParseTuple(chosen, "OOOOU", &tag, &ret, &sigargs, &lower, &label) ||
        cj_ir_keep(c->ir, chosen) == NULL) {
        return cj_reraise_at(c, in, NULL);
    }
    const cj_type *rt = cj_type_from_py_checked(ret, "the return type of a low-level "
                                                     "extension");
    if (rt == NULL) {
        return cj_reraise_at(c, in, label);
    }
    if (sigargs != Py_None && (!PyTuple_Check(sigargs) || PyTuple_GET_SIZE(sigargs) != npos)) {
        return cj_typing_error(c, in, "%U: its signature takes %zd arguments, the call gives %d",
                               label, PyTuple_Check(sigargs) ? PyTuple_GET_SIZE(sigargs) : -1,
                               npos);
    }
    cj_call *call = cj_call_record(c, in, CJ_CALL_EXTENSION, npos);
    if (call == NULL) {
        return -1;
    }
    call->callee = chosen;
    for (int i = 0; i < npos; i++) {
        call->args[i] = pos[i];
        call->argtypes[i] = sigargs == Py_None
                                ? cj_vt(c, pos[i])
                                : cj_type_from_py_checked(PyTuple_GET_ITEM(sigargs, i),
                                                          "an argument type of a low-level "
                                                          "extension");
        if (call->argtypes[i] == NULL) {
            return cj_reraise_at(c, in, label);
        }
        const cj_type *from = cj_vt(c, pos[i]), *to = call->argtypes[i];
        if (from != to && !(cj_type_is_number(from) && cj_type_is_number(to)) &&
            cj_unify(from, to) != to) {
            return cj_typing_error(c, in, "%U: argument %d of type %s cannot be converted to "
                                          "its signature's %s", label, i, from->name, to->name);
        }
    }
    *out = rt;
    return 1;
}
