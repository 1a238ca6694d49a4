/* irbuilder_calls.c: the low-level extension API's context.compile_internal
 * (pkg/cujit/core/lowlevel.py): a lowering calls a jitted function (its implementation,
 * wrapped in njit) as the core calls any jitted callee: the callee is typed for the
 * signature's argument types by the compile's typing env (a CPU overload, or a CUDA device
 * function) and linked into the module (lower_call.c's calling convention: i32 status,
 * result through a pointer, arguments borrowed; its exceptions propagate).
 * A result holding references (arrays) is kept by the function until it returns (cj_hold:
 * a lowering's result is borrowed by the core; lower.c counts references in every CPU
 * function that runs a lowering). */
#include "lower/lower_extension.h"

/* The callee's LLVM function in this module for `argtypes` (its return type in *ret). */
static LLVMValueRef link_callee(cj_lower *L, PyObject *callee, const cj_type **argtypes, int n,
                                const cj_type **ret) {
    cj_typing_env *tenv = L->env->typing;
    const void *handle = NULL;
    if (tenv == NULL || tenv->resolve_dispatcher == NULL) {
        PyErr_SetString(PyExc_NotImplementedError, "context.compile_internal is not available "
                                                   "in this kind of compile");
        return NULL;
    }
    int rc = tenv->resolve_dispatcher(tenv, callee, n, argtypes, ret, &handle);
    if (rc <= 0) {
        if (rc == 0) {
            PyErr_SetString(PyExc_TypeError, "compile_internal: not a jitted function");
        }
        return NULL;
    }
    return L->env->callee_function(L->env, L->mod, handle);
}

/* _call_jitted(dispatcher, argtypes, args): (result Value, its cujit type). */
PyObject *cj_irb_call_jitted(PyObject *self, PyObject *args, PyObject *kwargs) {
    PyObject *callee, *types, *arglist;
    cj_lower *L = cj_irb_lower(self);
    if (cj_irb_check(self) < 0 || !PyArg_ParseTuple(args, "OO!O:_call_jitted", &callee,
                                                    &PyTuple_Type, &types, &arglist)) {
        return NULL;
    }
    if (L == NULL) {
        PyErr_SetString(PyExc_NotImplementedError, "context.compile_internal is available in "
                                                   "lowerings of compiled code (not in box or "
                                                   "unbox)");
        return NULL;
    }
    PyObject *fast = PySequence_Fast(arglist, "compile_internal takes a list of arguments");
    Py_ssize_t n = fast ? PySequence_Fast_GET_SIZE(fast) : 0;
    if (fast != NULL && (n != PyTuple_GET_SIZE(types) || n > CJ_MAX_ARGS)) {
        PyErr_Format(PyExc_TypeError, "compile_internal: %zd arguments for a signature of %zd "
                     "(at most %d)", n, PyTuple_GET_SIZE(types), CJ_MAX_ARGS);
    }
    const cj_type *argtypes[CJ_MAX_ARGS + 1], *ret = NULL;
    LLVMValueRef values[CJ_MAX_ARGS + 1];
    for (Py_ssize_t i = 0; !PyErr_Occurred() && i < n; i++) {
        argtypes[i] = cj_type_from_py_checked(PyTuple_GET_ITEM(types, i), "compile_internal");
        if (argtypes[i] != NULL &&
            cj_irvalue_get(self, PySequence_Fast_GET_ITEM(fast, i), &values[i + 1]) == 0 &&
            LLVMTypeOf(values[i + 1]) != cj_llvm_type(L->ctx, argtypes[i])) {
            PyErr_Format(PyExc_TypeError, "compile_internal: argument %zd is not of its "
                         "signature's type %s", i, argtypes[i]->name);
        }
    }
    Py_XDECREF(fast);
    LLVMValueRef fn = PyErr_Occurred() ? NULL : link_callee(L, callee, argtypes, (int)n, &ret);
    if (fn == NULL) {
        return NULL;
    }
    const cj_type *rt = ret->kind == CJ_VOID ? cj_t_none : ret;
    values[0] = cj_entry_alloca(L, cj_llvm_type(L->ctx, rt), "internal_ret");
    LLVMTypeRef ft = LLVMGetElementType(LLVMTypeOf(fn));
    LLVMValueRef status = LLVMBuildCall2(L->b, ft, fn, values, (unsigned)n + 1, "status");
    cj_emit_check_status(L, status);
    LLVMValueRef result = LLVMBuildLoad2(L->b, cj_llvm_type(L->ctx, rt), values[0],
                                         "internal_result");
    /* the callee's new reference is held until the function returns (lower_refs.c): the
     * lowering's result is borrowed, as every extension lowering's (lower_extension.c) */
    if (cj_hold(L, result, rt) < 0) {
        return NULL;
    }
    cj_decref(L, result, rt);
    PyObject *value = cj_irvalue_new(self, result);
    PyObject *pyret = value ? cj_type_to_py(rt) : NULL; /* borrowed */
    if (pyret == NULL) {
        Py_XDECREF(value);
        return NULL;
    }
    return Py_BuildValue("(NO)", value, pyret);
}
