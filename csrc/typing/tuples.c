/* tuples.c: typing of the tuple operations beyond indexing (access.c has t[i]): t[a:b:c] with
 * constant bounds (numba's static slices, any tuple), `x in t`, t.index(x), sum(t), min()/max()
 * of a tuple and of several tuples. Items compare by the one rule of their types (rules.c's
 * cj_rule_compare). requires: the operands' types; produces: the result type, a static slice's
 * start and step (GETITEM, sub CJ_SUB_STATIC_SLICE, resolved: int[2]) and the CJ_CALL_BUILTIN
 * and CJ_CALL_METHOD records that lower/lower_tuple.c lowers. */
#include "typing/infer_internal.h"

/* The constant an index part of a slice was set to: an int or None; NULL when it is not
 * known at compile time. */
static PyObject *slice_part(cj_infer_ctx *c, const cj_instr *slice, int i) {
    if (i >= slice->nargs) {
        return Py_None;
    }
    PyObject *k = cj_const_of(c, slice->args[i]);
    return k != NULL && (k == Py_None || PyLong_Check(k)) ? k : NULL;
}

/* The BUILD_SLICE instruction the variable `var` holds (through copies), or NULL. */
static const cj_instr *slice_of(cj_infer_ctx *c, int var) {
    const cj_instr *d = c->def[var];
    while (d != NULL && d->op == CJ_I_COPY) {
        d = c->def[d->args[0]];
    }
    return d != NULL && d->op == CJ_I_BUILD_SLICE ? d : NULL;
}

/* start, step and length of the constant slice `parts` over n items (Python's rules); -1 with
 * ValueError for a zero step. */
static Py_ssize_t slice_indices(PyObject *parts[3], Py_ssize_t n, Py_ssize_t *start,
                                Py_ssize_t *step) {
    PyObject *s = PySlice_New(parts[0], parts[1], parts[2]);
    Py_ssize_t stop;
    if (s == NULL || PySlice_Unpack(s, start, &stop, step) < 0) {
        Py_XDECREF(s);
        return -1;
    }
    Py_DECREF(s);
    return PySlice_AdjustIndices(n, start, &stop, *step);
}

/* t[a:b:c] with constant bounds: the tuple of the items it picks (numba's static_getitem of
 * a tuple by a slice); run-time bounds: numba's "No implementation" error. */
int cj_type_tuple_slice(cj_infer_ctx *c, cj_instr *in, const cj_type *t, const cj_type **out) {
    const cj_instr *s = slice_of(c, in->args[1]);
    PyObject *parts[3] = {NULL, NULL, NULL};
    for (int i = 0; s != NULL && i < 3; i++) {
        parts[i] = slice_part(c, s, i);
    }
    if (parts[0] == NULL || parts[1] == NULL || parts[2] == NULL) {
        return cj_typing_error(c, in, "No implementation of function Function(<built-in "
                                      "function getitem>) found for signature:\n \n >>> "
                                      "getitem(%s, %s) (a tuple is sliced only by constants)",
                               t->name, cj_vt(c, in->args[1])->name);
    }
    Py_ssize_t start, step, n = slice_indices(parts, t->n, &start, &step);
    int *picked = cj_arena_alloc(&c->ir->arena, sizeof(int) * 2);
    const cj_type **items = cj_arena_alloc(&c->ir->arena, sizeof(cj_type *) * (size_t)(n + 1));
    if (n < 0 || picked == NULL || items == NULL) {
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        items[k] = t->items[start + k * step];
    }
    picked[0] = (int)start;
    picked[1] = (int)step;
    in->sub = CJ_SUB_STATIC_SLICE;
    in->resolved = picked;
    *out = cj_type_tuple((int)n, items);
    return *out ? 1 : -1;
}

/* Whether t holds a list whose item type is not known yet (in a tuple too). */
static int holds_undefined_list(const cj_type *t) {
    for (int i = 0; t->kind == CJ_TUPLE && i < t->n; i++) {
        if (holds_undefined_list(t->items[i])) {
            return 1;
        }
    }
    return t->kind == CJ_LIST && t->dtype == NULL;
}

/* x in t: a bool for any tuple (lower_tuple.c compares x with each item of its kind); a
 * comparison of tuples holding a list its appends have not refined yet waits for them; the
 * rest is rules.c's (2). */
