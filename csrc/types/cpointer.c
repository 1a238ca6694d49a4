/* cpointer.c: numba's C pointer types: CPointer(dtype) ("float32*", what ffi.from_buffer gives
 * and cuda.declare_device's pointer parameters take) and voidptr (RawPointer "void*"). A
 * pointer is the address of its first element (LLVM: a pointer to the element's memory type;
 * voidptr an i8*); it holds no reference, so it is valid only while the buffer it came from
 * lives (as numba's). */
#include "types/types.h"

const cj_type *cj_type_cpointer(const cj_type *dtype) {
    if (dtype != NULL && dtype->kind != CJ_INT && dtype->kind != CJ_FLOAT &&
        dtype->kind != CJ_BOOL && dtype->kind != CJ_COMPLEX) {
        PyErr_Format(cj_UnsupportedError, "CPointer(%s): cujit's pointers point to numbers "
                                          "and booleans only", dtype->name);
        return NULL;
    }
    char name[2100];
    PyOS_snprintf(name, sizeof(name), "%s*", dtype != NULL ? dtype->name : "void");
    cj_type t = {.kind = CJ_CPOINTER, .dtype = dtype};
    t.name = name;
    return cj_type_intern(&t, name);
}
