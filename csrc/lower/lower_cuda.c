/* lower_cuda.c: the CUDA intrinsics as NVVM IR. Special registers and barriers are
 * llvm.nvvm.* intrinsics (atomics: lower_cuda_atomic.c); shared arrays are addrspace(3)
 * globals (a shape of 0 is the dynamic shared memory, sized by the launch), local arrays
 * allocas, const arrays addrspace(4) constants, all seen through generic pointers; print()
 * is vprintf. */
#include "lower/lower_internal.h"

#include <string.h>

#include "typing/cuda_intrinsics.h"
#include "util/npy.h"

static const cj_type *vt(cj_lower *L, int var) { return CJ_VAR(L->ir, var)->type; }

static LLVMValueRef arg_as(cj_lower *L, const cj_call *call, int i, const cj_type *to) {
    return cj_cast(L, cj_load_var(L, call->args[i]), vt(L, call->args[i]), to);
}

static LLVMTypeRef i32t(cj_lower *L) { return LLVMInt32TypeInContext(L->ctx); }
static LLVMTypeRef i1t(cj_lower *L) { return LLVMInt1TypeInContext(L->ctx); }
static LLVMValueRef i32c(cj_lower *L, unsigned v) { return LLVMConstInt(i32t(L), v, 0); }

/* The function `name` of this type, declared on first use. */
static LLVMValueRef declare(cj_lower *L, const char *name, LLVMTypeRef ret, LLVMTypeRef *params,
                            unsigned n) {
    LLVMValueRef f = LLVMGetNamedFunction(L->mod, name);
    if (f == NULL) {
        f = LLVMAddFunction(L->mod, name, LLVMFunctionType(ret, params, n, 0));
    }
    return f;
}

static LLVMValueRef call(cj_lower *L, LLVMValueRef fn, LLVMValueRef *args, unsigned n) {
    return LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(fn)), fn, args, n, "");
}

static LLVMValueRef call_named(cj_lower *L, const char *name, LLVMTypeRef ret, LLVMValueRef *args,
                               unsigned n) {
    LLVMTypeRef params[4];
    for (unsigned i = 0; i < n; i++) {
        params[i] = LLVMTypeOf(args[i]);
    }
    return call(L, declare(L, name, ret, params, n), args, n);
}

static LLVMValueRef sreg(cj_lower *L, const char *reg) {
    char name[64];
    PyOS_snprintf(name, sizeof(name), "llvm.nvvm.read.ptx.sreg.%s", reg);
    return call_named(L, name, i32t(L), NULL, 0);
}

static LLVMValueRef sreg_axis(cj_lower *L, const char *reg, int axis) {
    char name[32];
    PyOS_snprintf(name, sizeof(name), "%s.%c", reg, "xyz"[axis]);
    return sreg(L, name);
}

static LLVMValueRef inline_asm_i32(cj_lower *L, const char *text) {
    LLVMTypeRef ft = LLVMFunctionType(i32t(L), NULL, 0, 0);
    LLVMValueRef asm_v = LLVMGetInlineAsm(ft, (char *)text, strlen(text), "=r", 2, 1, 0,
                                          LLVMInlineAsmDialectATT, 0);
    return LLVMBuildCall2(L->b, ft, asm_v, NULL, 0, "");
}

LLVMValueRef cj_ptx_asm(cj_lower *L, const char *text, const char *constraints, LLVMTypeRef ret,
                        LLVMValueRef *ops, unsigned n) {
    LLVMTypeRef params[4];
    for (unsigned i = 0; i < n; i++) {
        params[i] = LLVMTypeOf(ops[i]);
    }
    LLVMTypeRef ft = LLVMFunctionType(ret, params, n, 0);
    LLVMValueRef asm_v = LLVMGetInlineAsm(ft, (char *)text, strlen(text), (char *)constraints,
                                          strlen(constraints), 1, 0, LLVMInlineAsmDialectATT, 0);
    return LLVMBuildCall2(L->b, ft, asm_v, ops, n, "");
}

/* ---- threadIdx.x, laneid, grid(), gridsize() ---- */

