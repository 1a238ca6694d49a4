/* lower_list_ops.c: the list methods and builtins beyond the core of lower_list.c (typed by
 * typing/lists.c): extend insert remove index count clear copy reverse sort, del l[i],
 * list(), list(it), sorted(it), sum/min/max, `x in l` and l[a:b:c]. Items compared by value
 * are numbers or strings; items moved by memmove keep their references. */
#include "lower/lower_internal.h"

static LLVMTypeRef item_type(cj_lower *L, const cj_type *lt) {
    return cj_llvm_type(L->ctx, lt->dtype);
}

static LLVMValueRef item(cj_lower *L, LLVMValueRef list, const cj_type *lt, LLVMValueRef i) {
    return LLVMBuildLoad2(L->b, item_type(L, lt), cj_list_item_ptr(L, list, lt, i), "");
}

/* Moves items [from, len) to start at `to` (memmove; the list's length is not changed). */
static void move_items(cj_lower *L, LLVMValueRef list, const cj_type *lt, LLVMValueRef from,
                       LLVMValueRef to, LLVMValueRef len) {
    LLVMValueRef bytes = LLVMBuildMul(L->b, LLVMBuildSub(L->b, len, from, ""),
                                      cj_i64(L, (long long)cj_abi_size(lt->dtype)), "");
    LLVMBuildMemMove(L->b, cj_list_item_ptr(L, list, lt, to), 1,
                     cj_list_item_ptr(L, list, lt, from), 1, bytes);
}

/* v == x: by the one comparison of the items' type. */
static LLVMValueRef items_equal(cj_lower *L, LLVMValueRef v, const cj_type *vt, LLVMValueRef x,
                                const cj_type *xt) {
    return cj_lower_compare(L, CJ_EQ, v, vt, x, xt, NULL);
}

/* The first index in [from, n) of an item equal to `x` (of type xt), or -1: a loop that stops
 * there. */
