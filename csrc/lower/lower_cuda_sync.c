/* lower_cuda_sync.c: cuda.syncwarp (bar.warp.sync), cuda.nanosleep (PTX nanosleep, sm_70+),
 * a thread block's sync (bar.sync) and a grid's (numba-cuda's GridGroup.sync()). The grid
 * barrier is CUDA's own algorithm over one 32-bit word in global memory
 * (CJ_GRID_BARRIER_SYMBOL): after a block barrier, thread 0 of each block adds 1 to the word,
 * block (0,0,0) adds 0x80000000 - (blocks - 1) instead, so that once every block has arrived
 * the word's top bit has flipped; each waits for the flip with volatile loads, between
 * threadfences, then the block barrier again. The word needs no reset between barriers or
 * launches (each barrier adds 2^31 in all), only that every block runs at once: a kernel
 * that uses it is launched with cuLaunchCooperativeKernel (launch.c finds the symbol in its
 * PTX). */
#include "lower/lower_internal.h"

#include <string.h>

#include "lower/lower_kernel.h"
#include "typing/cuda_intrinsics.h"

static LLVMTypeRef i32t(cj_lower *L) { return LLVMInt32TypeInContext(L->ctx); }

/* A call of the void NVVM intrinsic `name` with i32 arguments. */
static void nvvm_void(cj_lower *L, const char *name, LLVMValueRef *args, unsigned n) {
    LLVMTypeRef params[2] = {i32t(L), i32t(L)};
    LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(L->ctx), params, n, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(L->mod, name);
    if (fn == NULL) {
        fn = LLVMAddFunction(L->mod, name, ft);
    }
    LLVMBuildCall2(L->b, ft, fn, args, n, "");
}

static LLVMValueRef special(cj_lower *L, const char *reg, int axis) {
    char name[64];
    PyOS_snprintf(name, sizeof(name), "llvm.nvvm.read.ptx.sreg.%s.%c", reg, "xyz"[axis]);
    LLVMTypeRef ft = LLVMFunctionType(i32t(L), NULL, 0, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(L->mod, name);
    if (fn == NULL) {
        fn = LLVMAddFunction(L->mod, name, ft);
    }
    return LLVMBuildCall2(L->b, ft, fn, NULL, 0, "");
}

/* x | y | z of a special register == 0: the first thread of the block, or the first block */
static LLVMValueRef all_zero(cj_lower *L, const char *reg) {
    LLVMValueRef v = special(L, reg, 0);
    v = LLVMBuildOr(L->b, v, special(L, reg, 1), "");
    v = LLVMBuildOr(L->b, v, special(L, reg, 2), "");
    return LLVMBuildICmp(L->b, LLVMIntEQ, v, LLVMConstNull(i32t(L)), "");
}

/* The barrier word: one per module (device functions' copies are words of their own, each
 * used by every block alike). */
static LLVMValueRef barrier_word(cj_lower *L) {
    LLVMValueRef g = LLVMGetNamedGlobal(L->mod, CJ_GRID_BARRIER_SYMBOL);
    if (g == NULL) {
        g = LLVMAddGlobalInAddressSpace(L->mod, i32t(L), CJ_GRID_BARRIER_SYMBOL, 1);
        LLVMSetInitializer(g, LLVMConstNull(i32t(L)));
        LLVMSetLinkage(g, LLVMInternalLinkage);
        LLVMSetAlignment(g, 4);
    }
    return g;
}

/* Thread 0 of the block: arrive, then wait for the word's top bit to flip. */
static void arrive_and_wait(cj_lower *L) {
    LLVMValueRef word = barrier_word(L);
    LLVMValueRef blocks = special(L, "nctaid", 0);
    blocks = LLVMBuildMul(L->b, blocks, special(L, "nctaid", 1), "");
    blocks = LLVMBuildMul(L->b, blocks, special(L, "nctaid", 2), "blocks");
    LLVMValueRef top = LLVMConstInt(i32t(L), 0x80000000u, 0);
    LLVMValueRef master_add = LLVMBuildSub(L->b, top, LLVMBuildSub(L->b, blocks,
                                                                   LLVMConstInt(i32t(L), 1, 0),
                                                                   ""), "");
    LLVMValueRef add = LLVMBuildSelect(L->b, all_zero(L, "ctaid"), master_add,
                                       LLVMConstInt(i32t(L), 1, 0), "arrive");
    nvvm_void(L, "llvm.nvvm.membar.gl", NULL, 0);
    LLVMValueRef old = LLVMBuildAtomicRMW(L->b, LLVMAtomicRMWBinOpAdd, word, add,
                                          LLVMAtomicOrderingMonotonic, 0);
    LLVMBasicBlockRef spin = cj_new_bb(L, "grid_spin"), out = cj_new_bb(L, "grid_arrived");
    LLVMBuildBr(L->b, spin);
    LLVMPositionBuilderAtEnd(L->b, spin);
    LLVMValueRef now = LLVMBuildLoad2(L->b, i32t(L), word, "");
    LLVMSetVolatile(now, 1);
    LLVMValueRef flipped = LLVMBuildAnd(L->b, LLVMBuildXor(L->b, old, now, ""), top, "");
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntNE, flipped, LLVMConstNull(i32t(L)), ""),
                    out, spin);
    LLVMPositionBuilderAtEnd(L->b, out);
    nvvm_void(L, "llvm.nvvm.membar.gl", NULL, 0);
}

