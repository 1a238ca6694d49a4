/* lists.c: typing of lists (numba's list semantics; lowered by lower/lower_list.c).
 * A list literal is a list(T) of its items unified, unless np.array()/np.asarray() or a join
 * reads it (then it stays the tuple those take). `[]` is list(undefined) until the first
 * l.append(x) refines it, along the copies it came through (numba refines an empty list from
 * its first append); one never refined is numba's "Cannot infer the type of variable".
 * Methods: append pop extend insert remove index count clear copy reverse sort (reverse=)
 * and del l[i]; builtins list(), list(it), sorted(it), sum/min/max(l); `x in l`; l[a:b:c]
 * (a new list); len(), l[i], l[i] = v and iteration are typed where those are. */
#include "typing/infer_internal.h"

#include <string.h>

/* 1: variable `var` (a literal) is read only by np.array()/np.asarray() or a join, directly or
 * through enclosing literals; 0: by anything else; -1: a reader's callee is not typed yet. */
static int feeds_array_maker(cj_infer_ctx *c, int var, int depth) {
    const cj_worklist *w = c->work;
    int readers = 0;
    for (int u = w->use_start[var]; u < w->use_start[var + 1]; u++) {
        const cj_instr *r = w->instr[w->uses[u]];
        readers++;
        if (r->op == CJ_I_CALL && r->args[0] != var) {
            const cj_type *callee = cj_vt(c, r->args[0]);
            if (callee == NULL) {
                return -1;
            }
            int id = callee->kind == CJ_CONST_OBJ ? cj_builtin_lookup(callee->obj) : -1;
            if (id != CJ_B_NP_ARRAY && id != CJ_B_NP_ASARRAY && !cj_builtin_joins_fresh(id)) {
                return 0;
            }
        } else if ((r->flags & CJ_F_LIST) && r->dst >= 0 && depth < 32) {
            int inner = feeds_array_maker(c, r->dst, depth + 1);
            if (inner <= 0) {
                return inner;
            }
        } else {
            return 0;
        }
    }
    return readers > 0;
}

/* The item type of a literal of `n` items of types `items`: unified; -1 with an error. */
static int unify_items(cj_infer_ctx *c, cj_instr *in, int n, const cj_type *const *items,
                       const cj_type **item) {
    *item = n > 0 ? items[0] : NULL;
    for (int i = 1; i < n; i++) {
        const cj_type *u = cj_unify(*item, items[i]);
        if (u == NULL) {
            return PyErr_Occurred() ? -1
                   : cj_typing_error(c, in, "Cannot unify %s and %s in a list literal (cujit's "
                                            "lists hold items of one type; numba's LiteralList "
                                            "of mixed items is not supported)",
                                     (*item)->name, items[i]->name);
        }
        *item = u;
    }
    *item = n > 0 ? cj_type_unliteral(*item) : NULL;
    return 0;
}

int cj_type_list_literal(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    int feeds = feeds_array_maker(c, in->dst, 0);
    if (feeds != 0) {
        return feeds < 0 ? 0 : 2;
    }
    if (c->env->target == CJ_TARGET_CUDA) { /* numba-cuda: NRT required but not enabled */
        return cj_unsupported_error(c, in, "lists are not supported in CUDA code (they are "
                                           "allocated at run time: NRT required but not "
                                           "enabled)");
    }
    const cj_type *item, *items[256];
    int n = in->op == CJ_I_COPY ? (*out)->n : in->nargs;
    if (in->op == CJ_I_COPY && (*out)->kind != CJ_TUPLE) {
        return cj_unsupported_error(c, in, "list.extend() of %s", (*out)->name);
    }
    for (int i = 0; i < n && i < 256; i++) {
        items[i] = in->op == CJ_I_COPY ? (*out)->items[i] : cj_vt(c, in->args[i]);
        if (items[i] == NULL || cj_type_is_unrefined(items[i])) {
            return 0; /* an item's refinement widens it: typed again then */
        }
    }
    if (unify_items(c, in, n, items, &item) < 0) {
        return -1;
    }
    *out = cj_type_list(item, 0);
    if (*out == NULL) {
        return -1;
    }
    /* LIST_EXTEND's empty list takes the folded literal's type (it is not read again) */
    return in->op == CJ_I_COPY && cj_assign(c, in, in->args[1], *out) < 0 ? -1 : 1;
}

