/* isinstance.c: isinstance(x, classes), answered at compile time from x's type, as numba's
 * ol_isinstance: the answer is a constant (infer.c prunes the branch it decides, so the other
 * side is never typed, which generic code relies on) and the call lowers to that constant.
 * numba's answers, not CPython's, where they differ: `int` is int64 only (not bool, not
 * int32), `float` float64, `complex` complex128, a NumPy scalar class its own type. Beyond
 * numba: np.ndarray (any array) and cujit.types classes (the type of x an instance of it). */
#include "typing/infer_internal.h"
#include "util/npy.h"

/* The kinds of variables numba's isinstance takes. */
static int supported_variable(const cj_type *t) {
    switch (t->kind) {
    case CJ_BOOL:
    case CJ_INT:
    case CJ_FLOAT:
    case CJ_COMPLEX:
    case CJ_RANGE:
    case CJ_DICT:
    case CJ_LIST:
    case CJ_TUPLE:
    case CJ_UNICODE:
    case CJ_NONE:
    case CJ_ARRAY:
        return 1;
    default:
        return cj_type_is_str(t);
    }
}

/* Whether a value of type `t` is an instance of the class `cls` (numba's answer); -1 with
 * no exception for a class isinstance does not take, with one on failure. */
static int instance_of(const cj_type *t, PyObject *cls) {
    PyTypeObject *k = (PyTypeObject *)cls;
    if (k == &PyLong_Type || k == &PyFloat_Type || k == &PyComplex_Type || k == &PyBool_Type) {
        const cj_type *as = k == &PyLong_Type    ? cj_t_int64
                            : k == &PyFloat_Type ? cj_t_float64
                            : k == &PyBool_Type  ? cj_t_bool : cj_t_complex128;
        return t == as;
    }
    if (k == &PyUnicode_Type) {
        return cj_type_is_str(t);
    }
    if (k == &PyTuple_Type || k == &PyRange_Type || k == &PyDict_Type || k == Py_TYPE(Py_None)) {
        cj_kind want = k == &PyTuple_Type ? CJ_TUPLE : k == &PyRange_Type ? CJ_RANGE
                       : k == &PyDict_Type ? CJ_DICT : CJ_NONE;
        return t->kind == want;
    }
    int typed_list = PyType_IsSubtype(k, cj_TypedListType); /* cujit.typed.List */
    if (k == &PyList_Type || typed_list) { /* numba's List and ListType */
        return t->kind == CJ_LIST && (t->reflected == CJ_LIST_TYPED) == typed_list;
    }
    if (PyType_IsSubtype(k, cj_TypedDictType)) {
        return t->kind == CJ_DICT;
    }
    if (k == &PySet_Type || k == &PyBytes_Type || k == &PyFrozenSet_Type) {
        return 0; /* no value cujit compiles is one */
    }
    if (k == &PyArray_Type) {
        return t->kind == CJ_ARRAY;
    }
    if (PyType_IsSubtype(k, cj_TypeType)) { /* cujit.types.Integer: the type's class */
        PyObject *pyobj = cj_type_to_py(t);
        return pyobj != NULL ? PyObject_IsInstance(pyobj, cls) : -1;
    }
    if (PyType_IsSubtype(k, &PyGenericArrType_Type)) { /* np.float32: that type only */
        const cj_type *as = cj_dtype_of_object(cls);
        return as != NULL ? t == as : -1;
    }
    return -1;
}

/* The classes argument: one class or a tuple of classes (known at compile time), into
 * out[0..*n); 0 when it is neither. */
static int classes_of(const cj_type *ct, PyObject **out, int *n) {
    *n = 0;
    if (ct->kind == CJ_CONST_OBJ && PyType_Check(ct->obj)) {
        out[(*n)++] = ct->obj;
        return 1;
    }
    for (int i = 0; ct->kind == CJ_TUPLE && i < ct->n && i < 256; i++) {
        if (ct->items[i]->kind != CJ_CONST_OBJ || !PyType_Check(ct->items[i]->obj)) {
            return 0;
        }
        out[(*n)++] = ct->items[i]->obj;
    }
    return ct->kind == CJ_TUPLE && ct->n > 0 && ct->n <= 256;
}

/* numba's words for arguments isinstance does not take. */
static int no_match(cj_infer_ctx *c, cj_instr *in) {
    PyObject *types = cj_argtypes_text(c, in, 1);
    if (types != NULL) {
        cj_typing_error(c, in, "No implementation of function Function(<built-in function "
                               "isinstance>) found for signature:\n \n >>> isinstance%U", types);
        Py_DECREF(types);
    }
    return -1;
}

int cj_type_isinstance(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    PyObject *classes[256];
    int n;
    if (in->nargs != 3 || in->index != 0) {
        return no_match(c, in);
    }
    const cj_type *t = CJ_VAR(c->ir, in->args[1])->type, *ct = cj_vt(c, in->args[2]);
    if (t->kind == CJ_OPTIONAL) {
        return cj_typing_error(c, in, "isinstance cannot handle optional types. Found: \"%s\"",
                               t->name);
    }
    if (!supported_variable(t)) {
        return cj_typing_error(c, in, "isinstance() does not support variables of type "
                                      "\"%s\".", t->name);
    }
    if (!classes_of(ct, classes, &n)) {
        return no_match(c, in);
    }
    int truth = 0;
    for (int i = 0; i < n && !truth; i++) {
        truth = instance_of(t, classes[i]);
        if (truth < 0) {
            return PyErr_Occurred() ? -1 : cj_typing_error(c, in,
                "isinstance() does not support the class %R (cujit takes int, float, complex, "
                "bool, str, tuple, list, dict, range, np.ndarray, NumPy scalar classes, "
                "cujit.types classes and cujit.typed.List/Dict)", classes[i]);
        }
    }
    cj_call *call = cj_plain_call(c, in, CJ_CALL_BUILTIN, CJ_B_ISINSTANCE);
    if (call == NULL) {
        return -1;
    }
    call->truth = truth;
    *out = cj_t_bool;
    return 1;
}

int cj_call_known(const cj_instr *in) {
    const cj_call *call = in->resolved;
    if (call != NULL && call->kind == CJ_CALL_BUILTIN && call->builtin == CJ_B_ISINSTANCE) {
        return call->truth;
    }
    return 2;
}
