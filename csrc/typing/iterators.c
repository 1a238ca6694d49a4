/* iterators.c: typing of iteration. iter(x) over a range, an array (elements or rows), a
 * homogeneous tuple, a list, a dict (its keys) or an iterator; enumerate() and zip(); a.flat (iterated, read and written
 * at a flat index, len()); np.ndenumerate(a) and np.ndindex(shape). Iterator states are
 * lowered by lower/lower_iter.c. */
#include "typing/infer_internal.h"

static const cj_type *iter_or_error(cj_infer_ctx *c, cj_instr *in, const cj_type *t) {
    const cj_type *it = cj_type_iter_of(t);
    if (it == NULL && !PyErr_Occurred()) {
        if (t->kind == CJ_TUPLE) {
            cj_unsupported_error(c, in, "iterating over a heterogeneous tuple %s is not "
                                        "supported", t->name);
        } else if (t->kind == CJ_ARRAY && t->ndim == 0) {
            cj_typing_error(c, in, "iteration over a 0-d array (%s)", t->name);
        } else {
            cj_typing_error(c, in, "%s is not iterable", t->name);
        }
    }
    return it;
}

int cj_type_getiter(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    const cj_type *t = cj_vt(c, in->args[0]);
    if (t == NULL || ((t->kind == CJ_LIST || t->kind == CJ_SET) && t->dtype == NULL) ||
        (t->kind == CJ_DICT && !t->n)) {
        return 0; /* an empty list (dict) waits for its first append (d[k] = v) */
    }
    *out = iter_or_error(c, in, t);
    return *out ? 1 : -1;
}

static int type_enumerate_zip(cj_infer_ctx *c, cj_instr *in, int builtin, const cj_type **out) {
    const cj_type *inner[CJ_MAX_ARGS], *yields[CJ_MAX_ARGS];
    int n = 0;
    int last = builtin == CJ_B_ENUMERATE ? 2 : in->nargs;
    if (in->nargs > CJ_MAX_ARGS || in->nargs < 2 || (builtin == CJ_B_ENUMERATE && in->nargs > 3)) {
        return cj_no_match(c, in, builtin == CJ_B_ZIP ? "<class 'zip'>" : "<class 'enumerate'>");
    }
    if (builtin == CJ_B_ENUMERATE) {
        if (in->nargs == 3 && !cj_type_is_integer(cj_vt(c, in->args[2]))) {
            return cj_no_match(c, in, "<class 'enumerate'>");
        }
        yields[n] = cj_t_int64;
        const cj_type *counter = cj_type_range(1); /* counts by 1 */
        inner[n] = counter ? cj_type_iter(CJ_ITER_RANGE, cj_t_int64, counter, 0, NULL) : NULL;
        if (inner[n++] == NULL) {
            return -1;
        }
    }
    for (int i = 1; i < last; i++) {
        const cj_type *it = iter_or_error(c, in, cj_vt(c, in->args[i]));
        if (it == NULL) {
            return -1;
        }
        inner[n] = it;
        yields[n++] = it->yield;
    }
    const cj_type *y = cj_type_tuple(n, yields);
    if (y == NULL) {
        return -1;
    }
    *out = cj_type_iter(builtin == CJ_B_ZIP ? CJ_ITER_ZIP : CJ_ITER_ENUMERATE, y, NULL, n,
                        inner);
    return *out ? 1 : -1;
}

/* UniTuple(int64, ndim): an index, and ndindex's shape. */
static const cj_type *index_tuple(int ndim) {
    const cj_type *items[CJ_MAXDIM];
    for (int d = 0; d < ndim; d++) {
        items[d] = cj_t_int64;
    }
    return cj_type_tuple(ndim, items);
}

/* np.ndenumerate(a): ((i, j, ...), a[i, j, ...]) in C order. */
static int type_ndenumerate(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    const cj_type *a = in->nargs == 2 ? cj_vt(c, in->args[1]) : NULL;
    if (a == NULL || a->kind != CJ_ARRAY) {
        return cj_no_match(c, in, "<class 'numpy.ndenumerate'>");
    }
    const cj_type *idx = index_tuple(a->ndim);
    const cj_type *pair[2] = {idx, a->dtype};
    const cj_type *y = idx ? cj_type_tuple(2, pair) : NULL;
    *out = y ? cj_type_iter(CJ_ITER_NDENUMERATE, y, a, 0, NULL) : NULL;
    return *out ? 1 : -1;
}