static LLVMValueRef find(cj_lower *L, LLVMValueRef list, const cj_type *lt, LLVMValueRef x,
                         const cj_type *xt, LLVMValueRef from, LLVMValueRef n) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMBasicBlockRef before = LLVMGetInsertBlock(B), head = cj_new_bb(L, "find"),
                      body = cj_new_bb(L, "find_body"), done = cj_new_bb(L, "find_done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef i = LLVMBuildPhi(B, i64, "i");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, n, ""), body, done);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef eq = items_equal(L, item(L, list, lt, i), lt->dtype, x, xt);
    LLVMValueRef next = LLVMBuildAdd(B, i, cj_i64(L, 1), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(B);
    LLVMBuildCondBr(B, eq, done, head);
    LLVMValueRef in_v[2] = {from, next};
    LLVMBasicBlockRef in_b[2] = {before, latch};
    LLVMAddIncoming(i, in_v, in_b, 2);
    LLVMPositionBuilderAtEnd(B, done);
    LLVMValueRef at = LLVMBuildPhi(B, i64, "found");
    LLVMValueRef out_v[2] = {cj_i64(L, -1), i};
    LLVMBasicBlockRef out_b[2] = {head, latch};
    LLVMAddIncoming(at, out_v, out_b, 2);
    return at;
}

typedef struct each {
    LLVMValueRef list, acc, x;
    const cj_type *lt, *at, *xt;
    int op;
} each;

static void fold_item(cj_lower *L, LLVMValueRef i, void *ctx) {
    each *e = ctx;
    LLVMValueRef v = item(L, e->list, e->lt, i), acc = LLVMBuildLoad2(L->b,
                                                     cj_llvm_type(L->ctx, e->at), e->acc, "");
    if (e->op == CJ_LIST_COUNT) {
        LLVMValueRef eq = items_equal(L, v, e->lt->dtype, e->x, e->xt);
        acc = LLVMBuildAdd(L->b, acc, LLVMBuildZExt(L->b, eq, LLVMTypeOf(acc), ""), "");
    } else if (e->op == CJ_LIST_SUM) {
        acc = cj_lower_binop(L, CJ_ADD, acc, e->at, cj_cast(L, v, e->lt->dtype, e->at), e->at,
                             e->at, e->at);
    } else { /* min/max: the first of the smallest (largest), as Python's */
        LLVMValueRef better = cj_lower_compare(L, e->op == CJ_LIST_MIN ? CJ_LT : CJ_GT, v,
                                               e->at, acc, e->at, NULL);
        acc = LLVMBuildSelect(L->b, better, v, acc, "");
    }
    LLVMBuildStore(L->b, acc, e->acc);
}

/* count(x), sum(l), min(l), max(l): one pass; min/max of nothing is Python's ValueError. */
static LLVMValueRef fold(cj_lower *L, int op, LLVMValueRef list, const cj_type *lt,
                         const cj_call *call, const cj_type *rt) {
    each e = {.list = list, .lt = lt, .at = rt, .op = op};
    e.acc = cj_entry_alloca(L, cj_llvm_type(L->ctx, rt), "acc");
    LLVMValueRef n = cj_list_len(L, list), from = cj_i64(L, 0);
    if (op == CJ_LIST_MIN || op == CJ_LIST_MAX) {
        LLVMValueRef empty = LLVMBuildICmp(L->b, LLVMIntEQ, n, cj_i64(L, 0), "");
        if (cj_emit_raise_text_if(L, empty, PyExc_ValueError, op == CJ_LIST_MIN
                                  ? "min() arg is an empty sequence"
                                  : "max() arg is an empty sequence") < 0) {
            return NULL;
        }
        LLVMBuildStore(L->b, item(L, list, lt, from), e.acc);
    } else {
        LLVMBuildStore(L->b, LLVMConstNull(cj_llvm_type(L->ctx, rt)), e.acc);
    }
    if (op == CJ_LIST_COUNT) {
        e.x = cj_load_var(L, call->args[0]);
        e.xt = call->argtypes[0];
    }
    cj_emit_for(L, n, fold_item, &e);
    return LLVMBuildLoad2(L->b, cj_llvm_type(L->ctx, rt), e.acc, "");
}

typedef struct copying {
    LLVMValueRef src, dst, start, step;
    const cj_type *st, *dt;
} copying;

static void copy_item(cj_lower *L, LLVMValueRef i, void *ctx) {
    copying *c = ctx;
    LLVMValueRef at = LLVMBuildAdd(L->b, c->start, LLVMBuildMul(L->b, i, c->step, ""), "");
    LLVMValueRef v = item(L, c->src, c->st, at);
    cj_incref(L, v, c->dt->dtype);
    LLVMBuildStore(L->b, v, cj_list_item_ptr(L, c->dst, c->dt, i));
}

/* A new list of `n` items src[start + i * step] (each holding its own references). */
static LLVMValueRef copy_items(cj_lower *L, LLVMValueRef src, const cj_type *lt,
                               LLVMValueRef start, LLVMValueRef step, LLVMValueRef n) {
    const cj_type *rt = cj_type_list(lt->dtype, 0);
    LLVMValueRef dst = rt ? cj_list_new_empty(L, rt) : NULL;
    if (dst == NULL) {
        return NULL;
    }
    cj_list_reserve_more(L, dst, n);
    copying c = {.src = src, .dst = dst, .start = start, .step = step, .st = lt, .dt = rt};
    cj_emit_for(L, n, copy_item, &c);
    cj_list_set_len(L, dst, n);
    return dst;
}

LLVMValueRef cj_list_slice(cj_lower *L, LLVMValueRef list, const cj_type *lt, LLVMValueRef sl) {
    LLVMValueRef start, step, n;
    cj_slice_indices(L, sl, cj_list_len(L, list), &start, &step, &n);
    return copy_items(L, list, lt, start, step, n);
}

typedef struct extending {
    LLVMValueRef dst, src;
    const cj_type *dt, *st;
} extending;

static void append_from_list(cj_lower *L, LLVMValueRef i, void *ctx) {
    extending *x = ctx;
    cj_list_append(L, x->dst, x->dt, item(L, x->src, x->st, i), x->st->dtype);
}

static void append_item(cj_lower *L, LLVMValueRef v, const cj_type *vt, void *ctx) {
    extending *x = ctx;
    cj_list_append(L, x->dst, x->dt, v, vt);
}

/* dst.extend(the iterable in variable `var`); a list's length is read once (so l.extend(l)
 * doubles it, as Python's), any other iterable goes by its iterator. */
static int extend(cj_lower *L, LLVMValueRef dst, const cj_type *dt, int var) {
    const cj_type *st = CJ_VAR(L->ir, var)->type, *it = cj_type_iter_of(st);
    if (st->kind == CJ_LIST) {
        extending x = {.dst = dst, .src = cj_load_var(L, var), .dt = dt, .st = st};
        cj_emit_for(L, cj_list_len(L, x.src), append_from_list, &x);
        return 0;
    }
    if (it == NULL) {
        PyErr_Format(cj_LoweringError, "list.extend() of %s", st->name);
        return -1;
    }
    extending x = {.dst = dst, .dt = dt};
    return cj_emit_for_each_item(L, cj_load_var(L, var), st, it, append_item, &x);
}

typedef struct swapping {
    LLVMValueRef list, last;
    const cj_type *lt;
} swapping;

static void swap_ends(cj_lower *L, LLVMValueRef i, void *ctx) {
    swapping *w = ctx;
    LLVMValueRef j = LLVMBuildSub(L->b, w->last, i, "");
    LLVMValueRef a = item(L, w->list, w->lt, i), b = item(L, w->list, w->lt, j);
    LLVMBuildStore(L->b, b, cj_list_item_ptr(L, w->list, w->lt, i));
    LLVMBuildStore(L->b, a, cj_list_item_ptr(L, w->list, w->lt, j));
}

static void drop_item(cj_lower *L, LLVMValueRef i, void *ctx) {
    swapping *w = ctx;
    cj_decref(L, item(L, w->list, w->lt, i), w->lt->dtype);
}

/* Sorts in place (abi/list.c); `reverse` is a variable or -1 (False). */
static void sort(cj_lower *L, LLVMValueRef list, const cj_type *lt, int reverse) {
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef params[3] = {i8p, i32, i32};
    LLVMValueRef fn = cj_runtime_fn(L, "cj_list_sort", i32, params, 3);
    LLVMValueRef rev = reverse < 0 ? LLVMConstInt(i32, 0, 0)
                       : LLVMBuildZExt(L->b, cj_truth(L, cj_load_var(L, reverse),
                                                      CJ_VAR(L->ir, reverse)->type), i32, "");
    LLVMValueRef args[3] = {list, LLVMConstInt(i32, (unsigned)cj_sort_kind(lt->dtype), 0), rev};
    LLVMValueRef rc = LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(fn)), fn, args, 3, "");
    cj_emit_raise_if(L, LLVMBuildICmp(L->b, LLVMIntNE, rc, LLVMConstInt(i32, 0, 0), ""),
                     CJ_EXC_MEMORY);
}