static const char *const sreg_of[] = {"tid", "ctaid", "ntid", "nctaid"};

int cj_cuda_lower_getattr(cj_lower *L, cj_instr *in) {
    const cj_cuda_attr *attr = in->resolved;
    LLVMValueRef v;
    switch (attr->intrinsic) {
    case CJ_CU_TID:
    case CJ_CU_CTAID:
    case CJ_CU_NTID:
    case CJ_CU_NCTAID:
        v = sreg_axis(L, sreg_of[attr->intrinsic - CJ_CU_TID], attr->axis);
        break;
    case CJ_CU_LANEID:
        v = sreg(L, "laneid");
        break;
    case CJ_CU_WARPSIZE:
        v = sreg(L, "warpsize");
        break;
    default:
        PyErr_SetString(cj_LoweringError, "unknown CUDA attribute");
        return -1;
    }
    return cj_store_var(L, in->dst, v, cj_t_int32);
}

/* llvm.assume(v >= 0) */
static void assume_non_negative(cj_lower *L, LLVMValueRef v) {
    LLVMValueRef ge = LLVMBuildICmp(L->b, LLVMIntSGE, v, LLVMConstNull(LLVMTypeOf(v)), "");
    call_named(L, "llvm.assume", LLVMVoidTypeInContext(L->ctx), &ge, 1);
}

/* numba-cuda's global index: ntid * ctaid + tid in int64, per axis. It is never negative
 * (each factor is below 2^31), which NVVM is told: a negative-index wrap on it, as in
 * x[cuda.grid(1)], then folds away. */
static LLVMValueRef grid_axis(cj_lower *L, int axis, int size_only) {
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMValueRef ntid = LLVMBuildSExt(L->b, sreg_axis(L, "ntid", axis), i64, "");
    if (size_only) {
        LLVMValueRef nctaid = LLVMBuildSExt(L->b, sreg_axis(L, "nctaid", axis), i64, "");
        return LLVMBuildMul(L->b, ntid, nctaid, "");
    }
    LLVMValueRef tid = LLVMBuildSExt(L->b, sreg_axis(L, "tid", axis), i64, "");
    LLVMValueRef ctaid = LLVMBuildSExt(L->b, sreg_axis(L, "ctaid", axis), i64, "");
    LLVMValueRef index = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, ntid, ctaid, ""), tid, "");
    assume_non_negative(L, index);
    return index;
}

static LLVMValueRef lower_grid(cj_lower *L, cj_instr *in, const cj_call *call, int size_only) {
    const cj_cuda_array_spec *spec = call->callee;
    if (spec->ndim == 1) {
        return grid_axis(L, 0, size_only);
    }
    LLVMValueRef r = LLVMGetUndef(cj_llvm_type(L->ctx, in->rtype));
    for (int d = 0; d < spec->ndim; d++) {
        r = LLVMBuildInsertValue(L->b, r, grid_axis(L, d, size_only), (unsigned)d, "");
    }
    return r;
}

/* ---- barriers and fences ---- */

static LLVMValueRef lower_sync(cj_lower *L, const cj_call *call, int id) {
    LLVMTypeRef vd = LLVMVoidTypeInContext(L->ctx);
    switch (id) {
    case CJ_CU_SYNCTHREADS:
        call_named(L, "llvm.nvvm.barrier0", vd, NULL, 0);
        return cj_empty(L);
    case CJ_CU_THREADFENCE:
        call_named(L, "llvm.nvvm.membar.gl", vd, NULL, 0);
        return cj_empty(L);
    case CJ_CU_THREADFENCE_BLOCK:
        call_named(L, "llvm.nvvm.membar.cta", vd, NULL, 0);
        return cj_empty(L);
    case CJ_CU_THREADFENCE_SYSTEM:
        call_named(L, "llvm.nvvm.membar.sys", vd, NULL, 0);
        return cj_empty(L);
    default: {
        LLVMValueRef pred = cj_truth(L, cj_load_var(L, call->args[0]), vt(L, call->args[0]));
        LLVMValueRef x = LLVMBuildZExt(L->b, pred, i32t(L), "");
        const char *name = id == CJ_CU_SYNCTHREADS_COUNT ? "llvm.nvvm.barrier0.popc"
                           : id == CJ_CU_SYNCTHREADS_AND ? "llvm.nvvm.barrier0.and"
                                                         : "llvm.nvvm.barrier0.or";
        return call_named(L, name, i32t(L), &x, 1);
    }
    }
}

