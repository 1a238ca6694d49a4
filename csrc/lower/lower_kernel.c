/* lower_kernel.c: the kernel entry (see lower_kernel.h for the ABI): flattened parameters ->
 * values -> call of the inner function -> in debug mode, the exception record. */
#include "lower/lower_kernel.h"

#include <string.h>

#include "lower/lower_internal.h"

int cj_cuda_param_count(const cj_type *t) {
    switch (t->kind) {
    case CJ_ARRAY:
        return 1 + 2 * t->ndim;
    case CJ_COMPLEX:
        return 2;
    case CJ_TUPLE: {
        int n = 0;
        for (int i = 0; i < t->n; i++) {
            n += cj_cuda_param_count(t->items[i]);
        }
        return n;
    }
    case CJ_BOOL:
    case CJ_INT:
    case CJ_FLOAT:
    case CJ_RECORD: /* the device address of its bytes */
        return 1;
    default:
        return 0;
    }
}

/* The LLVM types of the flattened parameters of `t`, appended at types[*n]. */
static void param_types(LLVMContextRef ctx, const cj_type *t, LLVMTypeRef *types, int *n) {
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
    switch (t->kind) {
    case CJ_ARRAY:
        types[(*n)++] = LLVMPointerType(cj_elem_type(ctx, t->dtype), 0);
        for (int i = 0; i < 2 * t->ndim; i++) {
            types[(*n)++] = i64;
        }
        return;
    case CJ_COMPLEX: {
        LLVMTypeRef f = t->bits == 64 ? LLVMFloatTypeInContext(ctx) : LLVMDoubleTypeInContext(ctx);
        types[(*n)++] = f;
        types[(*n)++] = f;
        return;
    }
    case CJ_TUPLE:
        for (int i = 0; i < t->n; i++) {
            param_types(ctx, t->items[i], types, n);
        }
        return;
    case CJ_BOOL:
        types[(*n)++] = LLVMInt8TypeInContext(ctx);
        return;
    case CJ_INT:
    case CJ_FLOAT:
    case CJ_RECORD:
        types[(*n)++] = cj_llvm_type(ctx, t);
        return;
    default:
        return;
    }
}

/* Rebuilds a value of type `t` from the parameters of `fn` starting at *p. */
static LLVMValueRef rebuild(LLVMBuilderRef b, LLVMContextRef ctx, LLVMValueRef fn,
                            const cj_type *t, unsigned *p) {
    LLVMValueRef v = LLVMGetUndef(cj_llvm_type(ctx, t));
    switch (t->kind) {
    case CJ_ARRAY: {
        v = LLVMConstNull(cj_llvm_type(ctx, t)); /* no parent, no meminfo */
        v = LLVMBuildInsertValue(b, v, LLVMGetParam(fn, (*p)++), CJ_ARR_DATA, "");
        LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
        v = LLVMBuildInsertValue(b, v, LLVMConstNull(i8p), CJ_ARR_PARENT, "");
        LLVMTypeRef dims_t = LLVMArrayType(LLVMInt64TypeInContext(ctx), (unsigned)t->ndim);
        for (int field = CJ_ARR_SHAPE; field <= CJ_ARR_STRIDES; field++) {
            LLVMValueRef dims = LLVMGetUndef(dims_t);
            for (int d = 0; d < t->ndim; d++) {
                dims = LLVMBuildInsertValue(b, dims, LLVMGetParam(fn, (*p)++), (unsigned)d, "");
            }
            v = LLVMBuildInsertValue(b, v, dims, (unsigned)field, "");
        }
        return v;
    }
    case CJ_COMPLEX:
        v = LLVMBuildInsertValue(b, v, LLVMGetParam(fn, (*p)++), 0, "");
        return LLVMBuildInsertValue(b, v, LLVMGetParam(fn, (*p)++), 1, "");
    case CJ_TUPLE:
        for (int i = 0; i < t->n; i++) {
            v = LLVMBuildInsertValue(b, v, rebuild(b, ctx, fn, t->items[i], p), (unsigned)i, "");
        }
        return v;
    case CJ_BOOL: {
        LLVMValueRef byte = LLVMGetParam(fn, (*p)++);
        return LLVMBuildICmp(b, LLVMIntNE, byte, LLVMConstNull(LLVMTypeOf(byte)), "");
    }
    case CJ_INT:
    case CJ_FLOAT:
    case CJ_RECORD:
        return LLVMGetParam(fn, (*p)++);
    default:
        return LLVMConstNull(cj_llvm_type(ctx, t));
    }
}