/* l.append(x) on list(undefined): list(type of x) for the receiver and every variable it
 * was copied from (a comprehension's list goes through the copies of its loop's stack slots),
 * back to the literal; a variable already refined ends the walk (loops end it too). */
int cj_refine_var(cj_infer_ctx *c, cj_instr *in, int var, const cj_type *lt, int depth) {
    if (cj_vt(c, var) == lt) {
        return 0;
    }
    if (depth > 256) {
        return cj_typing_error(c, in, "%s refined through too many copies", lt->name);
    }
    if (cj_assign(c, in, var, lt) < 0) {
        return -1;
    }
    const cj_worklist *w = c->work;
    for (int pos = 0; pos < w->ninstrs; pos++) {
        const cj_instr *def = w->instr[pos];
        if (def->dst == var && def->op == CJ_I_COPY && !(def->flags & CJ_F_LIST) &&
            cj_refine_var(c, in, def->args[0], lt, depth + 1) < 0) {
            return -1;
        }
    }
    return 0;
}

int cj_type_is_unrefined(const cj_type *t) {
    return (t->kind == CJ_LIST && t->dtype == NULL) || (t->kind == CJ_DICT && t->n == 0) ||
           (t->kind == CJ_SET && t->dtype == NULL); /* dicts.c's and sets.c's */
}

/* The GETATTR a bound method variable comes from, through the copies that keep it across an
 * inlined comprehension: 3.11's nested code copies it, 3.12's loop carries it in stack
 * variables each predecessor block copies into (several definitions, in a cycle through the
 * loop: each must lead to the same GETATTR or back to a variable being resolved). NULL when
 * there is none; &in_cycle for a copy that only leads back. */
static const cj_instr in_cycle;

static const cj_instr *bound_from(cj_infer_ctx *c, int var, int *path, int depth) {
    for (int k = 0; k < depth; k++) {
        if (path[k] == var) {
            return &in_cycle;
        }
    }
    const cj_instr *get = c->def[var];
    if (get != NULL && get->op != CJ_I_COPY) {
        return get->op == CJ_I_GETATTR ? get : NULL;
    }
    if (depth >= 32) {
        return NULL;
    }
    path[depth] = var;
    if (get != NULL) {
        return bound_from(c, get->args[0], path, depth + 1);
    }
    const cj_instr *found = &in_cycle;
    for (int b = 0; b < c->ir->blocks.len; b++) {
        cj_block *blk = CJ_BLOCK(c->ir, b);
        for (int i = 0; i < blk->instrs.len; i++) {
            const cj_instr *d = CJ_INSTR(blk, i);
            if (d->dst != var) {
                continue;
            }
            const cj_instr *g = d->op == CJ_I_COPY ? bound_from(c, d->args[0], path, depth + 1)
                                                   : NULL;
            if (g == NULL || (g != &in_cycle && found != &in_cycle && g != found)) {
                return NULL;
            }
            found = g == &in_cycle ? found : g;
        }
    }
    return found;
}

int cj_method_receiver(cj_infer_ctx *c, const cj_instr *in) {
    int path[32];
    const cj_instr *get = bound_from(c, in->args[0], path, 0);
    return get != NULL && get != &in_cycle ? get->args[0] : -1;
}

/* An index argument: an integer (numba: no bool). */
static int is_index(const cj_type *t) { return t->kind == CJ_INT; }

static const struct {
    const char *name;
    int op, min, max; /* positional arguments */
} methods[] = {
    {"append", CJ_LIST_APPEND, 1, 1},   {"pop", CJ_LIST_POP, 0, 1},
    {"extend", CJ_LIST_EXTEND, 1, 1},   {"insert", CJ_LIST_INSERT, 2, 2},
    {"remove", CJ_LIST_REMOVE, 1, 1},   {"index", CJ_LIST_INDEX, 1, 3},
    {"count", CJ_LIST_COUNT, 1, 1},     {"clear", CJ_LIST_CLEAR, 0, 0},
    {"copy", CJ_LIST_COPY, 0, 0},       {"reverse", CJ_LIST_REVERSE, 0, 0},
    {"sort", CJ_LIST_SORT, 0, 0},       {"__delitem__", CJ_LIST_DELITEM, 1, 1},
};