/* ---- shared, local and const arrays ---- */

/* An array value over `data` (generic T*) with a constant C-order shape. */
static LLVMValueRef make_array(cj_lower *L, const cj_type *at, LLVMValueRef data,
                               const long long *shape, LLVMValueRef dyn_dim0) {
    LLVMValueRef v = LLVMConstNull(cj_llvm_type(L->ctx, at)); /* no parent, no meminfo */
    v = LLVMBuildInsertValue(L->b, v, data, CJ_ARR_DATA, "");
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    v = LLVMBuildInsertValue(L->b, v, LLVMConstNull(i8p), CJ_ARR_PARENT, "");
    LLVMTypeRef dims_t = LLVMArrayType(LLVMInt64TypeInContext(L->ctx), (unsigned)at->ndim);
    LLVMValueRef sh = LLVMGetUndef(dims_t), st = LLVMGetUndef(dims_t);
    long long stride = (long long)cj_abi_size(at->dtype);
    for (int d = at->ndim - 1; d >= 0; d--) {
        LLVMValueRef dim = d == 0 && dyn_dim0 ? dyn_dim0 : cj_i64(L, shape[d]);
        sh = LLVMBuildInsertValue(L->b, sh, dim, (unsigned)d, "");
        st = LLVMBuildInsertValue(L->b, st, cj_i64(L, stride), (unsigned)d, "");
        stride *= shape[d];
    }
    v = LLVMBuildInsertValue(L->b, v, sh, CJ_ARR_SHAPE, "");
    return LLVMBuildInsertValue(L->b, v, st, CJ_ARR_STRIDES, "");
}

static long long spec_count(const cj_cuda_array_spec *spec) {
    long long n = 1;
    for (int d = 0; d < spec->ndim; d++) {
        n *= spec->shape[d];
    }
    return n;
}

/* &global[0] in addrspace `as`, cast to a generic element pointer. */
static LLVMValueRef generic_data(cj_lower *L, LLVMValueRef g, LLVMTypeRef elem, unsigned as) {
    LLVMValueRef p = LLVMBuildBitCast(L->b, g, LLVMPointerType(elem, as), "");
    return LLVMBuildAddrSpaceCast(L->b, p, LLVMPointerType(elem, 0), "");
}

static LLVMValueRef lower_shared(cj_lower *L, cj_instr *in, const cj_call *call) {
    const cj_cuda_array_spec *spec = call->callee;
    LLVMTypeRef elem = cj_elem_type(L->ctx, spec->dtype);
    long long n = spec_count(spec);
    if (n == 0) { /* dynamic: every such array is the launch's dynamic shared memory */
        LLVMValueRef g = LLVMGetNamedGlobal(L->mod, "cj_dynshared");
        if (g == NULL) {
            g = LLVMAddGlobalInAddressSpace(L->mod, LLVMArrayType(LLVMInt8TypeInContext(L->ctx), 0),
                                            "cj_dynshared", 3);
            LLVMSetLinkage(g, LLVMExternalLinkage);
            LLVMSetAlignment(g, 16);
        }
        LLVMValueRef bytes = LLVMBuildZExt(L->b, inline_asm_i32(L, "mov.u32 $0, %dynamic_smem_size;"),
                                           LLVMInt64TypeInContext(L->ctx), "");
        LLVMValueRef dim = LLVMBuildUDiv(L->b, bytes, cj_i64(L, (long long)cj_abi_size(spec->dtype)),
                                         "");
        return make_array(L, in->rtype, generic_data(L, g, elem, 3), spec->shape, dim);
    }
    LLVMTypeRef at = LLVMArrayType(elem, (unsigned)n);
    LLVMValueRef g = LLVMAddGlobalInAddressSpace(L->mod, at, "cj_shared", 3);
    LLVMSetInitializer(g, LLVMGetUndef(at));
    LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMSetAlignment(g, 16);
    return make_array(L, in->rtype, generic_data(L, g, elem, 3), spec->shape, NULL);
}