static void grid_sync(cj_lower *L) {
    nvvm_void(L, "llvm.nvvm.barrier0", NULL, 0);
    LLVMBasicBlockRef first = cj_new_bb(L, "grid_first"), after = cj_new_bb(L, "grid_synced");
    LLVMBuildCondBr(L->b, all_zero(L, "tid"), first, after);
    LLVMPositionBuilderAtEnd(L->b, first);
    arrive_and_wait(L);
    LLVMBuildBr(L->b, after);
    LLVMPositionBuilderAtEnd(L->b, after);
    nvvm_void(L, "llvm.nvvm.barrier0", NULL, 0);
}

static LLVMValueRef arg_u32(cj_lower *L, const cj_call *call, int i) {
    const cj_type *t = CJ_VAR(L->ir, call->args[i])->type;
    return cj_cast(L, cj_load_var(L, call->args[i]), t, cj_t_uint32);
}

LLVMValueRef cj_cuda_lower_sync(cj_lower *L, cj_instr *in, const cj_call *call, int id) {
    LLVMValueRef arg;
    switch (id) {
    case CJ_CU_SYNCWARP:
        arg = call->nargs ? arg_u32(L, call, 0) : LLVMConstInt(i32t(L), 0xffffffffu, 0);
        nvvm_void(L, "llvm.nvvm.bar.warp.sync", &arg, 1);
        return cj_empty(L);
    case CJ_CU_NANOSLEEP: {
        arg = arg_u32(L, call, 0);
        LLVMTypeRef param = i32t(L);
        LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(L->ctx), &param, 1, 0);
        const char *text = "nanosleep.u32 $0;";
        LLVMValueRef asm_v = LLVMGetInlineAsm(ft, (char *)text, strlen(text), "r", 1, 1, 0,
                                              LLVMInlineAsmDialectATT, 0);
        LLVMBuildCall2(L->b, ft, asm_v, &arg, 1, "");
        return cj_empty(L);
    }
    case CJ_CU_CG_BLOCK_SYNC:
        nvvm_void(L, "llvm.nvvm.barrier0", NULL, 0);
        return cj_empty(L);
    case CJ_CU_CG_GRID_SYNC:
        grid_sync(L);
        return LLVMConstNull(i32t(L));
    default:
        PyErr_Format(cj_LoweringError, "cujit cannot lower cuda.%s",
                     cj_cuda_intrinsic_names[id]);
        return NULL;
    }
}
