/* internal_calls.c: the compiled entry of a jitted function for the low-level extension API's
 * context.compile_internal (pkg/cujit/core/lowlevel.py): a lowering calls the function's
 * CPU wrapper (lower_wrapper.c's `i32 (i8* ret, i8** args)`) through its address
 * (irbuilder_ops.c's _call_entry). Only types whose wrapper slot is their LLVM value in
 * memory are taken: numbers, booleans and tuples of them. */
#include "jit/jit.h"

/* Whether a value of `t` crosses the wrapper as its plain bytes. */
static int plain(const cj_type *t) {
    for (int i = 0; t->kind == CJ_TUPLE && i < t->n; i++) {
        if (!plain(t->items[i])) {
            return 0;
        }
    }
    return t->kind == CJ_TUPLE || cj_type_is_number(t);
}

/* _core.overload_entry(dispatcher, argtypes): (address of its CPU entry, return type),
 * compiling it for `argtypes` if needed. */
static PyObject *overload_entry(PyObject *module, PyObject *args) {
    PyObject *disp, *types;
    if (!PyArg_ParseTuple(args, "O!O!:overload_entry", cj_DispatcherType, &disp, &PyTuple_Type,
                          &types)) {
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(types);
    const cj_type *argtypes[CJ_MAX_ARGS];
    if (n > CJ_MAX_ARGS) {
        PyErr_Format(cj_UnsupportedError, "compile_internal: more than %d arguments",
                     CJ_MAX_ARGS);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        argtypes[i] = cj_type_from_py_checked(PyTuple_GET_ITEM(types, i), "compile_internal");
        if (argtypes[i] == NULL) {
            return NULL;
        }
        if (!plain(argtypes[i])) {
            PyErr_Format(PyExc_NotImplementedError, "compile_internal: argument type %s is "
                         "not supported (numbers, booleans and tuples of them are)",
                         argtypes[i]->name);
            return NULL;
        }
    }
    cj_overload *ov = cj_dispatcher_get_overload((cj_dispatcher *)disp, argtypes, (int)n);
    if (ov == NULL) {
        return NULL;
    }
    if (!plain(ov->ret) || ov->entry == NULL) {
        PyErr_Format(PyExc_NotImplementedError, "compile_internal: return type %s is not "
                     "supported (numbers, booleans and tuples of them are)", ov->ret->name);
        return NULL;
    }
    PyObject *ret = cj_type_to_py(ov->ret);
    return ret ? Py_BuildValue("(NO)", PyLong_FromVoidPtr((void *)(uintptr_t)ov->entry), ret)
               : NULL;
}

static PyMethodDef internal_call_methods[] = {
    {"overload_entry", overload_entry, METH_VARARGS,
     "overload_entry(dispatcher, argtypes): (CPU entry address, return type)"},
    {NULL},
};

int cj_internal_calls_init(PyObject *module) {
    return PyModule_AddFunctions(module, internal_call_methods);
}
