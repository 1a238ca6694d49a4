/* lower_extension.c: calls of the low-level extension API's Python functions from lowering.
 * A CJ_CALL_EXTENSION call (extension_calls.c: type_callable + lower_builtin, an intrinsic, an
 * attribute's lower_getattr, an `obj.attr = v`'s lower_setattr) runs the user's lowering function with (context, builder, sig,
 * args) over this function's builder (irbuilder_py.c); the CPU wrapper unboxes an extension
 * argument and boxes an extension result with the user's unbox / box. The registry
 * (pkg/cujit/core/lowlevel.py) gives four hooks: lower(fn, builder, sig, args) -> value,
 * unbox(type, builder, obj) -> (value, is_error), box(type, builder, value) -> obj, and
 * constant(type, builder, pyval) -> value (lower_constant, for a global of the type),
 * cast(fromty, toty, builder, value) -> value (lower_cast), and reflect(type, builder, value)
 * -> i1 error flag or None (reflect: after the call, an argument reflected back to Python).
 * Code that runs a user's lowering is not cached on disk (it may point at Python objects). */
#include "lower/lower_extension.h"

static PyObject *lower_hook, *unbox_hook, *box_hook, *constant_hook, *cast_hook, *reflect_hook;

/* The LLVM value of a lowering's result `r` for type `t` (None for a none/void result). */
static LLVMValueRef result_value(PyObject *builder, PyObject *r, LLVMTypeRef want) {
    LLVMValueRef v;
    if (r == Py_None && LLVMGetTypeKind(want) == LLVMStructTypeKind &&
        LLVMCountStructElementTypes(want) == 0) {
        return LLVMGetUndef(want);
    }
    if (cj_irvalue_get(builder, r, &v) < 0) {
        return NULL;
    }
    if (LLVMTypeOf(v) != want) {
        char *w = LLVMPrintTypeToString(want), *g = LLVMPrintTypeToString(LLVMTypeOf(v));
        PyErr_Format(PyExc_TypeError, "it returned a value of LLVM type %s where the data model "
                     "says %s", g, w);
        LLVMDisposeMessage(w);
        LLVMDisposeMessage(g);
        return NULL;
    }
    return v;
}

/* The i1 of an unbox's is_error (None or False: never), or NULL + exception. */
static LLVMValueRef error_flag(PyObject *builder, PyObject *err, LLVMContextRef ctx) {
    LLVMTypeRef i1 = LLVMInt1TypeInContext(ctx);
    LLVMValueRef e;
    if (err == Py_None || err == Py_False) {
        return LLVMConstInt(i1, 0, 0);
    }
    if (cj_irvalue_get(builder, err, &e) < 0) {
        return NULL;
    }
    if (LLVMTypeOf(e) != i1) {
        PyErr_SetString(PyExc_TypeError, "NativeValue's is_error must be an i1");
        return NULL;
    }
    return e;
}

/* Runs hook(*args); its result's LLVM value of type `want` (with `is_error`: the hook gives
 * (value, is_error), an unbox). */
static LLVMValueRef run_hook(PyObject *hook, PyObject *builder, PyObject *args,
                             LLVMTypeRef want, LLVMValueRef *is_error) {
    PyObject *r = hook ? PyObject_CallObject(hook, args) : NULL;
    if (hook == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "cujit.core.lowlevel did not register its hooks");
    }
    LLVMValueRef v = NULL;
    if (r != NULL && is_error != NULL) {
        PyObject *val, *err;
        if (PyArg_ParseTuple(r, "OO:unbox result", &val, &err) &&
            (*is_error = error_flag(builder, err, LLVMGetTypeContext(want))) != NULL) {
            v = result_value(builder, val, want);
        }
    } else if (r != NULL) {
        v = result_value(builder, r, want);
    }
    Py_XDECREF(r);
    return v;
}