/* Items compared by value (remove, index, count, in, sum/min/max): numbers. */
static int compares(const cj_type *item) {
    return cj_type_is_number(item) || cj_type_is_str(item);
}

/* Items min()/max() order: those with a `<` of their own (rules.c; complex has none). */
static int orders(const cj_type *item) {
    const cj_type *op;
    return cj_rule_compare(CJ_LT, item, item, &op) != NULL;
}

/* Items sorted (abi/sort.c's kinds): bool, integers, float32/float64; strings (lists). */
static int sorts(const cj_type *item) {
    return cj_type_is_integer(item) || (item->kind == CJ_FLOAT && item->bits >= 32) ||
           item->kind == CJ_UNICODE;
}

/* The item type a method's argument brings to a list(undefined) (append, insert, extend), or
 * NULL. */
static const cj_type *brought(cj_infer_ctx *c, cj_instr *in, int op) {
    int n = in->nargs - 1;
    if (op == CJ_LIST_APPEND && n == 1) {
        return cj_type_unliteral(cj_vt(c, in->args[1]));
    }
    if (op == CJ_LIST_INSERT && n == 2) {
        return cj_type_unliteral(cj_vt(c, in->args[2]));
    }
    const cj_type *it = op == CJ_LIST_EXTEND && n == 1 ? cj_type_iter_of(cj_vt(c, in->args[1]))
                                                       : NULL;
    return it != NULL ? it->yield : NULL;
}

/* numba unifies a list's item type over all its appends, inserts and extends: the wider item
 * type when this call brings one to a list made in the function (a reflected or typed list
 * keeps its type: the value is cast), else NULL. */
static const cj_type *widened_item(cj_infer_ctx *c, cj_instr *in, int op, const cj_type *lt) {
    if (lt->dtype == NULL || lt->reflected != 0) {
        return NULL;
    }
    const cj_type *item = brought(c, in, op);
    const cj_type *u = item != NULL ? cj_unify(lt->dtype, item) : NULL;
    if (u == NULL && PyErr_Occurred()) {
        PyErr_Clear(); /* arguments_fit reports the item that does not fit */
    }
    u = u != NULL ? cj_type_unliteral(u) : NULL;
    return u != NULL && u != lt->dtype ? u : NULL;
}

/* list.sort(key=None, reverse=False): the call's one argument is `reverse` (-1: False). */
static int type_sort_keywords(cj_infer_ctx *c, cj_instr *in, const cj_type *lt) {
    static const char *const names[2] = {"key", "reverse"};
    int vars[2];
    if (cj_fold_args(c, in, 1, names, 2, vars) < 0) {
        return -1;
    }
    if (cj_sort_key_given(c, vars[0])) { /* sort_key.c */
        return cj_type_list_sort_key(c, in, cj_method_receiver(c, in), vars[0], vars[1]);
    }
    if (!sorts(lt->dtype)) { /* tuples, strings: sort_key.c */
        return cj_type_list_sort_items(c, in, cj_method_receiver(c, in), vars[1]);
    }
    if (vars[1] >= 0 && !cj_type_is_integer(cj_vt(c, vars[1]))) {
        return cj_invalid_use(c, in, "BoundFunction(list.sort)");
    }
    cj_call *call = cj_call_record(c, in, CJ_CALL_LIST, 1);
    if (call == NULL) {
        return -1;
    }
    call->builtin = CJ_LIST_SORT;
    call->args[0] = vars[1];
    call->argtypes[0] = vars[1] >= 0 ? cj_vt(c, vars[1]) : cj_t_bool;
    call->defaults[0] = Py_False;
    return 0;
}

