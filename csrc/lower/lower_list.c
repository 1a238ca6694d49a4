/* lower_list.c: lists (abi.h's cj_list; typed by typing/lists.c), CPU only. A list value is
 * the cj_meminfo * of its allocation: counted like an array's (lower_refs.c). Its items are
 * stored in their LLVM types at `items` (the C layout of cj_abi_size); the list holds one
 * reference to what each item holds: storing an item takes one, overwriting drops the old
 * one, l.pop() hands its item's over, and abi/list.c drops the rest when the list is freed. */
#include "lower/lower_internal.h"

/* abi.h's cj_list header: len, cap, items, item_size, snapshot, parent, nrefs */
static LLVMTypeRef header_type(cj_lower *L) {
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef f[7] = {i64, i64, i8p, i64, i8p, i8p, LLVMInt32TypeInContext(L->ctx)};
    return LLVMStructTypeInContext(L->ctx, f, 7, 0);
}

/* A pointer to field `i` of the list's header (the data of its meminfo, abi.h). */
static LLVMValueRef header_field(cj_lower *L, LLVMValueRef list, int i) {
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMValueRef data_at = LLVMBuildBitCast(L->b, list, LLVMPointerType(i8p, 0), "");
    LLVMValueRef one = cj_i64(L, 1); /* cj_meminfo: refcount, data, ... */
    data_at = LLVMBuildInBoundsGEP2(L->b, i8p, data_at, &one, 1, "");
    LLVMValueRef data = LLVMBuildLoad2(L->b, i8p, data_at, "list");
    LLVMTypeRef ht = header_type(L);
    LLVMValueRef header = LLVMBuildBitCast(L->b, data, LLVMPointerType(ht, 0), "");
    return LLVMBuildStructGEP2(L->b, ht, header, (unsigned)i, "");
}

LLVMValueRef cj_list_len(cj_lower *L, LLVMValueRef list) {
    return LLVMBuildLoad2(L->b, LLVMInt64TypeInContext(L->ctx), header_field(L, list, 0), "len");
}

void cj_list_set_len(cj_lower *L, LLVMValueRef list, LLVMValueRef n) {
    LLVMBuildStore(L->b, n, header_field(L, list, 0));
}

/* Item `i` (an in-range int64) of a list of type `lt`, as a pointer to its LLVM type. */
LLVMValueRef cj_list_item_ptr(cj_lower *L, LLVMValueRef list, const cj_type *lt, LLVMValueRef i) {
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef item_t = cj_llvm_type(L->ctx, lt->dtype);
    LLVMValueRef items = LLVMBuildLoad2(L->b, i8p, header_field(L, list, 2), "items");
    items = LLVMBuildBitCast(L->b, items, LLVMPointerType(item_t, 0), "");
    LLVMValueRef p = LLVMBuildInBoundsGEP2(L->b, item_t, items, &i, 1, "item_at");
    cj_ub_proof(p, "index: checked against the list's length (IndexError), or at most it");
    return p;
}

/* The item offsets abi/list.c drops references at: a private constant array (or null). */
static LLVMValueRef ref_offsets(cj_lower *L, const cj_type *item, int *nrefs) {
    int32_t offs[CJ_LIST_MAX_REFS];
    *nrefs = 0;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    if (cj_abi_ref_offsets(item, 0, offs, nrefs, CJ_LIST_MAX_REFS) < 0) {
        PyErr_Format(cj_UnsupportedError, "list items of type %s hold more than %d arrays",
                     item->name, CJ_LIST_MAX_REFS);
        return NULL;
    }
    if (*nrefs == 0) {
        return LLVMConstNull(LLVMPointerType(i32, 0));
    }
    LLVMValueRef vals[CJ_LIST_MAX_REFS];
    for (int k = 0; k < *nrefs; k++) {
        vals[k] = LLVMConstInt(i32, (unsigned long long)offs[k], 0);
    }
    LLVMTypeRef at = LLVMArrayType(i32, (unsigned)*nrefs);
    LLVMValueRef g = LLVMAddGlobal(L->mod, at, "list_item_refs");
    LLVMSetInitializer(g, LLVMConstArray(i32, vals, (unsigned)*nrefs));
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    return LLVMConstBitCast(g, LLVMPointerType(i32, 0));
}

/* A new list of type `lt` with `n` items (not yet written) and one reference; MemoryError. */
static LLVMValueRef new_list(cj_lower *L, const cj_type *lt, LLVMValueRef n) {
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx), i32 = LLVMInt32TypeInContext(L->ctx);
    int nrefs;
    LLVMValueRef offs = ref_offsets(L, lt->dtype, &nrefs);
    if (offs == NULL) {
        return NULL;
    }
    LLVMTypeRef params[4] = {i64, i32, LLVMPointerType(i32, 0), i64};
    LLVMValueRef fn = cj_runtime_fn(L, "cj_list_new", i8p, params, 4);
    LLVMValueRef args[4] = {cj_i64(L, (long long)cj_abi_size(lt->dtype)),
                            LLVMConstInt(i32, (unsigned)nrefs, 0), offs, n};
    LLVMValueRef list = LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(fn)), fn, args, 4,
                                       "new_list");
    cj_emit_raise_if(L, LLVMBuildIsNull(L->b, list, ""), CJ_EXC_MEMORY);
    return list;
}

