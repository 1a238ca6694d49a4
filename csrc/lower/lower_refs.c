/* lower_refs.c: references to the allocations compiled code owns (abi/nrt.c), CPU only.
 * Each variable whose type holds arrays owns one reference to each array's allocation: a store
 * takes a reference to the new value and drops the old value's. Every way out of the function
 * (a return, a raise, a callee's error) goes through one exit block that drops what the
 * variables hold; a returned value first gets a reference for the caller. A value a call hands
 * over (a new array, a jitted callee's result) is dropped once stored. Arrays that came from
 * Python have no meminfo, and the run-time functions do nothing for NULL. A list is its
 * meminfo; its items' references are its own (abi/list.c drops them when it is freed); a dict
 * likewise (abi/dict.c); a string is its meminfo too (a literal's never reaches zero). A tuple
 * and an extension's StructModel value hold their members' references. CUDA code
 * allocates nothing: no reference is counted there. */
#include "lower/lower_internal.h"

int cj_type_has_refs(const cj_type *t) {
    if (t->kind == CJ_ARRAY || t->kind == CJ_LIST || t->kind == CJ_UNICODE || t->kind == CJ_DICT ||
        t->kind == CJ_SET ||
        t->kind == CJ_GENERATOR) {
        return 1;
    }
    for (int i = 0; cj_type_is_aggregate(t) && i < t->n; i++) {
        if (cj_type_has_refs(t->items[i])) {
            return 1;
        }
    }
    return 0;
}

int cj_type_is_aggregate(const cj_type *t) {
    return t->kind == CJ_TUPLE || t->kind == CJ_OPTIONAL ||
           (t->kind == CJ_EXT && !(t->bits & CJ_EXT_PRIMITIVE));
}

int cj_counts_refs(cj_lower *L, const cj_type *t) {
    return L->env->target == CJ_TARGET_CPU && t != NULL && cj_type_has_refs(t);
}

LLVMValueRef cj_runtime_fn(cj_lower *L, const char *name, LLVMTypeRef ret,
                           LLVMTypeRef *params, unsigned nparams) {
    LLVMValueRef fn = LLVMGetNamedFunction(L->mod, name);
    if (fn == NULL) {
        fn = LLVMAddFunction(L->mod, name, LLVMFunctionType(ret, params, nparams, 0));
        LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                                LLVMCreateEnumAttribute(L->ctx, LLVMGetEnumAttributeKindForName(
                                                                    "nounwind", 8), 0));
    }
    return fn;
}

/* The count of an allocation (abi.h: the header's first field), changed in place: an atomic
 * add; a decrement that reaches zero frees it (cj_nrt_free). Arrays from Python have no
 * meminfo: a branch, not an atomic, for them. */
static void count(cj_lower *L, LLVMValueRef mi, int delta) {
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMBasicBlockRef counted = cj_new_bb(L, "counted"), done = cj_new_bb(L, "counted_done");
    LLVMBuildCondBr(L->b, LLVMBuildIsNull(L->b, mi, ""), done, counted);
    LLVMPositionBuilderAtEnd(L->b, counted);
    LLVMValueRef refcount = LLVMBuildBitCast(L->b, mi, LLVMPointerType(i64, 0), "");
    if (delta > 0) {
        LLVMBuildAtomicRMW(L->b, LLVMAtomicRMWBinOpAdd, refcount, LLVMConstInt(i64, 1, 0),
                           LLVMAtomicOrderingMonotonic, 0);
    } else {
        LLVMValueRef old = LLVMBuildAtomicRMW(L->b, LLVMAtomicRMWBinOpSub, refcount,
                                              LLVMConstInt(i64, 1, 0),
                                              LLVMAtomicOrderingAcquireRelease, 0);
        LLVMBasicBlockRef last = cj_new_bb(L, "last_reference");
        LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, old, LLVMConstInt(i64, 1, 0), ""),
                        last, done);
        LLVMPositionBuilderAtEnd(L->b, last);
        LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
        LLVMValueRef fn = cj_runtime_fn(L, "cj_nrt_free", LLVMVoidTypeInContext(L->ctx), &i8p, 1);
        LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(fn)), fn, &mi, 1, "");
    }
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, done);
}

