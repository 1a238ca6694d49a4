/* lower_generator.c: generator functions as resumable functions (abi/generator.h).
 * requires: typed IR of a generator (its result a CJ_GENERATOR); produces two functions:
 *   i32 @name(i8** ret, args...)        the call: a zeroed frame holding the arguments (each
 *                                       with its reference), its meminfo at *ret
 *   i32 @name.next(yield* out, i8* f)   the body, resumed where it stopped
 * Every variable, iterator state and held reference lives in the frame (cj_entry_alloca gives
 * frame slots here), so values live on across yields. The entry reads the resume index,
 * marks the frame done and switches: 0 the first block, k the code after the k-th yield,
 * CJ_GEN_CLOSE the exit (which drops what the variables hold), anything else "exhausted".
 * A yield stores its value at `out` borrowed (the frame's variable keeps it until the next
 * resume; the caller takes its own reference), writes its index and returns 0 without the
 * exit; a return or a raise goes by the exit, leaving the frame done. */
#include "abi/generator.h"
#include "lower/lower_internal.h"

#include <llvm-c/Target.h>
#include <stddef.h>
#include <string.h>

typedef struct cj_gen_lower {
    LLVMTargetDataRef layout;
    unsigned long long size;             /* frame bytes so far, the header first */
    unsigned long long arg_offset[CJ_MAX_ARGS];
    LLVMValueRef body;                   /* the next function */
    LLVMValueRef frame;                  /* i8*: the next function's second parameter */
    LLVMValueRef resume;                 /* i64* into the frame */
    LLVMValueRef dispatch;               /* the entry's switch */
    int nresume;
} cj_gen_lower;

static unsigned long long reserve(cj_gen_lower *G, LLVMTypeRef t) {
    unsigned long long align = LLVMABIAlignmentOfType(G->layout, t);
    unsigned long long off = (G->size + align - 1) / align * align;
    G->size = off + LLVMABISizeOfType(G->layout, t);
    return off;
}

/* A pointer to type t at byte `off` of frame data `base`, built by `b`. */
static LLVMValueRef frame_at(LLVMBuilderRef b, LLVMContextRef ctx, LLVMValueRef base,
                             unsigned long long off, LLVMTypeRef t) {
    LLVMValueRef idx = LLVMConstInt(LLVMInt64TypeInContext(ctx), off, 0);
    LLVMValueRef p = LLVMBuildInBoundsGEP2(b, LLVMInt8TypeInContext(ctx), base, &idx, 1, "");
    return LLVMBuildBitCast(b, p, LLVMPointerType(t, 0), "");
}

LLVMValueRef cj_gen_frame_slot(cj_lower *L, LLVMTypeRef t, const char *name) {
    unsigned long long off = reserve(L->gen, t);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(L->ctx);
    LLVMValueRef term = LLVMGetBasicBlockTerminator(L->alloca_bb);
    if (term != NULL) {
        LLVMPositionBuilderBefore(b, term);
    } else {
        LLVMPositionBuilderAtEnd(b, L->alloca_bb);
    }
    LLVMValueRef slot = frame_at(b, L->ctx, L->gen->frame, off, t);
    LLVMSetValueName2(slot, name, strlen(name));
    LLVMDisposeBuilder(b);
    return slot;
}

LLVMValueRef cj_gen_load_arg(cj_lower *L, int i) {
    LLVMTypeRef t = cj_llvm_type(L->ctx, L->argtypes[i]);
    return LLVMBuildLoad2(L->b, t, frame_at(L->b, L->ctx, L->gen->frame,
                                            L->gen->arg_offset[i], t), "arg");
}

static LLVMValueRef i32_const(cj_lower *L, long long v) {
    return LLVMConstInt(LLVMInt32TypeInContext(L->ctx), (unsigned long long)v, 1);
}

