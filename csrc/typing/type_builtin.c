/* type_builtin.c: typing of the built-in type(x) of a number, as numba's: the class of x's
 * type (its NumPy scalar class: np.float64, np.int32, np.bool_ ...), a compile-time constant,
 * so that type(x)(v) casts v to x's type (builtins.c types a call of a class as a cast).
 * requires: x's type; produces: the class as a constant object type (lowered to nothing,
 * lower_call.c). */
#include "typing/infer_internal.h"

#include "util/npy.h"

int cj_type_type_builtin(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    if (in->nargs != 2 || in->index > 0) {
        return cj_typing_error(c, in, "type() takes 1 argument in cujit compiled code (the "
                                      "class of a number)");
    }
    const cj_type *t = cj_vt(c, in->args[1]);
    int typenum = cj_type_is_number(t) ? cj_type_npy_typenum(t) : -1;
    if (typenum < 0) {
        return cj_typing_error(c, in, "type() of %s is not supported (numbers only, as "
                                      "numba's type(x)(...))", t->name);
    }
    PyArray_Descr *descr = PyArray_DescrFromType(typenum);
    if (descr == NULL) {
        return -1;
    }
    PyObject *cls = cj_ir_keep(c->ir, (PyObject *)descr->typeobj);
    Py_DECREF(descr);
    if (cls == NULL || cj_plain_call(c, in, CJ_CALL_BUILTIN, CJ_B_TYPE) == NULL) {
        return -1;
    }
    *out = cj_type_const_obj(cls);
    return *out ? 1 : -1;
}