/* Stores `v` (of type `from`) as item `i`, which then holds its own reference. */
void cj_list_put_item(cj_lower *L, LLVMValueRef list, const cj_type *lt, LLVMValueRef i,
                      LLVMValueRef v, const cj_type *from) {
    v = cj_cast(L, v, from, lt->dtype);
    cj_incref(L, v, lt->dtype);
    LLVMBuildStore(L->b, v, cj_list_item_ptr(L, list, lt, i));
}

int cj_lower_list_build(cj_lower *L, cj_instr *in) {
    const cj_type *lt = CJ_VAR(L->ir, in->dst)->type; /* refined by an append: not rtype */
    int folded = in->op == CJ_I_COPY; /* LIST_EXTEND of a constant tuple */
    const cj_type *src = folded ? CJ_VAR(L->ir, in->args[0])->type : NULL;
    LLVMValueRef tuple = folded ? cj_load_var(L, in->args[0]) : NULL;
    int n = folded ? src->n : in->nargs;
    LLVMValueRef list = new_list(L, lt, cj_i64(L, n));
    if (list == NULL) {
        return -1;
    }
    for (int i = 0; i < n; i++) {
        LLVMValueRef v = folded ? LLVMBuildExtractValue(L->b, tuple, (unsigned)i, "")
                                : cj_load_var(L, in->args[i]);
        cj_list_put_item(L, list, lt, cj_i64(L, i), v,
                 folded ? src->items[i] : CJ_VAR(L->ir, in->args[i])->type);
    }
    return cj_store_var_taking(L, in->dst, list, lt);
}

/* An index of type `it` into a list of `len` items, from the end when negative; IndexError
 * with `text` when out of range. NULL with an exception. */
LLVMValueRef cj_list_checked_index(cj_lower *L, LLVMValueRef idx, const cj_type *it,
                                         LLVMValueRef len, const char *text) {
    LLVMBuilderRef B = L->b;
    LLVMValueRef i = cj_cast(L, idx, it, cj_t_int64);
    LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, i, cj_i64(L, 0), "");
    i = LLVMBuildSelect(B, neg, LLVMBuildAdd(B, i, len, ""), i, "index");
    LLVMValueRef bad = LLVMBuildICmp(B, LLVMIntUGE, i, len, ""); /* < 0 too, as unsigned */
    return cj_emit_raise_text_if(L, bad, PyExc_IndexError, text) < 0 ? NULL : i;
}

int cj_lower_list_getitem(cj_lower *L, cj_instr *in) {
    const cj_type *lt = CJ_VAR(L->ir, in->args[0])->type;
    LLVMValueRef list = cj_load_var(L, in->args[0]);
    if (CJ_VAR(L->ir, in->args[1])->type->kind == CJ_SLICE) { /* a new list (lower_list_ops.c) */
        LLVMValueRef copy = cj_list_slice(L, list, lt, cj_load_var(L, in->args[1]));
        return copy ? cj_store_var_taking(L, in->dst, copy, in->rtype) : -1;
    }
    LLVMValueRef i = cj_list_checked_index(L, cj_load_var(L, in->args[1]),
                                   CJ_VAR(L->ir, in->args[1])->type, cj_list_len(L, list),
                                   "list index out of range");
    if (i == NULL) {
        return -1;
    }
    LLVMValueRef v = LLVMBuildLoad2(L->b, cj_llvm_type(L->ctx, lt->dtype),
                                    cj_list_item_ptr(L, list, lt, i), "item");
    return cj_store_var(L, in->dst, v, lt->dtype);
}

int cj_lower_list_setitem(cj_lower *L, cj_instr *in) {
    const cj_type *lt = CJ_VAR(L->ir, in->args[0])->type;
    LLVMValueRef list = cj_load_var(L, in->args[0]);
    if (CJ_VAR(L->ir, in->args[1])->type->kind == CJ_SLICE) { /* l[a:b:c] = other */
        return cj_list_assign_slice_lower(L, list, cj_load_var(L, in->args[1]),
                                          cj_load_var(L, in->args[2]));
    }
    LLVMValueRef i = cj_list_checked_index(L, cj_load_var(L, in->args[1]),
                                   CJ_VAR(L->ir, in->args[1])->type, cj_list_len(L, list),
                                   "list assignment index out of range");
    if (i == NULL) {
        return -1;
    }
    LLVMValueRef at = cj_list_item_ptr(L, list, lt, i);
    LLVMValueRef old = LLVMBuildLoad2(L->b, cj_llvm_type(L->ctx, lt->dtype), at, "old");
    cj_list_put_item(L, list, lt, i, cj_load_var(L, in->args[2]), CJ_VAR(L->ir, in->args[2])->type);
    cj_decref(L, old, lt->dtype);
    return 0;
}