/* The arguments' references belong to the frame: its exit drops them. */
static int hold_arguments(cj_lower *L) {
    for (int i = 0; i < L->ir->nargs; i++) {
        const cj_type *t = L->argtypes[i];
        if (t->kind != CJ_OMITTED && cj_counts_refs(L, t) &&
            cj_hold_slot(L, frame_at(L->b, L->ctx, L->gen->frame, L->gen->arg_offset[i],
                                     cj_llvm_type(L->ctx, t)), t) < 0) {
            return -1;
        }
    }
    return 0;
}

int cj_gen_enter(cj_lower *L) {
    cj_gen_lower *G = L->gen;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    G->resume = frame_at(L->b, L->ctx, G->frame, offsetof(cj_gen_frame, resume), i64);
    LLVMValueRef at = LLVMBuildLoad2(L->b, i64, G->resume, "resume");
    LLVMBuildStore(L->b, LLVMConstInt(i64, (unsigned long long)CJ_GEN_DONE, 1), G->resume);
    if (hold_arguments(L) < 0) {
        return -1;
    }
    LLVMBasicBlockRef entry = LLVMGetInsertBlock(L->b);
    LLVMBasicBlockRef exhausted = cj_new_bb(L, "exhausted"), close = cj_new_bb(L, "close");
    LLVMPositionBuilderAtEnd(L->b, exhausted);
    LLVMBuildRet(L->b, i32_const(L, CJ_GEN_EXHAUSTED));
    LLVMPositionBuilderAtEnd(L->b, close);
    cj_emit_return(L, i32_const(L, CJ_GEN_EXHAUSTED)); /* by the exit: drops the references */
    LLVMPositionBuilderAtEnd(L->b, entry);
    G->dispatch = LLVMBuildSwitch(L->b, at, exhausted, 8);
    LLVMAddCase(G->dispatch, LLVMConstInt(i64, 0, 0), L->blocks[0]);
    LLVMAddCase(G->dispatch, LLVMConstInt(i64, (unsigned long long)CJ_GEN_CLOSE, 1), close);
    return 0;
}

int cj_gen_lower_yield(cj_lower *L, cj_instr *in) {
    cj_gen_lower *G = L->gen;
    if (G == NULL || L->fn != G->body) { /* a prange loop's body, outlined (lower_prange.c) */
        PyErr_SetString(cj_UnsupportedError, "'yield' inside a prange loop is not supported "
                                             "(the loop's iterations run on other threads)");
        return -1;
    }
    const cj_type *from = CJ_VAR(L->ir, in->args[0])->type;
    LLVMValueRef v = cj_cast(L, cj_load_var(L, in->args[0]), from, L->ret_type);
    if (v == NULL) {
        return -1;
    }
    LLVMBuildStore(L->b, v, L->ret_ptr); /* borrowed: the variable keeps it (see above) */
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMValueRef k = LLVMConstInt(i64, (unsigned long long)++G->nresume, 0);
    LLVMBuildStore(L->b, k, G->resume);
    LLVMBuildRet(L->b, i32_const(L, 0));
    LLVMBasicBlockRef resumed = cj_new_bb(L, "resume");
    LLVMAddCase(G->dispatch, k, resumed);
    LLVMPositionBuilderAtEnd(L->b, resumed);
    return in->dst >= 0 ? cj_store_var(L, in->dst, cj_empty(L), cj_t_none) : 0;
}

void cj_gen_lower_return(cj_lower *L) { cj_emit_return(L, i32_const(L, CJ_GEN_EXHAUSTED)); }

/* The body: i32 @name.next(yield* out, i8* frame). */
static LLVMValueRef lower_next(cj_lower *L, const char *name) {
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef params[2] = {LLVMPointerType(cj_llvm_type(L->ctx, L->ret_type), 0), i8p};
    char next_name[512];
    PyOS_snprintf(next_name, sizeof(next_name), "%s.next", name);
    L->fn = LLVMAddFunction(L->mod, next_name,
                            LLVMFunctionType(LLVMInt32TypeInContext(L->ctx), params, 2, 0));
    LLVMSetLinkage(L->fn, LLVMInternalLinkage); /* reached through the frame only */
    L->gen->body = L->fn;
    cj_mark_function(L);
    L->ret_ptr = LLVMGetParam(L->fn, 0);
    L->gen->frame = LLVMGetParam(L->fn, 1);
    if (cj_lower_body(L) < 0) {
        LLVMDeleteFunction(L->fn);
        return NULL;
    }
    return L->fn;
}