/* Whether the arguments of method `m` fit list type `lt`. */
static int arguments_fit(cj_infer_ctx *c, cj_instr *in, int op, const cj_type *lt) {
    const cj_type *a = in->nargs > 1 ? cj_vt(c, in->args[1]) : NULL;
    const cj_type *it = NULL;
    switch (op) {
    case CJ_LIST_APPEND:
        return cj_can_convert(a, lt->dtype);
    case CJ_LIST_POP:
        return a == NULL || is_index(a);
    case CJ_LIST_DELITEM:
        return a != NULL && (is_index(a) || a->kind == CJ_SLICE);
    case CJ_LIST_EXTEND:
        it = cj_type_iter_of(a);
        return it != NULL && cj_can_convert(it->yield, lt->dtype);
    case CJ_LIST_INSERT:
        return is_index(a) && cj_can_convert(cj_vt(c, in->args[2]), lt->dtype);
    case CJ_LIST_INDEX: /* index(x[, start[, stop]]) */
        for (int i = 2; i < in->nargs; i++) {
            if (!is_index(cj_vt(c, in->args[i]))) {
                return 0;
            }
        }
        return cj_type_is_str(lt->dtype) ? cj_type_is_str(a) : cj_type_is_number(a);
    case CJ_LIST_REMOVE:
    case CJ_LIST_COUNT:
        return cj_type_is_str(lt->dtype) ? cj_type_is_str(a) : cj_type_is_number(a);
    default:
        return 1;
    }
}

int cj_type_list_method(cj_infer_ctx *c, cj_instr *in, const cj_type *bound,
                        const cj_type **out) {
    const char *name = PyUnicode_AsUTF8(bound->obj);
    const cj_type *lt = bound->source;
    int n = in->nargs - 1 - in->index, m = -1;
    for (size_t i = 0; name != NULL && i < sizeof(methods) / sizeof(methods[0]); i++) {
        m = strcmp(name, methods[i].name) == 0 ? (int)i : m;
    }
    if (name == NULL || m < 0) {
        return name == NULL ? -1 : cj_unsupported_error(c, in, "list.%s() is not supported yet",
                                                        name);
    }
    int op = methods[m].op;
    const cj_type *wider = widened_item(c, in, op, lt);
    if (lt->dtype == NULL || wider != NULL) { /* refined by an append, insert or extend */
        const cj_type *item = wider ? wider : brought(c, in, op), *refined;
        int receiver = cj_method_receiver(c, in);
        if (item == NULL || receiver < 0) {
            return 0;
        }
        refined = cj_type_list(item, lt->reflected == CJ_LIST_TYPED ? CJ_LIST_TYPED : 0);
        return refined == NULL || cj_refine_var(c, in, receiver, refined, 0) < 0 ? -1 : 0;
    }
    if (op == CJ_LIST_SORT) {
        *out = cj_t_none;
        return type_sort_keywords(c, in, lt) < 0 ? -1 : 1;
    }
    if (in->index > 0 || n < methods[m].min || n > methods[m].max ||
        !arguments_fit(c, in, op, lt)) {
        char what[64];
        PyOS_snprintf(what, sizeof(what), "BoundFunction(list.%s)", name);
        return cj_invalid_use(c, in, what);
    }
    if ((op == CJ_LIST_REMOVE || op == CJ_LIST_INDEX || op == CJ_LIST_COUNT) &&
        !compares(lt->dtype)) {
        return cj_unsupported_error(c, in, "list.%s() of a list of %s is not supported yet "
                                           "(lists of numbers and strings compare)", name,
                                    lt->dtype->name);
    }
    if (cj_plain_call(c, in, CJ_CALL_LIST, op) == NULL) {
        return -1;
    }
    *out = op == CJ_LIST_POP                            ? lt->dtype
           : op == CJ_LIST_INDEX || op == CJ_LIST_COUNT ? cj_t_int64
           : op == CJ_LIST_COPY                         ? cj_type_list(lt->dtype, 0)
                                                        : cj_t_none;
    return *out ? 1 : -1;
}

/* sum() of a list's items: int64 for integers, float64, complex128 (numba's). */
static const cj_type *sum_type(const cj_type *item) {
    return item->kind == CJ_FLOAT ? cj_t_float64 : item->kind == CJ_COMPLEX ? cj_t_complex128
                                                                            : cj_t_int64;
}

