/* lower_pool.c: one instruction's work split over the thread pool under parallel=True (CPU):
 * an array expression's loop nest, by chunks of its outer dimension (lower_array_expr.c). The
 * chunk function, i32 @<fn>.chunk<k>(i8* ctx, i64 start, i64 stop, i8* unused), reads every
 * variable of the function through ctx (their slots' addresses: the function waits for the
 * pool, so its frame outlives the reads) once, into slots of its own (which LLVM keeps in
 * registers: no store through a pointer can change them), plus `extra` values the caller
 * stores in slots of its own; it counts no references (the function holds them all) and writes no variable, but
 * may leave a value in its chunk's partial (a whole-array reduction's, lower_array_reduce.c). Inside
 * a prange body (its own function) and on CUDA there is no pool: the caller emits its loops. */
#include "lower/lower_internal.h"

#include <string.h>

void cj_copy_in(cj_lower *B, LLVMBuilderRef b, int v, LLVMValueRef addr) {
    const cj_var *var = CJ_VAR(B->ir, v);
    LLVMTypeRef t = cj_llvm_type(B->ctx, var->type);
    B->slots[v] = cj_entry_alloca(B, t, var->name);
    LLVMBuildStore(b, LLVMBuildLoad2(b, t, LLVMBuildBitCast(b, addr, LLVMPointerType(t, 0), ""),
                                     ""), B->slots[v]);
}

int cj_pool_wanted(cj_lower *L) {
    return L->env->parallel && L->env->target == CJ_TARGET_CPU;
}

LLVMValueRef cj_pool_function(cj_lower *P, const char *what) {
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(P->ctx), 0);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(P->ctx);
    LLVMTypeRef params[4] = {i8p, i64, i64, i8p};
    size_t len;
    const char *parent = LLVMGetValueName2(P->fn, &len);
    char name[512];
    for (int k = 0;; k++) { /* the first free name */
        PyOS_snprintf(name, sizeof(name), "%.*s.%s%d", (int)(len < 400 ? len : 400), parent,
                      what, k);
        if (LLVMGetNamedFunction(P->mod, name) == NULL) {
            break;
        }
    }
    LLVMValueRef fn = LLVMAddFunction(P->mod, name, LLVMFunctionType(
                                                        LLVMInt32TypeInContext(P->ctx),
                                                        params, 4, 0));
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    return fn;
}

/* The chunk function: its slots come from ctx, then `emit` fills it. NULL + exception. */
static LLVMValueRef chunk_function(cj_lower *P, LLVMTypeRef *extra_t, int nextra,
                                   cj_chunk_emitter emit, void *arg) {
    cj_func_ir *ir = P->ir;
    cj_lower_env env = *P->env;
    env.at_line = NULL; /* the line table belongs to the function's subprogram */
    env.parallel = 0;
    cj_lower B = {.ir = ir, .env = &env, .ctx = P->ctx, .mod = P->mod, .ret_type = cj_t_none,
                  .argtypes = P->argtypes, .fused = P->fused};
    B.slots = cj_arena_alloc(&ir->arena, sizeof(LLVMValueRef) * (size_t)(ir->vars.len + 1));
    B.ref_plan = cj_arena_alloc(&ir->arena, (size_t)ir->vars.len + 1);
    LLVMValueRef *extra = cj_arena_alloc(&ir->arena, sizeof(LLVMValueRef) * (size_t)(nextra + 1));
    if (B.slots == NULL || B.ref_plan == NULL || extra == NULL) {
        return PyErr_NoMemory(), NULL;
    }
    memset(B.ref_plan, CJ_REFS_BORROWED, (size_t)ir->vars.len + 1);
    B.fn = cj_pool_function(P, "chunk");
    cj_mark_function(&B); /* fastmath */
    B.b = LLVMCreateBuilderInContext(B.ctx);
    B.alloca_bb = cj_new_bb(&B, "entry");
    LLVMPositionBuilderAtEnd(B.b, B.alloca_bb);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(B.ctx), 0);
    LLVMValueRef ctx = LLVMBuildBitCast(B.b, LLVMGetParam(B.fn, 0), LLVMPointerType(i8p, 0), "");
    int j = 0;
    for (int v = 0; v < ir->vars.len; v++) {
        const cj_type *t = CJ_VAR(ir, v)->type;
        if (t != NULL) {
            LLVMValueRef at = cj_i64(&B, j++);
            LLVMValueRef p = LLVMBuildLoad2(B.b, i8p, LLVMBuildGEP2(B.b, i8p, ctx, &at, 1, ""), "");
            cj_copy_in(&B, B.b, v, p);
        }
    }
    for (int i = 0; i < nextra; i++) {
        LLVMValueRef at = cj_i64(&B, j++);
        LLVMValueRef p = LLVMBuildLoad2(B.b, i8p, LLVMBuildGEP2(B.b, i8p, ctx, &at, 1, ""), "");
        extra[i] = LLVMBuildBitCast(B.b, p, LLVMPointerType(extra_t[i], 0), "");
    }
    LLVMBasicBlockRef work = cj_new_bb(&B, "chunk");
    LLVMBuildBr(B.b, work);
    LLVMPositionBuilderAtEnd(B.b, work);
    int rc = emit(&B, LLVMGetParam(B.fn, 1), LLVMGetParam(B.fn, 2), extra, arg);
    if (rc == 0) {
        cj_emit_return(&B, LLVMConstInt(LLVMInt32TypeInContext(B.ctx), 0, 0));
        cj_seal_empty_blocks(&B);
    }
    LLVMDisposeBuilder(B.b);
    return rc == 0 ? B.fn : NULL;
}