static LLVMValueRef lower_local(cj_lower *L, cj_instr *in, const cj_call *call) {
    const cj_cuda_array_spec *spec = call->callee;
    LLVMTypeRef elem = cj_elem_type(L->ctx, spec->dtype);
    LLVMValueRef slot = cj_entry_alloca(L, LLVMArrayType(elem, (unsigned)spec_count(spec)),
                                        "local_array");
    LLVMSetAlignment(slot, 16); /* records' bytes ([n x i8]) align only to 1 by themselves */
    LLVMValueRef data = LLVMBuildBitCast(L->b, slot, LLVMPointerType(elem, 0), "");
    return make_array(L, in->rtype, data, spec->shape, NULL);
}

static LLVMValueRef lower_const_array(cj_lower *L, cj_instr *in, const cj_call *call) {
    const cj_cuda_array_spec *spec = call->callee;
    PyArrayObject *c = (PyArrayObject *)PyArray_FROM_OF(spec->data, NPY_ARRAY_C_CONTIGUOUS |
                                                                        NPY_ARRAY_ALIGNED);
    if (c == NULL) {
        return NULL;
    }
    LLVMTypeRef elem = cj_elem_type(L->ctx, spec->dtype);
    LLVMValueRef bytes = LLVMConstStringInContext(L->ctx, PyArray_BYTES(c),
                                                  (unsigned)PyArray_NBYTES(c), 1);
    LLVMValueRef g = LLVMAddGlobalInAddressSpace(L->mod, LLVMTypeOf(bytes), "cj_const", 4);
    LLVMSetInitializer(g, bytes);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMSetAlignment(g, 16);
    long long shape[32];
    for (int d = 0; d < PyArray_NDIM(c); d++) {
        shape[d] = (long long)PyArray_DIM(c, d);
    }
    Py_DECREF(c);
    return make_array(L, in->rtype, generic_data(L, g, elem, 4), shape, NULL);
}

/* ---- warp functions ---- */

static LLVMValueRef mask_arg(cj_lower *L, const cj_call *call) {
    return arg_as(L, call, 0, cj_t_uint32);
}

static LLVMValueRef lower_vote(cj_lower *L, const cj_call *call, int id) {
    LLVMValueRef args[2] = {mask_arg(L, call),
                            cj_truth(L, cj_load_var(L, call->args[1]), vt(L, call->args[1]))};
    switch (id) {
    case CJ_CU_ALL_SYNC:
        return call_named(L, "llvm.nvvm.vote.all.sync", i1t(L), args, 2);
    case CJ_CU_ANY_SYNC:
        return call_named(L, "llvm.nvvm.vote.any.sync", i1t(L), args, 2);
    case CJ_CU_EQ_SYNC:
        return call_named(L, "llvm.nvvm.vote.uni.sync", i1t(L), args, 2);
    default:
        return call_named(L, "llvm.nvvm.vote.ballot.sync", i32t(L), args, 2);
    }
}

static LLVMValueRef shfl32(cj_lower *L, const char *mode, LLVMValueRef mask, LLVMValueRef v,
                           LLVMValueRef lane, unsigned clamp) {
    char name[64];
    int is_f = LLVMTypeOf(v) == LLVMFloatTypeInContext(L->ctx);
    PyOS_snprintf(name, sizeof(name), "llvm.nvvm.shfl.sync.%s.%s", mode, is_f ? "f32" : "i32");
    LLVMValueRef args[4] = {mask, v, lane, i32c(L, clamp)};
    return call_named(L, name, LLVMTypeOf(v), args, 4);
}

