/* lower_ufunc.c: the inner loop of a NumPy ufunc or gufunc around a compiled function,
 *     void loop(char **args, npy_intp *dimensions, npy_intp *steps, void *data)
 * with the function linked in (the caller links it and JITs the module). Two copies of the
 * loop: a contiguous one (every step is the element size, so LLVM can vectorise) and a
 * strided one. A failing call hands its status to the caller's `raise` and returns. */
#include "lower/lower.h"

typedef struct loop_builder {
    const cj_type *const *argtypes; /* the function's */
    int nargs;
    const cj_type *ret;    /* the function's, None for void */
    void (*raise)(int status);
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
    LLVMValueRef fn;       /* the loop */
    LLVMValueRef args, dims, steps;
    LLVMValueRef i;        /* the outer index */
    LLVMTypeRef i8p, i64;
    const size_t *contig;  /* element sizes when every step equals them (the fast loop) */
    LLVMValueRef *bases;   /* args[k], loaded once before the loop */
} loop_builder;

static LLVMValueRef load_i64_at(loop_builder *lb, LLVMValueRef base, long long k) {
    LLVMValueRef idx = LLVMConstInt(lb->i64, (unsigned long long)k, 0);
    return LLVMBuildLoad2(lb->b, lb->i64, LLVMBuildGEP2(lb->b, lb->i64, base, &idx, 1, ""), "");
}

/* args[k] + i * steps[k]; in the contiguous loop the step is the constant element size, so
 * LLVM can vectorise */
static LLVMValueRef element_ptr(loop_builder *lb, int k) {
    LLVMValueRef step = lb->contig ? LLVMConstInt(lb->i64, lb->contig[k], 0)
                                   : load_i64_at(lb, lb->steps, k);
    LLVMValueRef off = LLVMBuildMul(lb->b, lb->i, step, "");
    return LLVMBuildGEP2(lb->b, LLVMInt8TypeInContext(lb->ctx), lb->bases[k], &off, 1, "");
}

static LLVMValueRef load_scalar(loop_builder *lb, LLVMValueRef p, const cj_type *t) {
    LLVMTypeRef mem = t->kind == CJ_BOOL ? LLVMInt8TypeInContext(lb->ctx) : cj_llvm_type(lb->ctx, t);
    LLVMValueRef v = LLVMBuildLoad2(lb->b, mem, LLVMBuildBitCast(lb->b, p, LLVMPointerType(mem, 0), ""), "");
    if (t->kind == CJ_BOOL) {
        v = LLVMBuildICmp(lb->b, LLVMIntNE, v, LLVMConstNull(mem), "");
    }
    return v;
}

static void store_scalar(loop_builder *lb, LLVMValueRef p, LLVMValueRef v, const cj_type *t) {
    LLVMTypeRef mem = t->kind == CJ_BOOL ? LLVMInt8TypeInContext(lb->ctx) : cj_llvm_type(lb->ctx, t);
    if (t->kind == CJ_BOOL) {
        v = LLVMBuildZExt(lb->b, v, mem, "");
    }
    LLVMBuildStore(lb->b, v, LLVMBuildBitCast(lb->b, p, LLVMPointerType(mem, 0), ""));
}

/* A core-dimension array argument of a gufunc: {data, NULL, shape, strides, NULL} of this
 * step. */
static LLVMValueRef core_array(loop_builder *lb, LLVMValueRef p, const cj_type *t,
                               PyObject *dim_indices, int core_step_base) {
    LLVMValueRef v = LLVMConstNull(cj_llvm_type(lb->ctx, t));
    LLVMTypeRef elem = LLVMPointerType(t->dtype->kind == CJ_BOOL ? LLVMInt8TypeInContext(lb->ctx)
                                                                 : cj_llvm_type(lb->ctx, t->dtype), 0);
    v = LLVMBuildInsertValue(lb->b, v, LLVMBuildBitCast(lb->b, p, elem, ""), 0, "");
    v = LLVMBuildInsertValue(lb->b, v, LLVMConstNull(lb->i8p), 1, "");
    LLVMTypeRef dims_t = LLVMArrayType(lb->i64, (unsigned)t->ndim);
    LLVMValueRef sh = LLVMGetUndef(dims_t), st = LLVMGetUndef(dims_t);
    Py_ssize_t ncore = PyTuple_GET_SIZE(dim_indices);
    for (int d = 0; d < t->ndim; d++) {
        LLVMValueRef dim = LLVMConstInt(lb->i64, 1, 0), step = LLVMConstNull(lb->i64);
        if (d < ncore) { /* else a `()` argument seen as a 1-element array, as numba */
            long dim_index = PyLong_AsLong(PyTuple_GET_ITEM(dim_indices, d));
            dim = load_i64_at(lb, lb->dims, 1 + dim_index);
            step = load_i64_at(lb, lb->steps, core_step_base + d);
        }
        sh = LLVMBuildInsertValue(lb->b, sh, dim, (unsigned)d, "");
        st = LLVMBuildInsertValue(lb->b, st, step, (unsigned)d, "");
    }
    v = LLVMBuildInsertValue(lb->b, v, sh, 2, "");
    return LLVMBuildInsertValue(lb->b, v, st, 3, "");
}

