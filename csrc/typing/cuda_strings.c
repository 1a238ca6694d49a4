/* cuda_strings.c: where a string may appear in CUDA code. Compiled CPU code has strings
 * (strings.c); a CUDA thread has them only as constant messages: exception messages, print()'s
 * text, and the constant keyword strings of library calls (dtype=, kind=, side=). */
#include "typing/infer_internal.h"

static int is_string(const cj_type *t) {
    return t != NULL && t->kind == CJ_CONST_OBJ && PyUnicode_Check(t->obj);
}

/* In CUDA code strings exist only as constant messages: any other use is unsupported. */
int cj_cuda_reject_strings(cj_infer_ctx *c, cj_instr *in) {
    int first = 0;
    if (c->env->target != CJ_TARGET_CUDA) {
        return 0; /* compiled code's strings (strings.c) */
    }
    if (in->op == CJ_I_COPY || in->op == CJ_I_CONST ||
        (in->flags & CJ_F_ATTR) || ((in->op == CJ_I_GETITEM || in->op == CJ_I_SETITEM) &&
                                    cj_is_record_subject(cj_vt(c, in->args[0])))) {
        return 0; /* obj.name = v, rec['x'] (record_access.c) */
    }
    if (in->op == CJ_I_CALL) {
        const cj_type *callee = cj_vt(c, in->args[0]);
        if (callee != NULL && callee->kind == CJ_CONST_OBJ &&
            ((PyType_Check(callee->obj) &&
              PyType_IsSubtype((PyTypeObject *)callee->obj, (PyTypeObject *)PyExc_BaseException)) ||
             cj_builtin_lookup(callee->obj) == CJ_B_PRINT ||
             cj_builtin_makes_array(cj_builtin_lookup(callee->obj)) ||
             cj_builtin_creates(cj_builtin_lookup(callee->obj)) ||
             cj_builtin_lookup(callee->obj) == CJ_B_NP_SORT ||
             cj_builtin_lookup(callee->obj) == CJ_B_NP_ARGSORT ||
             cj_builtin_lookup(callee->obj) == CJ_B_NP_SEARCHSORTED)) {
            return 0; /* exception messages, print("text", x) where print is supported,
                       * np.zeros(n, dtype="float32", order="C"), np.arange(n, dtype="i4"),
                       * np.sort(a, kind="stable"), np.searchsorted(a, v, side="right") */
        }
        if (callee != NULL && callee->kind == CJ_BOUND &&
            (PyUnicode_CompareWithASCIIString(callee->obj, "astype") == 0 ||
             PyUnicode_CompareWithASCIIString(callee->obj, "view") == 0 ||
             PyUnicode_CompareWithASCIIString(callee->obj, "sort") == 0 ||
             PyUnicode_CompareWithASCIIString(callee->obj, "argsort") == 0)) {
            return 0; /* a.astype("float32"), a.view("int32"), a.argsort(kind="mergesort") */
        }
        first = 1;
    }
    for (int i = first; i < in->nargs; i++) {
        if (is_string(cj_vt(c, in->args[i]))) {
            return cj_unsupported_error(c, in, "cujit does not support strings (str values are "
                                               "allowed only as constant exception messages)");
        }
    }
    return 0;
}