static LLVMValueRef lower_shfl(cj_lower *L, cj_instr *in, const cj_call *call, int id) {
    static const char *const modes[] = {"idx", "up", "down", "bfly"};
    const char *mode = modes[id - CJ_CU_SHFL_SYNC];
    unsigned clamp = id == CJ_CU_SHFL_UP_SYNC ? 0 : 0x1f;
    const cj_type *t = in->rtype;
    LLVMValueRef mask = mask_arg(L, call);
    LLVMValueRef v = arg_as(L, call, 1, t);
    LLVMValueRef lane = arg_as(L, call, 2, cj_t_uint32);
    if (t->bits == 32) {
        return shfl32(L, mode, mask, v, lane, clamp);
    }
    /* 64 bits: two 32-bit shuffles */
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMValueRef bits = t->kind == CJ_FLOAT ? LLVMBuildBitCast(L->b, v, i64, "") : v;
    LLVMValueRef lo = LLVMBuildTrunc(L->b, bits, i32t(L), "");
    LLVMValueRef hi = LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, bits, LLVMConstInt(i64, 32, 0), ""),
                                     i32t(L), "");
    lo = LLVMBuildZExt(L->b, shfl32(L, mode, mask, lo, lane, clamp), i64, "");
    hi = LLVMBuildZExt(L->b, shfl32(L, mode, mask, hi, lane, clamp), i64, "");
    LLVMValueRef r = LLVMBuildOr(L->b, lo, LLVMBuildShl(L->b, hi, LLVMConstInt(i64, 32, 0), ""), "");
    return t->kind == CJ_FLOAT ? LLVMBuildBitCast(L->b, r, cj_llvm_type(L->ctx, t), "") : r;
}

static LLVMValueRef lower_match(cj_lower *L, cj_instr *in, const cj_call *call, int id) {
    const cj_type *t = vt(L, call->args[1]);
    int wide = t->bits == 64;
    LLVMTypeRef it = LLVMIntTypeInContext(L->ctx, wide ? 64 : 32);
    LLVMValueRef v = cj_load_var(L, call->args[1]);
    if (t->kind == CJ_FLOAT) {
        v = LLVMBuildBitCast(L->b, v, LLVMIntTypeInContext(L->ctx, (unsigned)t->bits), "");
    }
    v = t->kind == CJ_INT && t->is_signed ? LLVMBuildSExtOrBitCast(L->b, v, it, "")
                                          : LLVMBuildZExtOrBitCast(L->b, v, it, "");
    LLVMValueRef args[2] = {mask_arg(L, call), v};
    LLVMValueRef out = LLVMGetUndef(cj_llvm_type(L->ctx, in->rtype));
    if (wide) {
        /* LLVM 14 and NVVM's LLVM 7 disagree on the 64-bit forms' result types: inline PTX */
        LLVMValueRef ops[2] = {v, args[0]};
        if (id == CJ_CU_MATCH_ANY_SYNC) {
            return cj_ptx_asm(L, "match.any.sync.b64 $0, $1, $2;", "=r,l,r", i32t(L), ops, 2);
        }
        LLVMTypeRef f2[2] = {i32t(L), i32t(L)};
        LLVMValueRef r = cj_ptx_asm(L, "{\n.reg .pred %cjp;\nmatch.all.sync.b64 $0|%cjp, $2, $3;\n"
                                     "selp.u32 $1, 1, 0, %cjp;\n}", "=r,=r,l,r",
                                    LLVMStructTypeInContext(L->ctx, f2, 2, 0), ops, 2);
        out = LLVMBuildInsertValue(L->b, out, LLVMBuildExtractValue(L->b, r, 0, ""), 0, "");
        LLVMValueRef pred = LLVMBuildTrunc(L->b, LLVMBuildExtractValue(L->b, r, 1, ""), i1t(L), "");
        return LLVMBuildInsertValue(L->b, out, pred, 1, "");
    }
    if (id == CJ_CU_MATCH_ANY_SYNC) {
        return call_named(L, "llvm.nvvm.match.any.sync.i32", i32t(L), args, 2);
    }
    LLVMTypeRef f[2] = {i32t(L), i1t(L)};
    LLVMTypeRef st = LLVMStructTypeInContext(L->ctx, f, 2, 0);
    LLVMValueRef r = call_named(L, "llvm.nvvm.match.all.sync.i32p", st, args, 2);
    out = LLVMBuildInsertValue(L->b, out, LLVMBuildExtractValue(L->b, r, 0, ""), 0, "");
    return LLVMBuildInsertValue(L->b, out, LLVMBuildExtractValue(L->b, r, 1, ""), 1, "");
}

