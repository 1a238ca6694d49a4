/* cuda_fp16_rules.c: numba-cuda's typing of float16 operators in kernels (its cudadecl.py
 * _fp16_binary_operator): a + - * / whose one operand is float16 and whose other converts to
 * float16 exactly or safely (float16 itself, an int8) computes in float16, as PTX
 * add.f16 and friends; anything wider takes the usual rule (float64 for an int64 or a
 * float64 literal). Its math functions of a float16 (cudamath.py's Math_unary_with_fp16) give
 * float16 too: floor/ceil/trunc included, which give an int64 elsewhere (float() of a float16
 * stays float16 as well: builtins.c's cast rule). */
#include "typing/builtins.h"
#include "typing/infer_internal.h"

static int fp16_safe(const cj_type *t) {
    return t == cj_t_float16 || (t->kind == CJ_INT && t->bits == 8 && t->is_signed);
}

void cj_cuda_fp16_binop(int op, const cj_type *a, const cj_type *b, const cj_type **out,
                        const cj_type **optype) {
    int arith = op == CJ_ADD || op == CJ_SUB || op == CJ_MUL || op == CJ_TRUEDIV;
    if (!arith || (a != cj_t_float16 && b != cj_t_float16) || !fp16_safe(a) || !fp16_safe(b)) {
        return;
    }
    *out = cj_t_float16;
    *optype = cj_t_float16;
}

int cj_cuda_fp16_math(int id, int nargs, const cj_type *a) {
    if (nargs != 1 || a != cj_t_float16) {
        return 0;
    }
    switch (id) {
    case CJ_B_M_SIN:
    case CJ_B_M_COS:
    case CJ_B_M_SQRT:
    case CJ_B_M_EXP:
    case CJ_B_M_LOG:
    case CJ_B_M_LOG2:
    case CJ_B_M_LOG10:
    case CJ_B_M_FABS:
    case CJ_B_M_FLOOR:
    case CJ_B_M_CEIL:
    case CJ_B_M_TRUNC:
        return 1;
    default:
        return 0;
    }
}
