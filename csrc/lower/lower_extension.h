/* lower_extension.h: what the low-level extension API's lowering offers the rest of lower/.
 * Sections: irbuilder_py.c (the IRBuilder and Value objects a user's lowering function gets),
 * irbuilder_ops.c (their methods: llvmlite's names over the LLVM C API), irbuilder_calls.c
 * (context.compile_internal's call of a jitted function), lower_extension.c (calling the user's
 * lowering, box and unbox functions). */
#ifndef CJ_LOWER_EXTENSION_H
#define CJ_LOWER_EXTENSION_H

#include "lower/lower_internal.h"

/* ---- irbuilder_py.c ---- */
/* A new builder object (an instance of cujit.llvm.ir's IRBuilder) emitting at `b`'s position
 * in `fn`; L is the function being lowered (entry allocas, casts) or NULL (the CPU wrapper).
 * Valid until cj_irbuilder_close: its values then refuse to be used. New reference. */
PyObject *cj_irbuilder_new(LLVMModuleRef mod, LLVMBuilderRef b, LLVMValueRef fn, cj_lower *L);
void cj_irbuilder_close(PyObject *builder);
/* A Value object over `v` (new reference). */
PyObject *cj_irvalue_new(PyObject *builder, LLVMValueRef v);
/* The LLVM value of a Value of `builder` or of an ir.Constant; -1 with TypeError otherwise. */
int cj_irvalue_get(PyObject *builder, PyObject *obj, LLVMValueRef *out);

/* ---- irbuilder_calls.c ---- */
/* IRBuilder._call_jitted(dispatcher, argtypes, args) -> (Value, type): compile_internal. */
PyObject *cj_irb_call_jitted(PyObject *self, PyObject *args, PyObject *kwargs);

/* Accessors irbuilder_ops.c uses; cj_irb_check: -1 with an exception once closed. */
int cj_irb_check(PyObject *self);
LLVMBuilderRef cj_irb_builder(PyObject *self);
LLVMModuleRef cj_irb_module(PyObject *self);
LLVMValueRef cj_irb_function(PyObject *self);
cj_lower *cj_irb_lower(PyObject *self);
LLVMTypeRef cj_irb_type(PyObject *self, PyObject *ty);   /* NULL + TypeError */
PyObject *cj_irb_py_type(LLVMTypeRef t);                 /* new reference */
PyObject *cj_irb_block(PyObject *self, LLVMBasicBlockRef bb);
LLVMBasicBlockRef cj_irb_get_block(PyObject *self, PyObject *obj);

/* ---- lower_extension.c ---- */
/* The value of a Python object (borrowed `obj`, i8*) unboxed by the user's unbox for `t`;
 * *is_error an i1 set when it failed (a Python exception is set). NULL + exception. */
LLVMValueRef cj_ext_unbox(LLVMModuleRef mod, LLVMBuilderRef b, LLVMValueRef fn,
                          const cj_type *t, LLVMValueRef obj, LLVMValueRef *is_error);
/* A new Python object (i8*, NULL with a Python exception set) boxing `v` with the user's box
 * for `t`. NULL + exception when the box function itself fails to lower. */
LLVMValueRef cj_ext_box(LLVMModuleRef mod, LLVMBuilderRef b, LLVMValueRef fn, const cj_type *t,
                        LLVMValueRef v);
/* After the call: the user's reflect of argument value `v` of `t` (numba's
 * reflect_native_value), its i1 error flag (false when `t` has no reflect); NULL + exception. */
LLVMValueRef cj_ext_reflect(LLVMModuleRef mod, LLVMBuilderRef b, LLVMValueRef fn,
                            const cj_type *t, LLVMValueRef v);

#endif