static void ref_op(cj_lower *L, LLVMValueRef v, const cj_type *t, int delta) {
    if (t->kind == CJ_ARRAY) {
        count(L, LLVMBuildExtractValue(L->b, v, CJ_ARR_MEMINFO, "meminfo"), delta);
        return;
    }
    if (t->kind == CJ_LIST || t->kind == CJ_UNICODE || t->kind == CJ_DICT ||
        t->kind == CJ_SET ||
        t->kind == CJ_GENERATOR) { /* its meminfo */
        count(L, v, delta);
        return;
    }
    /* an Optional's value is all zero (NULL references) when it is None */
    for (int i = 0; cj_type_is_aggregate(t) && i < t->n; i++) {
        if (cj_type_has_refs(t->items[i])) {
            ref_op(L, LLVMBuildExtractValue(L->b, v, (unsigned)i, ""), t->items[i], delta);
        }
    }
}

void cj_incref(cj_lower *L, LLVMValueRef v, const cj_type *t) {
    if (cj_counts_refs(L, t)) {
        ref_op(L, v, t, 1);
    }
}

void cj_decref(cj_lower *L, LLVMValueRef v, const cj_type *t) {
    if (cj_counts_refs(L, t)) {
        ref_op(L, v, t, -1);
    }
}

typedef struct cj_held {
    LLVMValueRef slot;
    const cj_type *type;
} cj_held;

int cj_hold_slot(cj_lower *L, LLVMValueRef slot, const cj_type *t) {
    cj_held *h = cj_vec_push(&L->ir->arena, &L->held, sizeof(cj_held));
    if (h == NULL) {
        return -1;
    }
    h->slot = slot;
    h->type = t;
    return 0;
}

int cj_hold(cj_lower *L, LLVMValueRef v, const cj_type *t) {
    if (!cj_counts_refs(L, t)) {
        return 0;
    }
    cj_held *h = cj_vec_push(&L->ir->arena, &L->held, sizeof(cj_held));
    if (h == NULL) {
        return -1;
    }
    LLVMTypeRef lt = cj_llvm_type(L->ctx, t);
    h->slot = cj_entry_alloca(L, lt, "held");
    h->type = t;
    if (L->gen == NULL) { /* no reference yet (a generator's frame starts zeroed) */
        LLVMBuilderRef b = LLVMCreateBuilderInContext(L->ctx);
        LLVMValueRef term = LLVMGetBasicBlockTerminator(L->alloca_bb);
        if (term != NULL) {
            LLVMPositionBuilderBefore(b, term);
        } else {
            LLVMPositionBuilderAtEnd(b, L->alloca_bb);
        }
        LLVMBuildStore(b, LLVMConstNull(lt), h->slot);
        LLVMDisposeBuilder(b);
    }
    cj_incref(L, v, t);
    LLVMValueRef old = LLVMBuildLoad2(L->b, lt, h->slot, "");
    LLVMBuildStore(L->b, v, h->slot);
    cj_decref(L, old, t);
    return 0;
}

void cj_emit_return(cj_lower *L, LLVMValueRef status) {
    if (!L->owns_refs) {
        LLVMBuildRet(L->b, status);
        return;
    }
    if (L->exit_bb == NULL) {
        L->exit_bb = cj_new_bb(L, "exit");
        LLVMBuilderRef b = LLVMCreateBuilderInContext(L->ctx);
        LLVMPositionBuilderAtEnd(b, L->exit_bb);
        L->exit_status = LLVMBuildPhi(b, LLVMInt32TypeInContext(L->ctx), "status");
        LLVMDisposeBuilder(b);
    }
    LLVMBasicBlockRef here = LLVMGetInsertBlock(L->b);
    LLVMAddIncoming(L->exit_status, &status, &here, 1);
    LLVMBuildBr(L->b, L->exit_bb);
}

void cj_finish_exit(cj_lower *L) {
    if (L->exit_bb == NULL) {
        return;
    }
    LLVMPositionBuilderAtEnd(L->b, L->exit_bb);
    for (int v = 0; v < L->ir->vars.len; v++) {
        const cj_type *t = CJ_VAR(L->ir, v)->type;
        if (cj_counts_refs(L, t) && L->ref_plan[v] != CJ_REFS_BORROWED) {
            cj_decref(L, cj_load_var(L, v), t);
        }
    }
    for (int i = 0; i < L->held.len; i++) {
        cj_held *h = &CJ_VEC_AT(L->held, cj_held, i);
        cj_decref(L, LLVMBuildLoad2(L->b, cj_llvm_type(L->ctx, h->type), h->slot, ""), h->type);
    }
    LLVMBuildRet(L->b, L->exit_status);
}