/* The call: a frame with the arguments, each with a reference of the frame's own. */
static int lower_call(cj_lower *C, LLVMValueRef next) {
    cj_gen_lower *G = C->gen;
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(C->ctx), 0);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(C->ctx);
    LLVMPositionBuilderAtEnd(C->b, cj_new_bb(C, "entry"));
    LLVMTypeRef params[2] = {i64, i8p};
    LLVMValueRef fn = cj_runtime_fn(C, "cj_gen_new", i8p, params, 2);
    LLVMValueRef args[2] = {LLVMConstInt(i64, G->size, 0), LLVMBuildBitCast(C->b, next, i8p, "")};
    LLVMValueRef mi = LLVMBuildCall2(C->b, LLVMGetElementType(LLVMTypeOf(fn)), fn, args, 2,
                                     "frame");
    LLVMBasicBlockRef fail = cj_new_bb(C, "no_memory"), ok = cj_new_bb(C, "made");
    LLVMBuildCondBr(C->b, LLVMBuildIsNull(C->b, mi, ""), fail, ok);
    LLVMPositionBuilderAtEnd(C->b, fail);
    LLVMBuildRet(C->b, i32_const(C, CJ_EXC_MEMORY));
    LLVMPositionBuilderAtEnd(C->b, ok);
    LLVMValueRef one = LLVMConstInt(i64, 1, 0); /* cj_meminfo: refcount, data, ... */
    LLVMValueRef data_at = LLVMBuildInBoundsGEP2(
        C->b, i8p, LLVMBuildBitCast(C->b, mi, LLVMPointerType(i8p, 0), ""), &one, 1, "");
    LLVMValueRef data = LLVMBuildLoad2(C->b, i8p, data_at, "data");
    /* cj_gen_new wrote it too: written here, the optimiser sees which body it is */
    LLVMBuildStore(C->b, LLVMBuildBitCast(C->b, next, i8p, ""),
                   LLVMBuildBitCast(C->b, data, LLVMPointerType(i8p, 0), ""));
    for (int i = 0; i < C->ir->nargs; i++) {
        const cj_type *t = C->argtypes[i];
        if (t->kind == CJ_OMITTED) {
            continue;
        }
        LLVMValueRef v = LLVMGetParam(C->fn, (unsigned)i + 1);
        LLVMBuildStore(C->b, v, frame_at(C->b, C->ctx, data, G->arg_offset[i],
                                         cj_llvm_type(C->ctx, t)));
        cj_incref(C, v, t);
    }
    LLVMBuildStore(C->b, mi, C->ret_ptr);
    LLVMBuildRet(C->b, i32_const(C, 0));
    return 0;
}

LLVMValueRef cj_lower_generator(cj_func_ir *ir, const cj_type *const *argtypes, int nargs,
                                const cj_type *ret, LLVMModuleRef module, const char *name,
                                cj_lower_env *env) {
    if (ret->kind != CJ_GENERATOR || env->target != CJ_TARGET_CPU) {
        PyErr_SetString(cj_UnsupportedError, "generators (yield) are supported in CPU code "
                                             "only");
        return NULL;
    }
    cj_gen_lower G = {.layout = LLVMGetModuleDataLayout(module), .size = sizeof(cj_gen_frame)};
    LLVMContextRef ctx = LLVMGetModuleContext(module);
    for (int i = 0; i < nargs; i++) {
        if (argtypes[i]->kind != CJ_OMITTED) {
            G.arg_offset[i] = reserve(&G, cj_llvm_type(ctx, argtypes[i]));
        }
    }
    cj_lower L = {.ir = ir, .env = env, .mod = module, .ctx = ctx, .ret_type = ret->yield,
                  .argtypes = argtypes, .gen = &G};
    LLVMValueRef next = lower_next(&L, name);
    if (next == NULL) {
        return NULL;
    }
    LLVMTypeRef params[66];
    params[0] = LLVMPointerType(cj_llvm_type(ctx, ret), 0);
    for (int i = 0; i < nargs; i++) {
        params[i + 1] = cj_llvm_type(ctx, argtypes[i]);
    }
    cj_lower C = {.ir = ir, .env = env, .mod = module, .ctx = ctx, .ret_type = ret,
                  .argtypes = argtypes, .gen = &G};
    C.fn = LLVMAddFunction(module, name, LLVMFunctionType(LLVMInt32TypeInContext(ctx), params,
                                                          (unsigned)nargs + 1, 0));
    C.ret_ptr = LLVMGetParam(C.fn, 0);
    C.b = LLVMCreateBuilderInContext(ctx);
    int rc = lower_call(&C, next);
    LLVMDisposeBuilder(C.b);
    return rc == 0 ? C.fn : NULL;
}