/* if (status) { raise(status); return; } */
static void check_status(loop_builder *lb, LLVMValueRef status) {
    LLVMTypeRef i32 = LLVMInt32TypeInContext(lb->ctx);
    LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(lb->ctx, lb->fn, "fail");
    LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(lb->ctx, lb->fn, "ok");
    LLVMBuildCondBr(lb->b, LLVMBuildICmp(lb->b, LLVMIntNE, status, LLVMConstNull(i32), ""), fail, ok);
    LLVMPositionBuilderAtEnd(lb->b, fail);
    LLVMTypeRef rt = LLVMFunctionType(LLVMVoidTypeInContext(lb->ctx), &i32, 1, 0);
    LLVMValueRef raise = LLVMConstIntToPtr(LLVMConstInt(lb->i64, (unsigned long long)(uintptr_t)lb->raise, 0),
                                           LLVMPointerType(rt, 0));
    LLVMBuildCall2(lb->b, rt, raise, &status, 1, "");
    LLVMBuildRetVoid(lb->b);
    LLVMPositionBuilderAtEnd(lb->b, ok);
}

/* The body of one step: load the inputs, call, store the outputs (ufunc) or nothing (gufunc:
 * the function writes its output arrays). */
static void loop_body(loop_builder *lb, LLVMValueRef fn, int nin, int nout, PyObject *core_dims,
                      LLVMValueRef ret_slot) {
    LLVMValueRef call_args[66];
    const cj_type *ret = lb->ret;
    call_args[0] = ret_slot;
    int core_step = nin + nout;
    for (int k = 0; k < lb->nargs; k++) {
        const cj_type *t = lb->argtypes[k];
        LLVMValueRef p = element_ptr(lb, k);
        if (t->kind == CJ_ARRAY) {
            PyObject *dims = PyTuple_GET_ITEM(core_dims, k);
            call_args[k + 1] = core_array(lb, p, t, dims, core_step);
            core_step += (int)PyTuple_GET_SIZE(dims);
        } else {
            call_args[k + 1] = load_scalar(lb, p, t);
            if (core_dims != NULL) {
                core_step += (int)PyTuple_GET_SIZE(PyTuple_GET_ITEM(core_dims, k));
            }
        }
    }
    LLVMValueRef status = LLVMBuildCall2(lb->b, LLVMGetElementType(LLVMTypeOf(fn)), fn, call_args,
                                         (unsigned)lb->nargs + 1, "status");
    check_status(lb, status);
    if (core_dims != NULL) {
        return;
    }
    LLVMValueRef result = LLVMBuildLoad2(lb->b, cj_llvm_type(lb->ctx, ret), call_args[0], "");
    for (int j = 0; j < nout; j++) {
        const cj_type *t = nout == 1 ? ret : ret->items[j];
        LLVMValueRef v = nout == 1 ? result : LLVMBuildExtractValue(lb->b, result, (unsigned)j, "");
        store_scalar(lb, element_ptr(lb, nin + j), v, t);
    }
}

/* The loop function, its parameters and its entry block. */
static void start_loop(loop_builder *lb, LLVMModuleRef mod, const char *name) {
    lb->mod = mod;
    lb->ctx = LLVMGetModuleContext(mod);
    lb->i64 = LLVMInt64TypeInContext(lb->ctx);
    lb->i8p = LLVMPointerType(LLVMInt8TypeInContext(lb->ctx), 0);
    LLVMTypeRef params[4] = {LLVMPointerType(lb->i8p, 0), LLVMPointerType(lb->i64, 0),
                             LLVMPointerType(lb->i64, 0), lb->i8p};
    lb->fn = LLVMAddFunction(mod, name, LLVMFunctionType(LLVMVoidTypeInContext(lb->ctx), params, 4, 0));
    lb->args = LLVMGetParam(lb->fn, 0);
    lb->dims = LLVMGetParam(lb->fn, 1);
    lb->steps = LLVMGetParam(lb->fn, 2);
    lb->b = LLVMCreateBuilderInContext(lb->ctx);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(lb->ctx, lb->fn, "entry");
    LLVMPositionBuilderAtEnd(lb->b, entry);
}

