/* try_except.c: the types of try/except (frontend/build_try.c). A caught exception is its
 * status, an int32 in a variable marked `caught`; an except clause tests it against classes
 * known at compile time (one, or a tuple of them: `except (KeyError, IndexError):`). CPU only:
 * the test runs in the runtime (abi/excinfo.c), and a CUDA thread cannot call it. And the call
 * that makes the exception a `raise` raises (cj_type_exception_call). */
#include "typing/infer_internal.h"

/* Whether `t` names exception classes: a class deriving from BaseException, or a tuple of such
 * classes (BUILD_TUPLE of globals). */
static int names_exception_classes(const cj_type *t) {
    if (t->kind == CJ_TUPLE) {
        for (int i = 0; i < t->n; i++) {
            if (!names_exception_classes(t->items[i])) {
                return 0;
            }
        }
        return t->n > 0;
    }
    return t->kind == CJ_CONST_OBJ && PyType_Check(t->obj) &&
           PyType_IsSubtype((PyTypeObject *)t->obj, (PyTypeObject *)PyExc_BaseException);
}

int cj_type_try(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    if (in->op == CJ_I_CATCH) {
        if (c->env->target == CJ_TARGET_CUDA) {
            return cj_unsupported_error(c, in, "try/except is not supported in CUDA kernels "
                                               "and device functions");
        }
        *out = cj_t_int32;
        return 1;
    }
    const cj_type *cls = cj_vt(c, in->args[1]);
    if (cls == NULL) {
        return 0;
    }
    if (!names_exception_classes(cls)) {
        return cj_typing_error(c, in, "an except clause must name exception classes (or a "
                                      "tuple of them) known at compile time, not %s",
                               cls->name);
    }
    *out = cj_t_bool;
    return 1;
}

/* raise SomeError("constant", 3): the exception is made now, from the constants; with run-time
 * arguments, when the raise runs. */
int cj_type_exception_call(cj_infer_ctx *c, cj_instr *in, PyObject *cls,
                           const cj_type **out) {
    if (in->index > 0) {
        return cj_unsupported_error(c, in, "exception constructors with keyword arguments");
    }
    PyObject *args = PyTuple_New(in->nargs - 1);
    if (args == NULL) {
        return -1;
    }
    for (int i = 1; i < in->nargs; i++) {
        PyObject *v = cj_const_of(c, in->args[i]);
        if (v == NULL) { /* made at run time (objmode_typing.c) */
            Py_DECREF(args);
            return PyErr_Occurred() ? -1 : cj_type_raise_call(c, in, cls, out);
        }
        Py_INCREF(v);
        PyTuple_SET_ITEM(args, i - 1, v);
    }
    PyObject *exc = PyObject_Call(cls, args, NULL);
    Py_DECREF(args);
    if (exc == NULL || cj_ir_keep(c->ir, exc) == NULL) {
        Py_XDECREF(exc);
        return -1;
    }
    Py_DECREF(exc); /* the IR keeps it */
    cj_call *call = cj_plain_call(c, in, CJ_CALL_EXCEPTION, -1);
    if (call == NULL) {
        return -1;
    }
    call->exception = exc;
    *out = cj_type_const_obj(cls);
    return *out ? 1 : -1;
}