/* ---- bits, fma, cbrt, selp ---- */

static LLVMValueRef int_intrinsic(cj_lower *L, const char *base, LLVMValueRef x, int with_flag) {
    char name[48];
    unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(x));
    PyOS_snprintf(name, sizeof(name), "llvm.%s.i%u", base, bits);
    LLVMValueRef args[2] = {x, LLVMConstInt(i1t(L), 0, 0)};
    return call_named(L, name, LLVMTypeOf(x), args, with_flag ? 2 : 1);
}

static LLVMValueRef lower_fp16(cj_lower *L, const cj_call *call, int id, LLVMValueRef x);

static LLVMValueRef lower_misc(cj_lower *L, cj_instr *in, const cj_call *call, int id) {
    const cj_type *rt = in->rtype;
    const cj_type *a = vt(L, call->args[0]);
    LLVMValueRef x = cj_load_var(L, call->args[0]);
    switch (id) {
    case CJ_CU_POPC:
        return int_intrinsic(L, "ctpop", x, 0);
    case CJ_CU_CLZ:
        return int_intrinsic(L, "ctlz", x, 1);
    case CJ_CU_BREV:
        return int_intrinsic(L, "bitreverse", x, 0);
    case CJ_CU_FFS: {
        int wide = a->bits == 64;
        return call_named(L, wide ? "__nv_ffsll" : "__nv_ffs", i32t(L), &x, 1);
    }
    case CJ_CU_CBRT:
        x = arg_as(L, call, 0, rt);
        return cj_math_call(L, "cbrt", rt, 1, &x);
    case CJ_CU_FMA: {
        LLVMValueRef args[3] = {arg_as(L, call, 0, rt), arg_as(L, call, 1, rt),
                                arg_as(L, call, 2, rt)};
        return call_named(L, rt->bits == 32 ? "llvm.fma.f32" : "llvm.fma.f64",
                          cj_llvm_type(L->ctx, rt), args, 3);
    }
    case CJ_CU_SELP:
        return LLVMBuildSelect(L->b, cj_truth(L, x, a), arg_as(L, call, 1, rt),
                               arg_as(L, call, 2, rt), "selp");
    default:
        return lower_fp16(L, call, id, x);
    }
}

