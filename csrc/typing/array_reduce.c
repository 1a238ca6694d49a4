/* array_reduce.c: typing of whole-array reductions, np.sum(a) and a.sum(), and prod, min/amin,
 * max/amax, mean, any, all (numba's result types: sum and prod of integers in int64, or
 * uint64 when unsigned, of bool in int64; mean of integers and bool in float64; min/max keep
 * the dtype). axis=, dtype= and out= are not supported yet: an UnsupportedError names them.
 * Lowering: lower/lower_array_reduce.c. */
#include "typing/infer_internal.h"

#include <string.h>

const cj_type *cj_reduce_result(int id, const cj_type *dtype) {
    switch (id) {
    case CJ_B_NP_SUM:
    case CJ_B_NP_PROD:
        if (dtype->kind == CJ_BOOL) {
            return cj_t_int64;
        }
        return dtype->kind == CJ_INT ? (dtype->is_signed ? cj_t_int64 : cj_t_uint64) : dtype;
    case CJ_B_NP_MEAN:
        return cj_type_is_integer(dtype) ? cj_t_float64 : dtype;
    case CJ_B_NP_ANY:
    case CJ_B_NP_ALL:
        return cj_t_bool;
    default:
        return dtype;
    }
}

int cj_reduction_by_name(const char *name) {
    for (int id = CJ_B_NP_SUM; id <= CJ_B_NP_ALL; id++) {
        if (strcmp(cj_builtin_table[id].attr, name) == 0) {
            return id;
        }
    }
    return -1;
}

int cj_type_array_reduce(cj_infer_ctx *c, cj_instr *in, int id, const cj_type *receiver,
                         const cj_type **out) {
    const char *name = cj_builtin_table[id].attr;
    int given = in->nargs - 1; /* the method's arguments, or the function's */
    if (in->index > 0 || given > (receiver == NULL ? 1 : 0)) {
        return cj_unsupported_error(c, in, "%s%s() with arguments beyond the array (axis=, "
                                           "dtype=, out=) is not supported yet",
                                    receiver ? "array." : "np.", name);
    }
    const cj_type *at = receiver ? receiver : given == 1 ? cj_vt(c, in->args[1]) : NULL;
    if (at == NULL || at->kind != CJ_ARRAY) {
        return cj_typing_error(c, in, "np.%s() takes an array in cujit, not %s", name,
                               at ? at->name : "nothing");
    }
    if (at->dtype->kind == CJ_COMPLEX && id >= CJ_B_NP_MIN && id <= CJ_B_NP_AMAX) {
        return cj_unsupported_error(c, in, "%s() of complex arrays is not supported yet", name);
    }
    if (cj_plain_call(c, in, receiver ? CJ_CALL_METHOD : CJ_CALL_BUILTIN, id) == NULL) {
        return -1;
    }
    *out = cj_reduce_result(id, at->dtype);
    return 1;
}