/* l.insert(i, v): i clamped into [0, len] after counting from the end, as Python's. */
static void insert(cj_lower *L, LLVMValueRef list, const cj_type *lt, const cj_call *call) {
    LLVMBuilderRef B = L->b;
    LLVMValueRef n = cj_list_len(L, list), zero = cj_i64(L, 0);
    LLVMValueRef i = cj_cast(L, cj_load_var(L, call->args[0]), call->argtypes[0], cj_t_int64);
    i = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, i, zero, ""), LLVMBuildAdd(B, i, n, ""),
                        i, "");
    i = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, i, zero, ""), zero, i, "");
    i = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSGT, i, n, ""), n, i, "at");
    cj_list_reserve_more(L, list, cj_i64(L, 1));
    move_items(L, list, lt, i, LLVMBuildAdd(B, i, cj_i64(L, 1), ""), n);
    cj_list_put_item(L, list, lt, i, cj_load_var(L, call->args[1]), call->argtypes[1]);
    cj_list_set_len(L, list, LLVMBuildAdd(B, n, cj_i64(L, 1), ""));
}

/* A start or stop of l.index(): from the end when negative, then within [0, n]. */
static LLVMValueRef clamp_bound(cj_lower *L, LLVMValueRef v, LLVMValueRef n) {
    LLVMBuilderRef B = L->b;
    LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, v, cj_i64(L, 0), "");
    LLVMValueRef up = LLVMBuildAdd(B, v, n, "");
    up = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, up, cj_i64(L, 0), ""), cj_i64(L, 0),
                         up, "");
    LLVMValueRef down = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSGT, v, n, ""), n, v, "");
    return LLVMBuildSelect(B, neg, up, down, "");
}

/* l.remove(x), l.index(x[, start[, stop]]): the first equal item, else numba's ValueError. */
static LLVMValueRef find_or_raise(cj_lower *L, int op, LLVMValueRef list, const cj_type *lt,
                                  const cj_call *call) {
    LLVMValueRef n = cj_list_len(L, list), from = cj_i64(L, 0), to = n;
    if (call->nargs > 1) { /* l.index(x, start[, stop]): clamped as a slice's bounds */
        from = clamp_bound(L, cj_cast(L, cj_load_var(L, call->args[1]), call->argtypes[1],
                                      cj_t_int64), n);
    }
    if (call->nargs > 2) {
        to = clamp_bound(L, cj_cast(L, cj_load_var(L, call->args[2]), call->argtypes[2],
                                    cj_t_int64), n);
    }
    LLVMValueRef at = find(L, list, lt, cj_load_var(L, call->args[0]), call->argtypes[0], from,
                           to);
    LLVMValueRef missing = LLVMBuildICmp(L->b, LLVMIntSLT, at, cj_i64(L, 0), "");
    if (cj_emit_raise_text_if(L, missing, PyExc_ValueError, op == CJ_LIST_REMOVE
                              ? "list.remove(x): x not in list" : "value not in list") < 0) {
        return NULL;
    }
    if (op == CJ_LIST_REMOVE) { /* the item's references (a string's) go with it */
        LLVMValueRef n = cj_list_len(L, list), gone = item(L, list, lt, at);
        move_items(L, list, lt, LLVMBuildAdd(L->b, at, cj_i64(L, 1), ""), at, n);
        cj_list_set_len(L, list, LLVMBuildSub(L->b, n, cj_i64(L, 1), ""));
        cj_decref(L, gone, lt->dtype);
        return cj_empty(L);
    }
    return at;
}