/* LoweringError naming the extension and the user's line, the user's error as its cause. */
static void lowering_failed(cj_lower *L, int line, PyObject *label) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (value != NULL && !PyObject_IsInstance(value, PyExc_Exception)) {
        PyErr_Restore(type, value, tb); /* KeyboardInterrupt goes as it is */
        return;
    }
    if (tb != NULL && value != NULL) {
        PyException_SetTraceback(value, tb);
    }
    cj_ir_error(L->ir, cj_LoweringError, line, "%U failed to lower: %s: %S", label,
                type ? ((PyTypeObject *)type)->tp_name : "?", value ? value : Py_None);
    PyObject *t2, *v2, *tb2;
    PyErr_Fetch(&t2, &v2, &tb2);
    PyErr_NormalizeException(&t2, &v2, &tb2);
    if (v2 != NULL && value != NULL) {
        PyException_SetCause(v2, Py_NewRef(value)); /* steals */
    }
    PyErr_Restore(t2, v2, tb2);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
}

/* The argument values, each converted to the type the lowering takes (a tuple of Values). */
static PyObject *argument_values(cj_lower *L, PyObject *builder, const cj_call *call) {
    PyObject *args = PyTuple_New(call->nargs);
    for (int i = 0; args != NULL && i < call->nargs; i++) {
        const cj_type *from = CJ_VAR(L->ir, call->args[i])->type;
        LLVMValueRef v = cj_load_var(L, call->args[i]);
        if (from != call->argtypes[i]) {
            v = cj_cast(L, v, from, call->argtypes[i]);
        }
        PyObject *o = v ? cj_irvalue_new(builder, v) : NULL;
        if (o == NULL) {
            Py_CLEAR(args);
            break;
        }
        PyTuple_SET_ITEM(args, i, o);
    }
    return args;
}

/* Runs the lowering of `call` for a result of type `rtype`. */
static LLVMValueRef lower_by_hook(cj_lower *L, cj_instr *in, const cj_call *call,
                                  const cj_type *rtype) {
    PyObject *chosen = (PyObject *)call->callee;
    PyObject *fn = PyTuple_GET_ITEM(chosen, 3), *label = PyTuple_GET_ITEM(chosen, 4);
    if (L->env->keep != NULL && PyList_Append(L->env->keep, chosen) < 0) {
        return NULL; /* kept: the code is not cached (it may point at Python objects) */
    }
    PyObject *builder = cj_irbuilder_new(L->mod, L->b, L->fn, L);
    if (builder == NULL) {
        return NULL;
    }
    PyObject *values = argument_values(L, builder, call);
    PyObject *sig = values ? cj_signature_new(rtype, call->nargs, call->argtypes) : NULL;
    PyObject *hook_args = sig ? PyTuple_Pack(4, fn, builder, sig, values) : NULL;
    LLVMValueRef r = hook_args ? run_hook(lower_hook, builder, hook_args,
                                          cj_llvm_type(L->ctx, rtype), NULL)
                               : NULL;
    if (r == NULL && hook_args != NULL) {
        lowering_failed(L, in->line, label);
    }
    cj_irbuilder_close(builder);
    Py_XDECREF(hook_args);
    Py_XDECREF(sig);
    Py_XDECREF(values);
    Py_DECREF(builder);
    return r;
}

LLVMValueRef cj_lower_extension_call(cj_lower *L, cj_instr *in, const cj_call *call) {
    return lower_by_hook(L, in, call, in->rtype);
}

int cj_lowers_extensions(const cj_func_ir *ir) {
    for (int b = 0; b < ir->blocks.len; b++) {
        const cj_block *blk = CJ_BLOCK(ir, b);
        for (int k = 0; k < blk->instrs.len; k++) {
            const cj_instr *in = CJ_INSTR(blk, k);
            const cj_call *call = in->resolved;
            if ((in->op == CJ_I_CALL || (in->flags & CJ_F_ATTR_CALL)) && call != NULL &&
                call->kind == CJ_CALL_EXTENSION) {
                return 1;
            }
        }
    }
    return 0;
}