/* The rank np.ndindex's arguments give: ints, or one tuple of ints; -1 when neither. */
static int ndindex_rank(cj_infer_ctx *c, cj_instr *in) {
    const cj_type *first = in->nargs == 2 ? cj_vt(c, in->args[1]) : NULL;
    if (first != NULL && first->kind == CJ_TUPLE) {
        for (int i = 0; i < first->n; i++) {
            if (!cj_type_is_integer(first->items[i]) || first->items[i]->kind == CJ_BOOL) {
                return -1;
            }
        }
        return first->n;
    }
    for (int i = 1; i < in->nargs; i++) {
        const cj_type *t = cj_vt(c, in->args[i]);
        if (!cj_type_is_integer(t) || t->kind == CJ_BOOL) {
            return -1;
        }
    }
    return in->nargs - 1;
}

/* np.ndindex(3, 4) or np.ndindex((3, 4)): the index tuples in C order. */
static int type_ndindex(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    int ndim = ndindex_rank(c, in);
    if (ndim < 0) {
        return cj_no_match(c, in, "<class 'numpy.ndindex'>");
    }
    if (ndim > CJ_MAXDIM) {
        return cj_unsupported_error(c, in, "np.ndindex of %d dimensions (cujit's limit is %d)",
                                    ndim, CJ_MAXDIM);
    }
    const cj_type *shape = index_tuple(ndim);
    *out = shape ? cj_type_iter(CJ_ITER_NDINDEX, shape, shape, 0, NULL) : NULL;
    return *out ? 1 : -1;
}

int cj_type_iterator_call(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    if (in->index > 0) {
        return cj_typing_error(c, in, "%s() takes no keyword arguments in cujit",
                               cj_builtin_table[id].attr);
    }
    switch (id) {
    case CJ_B_NP_NDENUMERATE:
        return type_ndenumerate(c, in, out);
    case CJ_B_NP_NDINDEX:
        return type_ndindex(c, in, out);
    default:
        return type_enumerate_zip(c, in, id, out);
    }
}

/* ---- a.flat ---- */

int cj_type_is_flat(const cj_type *t) {
    return t->kind == CJ_ITER && t->iter_kind == CJ_ITER_FLAT;
}

const cj_type *cj_type_flat_of(const cj_type *at) {
    return cj_type_iter(CJ_ITER_FLAT, at->dtype, at, 0, NULL);
}

/* a.flat[i]: an integer index (NumPy's slices and arrays of a.flat make copies; not here). */
static int flat_index_ok(cj_infer_ctx *c, cj_instr *in, const cj_type *idx, const char *what) {
    if (cj_type_is_integer(idx) && idx->kind != CJ_BOOL) {
        return 1;
    }
    if (idx->kind == CJ_SLICE || idx->kind == CJ_ARRAY || idx->kind == CJ_TUPLE) {
        cj_unsupported_error(c, in, "%s of a.flat with %s is not supported (only an integer "
                                    "index)", what, idx->name);
        return 0;
    }
    cj_invalid_use(c, in, what);
    return 0;
}

int cj_type_flat_getitem(cj_infer_ctx *c, cj_instr *in, const cj_type *flat,
                         const cj_type *idx, const cj_type **out) {
    if (!flat_index_ok(c, in, idx, "getitem")) {
        return -1;
    }
    *out = flat->yield;
    return 1;
}

/* The array's writability is checked by the caller (access.c). */
int cj_type_flat_setitem(cj_infer_ctx *c, cj_instr *in, const cj_type *flat,
                         const cj_type *idx, const cj_type *val) {
    if (!flat_index_ok(c, in, idx, "setitem")) {
        return -1;
    }
    if (!cj_type_is_number(val) || (val->kind == CJ_COMPLEX && flat->yield->kind != CJ_COMPLEX)) {
        return cj_invalid_use(c, in, "setitem");
    }
    in->optype = flat->yield;
    return 1;
}
