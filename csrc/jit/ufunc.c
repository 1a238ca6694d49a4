/* ufunc.c: real NumPy ufuncs and gufuncs from compiled functions (vectorize/guvectorize on the
 * CPU). Each compiled version of the scalar (or core) function becomes one inner loop,
 *     void loop(char **args, npy_intp *dimensions, npy_intp *steps, void *data)
 * generated in LLVM with the function linked in and inlined; loops are registered in signature
 * order, so NumPy picks the first one the inputs cast to safely, as numba's do. Broadcasting,
 * out=, where=, casting, reduce/accumulate/reduceat/outer all come from NumPy. */
#include <llvm-c/Core.h>

#include <string.h>

#include "lower/lower.h"
#include "jit/jit.h"
#include "target/target.h"
#include "util/npy.h"

static unsigned long loop_counter;

/* Called by a loop whose function raised: sets the exception under the GIL (NumPy may run
 * loops without it) so the ufunc call fails with it. */
static void ufunc_raise(int status) {
    PyGILState_STATE gil = PyGILState_Ensure();
    if (!PyErr_Occurred()) {
        cj_exc_raise(status);
    }
    PyGILState_Release(gil);
}

typedef struct loop_builder {
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

/* A core-dimension array argument of a gufunc: {data, NULL, shape, strides} of this step. */
static LLVMValueRef core_array(loop_builder *lb, LLVMValueRef p, const cj_type *t,
                               PyObject *dim_indices, int core_step_base) {
    LLVMValueRef v = LLVMGetUndef(cj_llvm_type(lb->ctx, t));
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

/* if (status) { ufunc_raise(status); return; } */
static void check_status(loop_builder *lb, LLVMValueRef status) {
    LLVMTypeRef i32 = LLVMInt32TypeInContext(lb->ctx);
    LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(lb->ctx, lb->fn, "fail");
    LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(lb->ctx, lb->fn, "ok");
    LLVMBuildCondBr(lb->b, LLVMBuildICmp(lb->b, LLVMIntNE, status, LLVMConstNull(i32), ""), fail, ok);
    LLVMPositionBuilderAtEnd(lb->b, fail);
    LLVMTypeRef rt = LLVMFunctionType(LLVMVoidTypeInContext(lb->ctx), &i32, 1, 0);
    LLVMValueRef raise = LLVMConstIntToPtr(LLVMConstInt(lb->i64, (unsigned long long)(uintptr_t)ufunc_raise, 0),
                                           LLVMPointerType(rt, 0));
    LLVMBuildCall2(lb->b, rt, raise, &status, 1, "");
    LLVMBuildRetVoid(lb->b);
    LLVMPositionBuilderAtEnd(lb->b, ok);
}

/* The body of one step: load the inputs, call, store the outputs (ufunc) or nothing (gufunc:
 * the function writes its output arrays). */
static void loop_body(loop_builder *lb, LLVMValueRef fn, const cj_overload *ov, int nin,
                      int nout, PyObject *core_dims, LLVMValueRef ret_slot) {
    LLVMValueRef call_args[66];
    const cj_type *ret = ov->ret->kind == CJ_VOID ? cj_t_none : ov->ret;
    call_args[0] = ret_slot;
    int core_step = nin + nout;
    for (int k = 0; k < ov->nargs; k++) {
        const cj_type *t = ov->argtypes[k];
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
                                         (unsigned)ov->nargs + 1, "status");
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

/* Generates, optimises and JITs the loop for one overload. */
static PyUFuncGenericFunction build_loop(const cj_overload *ov, int nin, int nout,
                                         PyObject *core_dims) {
    char name[64];
    PyOS_snprintf(name, sizeof(name), "cj.ufunc_loop.%lu", ++loop_counter);
    loop_builder lb = {0};
    lb.mod = cj_cpu_new_module(name);
    if (lb.mod == NULL) {
        return NULL;
    }
    lb.ctx = LLVMGetModuleContext(lb.mod);
    lb.i64 = LLVMInt64TypeInContext(lb.ctx);
    lb.i8p = LLVMPointerType(LLVMInt8TypeInContext(lb.ctx), 0);
    LLVMValueRef fn = cj_link_overload(lb.mod, ov);
    if (fn == NULL) {
        LLVMDisposeModule(lb.mod);
        return NULL;
    }
    LLVMTypeRef params[4] = {LLVMPointerType(lb.i8p, 0), LLVMPointerType(lb.i64, 0),
                             LLVMPointerType(lb.i64, 0), lb.i8p};
    lb.fn = LLVMAddFunction(lb.mod, name, LLVMFunctionType(LLVMVoidTypeInContext(lb.ctx), params, 4, 0));
    lb.args = LLVMGetParam(lb.fn, 0);
    lb.dims = LLVMGetParam(lb.fn, 1);
    lb.steps = LLVMGetParam(lb.fn, 2);
    lb.b = LLVMCreateBuilderInContext(lb.ctx);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(lb.ctx, lb.fn, "entry");
    LLVMPositionBuilderAtEnd(lb.b, entry);
    const cj_type *ret = ov->ret->kind == CJ_VOID ? cj_t_none : ov->ret;
    LLVMValueRef ret_slot = LLVMBuildAlloca(lb.b, cj_llvm_type(lb.ctx, ret), "ret");
    LLVMValueRef counter = LLVMBuildAlloca(lb.b, lb.i64, "i");
    LLVMValueRef bases[64];
    size_t sizes[64];
    int nargs = nin + nout;
    LLVMValueRef all_contig = LLVMConstInt(LLVMInt1TypeInContext(lb.ctx), core_dims == NULL, 0);
    for (int k = 0; k < nargs; k++) {
        LLVMValueRef idx = LLVMConstInt(lb.i64, (unsigned long long)k, 0);
        bases[k] = LLVMBuildLoad2(lb.b, lb.i8p, LLVMBuildGEP2(lb.b, lb.i8p, lb.args, &idx, 1, ""), "");
        const cj_type *t = k < nin || core_dims != NULL ? ov->argtypes[k]
                           : nout == 1 ? ret : ret->items[k - nin];
        sizes[k] = t->kind == CJ_ARRAY ? 0 : cj_abi_size(t);
        LLVMValueRef same = LLVMBuildICmp(lb.b, LLVMIntEQ, load_i64_at(&lb, lb.steps, k),
                                          LLVMConstInt(lb.i64, sizes[k], 0), "");
        all_contig = LLVMBuildAnd(lb.b, all_contig, same, "");
    }
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
        loop_body(&lb, fn, ov, nin, nout, core_dims, ret_slot);
        LLVMBuildStore(lb.b, LLVMBuildAdd(lb.b, lb.i, LLVMConstInt(lb.i64, 1, 0), ""), counter);
        LLVMBuildBr(lb.b, head);
    }
    LLVMPositionBuilderAtEnd(lb.b, done);
    LLVMBuildRetVoid(lb.b);
    LLVMDisposeBuilder(lb.b);
    if (cj_verify_module(lb.mod) < 0 || cj_cpu_optimize(lb.mod, 3) < 0) {
        LLVMDisposeModule(lb.mod);
        return NULL;
    }
    if (cj_cpu_add_module(lb.mod) < 0) {
        return NULL;
    }
    return (PyUFuncGenericFunction)cj_cpu_lookup(name);
}

/* The NumPy type codes of one loop: inputs, then outputs. */
static int loop_types(const cj_overload *ov, int nin, int nout, int gufunc, char *out) {
    for (int k = 0; k < nin + nout; k++) {
        const cj_type *t;
        if (gufunc || k < nin) {
            t = ov->argtypes[k];
        } else {
            t = nout == 1 ? ov->ret : ov->ret->items[k - nin];
        }
        int code = cj_type_npy_typenum(t);
        if (code < 0) {
            PyErr_Format(PyExc_TypeError, "a ufunc cannot have an argument or result of type %s",
                         t->name);
            return -1;
        }
        out[k] = (char)code;
    }
    return 0;
}

/* _core.make_ufunc(overloads, nin, nout, name, doc, identity, identity_value, layout, core_dims)
 * overloads: the Dispatcher whose compiled versions are the loops, in order. */
static PyObject *make_ufunc(PyObject *module, PyObject *args) {
    PyObject *disp, *identity_value, *layout, *core_dims;
    int nin, nout, identity;
    const char *name, *doc;
    if (!PyArg_ParseTuple(args, "O!iissiOOO:make_ufunc", cj_DispatcherType, &disp, &nin, &nout,
                          &name, &doc, &identity, &identity_value, &layout, &core_dims)) {
        return NULL;
    }
    int gufunc = layout != Py_None;
    if (nin < 1 || nout < 1 || nin + nout > 32 || (gufunc && (!PyUnicode_Check(layout) ||
                                                              !PyTuple_Check(core_dims)))) {
        PyErr_SetString(PyExc_ValueError, "bad ufunc shape (inputs, outputs or layout)");
        return NULL;
    }
    int nloops = 0;
    cj_overload **ovs = cj_dispatcher_overloads((cj_dispatcher *)disp, &nloops);
    if (nloops == 0) {
        PyErr_SetString(PyExc_ValueError, "a ufunc needs at least one compiled signature");
        return NULL;
    }
    int ntypes = nin + nout;
    size_t name_len = strlen(name) + 1, doc_len = strlen(doc) + 1;
    size_t size = (size_t)nloops * (sizeof(PyUFuncGenericFunction) + sizeof(void *) + (size_t)ntypes) +
                  name_len + doc_len;
    char *block = PyArray_malloc(size); /* freed by NumPy with the ufunc (ufunc->ptr) */
    if (block == NULL) {
        return PyErr_NoMemory();
    }
    PyUFuncGenericFunction *functions = (PyUFuncGenericFunction *)block;
    void **data = (void **)(functions + nloops);
    char *types = (char *)(data + nloops);
    char *name_copy = types + (size_t)nloops * (size_t)ntypes, *doc_copy = name_copy + name_len;
    memcpy(name_copy, name, name_len);
    memcpy(doc_copy, doc, doc_len);
    for (int l = 0; l < nloops; l++) {
        if (ovs[l]->nargs != (gufunc ? ntypes : nin) ||
            loop_types(ovs[l], nin, nout, gufunc, types + (size_t)l * (size_t)ntypes) < 0 ||
            (functions[l] = build_loop(ovs[l], nin, nout, gufunc ? core_dims : NULL)) == NULL) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_TypeError, "signature does not fit the ufunc's arguments");
            }
            PyArray_free(block);
            return NULL;
        }
        data[l] = NULL;
    }
    /* made without loops, then given them: NumPy registers no exact-match loops, so it picks
     * with its linear search in signature order (float64 first: float32 inputs run it) */
    PyObject *uf = PyUFunc_FromFuncAndDataAndSignatureAndIdentity(
        NULL, NULL, NULL, 0, nin, nout, identity, name_copy, doc_copy, 0,
        gufunc ? PyUnicode_AsUTF8(layout) : NULL, identity == PyUFunc_IdentityValue ? identity_value : NULL);
    if (uf == NULL) {
        PyArray_free(block);
        return NULL;
    }
    PyUFuncObject *u = (PyUFuncObject *)uf;
    u->functions = functions;
    u->data = data;
    u->types = types;
    u->ntypes = nloops;
    u->ptr = block;
    return uf;
}

static PyMethodDef ufunc_functions[] = {
    {"make_ufunc", make_ufunc, METH_VARARGS,
     "make_ufunc(dispatcher, nin, nout, name, doc, identity, identity_value, layout, core_dims)"},
    {NULL},
};

int cj_ufunc_init(PyObject *module) {
    if (PyModule_AddIntConstant(module, "UFUNC_IDENTITY_NONE", PyUFunc_None) < 0 ||
        PyModule_AddIntConstant(module, "UFUNC_IDENTITY_ZERO", PyUFunc_Zero) < 0 ||
        PyModule_AddIntConstant(module, "UFUNC_IDENTITY_ONE", PyUFunc_One) < 0 ||
        PyModule_AddIntConstant(module, "UFUNC_IDENTITY_REORDERABLE", PyUFunc_ReorderableNone) < 0 ||
        PyModule_AddIntConstant(module, "UFUNC_IDENTITY_VALUE", PyUFunc_IdentityValue) < 0) {
        return -1;
    }
    return PyModule_AddFunctions(module, ufunc_functions);
}