int cj_lower_extension_setattr(cj_lower *L, cj_instr *in) {
    const cj_call *call = in->resolved; /* its lowering returns none (lowlevel.py) */
    return lower_by_hook(L, in, call, cj_t_none) == NULL ? -1 : 0;
}

LLVMValueRef cj_lower_extension_constant(cj_lower *L, cj_instr *in) {
    const cj_type *t = in->rtype;
    if (L->env->keep != NULL && PyList_Append(L->env->keep, in->obj) < 0) {
        return NULL; /* kept: the code is not cached (the global's value is in it) */
    }
    PyObject *builder = cj_irbuilder_new(L->mod, L->b, L->fn, L);
    if (builder == NULL) {
        return NULL;
    }
    PyObject *args = PyTuple_Pack(3, t->pyobj, builder, in->obj);
    LLVMValueRef r = args ? run_hook(constant_hook, builder, args, cj_llvm_type(L->ctx, t), NULL)
                          : NULL;
    if (r == NULL && args != NULL) {
        PyObject *label = PyUnicode_FromFormat("@lower_constant of %s (global %S)", t->name,
                                               in->name ? in->name : Py_None);
        if (label != NULL) {
            lowering_failed(L, in->line, label);
            Py_DECREF(label);
        }
    }
    cj_irbuilder_close(builder);
    Py_XDECREF(args);
    Py_DECREF(builder);
    return r;
}

/* The pending exception of a failed hook as a LoweringError: "<what> failed: Type: message". */
static void hook_failed(const char *what) {
    PyObject *type, *val, *tb;
    PyErr_Fetch(&type, &val, &tb);
    PyErr_NormalizeException(&type, &val, &tb);
    PyErr_Format(cj_LoweringError, "%s failed: %s: %S", what,
                 type ? ((PyTypeObject *)type)->tp_name : "?", val ? val : Py_None);
    Py_XDECREF(type);
    Py_XDECREF(val);
    Py_XDECREF(tb);
}

LLVMValueRef cj_lower_extension_cast(cj_lower *L, LLVMValueRef v, const cj_type *from,
                                     const cj_type *to) {
    PyObject *builder = cj_irbuilder_new(L->mod, L->b, L->fn, L);
    PyObject *value = builder ? cj_irvalue_new(builder, v) : NULL;
    PyObject *pf = value ? cj_type_to_py(from) : NULL, *pt = pf ? cj_type_to_py(to) : NULL;
    PyObject *args = pt ? PyTuple_Pack(4, pf, pt, builder, value) : NULL;
    LLVMValueRef r = args ? run_hook(cast_hook, builder, args, cj_llvm_type(L->ctx, to), NULL)
                          : NULL;
    if (r == NULL && args != NULL) {
        char what[160];
        PyOS_snprintf(what, sizeof(what), "lower_cast(%s, %s)", from->name, to->name);
        hook_failed(what);
    }
    if (builder != NULL) {
        cj_irbuilder_close(builder);
    }
    Py_XDECREF(args);
    Py_XDECREF(value);
    Py_XDECREF(builder);
    return r;
}

/* In the CPU wrapper: the user's unbox / box (`t`'s Type object first). */
static LLVMValueRef wrapper_hook(PyObject *hook, LLVMModuleRef mod, LLVMBuilderRef b,
                                 LLVMValueRef fn, const cj_type *t, LLVMValueRef v,
                                 LLVMTypeRef want, LLVMValueRef *is_error) {
    PyObject *builder = cj_irbuilder_new(mod, b, fn, NULL);
    PyObject *value = builder ? cj_irvalue_new(builder, v) : NULL;
    PyObject *args = value ? PyTuple_Pack(3, t->pyobj, builder, value) : NULL;
    LLVMValueRef r = args ? run_hook(hook, builder, args, want, is_error) : NULL;
    if (r == NULL && args != NULL) {
        char what[160];
        PyOS_snprintf(what, sizeof(what), "%s of extension type %s",
                      hook == box_hook ? "box" : "unbox", t->name);
        hook_failed(what);
    }
    if (builder != NULL) {
        cj_irbuilder_close(builder);
    }
    Py_XDECREF(args);
    Py_XDECREF(value);
    Py_XDECREF(builder);
    return r;
}

