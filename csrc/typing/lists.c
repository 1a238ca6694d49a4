/* lists.c: typing of lists (numba's list semantics; lowered by lower/lower_list.c).
 * A list literal is a list(T) of its items unified, unless np.array()/np.asarray() or a join
 * reads it (then it stays the tuple those take). `[]` is list(undefined) until the first
 * l.append(x) refines it, along the copies it came through (numba refines an empty list from
 * its first append); one never refined is numba's "Cannot infer the type of variable".
 * Methods: append, pop; len(), l[i], l[i] = v and iteration are typed where those are. */
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
        if (items[i] == NULL) {
            return 0;
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
static int refine(cj_infer_ctx *c, cj_instr *in, int var, const cj_type *lt, int depth) {
    if (cj_vt(c, var) == lt) {
        return 0;
    }
    if (depth > 256) {
        return cj_typing_error(c, in, "list refined through too many copies");
    }
    if (cj_assign(c, in, var, lt) < 0) {
        return -1;
    }
    const cj_worklist *w = c->work;
    for (int pos = 0; pos < w->ninstrs; pos++) {
        const cj_instr *def = w->instr[pos];
        if (def->dst == var && def->op == CJ_I_COPY && !(def->flags & CJ_F_LIST) &&
            refine(c, in, def->args[0], lt, depth + 1) < 0) {
            return -1;
        }
    }
    return 0;
}

/* The receiver variable of a method call (the GETATTR that bound it), or -1. */
static int receiver_of(cj_infer_ctx *c, const cj_instr *in) {
    const cj_instr *get = c->def[in->args[0]];
    return get != NULL && get->op == CJ_I_GETATTR ? get->args[0] : -1;
}

/* An index argument: an integer (numba: no bool). */
static int is_index(const cj_type *t) { return t->kind == CJ_INT; }

int cj_type_list_method(cj_infer_ctx *c, cj_instr *in, const cj_type *bound,
                        const cj_type **out) {
    const char *name = PyUnicode_AsUTF8(bound->obj);
    const cj_type *lt = bound->source;
    int n = in->nargs - 1;
    if (name == NULL) {
        return -1;
    }
    int op = strcmp(name, "append") == 0 ? CJ_LIST_APPEND
             : strcmp(name, "pop") == 0  ? CJ_LIST_POP
                                         : -1;
    if (op < 0) {
        return cj_unsupported_error(c, in, "list.%s() is not supported yet (cujit's lists have "
                                           "append and pop)", name);
    }
    if (op == CJ_LIST_APPEND && n == 1 && lt->dtype == NULL) {
        int receiver = receiver_of(c, in);
        const cj_type *refined = cj_type_list(cj_vt(c, in->args[1]), 0);
        if (refined == NULL) {
            return -1;
        }
        return receiver < 0 ? cj_typing_error(c, in, "list.append() of a list of unknown type")
               : refine(c, in, receiver, refined, 0) < 0 ? -1 : 0;
    }
    if (lt->dtype == NULL) {
        return 0; /* waits for an append to refine the list */
    }
    int ok = op == CJ_LIST_APPEND ? n == 1 && cj_can_convert(cj_vt(c, in->args[1]), lt->dtype)
                                  : n == 0 || (n == 1 && is_index(cj_vt(c, in->args[1])));
    if (!ok) {
        return cj_invalid_use(c, in, op == CJ_LIST_APPEND ? "BoundFunction(list.append)"
                                                          : "BoundFunction(list.pop)");
    }
    cj_call *call = cj_plain_call(c, in, CJ_CALL_LIST, op);
    if (call == NULL) {
        return -1;
    }
    *out = op == CJ_LIST_APPEND ? cj_t_none : lt->dtype;
    return 1;
}

int cj_type_list_getitem(cj_infer_ctx *c, cj_instr *in, const cj_type *t, const cj_type *idx,
                         const cj_type **out) {
    if (t->dtype == NULL) {
        return 0;
    }
    if (!is_index(idx)) {
        return idx->kind == CJ_SLICE
                   ? cj_unsupported_error(c, in, "slicing a list is not supported yet")
                   : cj_invalid_use(c, in, "getitem");
    }
    *out = t->dtype;
    return 1;
}

int cj_type_list_setitem(cj_infer_ctx *c, cj_instr *in, const cj_type *t, const cj_type *idx,
                         const cj_type *val) {
    if (t->dtype == NULL) {
        return 0;
    }
    if (!is_index(idx) || !cj_can_convert(val, t->dtype)) {
        return idx->kind == CJ_SLICE
                   ? cj_unsupported_error(c, in, "assigning to a slice of a list is not "
                                                 "supported yet")
                   : cj_invalid_use(c, in, "setitem");
    }
    return 1;
}

int cj_check_list_types(cj_infer_ctx *c) {
    int found = -1;
    for (int v = 0; v < c->ir->vars.len; v++) {
        const cj_type *t = cj_vt(c, v);
        if (t != NULL && t->kind == CJ_LIST && t->dtype == NULL &&
            (found < 0 || (CJ_VAR(c->ir, found)->is_temp && !CJ_VAR(c->ir, v)->is_temp))) {
            found = v; /* a named variable rather than a temporary, as numba names it */
        }
    }
    if (found < 0) {
        return 0;
    }
    cj_var *v = CJ_VAR(c->ir, found);
    char name[256];
    cj_instr at = {.line = v->line};
    return cj_typing_error(c, &at, "Cannot infer the type of variable '%s', have imprecise type: "
                                   "%s. \n\nFor cujit to be able to compile a list, the list "
                                   "must have a known and precise type that can be inferred "
                                   "from the other variables. Whilst sometimes the type of "
                                   "empty lists can be inferred, this is not always the case.",
                           cj_var_source_name(v, name, sizeof(name)), v->type->name);
}