/* Loads args[k] into bases[k] and each element size into sizes[k]; the i1 "every step is
 * its element size" (false for a gufunc). */
static LLVMValueRef load_bases(loop_builder *lb, int nin, int nout, PyObject *core_dims,
                               LLVMValueRef *bases, size_t *sizes) {
    LLVMValueRef all_contig = LLVMConstInt(LLVMInt1TypeInContext(lb->ctx), core_dims == NULL, 0);
    for (int k = 0; k < nin + nout; k++) {
        LLVMValueRef idx = LLVMConstInt(lb->i64, (unsigned long long)k, 0);
        bases[k] = LLVMBuildLoad2(lb->b, lb->i8p, LLVMBuildGEP2(lb->b, lb->i8p, lb->args, &idx, 1, ""), "");
        const cj_type *t = k < nin || core_dims != NULL ? lb->argtypes[k]
                           : nout == 1 ? lb->ret : lb->ret->items[k - nin];
        sizes[k] = t->kind == CJ_ARRAY ? 0 : cj_abi_size(t);
        LLVMValueRef same = LLVMBuildICmp(lb->b, LLVMIntEQ, load_i64_at(lb, lb->steps, k),
                                          LLVMConstInt(lb->i64, sizes[k], 0), "");
        all_contig = LLVMBuildAnd(lb->b, all_contig, same, "");
    }
    return all_contig;
}

LLVMValueRef cj_lower_ufunc_loop(LLVMModuleRef mod, const char *name, LLVMValueRef fn,
                                 const cj_type *const *argtypes, int nargs, const cj_type *ret,
                                 int nin, int nout, PyObject *core_dims,
                                 void (*raise)(int status)) {
    loop_builder lb = {.argtypes = argtypes, .nargs = nargs, .raise = raise,
                       .ret = ret->kind == CJ_VOID ? cj_t_none : ret};
    start_loop(&lb, mod, name);
    LLVMValueRef ret_slot = LLVMBuildAlloca(lb.b, cj_llvm_type(lb.ctx, lb.ret), "ret");
    LLVMValueRef counter = LLVMBuildAlloca(lb.b, lb.i64, "i");
    LLVMValueRef bases[64];
    size_t sizes[64];
    LLVMValueRef all_contig = load_bases(&lb, nin, nout, core_dims, bases, sizes);
    lb.bases = bases;
    LLVMValueRef n = load_i64_at(&lb, lb.dims, 0);
    LLVMBasicBlockRef loops[2], done = LLVMAppendBasicBlockInContext(lb.ctx, lb.fn, "done");
    for (int variant = 0; variant < 2; variant++) {
        loops[variant] = LLVMAppendBasicBlockInContext(lb.ctx, lb.fn, variant ? "contig" : "strided");
    }
    LLVMBuildCondBr(lb.b, all_contig, loops[1], loops[0]);
    for (int variant = 0; variant < 2; variant++) {
        lb.contig = variant ? sizes : NULL;
        LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(lb.ctx, lb.fn, "head");
        LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(lb.ctx, lb.fn, "body");
        LLVMPositionBuilderAtEnd(lb.b, loops[variant]);
        LLVMBuildStore(lb.b, LLVMConstNull(lb.i64), counter);
        LLVMBuildBr(lb.b, head);
        LLVMPositionBuilderAtEnd(lb.b, head);
        lb.i = LLVMBuildLoad2(lb.b, lb.i64, counter, "i");
        LLVMBuildCondBr(lb.b, LLVMBuildICmp(lb.b, LLVMIntSLT, lb.i, n, ""), body, done);
        LLVMPositionBuilderAtEnd(lb.b, body);
        loop_body(&lb, fn, nin, nout, core_dims, ret_slot);
        LLVMBuildStore(lb.b, LLVMBuildAdd(lb.b, lb.i, LLVMConstInt(lb.i64, 1, 0), ""), counter);
        LLVMBuildBr(lb.b, head);
    }
    LLVMPositionBuilderAtEnd(lb.b, done);
    LLVMBuildRetVoid(lb.b);
    LLVMDisposeBuilder(lb.b);
    return lb.fn;
}