static LLVMValueRef sreg(LLVMModuleRef mod, LLVMBuilderRef b, const char *name) {
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMTypeRef ft = LLVMFunctionType(LLVMInt32TypeInContext(ctx), NULL, 0, 0);
    LLVMValueRef f = LLVMGetNamedFunction(mod, name);
    if (f == NULL) {
        f = LLVMAddFunction(mod, name, ft);
    }
    return LLVMBuildCall2(b, ft, f, NULL, 0, "");
}

/* if (status) { if (cas(&info[0], 0, status) == 0) info[1..6] = tid, ctaid } */
static void record_exception(LLVMModuleRef mod, LLVMBuilderRef b, LLVMValueRef fn,
                             LLVMValueRef status) {
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMTypeRef info_t = LLVMArrayType(i32, 7);
    LLVMValueRef g = LLVMAddGlobalInAddressSpace(mod, info_t, CJ_CUDA_EXC_GLOBAL, 1);
    LLVMSetInitializer(g, LLVMConstNull(info_t));
    LLVMSetLinkage(g, LLVMExternalLinkage);
    LLVMSetAlignment(g, 4);
    LLVMValueRef info = LLVMConstAddrSpaceCast(g, LLVMPointerType(info_t, 0));
    LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(ctx, fn, "failed");
    LLVMBasicBlockRef first = LLVMAppendBasicBlockInContext(ctx, fn, "first_failure");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(ctx, fn, "done");
    LLVMValueRef zero = LLVMConstInt(i32, 0, 0);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, status, zero, ""), fail, done);
    LLVMPositionBuilderAtEnd(b, fail);
    LLVMValueRef idx[2] = {zero, zero};
    LLVMValueRef slot0 = LLVMBuildInBoundsGEP2(b, info_t, info, idx, 2, "");
    LLVMValueRef pair = LLVMBuildAtomicCmpXchg(b, slot0, zero, status, LLVMAtomicOrderingMonotonic,
                                               LLVMAtomicOrderingMonotonic, 0);
    LLVMBuildCondBr(b, LLVMBuildExtractValue(b, pair, 1, ""), first, done);
    LLVMPositionBuilderAtEnd(b, first);
    static const char *const regs[6] = {
        "llvm.nvvm.read.ptx.sreg.tid.x",   "llvm.nvvm.read.ptx.sreg.tid.y",
        "llvm.nvvm.read.ptx.sreg.tid.z",   "llvm.nvvm.read.ptx.sreg.ctaid.x",
        "llvm.nvvm.read.ptx.sreg.ctaid.y", "llvm.nvvm.read.ptx.sreg.ctaid.z"};
    for (int i = 0; i < 6; i++) {
        idx[1] = LLVMConstInt(i32, (unsigned long long)i + 1, 0);
        LLVMValueRef slot = LLVMBuildInBoundsGEP2(b, info_t, info, idx, 2, "");
        LLVMBuildStore(b, sreg(mod, b, regs[i]), slot);
    }
    LLVMBuildBr(b, done);
    LLVMPositionBuilderAtEnd(b, done);
}