/* sorted(iterable, key=None, reverse=False) */
static int type_sorted(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    static const char *const names[3] = {"iterable", "key", "reverse"};
    int vars[3];
    if (cj_fold_args(c, in, 1, names, 3, vars) < 0) {
        return -1;
    }
    const cj_type *it = vars[0] >= 0 ? cj_type_iter_of(cj_vt(c, vars[0])) : NULL;
    if (it == NULL) {
        return cj_no_match(c, in, "<built-in function sorted>");
    }
    if (cj_sort_key_given(c, vars[1])) { /* sort_key.c */
        return cj_type_sorted_key(c, in, vars[0], vars[1], vars[2], out);
    }
    if (!sorts(it->yield)) { /* tuples, strings: sort_key.c */
        return cj_type_sorted_items(c, in, vars[0], vars[2], out);
    }
    if (vars[2] >= 0 && !cj_type_is_integer(cj_vt(c, vars[2]))) {
        return cj_no_match(c, in, "<built-in function sorted>");
    }
    cj_call *call = cj_call_record(c, in, CJ_CALL_LIST, 2);
    if (call == NULL) {
        return -1;
    }
    call->builtin = CJ_LIST_SORTED;
    for (int i = 0; i < 2; i++) {
        call->args[i] = vars[i == 0 ? 0 : 2];
        call->argtypes[i] = call->args[i] >= 0 ? cj_vt(c, call->args[i]) : cj_t_bool;
        call->defaults[i] = Py_False;
    }
    *out = cj_type_list(it->yield, 0);
    return *out ? 1 : -1;
}

int cj_type_list_builtin(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    int n = in->nargs - 1 - in->index;
    const cj_type *a = n >= 1 ? cj_vt(c, in->args[1]) : NULL;
    if (id == CJ_B_SORTED) {
        return type_sorted(c, in, out);
    }
    if (in->index > 0 || n > 1 || (id != CJ_B_LIST && (a == NULL || a->kind != CJ_LIST))) {
        return 2;
    }
    const cj_type *it = a != NULL ? cj_type_iter_of(a) : NULL;
    if (a != NULL && it == NULL) {
        return cj_no_match(c, in, "<class 'list'>");
    }
    if ((id == CJ_B_SUM || id == CJ_B_MIN || id == CJ_B_MAX) &&
        (id == CJ_B_SUM ? !compares(a->dtype) : !orders(a->dtype))) {
        return cj_unsupported_error(c, in, "%s() of a list of %s is not supported yet",
                                    id == CJ_B_SUM ? "sum" : id == CJ_B_MIN ? "min" : "max",
                                    a->dtype->name);
    }
    int op = id == CJ_B_LIST ? CJ_LIST_NEW : id == CJ_B_SUM ? CJ_LIST_SUM
             : id == CJ_B_MIN ? CJ_LIST_MIN : CJ_LIST_MAX;
    if (cj_plain_call(c, in, CJ_CALL_LIST, op) == NULL) {
        return -1;
    }
    *out = op == CJ_LIST_NEW ? cj_type_list(it != NULL ? it->yield : NULL, 0)
           : op == CJ_LIST_SUM ? sum_type(a->dtype) : a->dtype;
    return *out ? 1 : -1;
}

int cj_type_list_contains(cj_infer_ctx *c, cj_instr *in, const cj_type *x, const cj_type *lt,
                          const cj_type **out) {
    if (lt->dtype == NULL) {
        return 0;
    }
    if (!compares(lt->dtype) || !cj_type_is_number(x)) {
        return cj_unsupported_error(c, in, "`in` of %s in %s is not supported yet (numbers in "
                                           "lists of numbers)", x->name, lt->name);
    }
    *out = cj_t_bool;
    return 1;
}

int cj_type_list_getitem(cj_infer_ctx *c, cj_instr *in, const cj_type *t, const cj_type *idx,
                         const cj_type **out) {
    if (t->dtype == NULL) {
        return 0;
    }
    if (!is_index(idx) && idx->kind != CJ_SLICE) {
        return cj_invalid_use(c, in, "getitem");
    }
    *out = idx->kind == CJ_SLICE ? cj_type_list(t->dtype, 0) : t->dtype; /* a slice: a copy */
    return 1;
}

