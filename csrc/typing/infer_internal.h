/* infer_internal.h: the inference context shared by infer.c, builtins.c and access.c. */
#ifndef CJ_INFER_INTERNAL_H
#define CJ_INFER_INTERNAL_H

#include "typing/builtins.h"
#include "typing/infer.h"

typedef struct cj_infer_ctx {
    cj_func_ir *ir;
    cj_typing_env *env;
    const cj_type *const *argtypes;
    int nargs;
    const cj_type *ret;     /* unified return type so far (NULL: none seen) */
    cj_instr **def;         /* per variable: its only defining instruction, or NULL */
    int changed;
} cj_infer_ctx;

/* Each typing function: 1 typed (*out set; NULL for no result), 0 operands not known yet,
 * -1 error with an exception set. */
int cj_type_call(cj_infer_ctx *c, cj_instr *in, const cj_type **out);
/* The binary operator (cj_binop) of operator.add/iadd/... */
int cj_binop_of_builtin(int id);
int cj_type_getattr(cj_infer_ctx *c, cj_instr *in, const cj_type **out);
int cj_type_getitem(cj_infer_ctx *c, cj_instr *in, const cj_type **out);
int cj_type_setitem(cj_infer_ctx *c, cj_instr *in);
int cj_type_getiter(cj_infer_ctx *c, cj_instr *in, const cj_type **out);
int cj_type_static_item(cj_infer_ctx *c, cj_instr *in, const cj_type **out);

static inline const cj_type *cj_vt(cj_infer_ctx *c, int var) {
    return CJ_VAR(c->ir, var)->type;
}
/* The constant a variable was set to (borrowed), or NULL if it is not a constant temporary. */
PyObject *cj_const_of(cj_infer_ctx *c, int var);
/* TypingError at the instruction's line; returns -1. */
int cj_typing_error(cj_infer_ctx *c, const cj_instr *in, const char *fmt, ...);
int cj_unsupported_error(cj_infer_ctx *c, const cj_instr *in, const char *fmt, ...);
/* "(t1, t2, ...)" of the instruction's argument types from `first` on (new reference). */
PyObject *cj_argtypes_text(cj_infer_ctx *c, const cj_instr *in, int first);
/* The type of a Python constant, NULL with an exception if it has none. */
const cj_type *cj_const_type(PyObject *value);

#endif