/* cuda.fp16.*: half arithmetic as LLVM half ops; the rest through float32 libdevice. */
static LLVMValueRef lower_fp16(cj_lower *L, const cj_call *call, int id, LLVMValueRef x) {
    LLVMBuilderRef B = L->b;
    LLVMValueRef y = call->nargs > 1 ? cj_load_var(L, call->args[1]) : NULL;
    LLVMValueRef z = call->nargs > 2 ? cj_load_var(L, call->args[2]) : NULL;
    LLVMValueRef f32;
    switch (id) {
    case CJ_CU_HADD:
        return LLVMBuildFAdd(B, x, y, "");
    case CJ_CU_HSUB:
        return LLVMBuildFSub(B, x, y, "");
    case CJ_CU_HMUL:
        return LLVMBuildFMul(B, x, y, "");
    case CJ_CU_HDIV:
        return LLVMBuildFDiv(B, x, y, "");
    case CJ_CU_HNEG:
        return LLVMBuildFNeg(B, x, "");
    case CJ_CU_HABS:
        return LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOLT, x, LLVMConstNull(LLVMTypeOf(x)), ""),
                               LLVMBuildFNeg(B, x, ""), x, "");
    case CJ_CU_HFMA: {
        LLVMValueRef args[3] = {x, y, z};
        return call_named(L, "llvm.fma.f16", LLVMTypeOf(x), args, 3);
    }
    case CJ_CU_HMAX: /* PTX max.f16/min.f16: a NaN operand yields the other */
    case CJ_CU_HMIN: {
        LLVMValueRef wins = LLVMBuildFCmp(B, id == CJ_CU_HMAX ? LLVMRealOGT : LLVMRealOLT, x, y, "");
        wins = LLVMBuildOr(B, wins, LLVMBuildFCmp(B, LLVMRealUNO, y, y, ""), "");
        return LLVMBuildSelect(B, wins, x, y, "");
    }
    case CJ_CU_HEQ:
        return LLVMBuildFCmp(B, LLVMRealOEQ, x, y, "");
    case CJ_CU_HNE:
        return LLVMBuildFCmp(B, LLVMRealUNE, x, y, "");
    case CJ_CU_HGT:
        return LLVMBuildFCmp(B, LLVMRealOGT, x, y, "");
    case CJ_CU_HGE:
        return LLVMBuildFCmp(B, LLVMRealOGE, x, y, "");
    case CJ_CU_HLT:
        return LLVMBuildFCmp(B, LLVMRealOLT, x, y, "");
    case CJ_CU_HLE:
        return LLVMBuildFCmp(B, LLVMRealOLE, x, y, "");
    case CJ_CU_HRCP:
        return LLVMBuildFDiv(B, cj_float_const(L, cj_t_float16, 1.0), x, "");
    default: { /* through float32 libdevice */
        static const char *const fns[] = {"sqrt",  "exp",  "log",   "sin",  "cos",
                                          "floor", "ceil", "rsqrt", "exp2", "exp10",
                                          "log2",  "log10", "trunc", "rint"};
        f32 = LLVMBuildFPExt(B, x, LLVMFloatTypeInContext(L->ctx), "");
        f32 = cj_math_call(L, fns[id - CJ_CU_HSQRT], cj_t_float32, 1, &f32);
        return LLVMBuildFPTrunc(B, f32, LLVMHalfTypeInContext(L->ctx), "");
    }
    }
}

/* ---- print() through vprintf ---- */

static int append(char *buf, size_t cap, size_t *len, const char *s) {
    size_t n = strlen(s);
    if (*len + n + 1 > cap) {
        PyErr_SetString(cj_UnsupportedError, "print() format in a kernel is too long");
        return -1;
    }
    memcpy(buf + *len, s, n + 1);
    *len += n;
    return 0;
}

static LLVMValueRef lower_print(cj_lower *L, const cj_call *call) {
    char fmt[2048];
    size_t len = 0;
    fmt[0] = 0;
    LLVMValueRef vals[64];
    LLVMTypeRef types[64];
    int nvals = 0;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx), f64 = LLVMDoubleTypeInContext(L->ctx);
    for (int i = 0; i < call->nargs; i++) {
        const cj_type *t = vt(L, call->args[i]);
        if (i > 0 && append(fmt, sizeof(fmt), &len, " ") < 0) {
            return NULL;
        }
        const char *piece;
        if (t->kind == CJ_CONST_OBJ) {
            const char *s = PyUnicode_AsUTF8(t->obj);
            if (s == NULL) {
                return NULL;
            }
            for (const char *q = s; *q; q++) {
                char ch[3] = {*q, *q == '%' ? '%' : 0, 0};
                if (append(fmt, sizeof(fmt), &len, ch) < 0) {
                    return NULL;
                }
            }
            continue;
        }
        if (t->kind == CJ_NONE) {
            piece = "None";
        } else if (nvals >= 64) {
            PyErr_SetString(cj_UnsupportedError, "print() of more than 64 values in a kernel");
            return NULL;
        } else if (t->kind == CJ_FLOAT) {
            piece = "%f";
            vals[nvals] = cj_cast(L, cj_load_var(L, call->args[i]), t, cj_t_float64);
            types[nvals++] = f64;
        } else {
            int is_unsigned = t->kind == CJ_INT && !t->is_signed;
            piece = is_unsigned ? "%llu" : "%lld";
            vals[nvals] = cj_cast(L, cj_load_var(L, call->args[i]), t,
                                  is_unsigned ? cj_t_uint64 : cj_t_int64);
            types[nvals++] = i64;
        }
        if (append(fmt, sizeof(fmt), &len, piece) < 0) {
            return NULL;
        }
    }
    if (append(fmt, sizeof(fmt), &len, "\n") < 0) {
        return NULL;
    }
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMValueRef str = LLVMConstStringInContext(L->ctx, fmt, (unsigned)len, 0);
    LLVMValueRef g = LLVMAddGlobal(L->mod, LLVMTypeOf(str), "cj_printf_fmt");
    LLVMSetInitializer(g, str);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMValueRef buf = LLVMConstNull(i8p);
    if (nvals > 0) {
        LLVMTypeRef st = LLVMStructTypeInContext(L->ctx, types, (unsigned)nvals, 0);
        LLVMValueRef slot = cj_entry_alloca(L, st, "printf_args");
        for (int i = 0; i < nvals; i++) {
            LLVMBuildStore(L->b, vals[i], LLVMBuildStructGEP2(L->b, st, slot, (unsigned)i, ""));
        }
        buf = LLVMBuildBitCast(L->b, slot, i8p, "");
    }
    LLVMValueRef args[2] = {LLVMBuildBitCast(L->b, g, i8p, ""), buf};
    call_named(L, "vprintf", i32t(L), args, 2);
    return cj_empty(L);
}

