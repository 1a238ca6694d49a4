/* ufunc_cuda_operands.c: the operands of a CUDA ufunc call and the loop they choose.
 * Each argument is a device array (DeviceNDArray, or a __cuda_array_interface__ object seen
 * through one), a host array (anything NumPy takes) or a scalar (Python scalars kept "weak",
 * NEP 50). The loop is the first whose inputs the operands cast to safely (NumPy's rule,
 * Python scalars by kind). */
#include "jit/ufunc_cuda.h"

void cj_cuf_operand_clear(operand *op) {
    Py_CLEAR(op->host);
    Py_CLEAR(op->dev);
    Py_CLEAR(op->descr);
}

void cj_cuf_take_device_layout(operand *op, const cj_DeviceNDArrayObject *a) {
    op->data = a->data;
    op->ndim = a->ndim;
    memcpy(op->shape, a->shape, sizeof(Py_ssize_t) * (size_t)a->ndim);
    memcpy(op->strides, a->strides, sizeof(Py_ssize_t) * (size_t)a->ndim);
    op->readonly = a->readonly;
}

static int set_device(operand *op, PyObject *arr) {
    cj_DeviceNDArrayObject *a = (cj_DeviceNDArrayObject *)arr;
    if (cj_ctx_check_generation(a->device, a->generation) < 0) {
        return -1;
    }
    op->kind = OPND_DEVICE;
    op->descr = (PyArray_Descr *)Py_NewRef(a->dtype);
    cj_cuf_take_device_layout(op, a);
    return 0;
}

static int set_host(operand *op, PyObject *arr) {
    PyArrayObject *h = (PyArrayObject *)arr;
    if (cj_layout_check_ndim(PyArray_NDIM(h)) < 0) {
        return -1;
    }
    op->kind = OPND_HOST;
    op->host = Py_NewRef(arr);
    op->descr = (PyArray_Descr *)Py_NewRef(PyArray_DESCR(h));
    op->ndim = PyArray_NDIM(h);
    memcpy(op->shape, PyArray_SHAPE(h), sizeof(Py_ssize_t) * (size_t)op->ndim);
    op->readonly = !PyArray_ISWRITEABLE(h);
    return 0;
}

static int python_scalar_kind(PyObject *obj) {
    if (PyBool_Check(obj)) {
        return 0;
    }
    if (PyLong_Check(obj)) {
        return 1;
    }
    if (PyFloat_Check(obj)) {
        return 2;
    }
    return PyComplex_Check(obj) ? 3 : -1;
}

/* NumPy scalars carry their dtype (NEP 50 "strong"); Python numbers only their kind. */
static int set_scalar(operand *op, PyObject *obj) {
    op->kind = OPND_SCALAR;
    op->obj = obj;
    if (PyArray_IsScalar(obj, Generic)) {
        op->descr = PyArray_DescrFromScalar(obj);
        return op->descr == NULL ? -1 : 0;
    }
    op->pykind = python_scalar_kind(obj);
    if (op->pykind < 0) {
        PyErr_Format(PyExc_TypeError, "CUDA ufuncs take arrays and numbers, not %.100s",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    return 0;
}

/* np.asarray(obj), then sorted as a NumPy array. */
static int classify_array_like(operand *op, PyObject *obj) {
    PyObject *arr = PyArray_FROM_O(obj);
    if (arr == NULL) {
        return -1;
    }
    int rc = cj_cuf_classify(op, arr); /* takes its own references */
    Py_DECREF(arr);
    return rc;
}

/* Sorts one argument: a device array (DeviceNDArray, __cuda_array_interface__), a host array
 * (NumPy, or anything np.asarray takes) or a scalar (a 0-d array counts as a NumPy scalar). */
int cj_cuf_classify(operand *op, PyObject *obj) {
    memset(op, 0, sizeof(*op));
    op->obj = obj;
    if (cj_DeviceNDArray_Check(obj)) {
        return set_device(op, obj);
    }
    if (PyArray_Check(obj)) {
        if (PyArray_NDIM((PyArrayObject *)obj) > 0) {
            return set_host(op, obj);
        }
        op->host = PyArray_Return((PyArrayObject *)Py_NewRef(obj));
        return op->host == NULL ? -1 : set_scalar(op, op->host);
    }
    if (python_scalar_kind(obj) >= 0 || PyArray_IsScalar(obj, Generic)) {
        return set_scalar(op, obj);
    }
    PyObject *attr = PyObject_GetAttrString(obj, "__cuda_array_interface__");
    if (attr == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError)) {
            return -1;
        }
        PyErr_Clear();
        return classify_array_like(op, obj);
    }
    cj_cai cai;
    int rc = cj_cai_parse_dict(attr, &cai);
    Py_DECREF(attr);
    if (rc < 0) {
        return -1;
    }
    op->dev = (PyObject *)cj_devicearray_from_cai(&cai, obj, 1); /* syncs on its stream */
    return op->dev == NULL ? -1 : set_device(op, op->dev);
}