int cj_run_on_pool(cj_lower *L, LLVMValueRef count, LLVMValueRef *extra, int nextra,
                   cj_chunk_emitter emit, void *arg, cj_pool_partials *partials) {
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx), i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMTypeRef extra_t[8];
    if (nextra > 8) {
        CJ_UNREACHABLE("too many values for a pool function");
        return -1;
    }
    int nslots = 0;
    for (int v = 0; v < L->ir->vars.len; v++) {
        nslots += CJ_VAR(L->ir, v)->type != NULL;
    }
    LLVMTypeRef ctx_t = LLVMArrayType(i8p, (unsigned)(nslots + nextra + 1));
    LLVMValueRef ctx = cj_entry_alloca(L, ctx_t, "pool_ctx");
    for (int v = 0, j = 0; v < L->ir->vars.len + nextra; v++) {
        LLVMValueRef addr;
        if (v >= L->ir->vars.len) { /* an extra value, in a slot of its own */
            int i = v - L->ir->vars.len;
            extra_t[i] = LLVMTypeOf(extra[i]);
            addr = cj_entry_alloca(L, extra_t[i], "pool_extra");
            LLVMBuildStore(L->b, extra[i], addr);
        } else if (CJ_VAR(L->ir, v)->type != NULL) {
            addr = L->slots[v];
        } else {
            continue;
        }
        LLVMValueRef idx[2] = {cj_i64(L, 0), cj_i64(L, j++)};
        LLVMBuildStore(L->b, LLVMBuildBitCast(L->b, addr, i8p, ""),
                       LLVMBuildGEP2(L->b, ctx_t, ctx, idx, 2, ""));
    }
    LLVMValueRef fn = chunk_function(L, extra_t, nextra, emit, arg);
    if (fn == NULL) {
        return -1;
    }
    LLVMValueRef status = cj_entry_alloca(L, i32, "status");
    LLVMValueRef slots = LLVMConstNull(i8p), size = cj_i64(L, 0);
    if (partials != NULL) { /* one per chunk */
        partials->slots = cj_entry_alloca(L, LLVMArrayType(partials->type,
                                                           CJ_PARALLEL_MAX_THREADS), "partials");
        slots = LLVMBuildBitCast(L->b, partials->slots, i8p, "");
        size = LLVMSizeOf(partials->type);
    }
    LLVMTypeRef params[6] = {i8p, i8p, i64, i8p, i64, LLVMPointerType(i32, 0)};
    LLVMValueRef run = cj_runtime_fn(L, "cj_parallel_for", i64, params, 6);
    LLVMValueRef args[6] = {LLVMBuildBitCast(L->b, fn, i8p, ""),
                            LLVMBuildBitCast(L->b, ctx, i8p, ""), count, slots, size, status};
    LLVMValueRef chunks = LLVMBuildCall2(L->b, LLVMGlobalGetValueType(run), run, args, 6, "");
    if (partials != NULL) {
        partials->chunks = chunks;
    }
    cj_emit_check_status(L, LLVMBuildLoad2(L->b, i32, status, ""));
    return 0;
}