/* ---- iterating a generator (compiled code) ---- */

LLVMValueRef cj_gen_call_next(cj_lower *L, LLVMValueRef mi, LLVMValueRef out) {
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMValueRef one = cj_i64(L, 1); /* cj_meminfo: refcount, data, ... */
    LLVMValueRef data_at = LLVMBuildInBoundsGEP2(
        L->b, i8p, LLVMBuildBitCast(L->b, mi, LLVMPointerType(i8p, 0), ""), &one, 1, "");
    LLVMValueRef frame = LLVMBuildLoad2(L->b, i8p, data_at, "frame");
    LLVMSetMetadata(frame, LLVMGetMDKindIDInContext(L->ctx, "invariant.load", 14),
                    LLVMMDNodeInContext(L->ctx, NULL, 0)); /* a meminfo's data stays */
    LLVMTypeRef params[2] = {LLVMTypeOf(out), i8p};
    LLVMTypeRef next_t = LLVMFunctionType(i32, params, 2, 0);
    LLVMValueRef next_at = LLVMBuildBitCast(L->b, frame, LLVMPointerType(
                                                             LLVMPointerType(next_t, 0), 0), "");
    LLVMValueRef next = LLVMBuildLoad2(L->b, LLVMPointerType(next_t, 0), next_at, "next");
    /* a frame's next never changes: with the call inlined, the store of the frame's maker
     * reaches here and the body inlines into the loop */
    LLVMSetMetadata(next, LLVMGetMDKindIDInContext(L->ctx, "invariant.load", 14),
                    LLVMMDNodeInContext(L->ctx, NULL, 0));
    LLVMValueRef args[2] = {out, frame};
    return LLVMBuildCall2(L->b, next_t, next, args, 2, "status");
}

static LLVMValueRef resume_into(cj_lower *L, LLVMValueRef mi, LLVMValueRef out);

LLVMValueRef cj_gen_iter_next(cj_lower *L, LLVMValueRef state, const cj_type *it,
                              LLVMValueRef *ok) {
    LLVMTypeRef st = cj_iter_state_type(L->ctx, it);
    LLVMTypeRef gt = cj_llvm_type(L->ctx, it->source);
    LLVMValueRef mi = LLVMBuildLoad2(L->b, gt, LLVMBuildStructGEP2(L->b, st, state, 0, ""), "");
    LLVMTypeRef yt = cj_llvm_type(L->ctx, it->yield);
    LLVMValueRef out = cj_entry_alloca(L, yt, "yielded");
    LLVMBuildStore(L->b, LLVMConstNull(yt), out); /* what an exhausted one leaves */
    *ok = LLVMBuildNot(L->b, resume_into(L, mi, out), "yielded");
    return LLVMBuildLoad2(L->b, yt, out, "");
}

/* The status of resuming generator `mi` into `out`, an exception raised inside it gone on
 * with; whether it was exhausted. */
static LLVMValueRef resume_into(cj_lower *L, LLVMValueRef mi, LLVMValueRef out) {
    LLVMValueRef status = cj_gen_call_next(L, mi, out);
    LLVMValueRef done = LLVMBuildICmp(L->b, LLVMIntEQ, status, i32_const(L, CJ_GEN_EXHAUSTED),
                                      "exhausted");
    cj_emit_check_status(L, LLVMBuildSelect(L->b, done, i32_const(L, 0), status, ""));
    return done;
}