void cj_list_reserve_more(cj_lower *L, LLVMValueRef list, LLVMValueRef extra) {
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef params[2] = {i8p, LLVMInt64TypeInContext(L->ctx)};
    LLVMValueRef fn = cj_runtime_fn(L, "cj_list_reserve", i8p, params, 2);
    LLVMValueRef args[2] = {list, extra};
    LLVMValueRef items = LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(fn)), fn, args, 2,
                                        "items");
    cj_emit_raise_if(L, LLVMBuildIsNull(L->b, items, ""), CJ_EXC_MEMORY);
}

void cj_list_append(cj_lower *L, LLVMValueRef list, const cj_type *lt, LLVMValueRef v,
                    const cj_type *from) {
    LLVMValueRef n = cj_list_len(L, list);
    LLVMValueRef cap = LLVMBuildLoad2(L->b, LLVMInt64TypeInContext(L->ctx),
                                      header_field(L, list, 1), "cap");
    LLVMBasicBlockRef grow = cj_new_bb(L, "list_grow"), room = cj_new_bb(L, "list_room");
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, n, cap, ""), room, grow);
    LLVMPositionBuilderAtEnd(L->b, grow); /* the run time only when full */
    cj_list_reserve_more(L, list, cj_i64(L, 1));
    LLVMBuildBr(L->b, room);
    LLVMPositionBuilderAtEnd(L->b, room);
    cj_list_put_item(L, list, lt, n, v, from);
    cj_list_set_len(L, list, LLVMBuildAdd(L->b, n, cj_i64(L, 1), ""));
}

LLVMValueRef cj_list_new_empty(cj_lower *L, const cj_type *lt) {
    return new_list(L, lt, cj_i64(L, 0));
}

/* l.pop() / l.pop(i): the item leaves the list with its references (the call hands them
 * over); the items after it move down one place. */
static LLVMValueRef pop(cj_lower *L, LLVMValueRef list, const cj_type *lt, const cj_call *call) {
    LLVMBuilderRef B = L->b;
    LLVMValueRef n = cj_list_len(L, list), i;
    if (call->nargs == 0) {
        LLVMValueRef empty = LLVMBuildICmp(B, LLVMIntEQ, n, cj_i64(L, 0), "");
        if (cj_emit_raise_text_if(L, empty, PyExc_IndexError, "pop from empty list") < 0) {
            return NULL;
        }
        i = LLVMBuildSub(B, n, cj_i64(L, 1), "");
    } else {
        i = cj_list_checked_index(L, cj_load_var(L, call->args[0]), call->argtypes[0], n,
                          "pop index out of range");
        if (i == NULL) {
            return NULL;
        }
    }
    LLVMValueRef at = cj_list_item_ptr(L, list, lt, i);
    LLVMValueRef v = LLVMBuildLoad2(B, cj_llvm_type(L->ctx, lt->dtype), at, "popped");
    LLVMValueRef size = cj_i64(L, (long long)cj_abi_size(lt->dtype));
    LLVMValueRef last = LLVMBuildSub(B, n, cj_i64(L, 1), "");
    LLVMValueRef after = LLVMBuildMul(B, LLVMBuildSub(B, last, i, ""), size, "");
    LLVMValueRef next = cj_list_item_ptr(L, list, lt, LLVMBuildAdd(B, i, cj_i64(L, 1), ""));
    LLVMBuildMemMove(B, at, 1, next, 1, after);
    cj_list_set_len(L, list, last);
    return v;
}

LLVMValueRef cj_lower_list_call(cj_lower *L, cj_instr *in, const cj_call *call) {
    const cj_instr *get = cj_list_op_is_method(call->builtin) ? cj_method_getattr(L, in) : NULL;
    int receiver = get != NULL ? get->args[0] : call->nargs > 0 ? call->args[0] : -1;
    if (get == NULL && cj_list_op_is_method(call->builtin)) {
        return NULL;
    }
    const cj_type *lt = receiver >= 0 ? CJ_VAR(L->ir, receiver)->type : NULL;
    LLVMValueRef list = receiver >= 0 ? cj_load_var(L, receiver) : NULL;
    switch (call->builtin) {
    case CJ_LIST_APPEND:
        cj_list_append(L, list, lt, cj_load_var(L, call->args[0]), call->argtypes[0]);
        return cj_empty(L);
    case CJ_LIST_POP:
        return pop(L, list, lt, call);
    default:
        return cj_lower_list_op(L, in, call, list, lt); /* lower_list_ops.c */
    }
}