/* ---- loops ---- */

static int kind_rank(char kind) {
    switch (kind) {
    case 'b':
        return 0;
    case 'i':
    case 'u':
        return 1;
    case 'f':
        return 2;
    case 'c':
        return 3;
    default:
        return 9;
    }
}

/* Whether input `op` can run loop `l`'s operand k: NumPy's safe casting for arrays and NumPy
 * scalars, the kind for Python numbers (and for every scalar when `weak_scalars`). Device
 * operands of gufuncs' array arguments must match exactly: the function sees them in place. */
static int accepts(const cj_CudaUFunc *u, const loop *l, int k, const operand *op,
                   int weak_scalars) {
    PyArray_Descr *to = l->descr[k];
    if (op->kind == OPND_SCALAR && (op->descr == NULL || weak_scalars)) {
        int rank = op->descr == NULL ? op->pykind : kind_rank(op->descr->kind);
        return rank <= kind_rank(to->kind) && kind_rank(to->kind) <= 3;
    }
    if (u->gufunc && l->is_array[k] && op->kind == OPND_DEVICE) {
        return PyArray_EquivTypes(op->descr, to);
    }
    return PyArray_CanCastTypeTo(op->descr, to, NPY_SAFE_CASTING);
}

static int loop_matches(const cj_CudaUFunc *u, const loop *l, const operand *ops,
                        int weak_scalars) {
    for (int k = 0; k < u->nin; k++) {
        if (!accepts(u, l, k, &ops[k], weak_scalars)) {
            return 0;
        }
    }
    return 1;
}

static PyObject *input_types_text(const cj_CudaUFunc *u, const operand *ops) {
    PyObject *parts = PyList_New(u->nin);
    for (int k = 0; parts != NULL && k < u->nin; k++) {
        const operand *op = &ops[k];
        PyObject *t = op->descr != NULL ? PyObject_Str((PyObject *)op->descr)
                                        : PyUnicode_FromString(Py_TYPE(op->obj)->tp_name);
        if (t == NULL) {
            Py_CLEAR(parts);
            break;
        }
        PyList_SET_ITEM(parts, k, t);
    }
    if (parts == NULL) {
        return NULL;
    }
    PyObject *sep = PyUnicode_FromString(", ");
    PyObject *text = sep ? PyUnicode_Join(sep, parts) : NULL;
    Py_XDECREF(sep);
    Py_DECREF(parts);
    return text;
}

static int no_loop(const cj_CudaUFunc *u, const operand *ops) {
    PyObject *have = input_types_text(u, ops);
    PyObject *loops = PyList_New(u->nloops);
    for (int i = 0; loops != NULL && i < u->nloops; i++) {
        PyList_SET_ITEM(loops, i, Py_NewRef(u->loops[i].text));
    }
    if (have != NULL && loops != NULL) {
        PyErr_Format(PyExc_TypeError, "%U: no loop for input types (%U)%s; the compiled "
                     "signatures are %R", u->name, have,
                     u->gufunc ? " (device arrays need the signature's exact dtype)" : "",
                     loops);
    }
    Py_XDECREF(have);
    Py_XDECREF(loops);
    return -1;
}

/* When every input is a Python number, NumPy types them by their default dtypes (int64,
 * float64...) rather than by kind: add(1.0, 2.0) runs a float64 loop first. */
static int default_dtypes(const cj_CudaUFunc *u, operand *ops) {
    static const int typenums[] = {NPY_BOOL, NPY_INT64, NPY_FLOAT64, NPY_COMPLEX128};
    for (int k = 0; k < u->nin; k++) {
        if (ops[k].kind != OPND_SCALAR || ops[k].descr != NULL) {
            return 0;
        }
    }
    for (int k = 0; k < u->nin; k++) {
        if ((ops[k].descr = PyArray_DescrFromType(typenums[ops[k].pykind])) == NULL) {
            return -1;
        }
    }
    return 0;
}

/* The first loop the inputs can run, in signature order; -1 + TypeError when none. */
int cj_cuf_select_loop(const cj_CudaUFunc *u, operand *ops) {
    if (default_dtypes(u, ops) < 0) {
        return -1;
    }
    for (int pass = 0; pass < 2; pass++) { /* then every scalar by kind, as numba coerces */
        for (int i = 0; i < u->nloops; i++) {
            if (loop_matches(u, &u->loops[i], ops, pass)) {
                return i;
            }
        }
    }
    return no_loop(u, ops);
}
