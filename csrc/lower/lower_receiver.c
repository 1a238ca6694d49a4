/* lower_receiver.c: the receiver of a method call, found from the call's callee variable back
 * to the GETATTR that bound the method (lower_call.c, lower_list.c, lower_dict_ops.c). */
#include "lower/lower_internal.h"

/* The GETATTR that bound the called method, through the COPYs a join makes of the stack slot
 * (`l.append(a if c else b)`: the call comes after the branches). */
const cj_instr *cj_method_getattr(cj_lower *L, const cj_instr *in) {
    const cj_instr *def = cj_ir_first_def(L->ir, in->args[0]);
    for (int hops = 0; def != NULL && def->op == CJ_I_COPY && hops < 256; hops++) {
        def = cj_ir_first_def(L->ir, def->args[0]);
    }
    if (def != NULL && def->op == CJ_I_GETATTR) {
        return def;
    }
    PyErr_SetString(cj_LoweringError, "bound method without its receiver");
    return NULL;
}