/* ---- entry ---- */

LLVMValueRef cj_cuda_lower_call(cj_lower *L, cj_instr *in, const cj_call *call) {
    int id = call->builtin;
    if (L->env->target != CJ_TARGET_CUDA) {
        PyErr_Format(cj_LoweringError, "cuda.%s outside the CUDA target",
                     cj_cuda_intrinsic_names[id]);
        return NULL;
    }
    switch (id) {
    case CJ_CU_GRID:
    case CJ_CU_GRIDSIZE:
        return lower_grid(L, in, call, id == CJ_CU_GRIDSIZE);
    case CJ_CU_SYNCTHREADS:
    case CJ_CU_SYNCTHREADS_COUNT:
    case CJ_CU_SYNCTHREADS_AND:
    case CJ_CU_SYNCTHREADS_OR:
    case CJ_CU_THREADFENCE:
    case CJ_CU_THREADFENCE_BLOCK:
    case CJ_CU_THREADFENCE_SYSTEM:
        return lower_sync(L, call, id);
    case CJ_CU_SHARED_ARRAY:
        return lower_shared(L, in, call);
    case CJ_CU_LOCAL_ARRAY:
        return lower_local(L, in, call);
    case CJ_CU_CONST_ARRAY_LIKE:
        return lower_const_array(L, in, call);
    case CJ_CU_ALL_SYNC:
    case CJ_CU_ANY_SYNC:
    case CJ_CU_EQ_SYNC:
    case CJ_CU_BALLOT_SYNC:
        return lower_vote(L, call, id);
    case CJ_CU_SHFL_SYNC:
    case CJ_CU_SHFL_UP_SYNC:
    case CJ_CU_SHFL_DOWN_SYNC:
    case CJ_CU_SHFL_XOR_SYNC:
        return lower_shfl(L, in, call, id);
    case CJ_CU_MATCH_ANY_SYNC:
    case CJ_CU_MATCH_ALL_SYNC:
        return lower_match(L, in, call, id);
    case CJ_CU_ACTIVEMASK:
        return inline_asm_i32(L, "activemask.b32 $0;");
    case CJ_CU_LANEMASK_LT:
        return sreg(L, "lanemask.lt");
    case CJ_CU_PRINT:
        return lower_print(L, call);
    case CJ_CU_LIBDEVICE:
        return cj_cuda_lower_libdevice(L, in, call);
    default:
        break;
    }
    if (id >= CJ_CU_ATOMIC_ADD && id <= CJ_CU_ATOMIC_CAS2) {
        return cj_cuda_lower_atomic(L, call, id);
    }
    if (id >= CJ_CU_POPC && id <= CJ_CU_HRCP) {
        return lower_misc(L, in, call, id);
    }
    if (id >= CJ_CU_SYNCWARP) {
        return cj_cuda_lower_sync(L, in, call, id);
    }
    PyErr_Format(cj_LoweringError, "cujit cannot lower cuda.%s", cj_cuda_intrinsic_names[id]);
    return NULL;
}
