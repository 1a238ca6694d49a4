/* layout.c: the layout rules of an array given as (ndim, shape, byte strides, itemsize):
 * default strides and C/F contiguity, with NumPy's rule for dimensions of size 0 and 1 (abi.h),
 * and the dimension limit. Pure functions: no Python objects, no cujit types (the limit's
 * check sets a Python exception). Everything that computes default strides or tests
 * contiguity on raw layouts calls these (NumPy arrays use NumPy's own flags). */
#include "abi/abi.h"

void cj_layout_default_strides(int ndim, const Py_ssize_t *shape, Py_ssize_t itemsize,
                               int fortran, Py_ssize_t *strides) {
    Py_ssize_t stride = itemsize;
    for (int k = 0; k < ndim; k++) {
        int i = fortran ? k : ndim - 1 - k;
        strides[i] = stride;
        stride *= shape[i] > 0 ? shape[i] : 1;
    }
}

int cj_layout_is_contiguous(int ndim, const Py_ssize_t *shape, const Py_ssize_t *strides,
                            Py_ssize_t itemsize, int fortran) {
    for (int i = 0; i < ndim; i++) {
        if (shape[i] == 0) {
            return 1;
        }
    }
    Py_ssize_t want = itemsize;
    for (int k = 0; k < ndim; k++) {
        int i = fortran ? k : ndim - 1 - k;
        if (shape[i] != 1 && strides[i] != want) {
            return 0;
        }
        want *= shape[i];
    }
    return 1;
}

int cj_layout_check_ndim(Py_ssize_t ndim) {
    if (ndim < 0 || ndim > CJ_MAXDIM) {
        PyErr_Format(PyExc_ValueError, "%zd dimensions exceed the limit of %d", ndim,
                     CJ_MAXDIM);
        return -1;
    }
    return 0;
}