/* del l[i]: the item's references dropped, the rest moved down. */
static LLVMValueRef delete_item(cj_lower *L, LLVMValueRef list, const cj_type *lt,
                                const cj_call *call) {
    if (call->argtypes[0]->kind == CJ_SLICE) { /* del l[a:b:c] */
        cj_list_delete_slice_lower(L, list, cj_load_var(L, call->args[0]));
        return cj_empty(L);
    }
    LLVMValueRef n = cj_list_len(L, list);
    LLVMValueRef i = cj_list_checked_index(L, cj_load_var(L, call->args[0]), call->argtypes[0],
                                           n, "list assignment index out of range");
    if (i == NULL) {
        return NULL;
    }
    LLVMValueRef v = item(L, list, lt, i);
    move_items(L, list, lt, LLVMBuildAdd(L->b, i, cj_i64(L, 1), ""), i, n);
    cj_list_set_len(L, list, LLVMBuildSub(L->b, n, cj_i64(L, 1), ""));
    cj_decref(L, v, lt->dtype);
    return cj_empty(L);
}

/* list(), list(iterable), sorted(iterable, reverse=): a new list of the call's type. */
static LLVMValueRef make_list(cj_lower *L, cj_instr *in, const cj_call *call) {
    const cj_type *rt = CJ_VAR(L->ir, in->dst)->type; /* an empty list() refined by its use */
    LLVMValueRef list = cj_list_new_empty(L, rt);
    if (list == NULL || (call->nargs > 0 && call->args[0] >= 0 &&
                         extend(L, list, rt, call->args[0]) < 0)) {
        return NULL;
    }
    if (call->builtin == CJ_LIST_SORTED) {
        sort(L, list, rt, call->args[1]);
    }
    return list;
}

LLVMValueRef cj_lower_list_op(cj_lower *L, cj_instr *in, const cj_call *call,
                              LLVMValueRef list, const cj_type *lt) {
    swapping w = {.list = list, .lt = lt};
    switch (call->builtin) {
    case CJ_LIST_EXTEND:
        return extend(L, list, lt, call->args[0]) < 0 ? NULL : cj_empty(L);
    case CJ_LIST_INSERT:
        insert(L, list, lt, call);
        return cj_empty(L);
    case CJ_LIST_REMOVE:
    case CJ_LIST_INDEX:
        return find_or_raise(L, call->builtin, list, lt, call);
    case CJ_LIST_COUNT:
    case CJ_LIST_SUM:
    case CJ_LIST_MIN:
    case CJ_LIST_MAX:
        return fold(L, call->builtin, list, lt, call, in->rtype);
    case CJ_LIST_CLEAR:
        if (cj_counts_refs(L, lt->dtype)) {
            cj_emit_for(L, cj_list_len(L, list), drop_item, &w);
        }
        cj_list_set_len(L, list, cj_i64(L, 0));
        return cj_empty(L);
    case CJ_LIST_COPY:
        return copy_items(L, list, lt, cj_i64(L, 0), cj_i64(L, 1), cj_list_len(L, list));
    case CJ_LIST_REVERSE:
        w.last = LLVMBuildSub(L->b, cj_list_len(L, list), cj_i64(L, 1), "");
        cj_emit_for(L, LLVMBuildSDiv(L->b, cj_list_len(L, list), cj_i64(L, 2), ""), swap_ends,
                    &w);
        return cj_empty(L);
    case CJ_LIST_SORT:
        sort(L, list, lt, call->args[0]);
        return cj_empty(L);
    case CJ_LIST_DELITEM:
        return delete_item(L, list, lt, call);
    case CJ_LIST_NEW:
    case CJ_LIST_SORTED:
        return make_list(L, in, call);
    }
    PyErr_SetString(cj_LoweringError, "unknown list operation");
    return NULL;
}

LLVMValueRef cj_lower_list_contains(cj_lower *L, cj_instr *in) {
    const cj_type *lt = CJ_VAR(L->ir, in->args[1])->type;
    LLVMValueRef list = cj_load_var(L, in->args[1]);
    LLVMValueRef at = find(L, list, lt, cj_load_var(L, in->args[0]),
                           CJ_VAR(L->ir, in->args[0])->type, cj_i64(L, 0), cj_list_len(L, list));
    return LLVMBuildICmp(L->b, in->sub == CJ_IN ? LLVMIntSGE : LLVMIntSLT, at, cj_i64(L, 0),
                         "in");
}
