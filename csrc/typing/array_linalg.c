/* array_linalg.c: typing of matrix products, np.dot(a, b[, out]), np.vdot(a, b) and a @ b
 * (numba's rules: float or complex arrays of one dtype, 1-D or 2-D; vector . vector gives a
 * number, a matrix and a vector a 1-D array, two matrices a 2-D C array; np.vdot conjugates
 * its first vector). They run on the process's BLAS (abi/blas.c), which must be found.
 * Lowering: lower/lower_array_linalg.c. */
#include "typing/infer_internal.h"

#include "abi/abi.h"

static int blas_kind(const cj_type *dtype) {
    if (dtype->kind == CJ_FLOAT) {
        return dtype->bits == 32 ? 0 : 1;
    }
    if (dtype->kind == CJ_COMPLEX) {
        return dtype->bits == 64 ? 2 : 3;
    }
    return -1;
}

static int check_operands(cj_infer_ctx *c, cj_instr *in, const char *name, int vdot,
                          const cj_type *a, const cj_type *b) {
    if (a->kind != CJ_ARRAY || b->kind != CJ_ARRAY) {
        return cj_typing_error(c, in, "%s is only supported on arrays in cujit, not (%s, %s)",
                               name, a->name, b->name);
    }
    if (vdot && (a->ndim != 1 || b->ndim != 1)) {
        return cj_typing_error(c, in, "np.vdot() only supported on 1-D arrays");
    }
    if (a->ndim < 1 || a->ndim > 2 || b->ndim < 1 || b->ndim > 2) {
        return cj_typing_error(c, in, "%s: inputs must have compatible dimensions (1-D or "
                                      "2-D arrays)", name);
    }
    if (a->dtype != b->dtype) {
        return cj_typing_error(c, in, "%s arguments must all have the same dtype", name);
    }
    if (blas_kind(a->dtype) < 0) {
        return cj_typing_error(c, in, "%s only supported on float and complex arrays", name);
    }
    if (!cj_blas_find()) {
        return cj_unsupported_error(c, in, "%s needs a BLAS library, and none was found in "
                                           "this process (NumPy's bundled OpenBLAS or a "
                                           "CBLAS)", name);
    }
    return 1;
}

int cj_type_array_dot(cj_infer_ctx *c, cj_instr *in, int vdot, int a_var, int b_var,
                      int out_var, const cj_type **out) {
    const char *name = vdot ? "np.vdot()" : in->op == CJ_I_BINOP ? "@" : "np.dot()";
    const cj_type *a = cj_vt(c, a_var), *b = cj_vt(c, b_var);
    if (check_operands(c, in, name, vdot, a, b) < 0) {
        return -1;
    }
    int ndim = a->ndim + b->ndim - 2;
    const cj_type *result = ndim == 0 ? a->dtype : cj_type_array(a->dtype, ndim, 'C', 0);
    if (result == NULL) {
        return -1;
    }
    if (out_var >= 0) {
        const cj_type *o = cj_vt(c, out_var);
        if (ndim == 0 || o->kind != CJ_ARRAY || o->ndim != ndim || o->dtype != a->dtype ||
            o->readonly || o->layout != 'C') {
            return cj_typing_error(c, in, "np.dot(a, b, out): out must be a writable "
                                          "C-contiguous %s array of %dd, not %s",
                                   a->dtype->name, ndim, o->name);
        }
        result = o;
    }
    *out = result;
    return 1;
}
