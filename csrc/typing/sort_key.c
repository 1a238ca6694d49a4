/* sort_key.c: typing of sorting and min/max by a key function: sorted(it, key=f, reverse=r),
 * l.sort(key=f, reverse=r) and min/max(it, key=f). As numba.cpython.listobj does, each is
 * compiled from Python: a call of cujit.cpython.listobj's jitted sorted_key, sort_key,
 * min_key or max_key (jitted_calls.c's library helper call), the key passed as the jitted
 * function it is (a dispatcher's compile-time type; an inner function or lambda is jitted
 * where it is passed, frontend/build_funcvalue.c). Without a key, lists.c types these.
 * numba's checks and texts: the key None or a jitted function, reverse an integer. */
#include "typing/infer_internal.h"

#define HELPERS "cujit.cpython.listobj:"

/* Whether variable `v` (-1: not passed) holds None. */
static int is_none(cj_infer_ctx *c, int v) {
    return v < 0 || cj_vt(c, v)->kind == CJ_NONE || cj_vt(c, v)->kind == CJ_OMITTED;
}

int cj_sort_key_given(cj_infer_ctx *c, int key) { return !is_none(c, key); }

/* numba's _sort_check_key and _sort_check_reverse: 0, or -1 with the TypingError. */
static int check_key_reverse(cj_infer_ctx *c, cj_instr *in, int key, int reverse) {
    const cj_type *kt = cj_vt(c, key);
    if (kt->kind != CJ_CONST_OBJ || c->env->dispatcher_pyfunc == NULL ||
        c->env->dispatcher_pyfunc(kt->obj) == NULL) {
        return cj_typing_error(c, in, "Key must be None or a Numba JIT compiled function");
    }
    if (reverse >= 0 && !cj_type_is_integer(cj_vt(c, reverse))) {
        return cj_typing_error(c, in, "an integer is required for 'reverse' (got type %s)",
                               cj_vt(c, reverse)->name);
    }
    return 0;
}

int cj_type_sorted_key(cj_infer_ctx *c, cj_instr *in, int iterable, int key, int reverse,
                       const cj_type **out) {
    if (cj_type_iter_of(cj_vt(c, iterable)) == NULL) {
        return cj_no_match(c, in, "<built-in function sorted>");
    }
    if (check_key_reverse(c, in, key, reverse) < 0) {
        return -1;
    }
    int vars[3] = {iterable, key, reverse};
    PyObject *consts[3] = {NULL, NULL, Py_False};
    return cj_type_library_helper_call(c, in, HELPERS "sorted_key", 3, vars, consts, out);
}

int cj_type_list_sort_key(cj_infer_ctx *c, cj_instr *in, int list, int key, int reverse) {
    if (list < 0) {
        return cj_unsupported_error(c, in, "list.sort(key=...) can only be called where the "
                                           "method is read (l.sort(key=...))");
    }
    if (check_key_reverse(c, in, key, reverse) < 0) {
        return -1;
    }
    int vars[3] = {list, key, reverse};
    PyObject *consts[3] = {NULL, NULL, Py_False};
    const cj_type *ret;
    int rc = cj_type_library_helper_call(c, in, HELPERS "sort_key", 3, vars, consts, &ret);
    return rc <= 0 ? rc : 0;
}

int cj_type_sorted_items(cj_infer_ctx *c, cj_instr *in, int iterable, int reverse,
                         const cj_type **out) {
    if (reverse >= 0 && !cj_type_is_integer(cj_vt(c, reverse))) {
        return cj_no_match(c, in, "<built-in function sorted>");
    }
    int vars[2] = {iterable, reverse};
    PyObject *consts[2] = {NULL, Py_False};
    return cj_type_library_helper_call(c, in, HELPERS "sorted_items", 2, vars, consts, out);
}

int cj_type_list_sort_items(cj_infer_ctx *c, cj_instr *in, int list, int reverse) {
    if (list < 0) {
        return cj_unsupported_error(c, in, "list.sort() of these items can only be called "
                                           "where the method is read (l.sort())");
    }
    if (reverse >= 0 && !cj_type_is_integer(cj_vt(c, reverse))) {
        return cj_invalid_use(c, in, "BoundFunction(list.sort)");
    }
    int vars[2] = {list, reverse};
    PyObject *consts[2] = {NULL, Py_False};
    const cj_type *ret;
    int rc = cj_type_library_helper_call(c, in, HELPERS "sort_items", 2, vars, consts, &ret);
    return rc <= 0 ? rc : 0;
}

int cj_type_minmax_key(cj_infer_ctx *c, cj_instr *in, int is_max, const cj_type **out) {
    static const char *const names[2] = {"iterable", "key"};
    const char *what = is_max ? "max" : "min";
    int vars[2];
    if (in->nargs - 1 - in->index > 1) {
        return cj_unsupported_error(c, in, "%s(a, b, ..., key=...) of several arguments is not "
                                           "supported yet (pass one iterable)", what);
    }
    if (cj_fold_args(c, in, 1, names, 2, vars) < 0) {
        return -1;
    }
    if (vars[0] < 0 || cj_type_iter_of(cj_vt(c, vars[0])) == NULL) {
        return cj_typing_error(c, in, "%s(): the argument must be an iterable of one item "
                                      "type (a list, homogeneous tuple, array or range)", what);
    }
    if (is_none(c, vars[1])) {
        return cj_unsupported_error(c, in, "%s(iterable, key=None) is not supported yet: leave "
                                           "the key out", what);
    }
    if (check_key_reverse(c, in, vars[1], -1) < 0) {
        return -1;
    }
    return cj_type_library_helper_call(c, in, is_max ? HELPERS "max_key" : HELPERS "min_key",
                                       2, vars, (PyObject *const[2]){NULL, NULL}, out);
}