int cj_type_list_setitem(cj_infer_ctx *c, cj_instr *in, const cj_type *t, const cj_type *idx,
                         const cj_type *val) {
    if (t->dtype == NULL) {
        return 0;
    }
    if (idx->kind == CJ_SLICE && val->kind == CJ_LIST && val->dtype == NULL) {
        return 0; /* l[a:b] = [] waits for the list's refinement, else stays untyped */
    }
    if (idx->kind == CJ_SLICE) { /* l[a:b:c] = a list of the same items */
        return val->kind == CJ_LIST && val->dtype == t->dtype ? 1
                                                              : cj_invalid_use(c, in, "setitem");
    }
    if (!is_index(idx) || !cj_can_convert(val, t->dtype)) {
        return cj_invalid_use(c, in, "setitem");
    }
    return 1;
}

int cj_check_list_types(cj_infer_ctx *c) {
    int found = -1;
    for (int v = 0; v < c->ir->vars.len; v++) {
        const cj_type *t = cj_vt(c, v);
        if (t != NULL && cj_type_is_unrefined(t) &&
            (found < 0 || (CJ_VAR(c->ir, found)->is_temp && !CJ_VAR(c->ir, v)->is_temp))) {
            found = v; /* a named variable rather than a temporary, as numba names it */
        }
    }
    if (found < 0) {
        return 0;
    }
    cj_var *v = CJ_VAR(c->ir, found);
    int dict = v->type->kind == CJ_DICT, set = v->type->kind == CJ_SET;
    const char *what = dict ? "dictionary" : set ? "set" : "list";
    const char *whats = dict ? "dictionaries" : set ? "sets" : "lists";
    char name[256];
    cj_instr at = {.line = v->line};
    return cj_typing_error(c, &at, "Cannot infer the type of variable '%s', have imprecise type: "
                                   "%s. \n\nFor cujit to be able to compile a %s, the %s "
                                   "must have a known and precise type that can be inferred "
                                   "from the other variables. Whilst sometimes the type of "
                                   "empty %s can be inferred, this is not always the case.",
                           cj_var_source_name(v, name, sizeof(name)), v->type->name, what,
                           what, whats);
}

/* List.empty_list(item_type) (a classmethod of cujit.typed.List, bound to the class). */
static int is_empty_list(PyObject *obj) {
    return PyCFunction_Check(obj) && PyCFunction_GET_SELF(obj) == (PyObject *)cj_TypedListType;
}

int cj_type_typed_list_call(cj_infer_ctx *c, cj_instr *in, PyObject *obj, const cj_type **out) {
    if (cj_TypedListType == NULL || (obj != (PyObject *)cj_TypedListType && !is_empty_list(obj))) {
        return 2;
    }
    int n = in->nargs - 1;
    const cj_type *item = NULL;
    if (c->env->target == CJ_TARGET_CUDA || in->index > 0 || n > 1 ||
        (is_empty_list(obj) && (n != 1 || (item = cj_dtype_of_var(c, in->args[1])) == NULL))) {
        return c->env->target == CJ_TARGET_CUDA
                   ? cj_unsupported_error(c, in, "lists are not supported in CUDA code")
                   : cj_no_match(c, in, is_empty_list(obj) ? "List.empty_list" : "List");
    }
    if (!is_empty_list(obj) && n == 1) { /* List(iterable) */
        const cj_type *it = cj_type_iter_of(cj_vt(c, in->args[1]));
        if (it == NULL) {
            return cj_no_match(c, in, "List");
        }
        item = it->yield;
    }
    cj_call *call = is_empty_list(obj) ? cj_call_record(c, in, CJ_CALL_LIST, 0)
                                       : cj_plain_call(c, in, CJ_CALL_LIST, CJ_LIST_NEW);
    if (call == NULL) {
        return -1;
    }
    call->builtin = CJ_LIST_NEW;
    *out = cj_type_list(item, CJ_LIST_TYPED); /* List(): ListType[undefined] until an append */
    return *out ? 1 : -1;
}
