/* array_methods.c: typing of a.copy() / np.copy(a) (a new C-contiguous array), a.astype(t)
 * (a new array of dtype t, known at compile time: a NumPy type, a dtype, a string or a cujit
 * type), a.fill(v) (None) and a.transpose() / np.transpose(a) / a.T (a view with the
 * dimensions reversed: C order becomes F and F becomes C). Lowering: lower_array_methods.c. */
#include "typing/infer_internal.h"

#include <string.h>

const cj_type *cj_transposed(const cj_type *at) {
    char layout = at->layout == 'C' ? 'F' : at->layout == 'F' ? 'C' : 'A';
    return cj_type_array(at->dtype, at->ndim, at->ndim <= 1 ? at->layout : layout, at->readonly);
}

int cj_array_method_by_name(const char *name) {
    for (int id = CJ_B_NP_COPY; id <= CJ_B_NP_TRANSPOSE; id++) {
        if (strcmp(cj_builtin_table[id].attr, name) == 0) {
            return id;
        }
    }
    return -1;
}

int cj_type_array_method(cj_infer_ctx *c, cj_instr *in, int id, const cj_type *receiver,
                         const cj_type **out) {
    const char *name = cj_builtin_table[id].attr;
    int given = in->nargs - 1, wants = id == CJ_B_METH_ASTYPE || id == CJ_B_METH_FILL;
    const cj_type *at = receiver ? receiver : given >= 1 ? cj_vt(c, in->args[1]) : NULL;
    if (at == NULL || at->kind != CJ_ARRAY) {
        return cj_typing_error(c, in, "np.%s() takes an array in cujit, not %s", name,
                               at ? at->name : "nothing");
    }
    if (in->index > 0 || given != wants + (receiver ? 0 : 1)) {
        return cj_unsupported_error(c, in, "%s%s() with %s is not supported yet",
                                    receiver ? "array." : "np.", name,
                                    wants ? "other arguments than one" : "arguments");
    }
    if (cj_plain_call(c, in, receiver ? CJ_CALL_METHOD : CJ_CALL_BUILTIN, id) == NULL) {
        return -1;
    }
    const cj_type *arg = wants ? cj_vt(c, in->args[1]) : NULL;
    switch (id) {
    case CJ_B_NP_COPY:
        *out = cj_type_array(at->dtype, at->ndim, 'C', 0);
        break;
    case CJ_B_NP_TRANSPOSE:
        *out = cj_transposed(at);
        break;
    case CJ_B_METH_FILL:
        if (!cj_type_is_number(arg)) {
            return cj_typing_error(c, in, "array.fill() takes a number, not %s", arg->name);
        }
        if (at->readonly) {
            return cj_typing_error(c, in, "array.fill() of a read-only array");
        }
        *out = cj_t_none;
        break;
    default: { /* astype */
        const cj_type *dtype = cj_dtype_of_var(c, in->args[1]);
        if (dtype == NULL) {
            return cj_typing_error(c, in, "array.astype() takes a NumPy number type known at "
                                          "compile time, not %s", arg->name);
        }
        *out = cj_type_array(dtype, at->ndim, 'C', 0);
    }
    }
    return *out ? 1 : -1;
}
