/* objmode_typing.c: calls from compiled CPU code into Python. The call a `with objmode(...)`
 * block became (pkg/cujit/withcontexts.py): the callee is an ObjModeBlock, its inputs must be
 * values Python can see (numbers, arrays, None, tuples of them), and the call's type is the
 * outputs' declared type, which the block resolves (`_cujit_type_()`: none, one type, or a
 * tuple). And print(): Python's own print of the boxed arguments (numba prints through
 * sys.stdout too, so a notebook shows it). And `raise E(args)` with run-time arguments: a call
 * of cj_exc_raiser(E) with the boxed arguments, which raises E(*args) as Python would (numba's
 * dynamic exceptions). CPU only: CUDA code cannot call into Python. */
#include "typing/infer_internal.h"

int cj_is_objmode_block(PyObject *obj) {
    PyObject *marker = PyObject_GetAttrString((PyObject *)Py_TYPE(obj), "_cujit_objmode_block_");
    if (marker == NULL) {
        PyErr_Clear();
        return 0;
    }
    int is_block = marker == Py_True;
    Py_DECREF(marker);
    return is_block;
}

/* Whether a value of type `t` can be boxed for Python and back (jit/boxing.c). */
static int crosses_to_python(const cj_type *t) {
    switch (t->kind) {
    case CJ_NONE:
    case CJ_BOOL:
    case CJ_INT:
    case CJ_FLOAT:
    case CJ_COMPLEX:
    case CJ_ARRAY:
        return 1;
    case CJ_OPTIONAL:
        return crosses_to_python(t->dtype);
    case CJ_TUPLE:
        for (int i = 0; i < t->n; i++) {
            if (!crosses_to_python(t->items[i])) {
                return 0;
            }
        }
        return 1;
    default:
        return 0;
    }
}

/* The block's declared output type; a cujit error the block raises (a bad annotation, an
 * undeclared output) becomes a TypingError at the block's line. */
static const cj_type *declared_type(cj_infer_ctx *c, cj_instr *in, PyObject *block) {
    PyObject *declared = PyObject_CallMethod(block, "_cujit_type_", NULL);
    if (declared == NULL) {
        if (PyErr_ExceptionMatches(cj_CujitError)) {
            PyObject *type, *value, *tb;
            PyErr_Fetch(&type, &value, &tb);
            PyErr_NormalizeException(&type, &value, &tb);
            cj_typing_error(c, in, "%S", value);
            Py_XDECREF(type);
            Py_XDECREF(value);
            Py_XDECREF(tb);
        }
        return NULL;
    }
    const cj_type *t = cj_type_from_py(declared);
    if (t == NULL) {
        cj_unsupported_error(c, in, "with objmode(): output type %S is not supported by "
                                    "cujit's compiler yet", declared);
        Py_DECREF(declared);
        return NULL;
    }
    Py_DECREF(declared);
    if (!crosses_to_python(t)) {
        cj_typing_error(c, in, "with objmode(): outputs of type %s cannot come from Python "
                               "(numbers, arrays, None and tuples of them can)", t->name);
        return NULL;
    }
    return t;
}

int cj_type_objmode_call(cj_infer_ctx *c, cj_instr *in, PyObject *block, const cj_type **out) {
    if (c->env->target == CJ_TARGET_CUDA) {
        return cj_unsupported_error(c, in, "with objmode() blocks are not supported in CUDA "
                                           "code: a GPU thread cannot run Python");
    }
    PyObject *names = PyObject_GetAttrString(block, "inputs");
    if (names == NULL || !PyTuple_Check(names) || PyTuple_GET_SIZE(names) != in->nargs - 1) {
        Py_XDECREF(names);
        return PyErr_Occurred() ? -1 : cj_typing_error(c, in, "malformed objmode block call");
    }
    for (int i = 1; i < in->nargs; i++) {
        const cj_type *t = cj_vt(c, in->args[i]);
        if (!crosses_to_python(t)) {
            int rc = cj_typing_error(c, in, "with objmode(): the block uses '%U', of type %s, "
                                            "which cannot be passed to Python (numbers, "
                                            "arrays, None and tuples of them can)",
                                     PyTuple_GET_ITEM(names, i - 1), t->name);
            Py_DECREF(names);
            return rc;
        }
    }
    Py_DECREF(names);
    const cj_type *ret = declared_type(c, in, block);
    cj_call *call = ret ? cj_plain_call(c, in, CJ_CALL_OBJMODE, -1) : NULL;
    if (call == NULL || cj_ir_keep(c->ir, block) == NULL) {
        return -1;
    }
    call->callee = block;
    *out = ret;
    return 1;
}

/* Whether print() can show a value of type `t`: what boxing.c boxes, and constant strings. */
static int printable(const cj_type *t) {
    switch (t->kind) {
    case CJ_LIST:
    case CJ_DICT:
    case CJ_SET:
    case CJ_RECORD:
    case CJ_UNICODE:
        return 1;
    case CJ_CONST_OBJ:
        return PyUnicode_Check(t->obj);
    case CJ_TUPLE:
        for (int i = 0; i < t->n; i++) {
            if (!printable(t->items[i])) {
                return 0;
            }
        }
        return 1;
    default:
        return crosses_to_python(t);
    }
}

int cj_type_print_call(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    if (in->index > 0) {
        return cj_unsupported_error(c, in, "cujit's print() function implementation does not "
                                           "support keyword arguments.");
    }
    for (int i = 1; i < in->nargs; i++) {
        const cj_type *t = cj_vt(c, in->args[i]);
        if (!printable(t)) {
            return cj_unsupported_error(c, in, "print() of a value of type %s is not supported "
                                               "(numbers, strings, arrays, lists, dicts, sets, "
                                               "records, None and tuples of them are)", t->name);
        }
    }
    PyObject *print = PyDict_GetItemString(PyEval_GetBuiltins(), "print"); /* borrowed */
    cj_call *call = print ? cj_plain_call(c, in, CJ_CALL_OBJMODE, -1) : NULL;
    if (call == NULL || cj_ir_keep(c->ir, print) == NULL) {
        return PyErr_Occurred() ? -1 : cj_typing_error(c, in, "no builtin print()");
    }
    call->callee = print;
    *out = cj_t_none;
    return 1;
}

int cj_type_raise_call(cj_infer_ctx *c, cj_instr *in, PyObject *cls, const cj_type **out) {
    if (c->env->target == CJ_TARGET_CUDA) {
        return cj_unsupported_error(c, in, "exceptions raised in CUDA code take constant "
                                           "arguments only");
    }
    for (int i = 1; i < in->nargs; i++) {
        const cj_type *t = cj_vt(c, in->args[i]);
        if (!printable(t)) {
            return cj_unsupported_error(c, in, "an exception argument of type %s (numbers, "
                                               "strings, arrays, lists, dicts, sets, records, "
                                               "None and tuples of them are supported)", t->name);
        }
    }
    PyObject *raiser = cj_exc_raiser(cls);
    cj_call *call = raiser ? cj_plain_call(c, in, CJ_CALL_OBJMODE, -1) : NULL;
    if (call == NULL || cj_ir_keep(c->ir, raiser) == NULL) {
        Py_XDECREF(raiser);
        return -1;
    }
    Py_DECREF(raiser); /* the IR keeps it */
    call->callee = raiser;
    *out = cj_type_const_obj(cls); /* what `raise` sees; the call itself never returns */
    return *out ? 1 : -1;
}
