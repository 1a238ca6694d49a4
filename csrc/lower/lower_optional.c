/* lower_optional.c: values of numba's OptionalType(T) (types/optional.c), an LLVM
 * {T value, i1 valid} whose value is all zero when it is None (so the references it holds are
 * NULL, which lower_refs.c's counting skips). Casts into an Optional wrap a value (valid) or
 * None; a cast out of one checks it: None where a T is needed raises numba's
 * TypeError('expected T, got None'), as numba's optional_to_any. */
#include "lower/lower_internal.h"

/* {value, valid} of Optional type `t`. */
static LLVMValueRef make_optional(cj_lower *L, const cj_type *t, LLVMValueRef value,
                                  LLVMValueRef valid) {
    LLVMValueRef r = LLVMGetUndef(cj_llvm_type(L->ctx, t));
    r = LLVMBuildInsertValue(L->b, r, value, 0, "");
    return LLVMBuildInsertValue(L->b, r, valid, 1, "optional");
}

static LLVMValueRef none_of(cj_lower *L, const cj_type *t) {
    return LLVMConstNull(cj_llvm_type(L->ctx, t));
}

/* Optional(T) to Optional(U): the value cast where there is one, None stays None. */
static LLVMValueRef optional_to_optional(cj_lower *L, LLVMValueRef v, const cj_type *from,
                                         const cj_type *to) {
    LLVMValueRef valid = LLVMBuildExtractValue(L->b, v, 1, "valid");
    LLVMValueRef value = cj_cast(L, LLVMBuildExtractValue(L->b, v, 0, ""), from->dtype,
                                 to->dtype);
    if (value == NULL) {
        return NULL;
    }
    LLVMValueRef wrapped = make_optional(L, to, value, valid);
    return LLVMBuildSelect(L->b, valid, wrapped, none_of(L, to), "");
}

/* Optional(T) where a U is needed: TypeError when it is None, else its value cast. */
static LLVMValueRef optional_to_value(cj_lower *L, LLVMValueRef v, const cj_type *from,
                                      const cj_type *to) {
    LLVMValueRef valid = LLVMBuildExtractValue(L->b, v, 1, "valid");
    PyObject *text = PyUnicode_FromFormat("expected %s, got None", from->dtype->name);
    const char *s = text ? PyUnicode_AsUTF8(text) : NULL;
    int rc = s ? cj_emit_raise_text_if(L, LLVMBuildNot(L->b, valid, ""), PyExc_TypeError, s)
               : -1;
    Py_XDECREF(text);
    if (rc < 0) {
        return NULL;
    }
    return cj_cast(L, LLVMBuildExtractValue(L->b, v, 0, "value"), from->dtype, to);
}

LLVMValueRef cj_cast_optional(cj_lower *L, LLVMValueRef v, const cj_type *from,
                              const cj_type *to) {
    LLVMTypeRef i1 = LLVMInt1TypeInContext(L->ctx);
    if (to->kind == CJ_OPTIONAL) {
        if (from->kind == CJ_NONE) {
            return none_of(L, to);
        }
        if (from->kind == CJ_OPTIONAL) {
            return optional_to_optional(L, v, from, to);
        }
        LLVMValueRef value = cj_cast(L, v, from, to->dtype);
        return value ? make_optional(L, to, value, LLVMConstInt(i1, 1, 0)) : NULL;
    }
    if (to->kind == CJ_NONE || to->kind == CJ_VOID) {
        return cj_empty(L); /* the value is dropped: nothing to check */
    }
    return optional_to_value(L, v, from, to);
}

LLVMValueRef cj_optional_is_none(cj_lower *L, int op, LLVMValueRef a, const cj_type *at,
                                 LLVMValueRef b, const cj_type *bt) {
    LLVMTypeRef i1 = LLVMInt1TypeInContext(L->ctx);
    LLVMValueRef a_none = at->kind == CJ_OPTIONAL
                              ? LLVMBuildNot(L->b, LLVMBuildExtractValue(L->b, a, 1, ""), "")
                              : LLVMConstInt(i1, at->kind == CJ_NONE, 0);
    LLVMValueRef b_none = bt->kind == CJ_OPTIONAL
                              ? LLVMBuildNot(L->b, LLVMBuildExtractValue(L->b, b, 1, ""), "")
                              : LLVMConstInt(i1, bt->kind == CJ_NONE, 0);
    if (at->kind != CJ_NONE && bt->kind != CJ_NONE) {
        /* two values: `is` holds only where both are None (numba compares no values) */
        LLVMValueRef same = LLVMBuildAnd(L->b, a_none, b_none, "");
        return op == CJ_IS ? same : LLVMBuildNot(L->b, same, "");
    }
    LLVMValueRef is_none = at->kind == CJ_NONE ? b_none : a_none;
    return op == CJ_IS ? is_none : LLVMBuildNot(L->b, is_none, "is_not_none");
}