void cj_cuda_annotate(LLVMModuleRef mod, LLVMValueRef fn, const char *key, unsigned value) {
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMValueRef ops[3] = {fn, LLVMMDStringInContext(ctx, key, (unsigned)strlen(key)),
                           LLVMConstInt(LLVMInt32TypeInContext(ctx), value, 0)};
    LLVMAddNamedMetadataOperand(mod, "nvvm.annotations", LLVMMDNodeInContext(ctx, ops, 3));
}

/* Whether `t` is or holds (in a tuple) an OptionalType, which the launcher does not pack. */
static int holds_optional(const cj_type *t) {
    for (int i = 0; t->kind == CJ_TUPLE && i < t->n; i++) {
        if (holds_optional(t->items[i])) {
            return 1;
        }
    }
    return t->kind == CJ_OPTIONAL;
}

LLVMValueRef cj_cuda_add_kernel(LLVMModuleRef mod, LLVMValueRef inner,
                                const cj_type *const *argtypes, int nargs, const cj_type *ret,
                                const char *name, int debug, int max_registers) {
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    int nparams = 0;
    for (int i = 0; i < nargs; i++) {
        if (argtypes[i]->kind == CJ_EXT || cj_type_nests_extension(argtypes[i])) {
            PyErr_Format(cj_UnsupportedError, "argument %d of type %s: extension types cannot "
                         "be passed to CUDA kernels yet (make the value inside the kernel, or "
                         "pass its members)", i, argtypes[i]->name);
            return NULL; /* as numba: the launcher packs built-in types only */
        }
        if (holds_optional(argtypes[i])) {
            PyErr_Format(cj_UnsupportedError, "argument %d of type %s: Optional kernel "
                         "parameters are not supported by cujit yet (pass the value, or None "
                         "to a parameter typed none; device functions take Optionals)", i,
                         argtypes[i]->name);
            return NULL;
        }
        nparams += cj_cuda_param_count(argtypes[i]);
    }
    if (nparams > 1024) {
        PyErr_SetString(cj_UnsupportedError, "kernels with more than 1024 parameter words");
        return NULL;
    }
    LLVMTypeRef *types = PyMem_Malloc(sizeof(LLVMTypeRef) * (size_t)(nparams + 1));
    if (types == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    int n = 0;
    for (int i = 0; i < nargs; i++) {
        param_types(ctx, argtypes[i], types, &n);
    }
    LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(ctx), types, (unsigned)n, 0);
    PyMem_Free(types);
    LLVMValueRef fn = LLVMAddFunction(mod, name, ft);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, fn, "entry"));
    const cj_type *rt = ret->kind == CJ_VOID ? cj_t_none : ret;
    LLVMValueRef args[66];
    args[0] = LLVMBuildAlloca(b, cj_llvm_type(ctx, rt), "ret");
    unsigned p = 0;
    for (int i = 0; i < nargs; i++) {
        args[i + 1] = rebuild(b, ctx, fn, argtypes[i], &p);
    }
    LLVMValueRef status = LLVMBuildCall2(b, LLVMGetElementType(LLVMTypeOf(inner)), inner, args,
                                         (unsigned)nargs + 1, "status");
    if (debug) {
        record_exception(mod, b, fn, status);
    }
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    cj_cuda_annotate(mod, fn, "kernel", 1);
    if (max_registers > 0) {
        cj_cuda_annotate(mod, fn, "maxnreg", (unsigned)max_registers);
    }
    return fn;
}

/* NVVM's LLVM 7 text reader refuses numbered argument names (`define void @f(i32 %0)`). */
void cj_name_parameters(LLVMModuleRef mod) {
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f)) {
            continue;
        }
        unsigned n = LLVMCountParams(f);
        for (unsigned i = 0; i < n; i++) {
            LLVMValueRef p = LLVMGetParam(f, i);
            size_t len;
            LLVMGetValueName2(p, &len);
            if (len == 0) {
                char name[24];
                PyOS_snprintf(name, sizeof(name), "arg%u", i);
                LLVMSetValueName2(p, name, strlen(name));
            }
        }
    }
}
