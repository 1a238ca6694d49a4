/* enums.c: enum.Enum members known at compile time (globals: Color.RED), as numba's
 * EnumMember: `m.value` becomes the value's constant (access.c resolves it as a module
 * attribute), and ==, !=, `is`, `is not` between two members a constant bool (so branches on
 * them are pruned). IntEnum members are ints already (frozen to their values). A member as an
 * argument, or a variable holding different members, is not supported yet (a TypeError when
 * called; a TypingError "Cannot unify"). */
#include "typing/infer_internal.h"

int cj_is_enum_member(PyObject *obj) {
    PyObject *module = PyImport_ImportModule("enum"); /* imported already: sys.modules */
    PyObject *base = module ? PyObject_GetAttrString(module, "Enum") : NULL;
    int is = base != NULL ? PyObject_IsInstance(obj, base) : -1;
    Py_XDECREF(base);
    Py_XDECREF(module);
    if (is < 0) {
        PyErr_Clear(); /* not an enum member, as far as typing goes */
        return 0;
    }
    return is;
}

int cj_type_enum_compare(cj_infer_ctx *c, cj_instr *in, const cj_type *a, const cj_type *b,
                         const cj_type **out) {
    int sub = in->sub;
    if (a->kind != CJ_CONST_OBJ || b->kind != CJ_CONST_OBJ ||
        (sub != CJ_EQ && sub != CJ_NE && sub != CJ_IS && sub != CJ_ISNOT) ||
        !cj_is_enum_member(a->obj) || !cj_is_enum_member(b->obj)) {
        return 2;
    }
    int same = sub == CJ_IS || sub == CJ_ISNOT ? a->obj == b->obj
                                               : PyObject_RichCompareBool(a->obj, b->obj, Py_EQ);
    if (same < 0) {
        return -1;
    }
    PyObject *value = (same != 0) == (sub == CJ_EQ || sub == CJ_IS) ? Py_True : Py_False;
    if (cj_ir_keep(c->ir, value) == NULL) {
        return -1;
    }
    in->op = CJ_I_CONST; /* the members are constants: so is their comparison */
    in->obj = value;
    in->nargs = 0;
    *out = cj_t_bool;
    return 1;
}