/* sum(g), min(g), max(g): one pass; min/max of nothing is Python's ValueError. */
static LLVMValueRef fold(cj_lower *L, LLVMValueRef mi, const cj_type *yt, int id,
                         const cj_type *rt) {
    LLVMTypeRef i1 = LLVMInt1TypeInContext(L->ctx), rlt = cj_llvm_type(L->ctx, rt);
    LLVMValueRef out = cj_entry_alloca(L, cj_llvm_type(L->ctx, yt), "yielded");
    LLVMValueRef acc = cj_entry_alloca(L, rlt, "acc"), seen = cj_entry_alloca(L, i1, "seen");
    LLVMBuildStore(L->b, LLVMConstNull(rlt), acc);
    LLVMBuildStore(L->b, LLVMConstInt(i1, 0, 0), seen);
    LLVMBasicBlockRef head = cj_new_bb(L, "fold"), body = cj_new_bb(L, "fold_item");
    LLVMBasicBlockRef done = cj_new_bb(L, "fold_done");
    LLVMBuildBr(L->b, head);
    LLVMPositionBuilderAtEnd(L->b, head);
    LLVMBuildCondBr(L->b, resume_into(L, mi, out), done, body);
    LLVMPositionBuilderAtEnd(L->b, body);
    LLVMValueRef v = LLVMBuildLoad2(L->b, cj_llvm_type(L->ctx, yt), out, "");
    LLVMValueRef a = LLVMBuildLoad2(L->b, rlt, acc, "");
    if (id == CJ_B_SUM) {
        a = cj_lower_binop(L, CJ_ADD, a, rt, cj_cast(L, v, yt, rt), rt, rt, rt);
    } else { /* the first of the smallest (largest), as Python's */
        LLVMValueRef first = LLVMBuildNot(L->b, LLVMBuildLoad2(L->b, i1, seen, ""), "");
        LLVMValueRef better = cj_lower_compare(L, id == CJ_B_MIN ? CJ_LT : CJ_GT, v, yt, a,
                                               rt, yt);
        a = LLVMBuildSelect(L->b, LLVMBuildOr(L->b, first, better, ""), v, a, "");
    }
    if (a == NULL) {
        return NULL;
    }
    LLVMBuildStore(L->b, a, acc);
    LLVMBuildStore(L->b, LLVMConstInt(i1, 1, 0), seen);
    LLVMBuildBr(L->b, head);
    LLVMPositionBuilderAtEnd(L->b, done);
    if (id != CJ_B_SUM &&
        cj_emit_raise_text_if(L, LLVMBuildNot(L->b, LLVMBuildLoad2(L->b, i1, seen, ""), ""),
                              PyExc_ValueError, id == CJ_B_MIN ? "min() arg is an empty "
                                                                 "sequence"
                                                               : "max() arg is an empty "
                                                                 "sequence") < 0) {
        return NULL;
    }
    return LLVMBuildLoad2(L->b, rlt, acc, "");
}

LLVMValueRef cj_gen_lower_call(cj_lower *L, cj_instr *in, const cj_call *call) {
    const cj_type *gt = call->argtypes[0];
    LLVMValueRef mi = cj_load_var(L, call->args[0]);
    if (call->builtin != CJ_B_NEXT) {
        return fold(L, mi, gt->yield, call->builtin, in->rtype);
    }
    LLVMTypeRef yt = cj_llvm_type(L->ctx, gt->yield);
    LLVMValueRef out = cj_entry_alloca(L, yt, "yielded");
    LLVMBuildStore(L->b, LLVMConstNull(yt), out);
    LLVMValueRef done = resume_into(L, mi, out);
    if (cj_emit_raise_text_if(L, done, PyExc_StopIteration, NULL) < 0) {
        return NULL;
    }
    return LLVMBuildLoad2(L->b, yt, out, ""); /* borrowed: the variable takes its own */
}
