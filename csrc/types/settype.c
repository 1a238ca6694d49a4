/* settype.c: the type of sets (numba's types.Set: set(int64), and reflected set(int64) for a
 * Python set passed in), the iterator over their elements, what abi/dict.c is told of one
 * (a set is a cj_dict whose values have no bytes: abi/set.h) and typeof of a Python set. */
#include "abi/dict.h"
#include "types/types.h"

const cj_type *cj_type_set(const cj_type *item, int reflected) {
    char name[2200]; /* an item's name is at most 2048: never cut, as it is the key */
    PyOS_snprintf(name, sizeof(name), "%sset(%s)", reflected ? "reflected " : "",
                  item != NULL ? item->name : "undefined");
    cj_type t = {.kind = CJ_SET, .dtype = item, .reflected = reflected != 0, .name = name};
    return cj_type_intern(&t, name);
}

int cj_abi_set_layout(const cj_type *st, cj_dict_layout *out) {
    int nkey = 0;
    out->ncode = 0;
    out->val_size = 0;
    out->nvalrefs = 0;
    if (st->dtype == NULL) {
        return -1;
    }
    out->key_size = (int64_t)cj_abi_size(st->dtype);
    if (cj_abi_key_code(st->dtype, 0, out->code, &out->ncode) < 0 ||
        cj_abi_ref_offsets(st->dtype, 8, out->refs, &nkey, CJ_LIST_MAX_REFS) < 0) {
        return -1;
    }
    out->nkeyrefs = nkey;
    return 0;
}

/* A Python set argument: numba's reflected set of its first element's type (the others are
 * checked when it is unboxed, jit/reflect_set.c); numba's error for an empty set. */
const cj_type *cj_typeof_set(PyObject *value) {
    if (PySet_GET_SIZE(value) == 0) {
        PyErr_SetString(PyExc_ValueError, "cannot compute fingerprint of empty set");
        return NULL;
    }
    PyObject *it = PyObject_GetIter(value);
    PyObject *first = it != NULL ? PyIter_Next(it) : NULL;
    Py_XDECREF(it);
    if (first == NULL) {
        return NULL;
    }
    const cj_type *item = PyUnicode_CheckExact(first) ? cj_t_unicode : cj_typeof(first);
    Py_DECREF(first);
    if (item == NULL) {
        return NULL;
    }
    int32_t code[CJ_KEY_MAX_CODE];
    int n = 0;
    if (cj_abi_key_code(item, 0, code, &n) < 0) {
        PyErr_Format(PyExc_TypeError, "cujit cannot compile for a set of %s (sets hold bool, "
                                      "integers, floats, complex, strings and tuples of them)",
                     item->name);
        return NULL;
    }
    return cj_type_set(item, 1);
}
