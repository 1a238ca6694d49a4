/* array_sort.c: typing of np.sort(a) (a new C array, sorted along the last axis), a.sort()
 * (in place, None), np.argsort(a) / a.argsort() (int64 indices along the last axis); kind= a
 * constant 'quicksort', 'mergesort', 'stable' or 'heapsort' (numba's; every kind gives a
 * correct order). Numbers of every real dtype; NaN sorts last. Lowering:
 * lower/lower_array_sort.c with the run time's abi/sort.c. */
#include "typing/infer_internal.h"

#include <string.h>

int cj_sort_method_by_name(const char *name) {
    return strcmp(name, "sort") == 0 ? CJ_B_NP_SORT : strcmp(name, "argsort") == 0
                                                          ? CJ_B_NP_ARGSORT
                                                          : -1;
}

static int check_kind(cj_infer_ctx *c, cj_instr *in, const char *name) {
    int nkw = in->index;
    for (int k = 0; k < nkw; k++) {
        const char *kw = PyUnicode_AsUTF8(PyTuple_GET_ITEM(in->obj, k));
        PyObject *v = cj_const_of(c, in->args[in->nargs - nkw + k]);
        const char *kind = v && PyUnicode_Check(v) ? PyUnicode_AsUTF8(v) : NULL;
        if (kw == NULL || strcmp(kw, "kind") != 0) {
            return cj_unsupported_error(c, in, "%s(): only the keyword kind= is supported",
                                        name);
        }
        if (kind == NULL || (strcmp(kind, "quicksort") != 0 && strcmp(kind, "mergesort") != 0 &&
                             strcmp(kind, "stable") != 0 && strcmp(kind, "heapsort") != 0)) {
            PyErr_Clear();
            return cj_typing_error(c, in, "%s(): kind must be a constant 'quicksort', "
                                          "'mergesort', 'stable' or 'heapsort'", name);
        }
    }
    return 1;
}

int cj_type_array_sort(cj_infer_ctx *c, cj_instr *in, int id, const cj_type *receiver,
                       const cj_type **out) {
    const char *name = id == CJ_B_NP_SORT ? (receiver ? "array.sort" : "np.sort")
                                          : (receiver ? "array.argsort" : "np.argsort");
    int npos = in->nargs - 1 - in->index;
    if (npos != (receiver ? 0 : 1)) {
        return cj_unsupported_error(c, in, "%s() takes %s (and kind=)", name,
                                    receiver ? "no positional arguments" : "one array");
    }
    if (check_kind(c, in, name) < 0) {
        return -1;
    }
    const cj_type *at = receiver ? receiver : cj_vt(c, in->args[1]);
    if (at->kind != CJ_ARRAY || at->ndim < 1) {
        return cj_typing_error(c, in, "%s() takes an array of at least one dimension, not %s",
                               name, at->name);
    }
    if (at->dtype->kind == CJ_COMPLEX) {
        return cj_unsupported_error(c, in, "%s() of complex arrays is not supported yet", name);
    }
    if (receiver && id == CJ_B_NP_SORT && at->readonly) {
        return cj_typing_error(c, in, "array.sort() of a read-only array");
    }
    cj_call *call = cj_call_record(c, in, receiver ? CJ_CALL_METHOD : CJ_CALL_BUILTIN,
                                   receiver ? 0 : 1);
    if (call == NULL) {
        return -1;
    }
    call->builtin = id;
    if (!receiver) {
        call->args[0] = in->args[1];
        call->argtypes[0] = at;
    }
    *out = id == CJ_B_NP_ARGSORT ? cj_type_array(cj_t_int64, at->ndim, 'C', 0)
           : receiver            ? cj_t_none
                                 : cj_type_array(at->dtype, at->ndim, 'C', 0);
    return *out ? 1 : -1;
}