LLVMValueRef cj_ext_unbox(LLVMModuleRef mod, LLVMBuilderRef b, LLVMValueRef fn,
                          const cj_type *t, LLVMValueRef obj, LLVMValueRef *is_error) {
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    return wrapper_hook(unbox_hook, mod, b, fn, t, obj, cj_llvm_type(ctx, t), is_error);
}

LLVMValueRef cj_ext_box(LLVMModuleRef mod, LLVMBuilderRef b, LLVMValueRef fn, const cj_type *t,
                        LLVMValueRef v) {
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(LLVMGetModuleContext(mod)), 0);
    return wrapper_hook(box_hook, mod, b, fn, t, v, i8p, NULL);
}

LLVMValueRef cj_ext_reflect(LLVMModuleRef mod, LLVMBuilderRef b, LLVMValueRef fn,
                            const cj_type *t, LLVMValueRef v) {
    LLVMValueRef none = LLVMConstInt(LLVMInt1TypeInContext(LLVMGetModuleContext(mod)), 0, 0);
    PyObject *builder = cj_irbuilder_new(mod, b, fn, NULL);
    PyObject *value = builder ? cj_irvalue_new(builder, v) : NULL;
    PyObject *r = value == NULL    ? NULL
                  : reflect_hook ? PyObject_CallFunctionObjArgs(reflect_hook, t->pyobj,
                                                                builder, value, NULL)
                                 : Py_NewRef(Py_None); /* no hooks: nothing registered */
    LLVMValueRef flag = NULL, got;
    if (r == Py_None) {
        flag = none; /* no reflect registered for the type */
    } else if (r != NULL && cj_irvalue_get(builder, r, &got) == 0) {
        if (LLVMTypeOf(got) == LLVMTypeOf(none)) {
            flag = got;
        } else {
            PyErr_SetString(PyExc_TypeError, "the error flag is not an i1");
        }
    }
    if (flag == NULL && value != NULL) {
        char what[160];
        PyOS_snprintf(what, sizeof(what), "reflect of extension type %s", t->name);
        hook_failed(what);
    }
    if (builder != NULL) {
        cj_irbuilder_close(builder);
    }
    Py_XDECREF(r);
    Py_XDECREF(value);
    Py_XDECREF(builder);
    return flag;
}

/* _core.set_lowering_hooks(lower, unbox, box, constant, cast, reflect): cujit.core.lowlevel's. */
static PyObject *set_hooks(PyObject *module, PyObject *args) {
    PyObject *lower, *unbox, *box, *constant, *cast, *reflect;
    if (!PyArg_ParseTuple(args, "OOOOOO:set_lowering_hooks", &lower, &unbox, &box, &constant,
                          &cast, &reflect)) {
        return NULL;
    }
    Py_XSETREF(reflect_hook, Py_NewRef(reflect));
    Py_XSETREF(cast_hook, Py_NewRef(cast));
    Py_XSETREF(constant_hook, Py_NewRef(constant));
    Py_XSETREF(lower_hook, Py_NewRef(lower));
    Py_XSETREF(unbox_hook, Py_NewRef(unbox));
    Py_XSETREF(box_hook, Py_NewRef(box));
    Py_RETURN_NONE;
}

static PyMethodDef lowering_hook_methods[] = {
    {"set_lowering_hooks", set_hooks, METH_VARARGS,
     "set_lowering_hooks(lower, unbox, box, constant, cast, reflect)"},
    {NULL},
};

int cj_lowering_hooks_init(PyObject *module) {
    return PyModule_AddFunctions(module, lowering_hook_methods);
}