int cj_type_tuple_compare(cj_infer_ctx *c, cj_instr *in, const cj_type *a, const cj_type *b,
                          const cj_type **out) {
    if (b->kind == CJ_TUPLE && (in->sub == CJ_IN || in->sub == CJ_NOTIN)) {
        *out = cj_t_bool;
        return 1;
    }
    const cj_type *optype;
    if (!c->final && cj_rule_compare(in->sub, a, b, &optype) == NULL &&
        (holds_undefined_list(a) || holds_undefined_list(b))) {
        return 0;
    }
    return 2;
}

/* t.index(x): the int64 position of the first item equal to x, any tuple (an item of a kind
 * that does not compare with x is unequal, as CPython's ==); ValueError at run time when none
 * is (lower_tuple.c). numba takes no start/stop: neither does this. */
int cj_type_tuple_method(cj_infer_ctx *c, cj_instr *in, const cj_type *bound,
                         const cj_type **out) {
    if (PyUnicode_CompareWithASCIIString(bound->obj, "index") != 0) {
        return cj_typing_error(c, in, "Unknown attribute '%U' of type %s", bound->obj,
                               bound->source->name);
    }
    if (in->index > 0 || in->nargs != 2) {
        return cj_invalid_use(c, in, "BoundFunction(tuple.index)");
    }
    *out = cj_t_int64;
    return cj_plain_call(c, in, CJ_CALL_METHOD, CJ_B_METH_TUPLE_INDEX) ? 1 : -1;
}

/* sum(t) and sum(t, start): start (0) + t[0] + t[1] ..., each addition by the binop rule. */
static int type_sum(cj_infer_ctx *c, cj_instr *in, const cj_type *t, const cj_type **out) {
    const cj_type *acc = in->nargs == 3 ? cj_vt(c, in->args[2]) : cj_t_int64;
    for (int i = 0; acc != NULL && i < t->n; i++) {
        const cj_type *optype;
        acc = cj_rule_binop(CJ_ADD, acc, t->items[i], &optype);
    }
    if (acc == NULL) {
        return cj_no_match(c, in, "sum");
    }
    *out = acc;
    return cj_plain_call(c, in, CJ_CALL_BUILTIN, CJ_B_SUM) ? 1 : -1;
}

/* min(t1, t2, ...), max(...): tuples of one type (a literal string item counts as a string:
 * the result is one of them unchanged, as CPython's) with an order of its own; numba takes
 * none. */
static int type_minmax_args(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    const cj_type *t = cj_type_unliteral(cj_vt(c, in->args[1])), *optype;
    for (int i = 2; t != NULL && i < in->nargs; i++) {
        t = cj_type_unliteral(cj_vt(c, in->args[i])) == t ? t : NULL;
    }
    if (t == NULL && PyErr_Occurred()) {
        return -1;
    }
    if (t == NULL || cj_rule_compare(CJ_LT, t, t, &optype) == NULL) {
        return cj_no_match(c, in, cj_builtin_table[id].attr);
    }
    *out = t;
    return 1; /* lowered as min/max of numbers (cj_pick_minmax compares any type) */
}

/* min(t), max(t): of one item type (a literal string item counts as a string), or of numbers
 * unified (numba's: min((1, 2.5)) is 1.0); lowered by lower_call.c's minmax. */
static int type_minmax_items(cj_infer_ctx *c, cj_instr *in, int id, const cj_type *t,
                             const cj_type **out) {
    const cj_type *u = cj_type_unliteral(t);
    if (u == NULL) {
        return -1;
    }
    const cj_type *r = u->n > 0 ? u->items[0] : NULL;
    for (int i = 1; r != NULL && i < u->n; i++) {
        int numbers = cj_type_is_number(r) && cj_type_is_number(u->items[i]);
        r = u->items[i] == r ? r : numbers ? cj_unify(r, u->items[i]) : NULL;
    }
    const cj_type *optype;
    if (r == NULL || cj_rule_compare(CJ_LT, r, r, &optype) == NULL) {
        return cj_no_match(c, in, cj_builtin_table[id].attr);
    }
    *out = r;
    return 1;
}

int cj_type_tuple_builtin(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    int n = in->nargs - 1;
    const cj_type *a = n >= 1 ? cj_vt(c, in->args[1]) : NULL;
    if (a == NULL || a->kind != CJ_TUPLE || in->index > 0) {
        return 2;
    }
    if (id == CJ_B_SUM && (n == 1 || n == 2)) {
        return type_sum(c, in, a, out);
    }
    if (id == CJ_B_MIN || id == CJ_B_MAX) {
        return n == 1 ? type_minmax_items(c, in, id, a, out) : type_minmax_args(c, in, id, out);
    }
    return 2;
}
