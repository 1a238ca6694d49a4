/* ufunc_cuda.c: the call path of CUDA ufuncs and gufuncs (vectorize / guvectorize with
 * target='cuda'), in C, so a call on device arrays costs little more than its launch.
 *
 * _core.CudaUFunc(owner, name, nin, nout, signatures, core, build) where `signatures` are the
 * loops in signature order, `core` gives each operand's core dimensions as ids (all () for a
 * ufunc) and build(loop, loop_ndim, scalar_mask) returns the KernelLauncher of the generated
 * kernel for one loop, a number of loop dimensions and the inputs passed as scalars. A call:
 *   classify the operands (device arrays, host arrays, scalars) -> pick the first loop the
 *   inputs cast to safely (NumPy's rule; Python scalars by kind) -> broadcast the loop
 *   dimensions and bind the core ones -> copy host inputs to the device, allocate outputs ->
 *   merge loop dimensions that are contiguous in every operand -> launch a grid-stride kernel
 *   -> device results when an input was on the device, else NumPy arrays (numba's rule).
 * Attributes the C type does not have are looked up on `owner` (the Python half). */
#include <string.h>

#include "cuda/driver.h"

#include <structmember.h>

#include "cuda/cuda.h"
#include "jit/kernel.h"
#include "jit/jit.h"
#include "util/npy.h"

#define MAX_OPERANDS 32
#define MAX_CORE 8
#define BLOCK_THREADS 256
#define BLOCKS_PER_SM 32

typedef struct loop {
    PyArray_Descr *descr[MAX_OPERANDS]; /* owned: each operand's dtype */
    int is_array[MAX_OPERANDS];         /* declared as an array (gufuncs' `float64[:]`) */
    PyObject *text;                     /* owned: the signature, for messages */
} loop;

/* A generated kernel: one loop, a number of loop dimensions, the inputs passed as scalars. */
typedef struct form {
    int loop, loop_nd;
    unsigned int scalar_mask;
    PyObject *launcher; /* owned KernelLauncher */
} form;

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *owner; /* the Python half: attributes, build() */
    PyObject *name;
    PyObject *build;
    int nin, nout, gufunc;
    int core_ndim[MAX_OPERANDS];
    int core_dim[MAX_OPERANDS][MAX_CORE]; /* ids of the core dimensions */
    int ncore_ids;
    loop *loops;
    int nloops;
    form *forms;
    int nforms, forms_cap;
} cj_CudaUFunc;

static PyTypeObject *cj_CudaUFuncType;

/* ---- operands ---- */

typedef enum { OPND_NONE, OPND_DEVICE, OPND_HOST, OPND_SCALAR } operand_kind;

typedef struct operand {
    operand_kind kind;
    PyObject *obj;        /* borrowed: what the caller passed (outputs: NULL when none) */
    PyObject *host;       /* owned: HOST: the NumPy array; SCALAR from a 0-d array: the scalar */
    PyObject *dev;        /* owned: the device array used (a copy, a CAI view, a new output) */
    PyArray_Descr *descr; /* owned: the dtype; NULL for Python scalars */
    int pykind;           /* Python scalars (NEP 50 "weak"): 0 bool, 1 int, 2 float, 3 complex */
    int ndim;
    Py_ssize_t shape[CJ_MAXDIM];
    Py_ssize_t strides[CJ_MAXDIM];
    CUdeviceptr data;
    int readonly;
} operand;

static void operand_clear(operand *op) {
    Py_CLEAR(op->host);
    Py_CLEAR(op->dev);
    Py_CLEAR(op->descr);
}

static void take_device_layout(operand *op, const cj_DeviceNDArrayObject *a) {
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
    take_device_layout(op, a);
    return 0;
}

static int set_host(operand *op, PyObject *arr) {
    PyArrayObject *h = (PyArrayObject *)arr;
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

static int classify(operand *op, PyObject *obj);

/* np.asarray(obj), then sorted as a NumPy array. */
static int classify_array_like(operand *op, PyObject *obj) {
    PyObject *arr = PyArray_FROM_O(obj);
    if (arr == NULL) {
        return -1;
    }
    int rc = classify(op, arr); /* takes its own references */
    Py_DECREF(arr);
    return rc;
}

/* Sorts one argument: a device array (DeviceNDArray, __cuda_array_interface__), a host array
 * (NumPy, or anything np.asarray takes) or a scalar (a 0-d array counts as a NumPy scalar). */
static int classify(operand *op, PyObject *obj) {
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
static int select_loop(const cj_CudaUFunc *u, operand *ops) {
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

/* ---- shapes ---- */

/* Empty operands are judged by their strides (abi.h's CJ_EMPTY_STRIDES), as before. */
static int contiguous(int ndim, const Py_ssize_t *shape, const Py_ssize_t *strides,
                      Py_ssize_t itemsize, int fortran) {
    return cj_layout_is_contiguous(ndim, shape, strides, itemsize, fortran, CJ_EMPTY_STRIDES);
}

typedef struct call {
    cj_CudaUFunc *u;
    operand ops[MAX_OPERANDS]; /* the inputs, then the outputs */
    int nops;
    const loop *l;
    int li;
    PyObject *stream;          /* borrowed: the stream= argument, or NULL */
    int on_device;             /* an input is on the device: results stay there */
    CUstream handle;
    int device;
    int loop_nd;
    Py_ssize_t loop_shape[CJ_MAXDIM];
    Py_ssize_t core_size[MAX_OPERANDS * MAX_CORE]; /* by core dimension id; -1: unbound */
} call;

static int is_array(const operand *op) {
    return op->kind == OPND_DEVICE || op->kind == OPND_HOST;
}

static PyObject *shape_tuple(const Py_ssize_t *shape, int ndim) {
    PyObject *t = PyTuple_New(ndim);
    for (int d = 0; t != NULL && d < ndim; d++) {
        PyObject *v = PyLong_FromSsize_t(shape[d]);
        if (v == NULL) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, d, v);
    }
    return t;
}

static int broadcast_error(call *c) {
    PyObject *shapes = PyList_New(0);
    for (int k = 0; shapes != NULL && k < c->nops; k++) {
        if (!is_array(&c->ops[k])) {
            continue;
        }
        PyObject *t = shape_tuple(c->ops[k].shape, c->ops[k].ndim);
        if (t == NULL || PyList_Append(shapes, t) < 0) {
            Py_XDECREF(t);
            Py_CLEAR(shapes);
            break;
        }
        Py_DECREF(t);
    }
    if (shapes != NULL) {
        PyErr_Format(PyExc_ValueError, "%U: operands could not be broadcast together with "
                     "shapes %R", c->u->name, shapes);
        Py_DECREF(shapes);
    }
    return -1;
}

/* Number of loop dimensions of array operand k (its dimensions before the core ones). */
static int loop_ndim_of(call *c, int k) {
    const operand *op = &c->ops[k];
    int n = op->ndim - c->u->core_ndim[k];
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "%U: argument %d has %d dimension(s), fewer than its %d "
                     "core dimension(s)", c->u->name, k, op->ndim, c->u->core_ndim[k]);
    }
    return n;
}

/* The loop shape: the operands' loop dimensions broadcast together (outputs included, which
 * must then have it exactly). */
static int broadcast(call *c) {
    c->loop_nd = 0;
    for (int k = 0; k < c->nops; k++) {
        if (!is_array(&c->ops[k])) {
            continue;
        }
        int n = loop_ndim_of(c, k);
        if (n < 0) {
            return -1;
        }
        c->loop_nd = n > c->loop_nd ? n : c->loop_nd;
    }
    for (int d = 0; d < c->loop_nd; d++) {
        c->loop_shape[d] = 1;
    }
    for (int k = 0; k < c->nops; k++) {
        if (!is_array(&c->ops[k])) {
            continue;
        }
        int n = loop_ndim_of(c, k), off = c->loop_nd - n;
        for (int d = 0; d < n; d++) {
            Py_ssize_t s = c->ops[k].shape[d];
            if (s != 1 && c->loop_shape[off + d] == 1) {
                c->loop_shape[off + d] = s;
            } else if (s != 1 && s != c->loop_shape[off + d]) {
                return broadcast_error(c);
            }
        }
    }
    for (int k = c->u->nin; k < c->nops; k++) {
        const operand *op = &c->ops[k];
        if (is_array(op) && (loop_ndim_of(c, k) != c->loop_nd ||
                             (c->loop_nd && memcmp(op->shape, c->loop_shape,
                                                   sizeof(Py_ssize_t) * (size_t)c->loop_nd)))) {
            PyObject *want = shape_tuple(c->loop_shape, c->loop_nd);
            PyObject *got = shape_tuple(op->shape, op->ndim - c->u->core_ndim[k]);
            if (want != NULL && got != NULL) {
                PyErr_Format(PyExc_ValueError, "%U: output %d has loop shape %R; the inputs "
                             "broadcast to %R", c->u->name, k - c->u->nin, got, want);
            }
            Py_XDECREF(want);
            Py_XDECREF(got);
            return -1;
        }
    }
    return 0;
}

/* Binds each core dimension id to one size across the operands that have it. */
static int bind_core(call *c) {
    cj_CudaUFunc *u = c->u;
    for (int i = 0; i < u->ncore_ids; i++) {
        c->core_size[i] = -1;
    }
    for (int k = 0; k < c->nops; k++) {
        const operand *op = &c->ops[k];
        if (!is_array(op)) {
            if (u->core_ndim[k] > 0 && op->kind == OPND_SCALAR) {
                PyErr_Format(PyExc_TypeError, "%U: argument %d must be an array with %d core "
                             "dimension(s), not a scalar", u->name, k, u->core_ndim[k]);
                return -1;
            }
            continue;
        }
        int base = op->ndim - u->core_ndim[k];
        for (int j = 0; j < u->core_ndim[k]; j++) {
            int id = u->core_dim[k][j];
            Py_ssize_t s = op->shape[base + j];
            if (c->core_size[id] >= 0 && c->core_size[id] != s) {
                PyErr_Format(PyExc_ValueError, "%U: core dimension %d of argument %d has size "
                             "%zd, but %zd elsewhere", u->name, j, k, s, c->core_size[id]);
                return -1;
            }
            c->core_size[id] = s;
        }
    }
    for (int k = u->nin; k < c->nops; k++) {
        for (int j = 0; j < u->core_ndim[k]; j++) {
            if (c->core_size[u->core_dim[k][j]] < 0) {
                PyErr_Format(PyExc_ValueError, "%U: the size of core dimension %d of output %d "
                             "is not given by any input", u->name, j, k - u->nin);
                return -1;
            }
        }
    }
    return 0;
}

/* ---- data on the device ---- */

static PyObject *alloc_stream(call *c) {
    return c->stream != NULL && cj_Stream_Check(c->stream) ? c->stream : NULL;
}

/* A device array that lives only during this call (a copy of a host input, a result bound for
 * the host): cj_memalloc_transient's memory, so calls on host arrays cost no cuMemAlloc. */
static cj_DeviceNDArrayObject *transient_array(call *c, int ndim, const Py_ssize_t *shape,
                                               int fortran, PyArray_Descr *descr) {
    Py_ssize_t strides[CJ_MAXDIM], size;
    if (cj_layout_check(ndim, shape, strides, PyDataType_ELSIZE(descr), fortran, &size) < 0) {
        return NULL;
    }
    CUdeviceptr ptr = 0;
    int device = -1;
    PyObject *owner = cj_memalloc_transient((size_t)(size * PyDataType_ELSIZE(descr)),
                                            alloc_stream(c), &ptr, &device);
    if (owner == NULL) {
        return NULL;
    }
    cj_DeviceNDArrayObject *a = cj_devicearray_new(ptr, ndim, shape, strides, descr, owner,
                                                   alloc_stream(c), device);
    Py_DECREF(owner);
    return a;
}

/* A device copy of host operand k (cast to the loop's dtype where the function sees the array
 * itself, a gufunc's array argument); its layout replaces the host one. */
static int input_to_device(call *c, int k) {
    operand *op = &c->ops[k];
    PyArray_Descr *want = c->l->descr[k];
    if (c->u->gufunc && c->l->is_array[k] && !PyArray_EquivTypes(op->descr, want)) {
        Py_INCREF(want);
        PyObject *cast = PyArray_CastToType((PyArrayObject *)op->host, want, 0); /* steals */
        if (cast == NULL) {
            return -1;
        }
        Py_SETREF(op->host, cast);
        Py_SETREF(op->descr, (PyArray_Descr *)Py_NewRef(want));
    }
    cj_DeviceNDArrayObject *d = transient_array(c, op->ndim, op->shape, 0, op->descr);
    if (d == NULL) {
        return -1;
    }
    op->dev = (PyObject *)d;
    if (cj_copy_to_device(d, op->host, c->stream) < 0) {
        return -1;
    }
    take_device_layout(op, d);
    return 0;
}

/* A scalar given for a gufunc argument declared as an array: a 0-d device array of the loop's
 * dtype (broadcast like any other). */
static int scalar_to_device(call *c, int k) {
    operand *op = &c->ops[k];
    PyArray_Descr *want = c->l->descr[k];
    Py_INCREF(want);
    PyObject *arr = PyArray_FromAny(op->obj, want, 0, 0, NPY_ARRAY_FORCECAST, NULL); /* steals */
    if (arr == NULL) {
        return -1;
    }
    Py_XSETREF(op->host, arr); /* may release what op->obj pointed at: point it at arr */
    Py_XSETREF(op->descr, (PyArray_Descr *)Py_NewRef(want));
    op->obj = arr;
    op->kind = OPND_HOST;
    op->ndim = 0;
    return input_to_device(c, k);
}

/* New outputs are Fortran-ordered when every array input is (NumPy's order='K', roughly), so
 * the loop dimensions still merge into one. */
static int fortran_inputs(const call *c) {
    int any = 0;
    for (int k = 0; k < c->u->nin; k++) {
        const operand *op = &c->ops[k];
        if (!is_array(op) || op->ndim < 2) {
            continue;
        }
        Py_ssize_t itemsize = PyDataType_ELSIZE(op->descr);
        if (!contiguous(op->ndim, op->shape, op->strides, itemsize, 1) ||
            contiguous(op->ndim, op->shape, op->strides, itemsize, 0)) {
            return 0;
        }
        any = 1;
    }
    return any;
}

/* Output k: the given device array, a device stand-in for a given host array, or a new one. */
static int prepare_output(call *c, int k) {
    operand *op = &c->ops[k];
    cj_CudaUFunc *u = c->u;
    PyArray_Descr *loop_descr = c->l->descr[k];
    if (op->kind == OPND_NONE) {
        Py_ssize_t shape[CJ_MAXDIM];
        int ndim = c->loop_nd + u->core_ndim[k];
        memcpy(shape, c->loop_shape, sizeof(Py_ssize_t) * (size_t)c->loop_nd);
        for (int j = 0; j < u->core_ndim[k]; j++) {
            shape[c->loop_nd + j] = c->core_size[u->core_dim[k][j]];
        }
        op->descr = (PyArray_Descr *)Py_NewRef(loop_descr);
        op->dev = c->on_device ? (PyObject *)cj_devicearray_empty(ndim, shape, NULL,
                                                                  fortran_inputs(c), op->descr,
                                                                  alloc_stream(c))
                               : (PyObject *)transient_array(c, ndim, shape, fortran_inputs(c),
                                                             op->descr);
        if (op->dev == NULL) {
            return -1;
        }
        op->kind = OPND_DEVICE;
        take_device_layout(op, (cj_DeviceNDArrayObject *)op->dev);
        return 0;
    }
    if (op->kind == OPND_SCALAR) {
        PyErr_Format(PyExc_TypeError, "%U: output %d must be an array, not %.100s", u->name,
                     k - u->nin, Py_TYPE(op->obj)->tp_name);
        return -1;
    }
    int fits = u->gufunc ? PyArray_EquivTypes(loop_descr, op->descr)
                         : PyArray_CanCastTypeTo(loop_descr, op->descr, NPY_SAME_KIND_CASTING);
    if (!fits) {
        PyErr_Format(PyExc_TypeError, "%U: output %d has dtype %R; the loop %U writes %R",
                     u->name, k - u->nin, (PyObject *)op->descr, c->l->text,
                     (PyObject *)loop_descr);
        return -1;
    }
    if (op->readonly) {
        PyErr_Format(PyExc_ValueError, "%U: output %d is read-only", u->name, k - u->nin);
        return -1;
    }
    if (op->kind == OPND_HOST) {
        cj_DeviceNDArrayObject *d = transient_array(c, op->ndim, op->shape, 0, op->descr);
        if (d == NULL) {
            return -1;
        }
        op->dev = (PyObject *)d;
        take_device_layout(op, d);
    }
    return 0;
}

/* Host inputs to the device, outputs made; after select_loop, broadcast and bind_core. */
static int place_operands(call *c) {
    c->on_device = 0;
    for (int k = 0; k < c->u->nin; k++) {
        c->on_device |= c->ops[k].kind == OPND_DEVICE;
    }
    for (int k = 0; k < c->u->nin; k++) {
        operand *op = &c->ops[k];
        int rc = 0;
        if (op->kind == OPND_HOST) {
            rc = input_to_device(c, k);
        } else if (op->kind == OPND_SCALAR && c->l->is_array[k]) {
            rc = scalar_to_device(c, k);
        }
        if (rc < 0) {
            return -1;
        }
    }
    for (int k = c->u->nin; k < c->nops; k++) {
        if (prepare_output(c, k) < 0) {
            return -1;
        }
    }
    return 0;
}

/* ---- the launch ---- */

/* The kernel's view of the operands: loop dimensions (stride 0 where an operand broadcasts),
 * merged where every operand allows, then each operand's core dimensions. */
typedef struct views {
    int nd;                                        /* loop dimensions after merging */
    Py_ssize_t shape[CJ_MAXDIM];
    Py_ssize_t strides[MAX_OPERANDS][CJ_MAXDIM];   /* loop strides per operand */
    int arrays[MAX_OPERANDS];                      /* operand indices that are arrays */
    int narrays;
} views;

static void loop_strides(const call *c, views *v) {
    v->nd = c->loop_nd;
    memcpy(v->shape, c->loop_shape, sizeof(Py_ssize_t) * (size_t)c->loop_nd);
    v->narrays = 0;
    for (int k = 0; k < c->nops; k++) {
        const operand *op = &c->ops[k];
        if (!is_array(op)) {
            continue;
        }
        int n = op->ndim - c->u->core_ndim[k], off = c->loop_nd - n;
        Py_ssize_t *s = v->strides[v->narrays];
        for (int d = 0; d < c->loop_nd; d++) {
            s[d] = d < off || op->shape[d - off] == 1 ? 0 : op->strides[d - off];
        }
        v->arrays[v->narrays++] = k;
    }
}

/* Whether loop dimensions d and d+1 walk memory as one in every operand: C-like (d outer) or
 * F-like (d inner). Elementwise work does not care which order the merged dimension takes. */
static int mergeable(const views *v, int d, int fortran) {
    for (int a = 0; a < v->narrays; a++) {
        const Py_ssize_t *s = v->strides[a];
        if (fortran ? s[d + 1] != v->shape[d] * s[d] : s[d] != v->shape[d + 1] * s[d + 1]) {
            return 0;
        }
    }
    return 1;
}

static void drop_dim(views *v, int d) {
    for (int e = d; e + 1 < v->nd; e++) {
        v->shape[e] = v->shape[e + 1];
        for (int a = 0; a < v->narrays; a++) {
            v->strides[a][e] = v->strides[a][e + 1];
        }
    }
    v->nd--;
}

/* Fewer loop dimensions mean cheaper index arithmetic in the kernel: a contiguous (or
 * broadcast) set of operands becomes one dimension. */
static void merge_dims(views *v) {
    for (int d = v->nd - 1; d >= 0; d--) {
        if (v->shape[d] == 1) {
            drop_dim(v, d);
        }
    }
    for (int d = v->nd - 2; d >= 0; d--) {
        int c_like = mergeable(v, d, 0), f_like = !c_like && mergeable(v, d, 1);
        if (!c_like && !f_like) {
            continue;
        }
        for (int a = 0; a < v->narrays; a++) {
            v->strides[a][d] = v->strides[a][c_like ? d + 1 : d];
        }
        v->shape[d] *= v->shape[d + 1];
        drop_dim(v, d + 1);
    }
    if (v->nd == 0) { /* everything 0-d: one element */
        v->nd = 1;
        v->shape[0] = 1;
        for (int a = 0; a < v->narrays; a++) {
            v->strides[a][0] = 0;
        }
    }
}


/* Operand k as the kernel sees it: loop dimensions, core dimensions, and for a `()` argument
 * declared as an array (gufuncs' `float64[:]`) a last dimension of one element. */
static int array_arg(const call *c, const views *v, int a, cj_launch_arg *x) {
    int k = v->arrays[a];
    const operand *op = &c->ops[k];
    int ncore = c->u->core_ndim[k], base = op->ndim - ncore;
    int extra = c->u->gufunc && c->l->is_array[k] && ncore == 0;
    if (v->nd + ncore + extra > CJ_MAXDIM) {
        PyErr_Format(PyExc_ValueError, "%U: too many dimensions", c->u->name);
        return -1;
    }
    x->data = op->data;
    x->value = NULL;
    x->ndim = v->nd + ncore + extra;
    memcpy(x->shape, v->shape, sizeof(Py_ssize_t) * (size_t)v->nd);
    memcpy(x->strides, v->strides[a], sizeof(Py_ssize_t) * (size_t)v->nd);
    for (int j = 0; j < ncore; j++) {
        x->shape[v->nd + j] = op->shape[base + j];
        x->strides[v->nd + j] = op->strides[base + j];
    }
    Py_ssize_t itemsize = PyDataType_ELSIZE(op->descr);
    if (extra) {
        x->shape[x->ndim - 1] = 1;
        x->strides[x->ndim - 1] = itemsize;
    }
    x->type = cj_array_type_of_layout(
        op->descr->type_num, x->ndim, contiguous(x->ndim, x->shape, x->strides, itemsize, 0),
        contiguous(x->ndim, x->shape, x->strides, itemsize, 1), k < c->u->nin && op->readonly);
    if (x->type == NULL && !PyErr_Occurred()) { /* the kernel launcher's words */
        PyErr_Format(PyExc_TypeError, "cujit kernels do not take arrays of NumPy type %d",
                     op->descr->type_num);
    }
    return x->type == NULL ? -1 : 0;
}

/* The KernelLauncher for (loop, loop dimensions, scalar inputs), built on first use. */
static PyObject *form_for(cj_CudaUFunc *u, int li, int loop_nd, unsigned int mask) {
    for (int i = 0; i < u->nforms; i++) {
        form *f = &u->forms[i];
        if (f->loop == li && f->loop_nd == loop_nd && f->scalar_mask == mask) {
            return f->launcher;
        }
    }
    if (u->nforms == u->forms_cap) {
        int cap = u->forms_cap ? 2 * u->forms_cap : 4;
        form *forms = PyMem_Realloc(u->forms, sizeof(form) * (size_t)cap);
        if (forms == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        u->forms = forms;
        u->forms_cap = cap;
    }
    PyObject *launcher = PyObject_CallFunction(u->build, "iiI", li, loop_nd, mask);
    if (launcher == NULL) {
        return NULL;
    }
    u->forms[u->nforms++] = (form){li, loop_nd, mask, launcher};
    return launcher;
}

static int launch(call *c) {
    views v;
    loop_strides(c, &v);
    merge_dims(&v);
    Py_ssize_t n = 1;
    for (int d = 0; d < v.nd; d++) {
        n *= v.shape[d];
    }
    if (n == 0) {
        return 0;
    }
    cj_launch_arg args[MAX_OPERANDS + 1];
    const cj_type *types[MAX_OPERANDS + 1];
    PyObject *count = PyLong_FromSsize_t(n);
    if (count == NULL) {
        return -1;
    }
    args[0] = (cj_launch_arg){.type = cj_t_int64, .value = count};
    unsigned int mask = 0;
    int rc = 0;
    for (int k = 0, a = 0; rc == 0 && k < c->nops; k++) {
        cj_launch_arg *x = &args[k + 1];
        if (is_array(&c->ops[k])) {
            rc = array_arg(c, &v, a++, x);
            continue;
        }
        mask |= 1u << k; /* a scalar input, passed as the loop's type */
        x->type = cj_type_from_npy_typenum(c->l->descr[k]->type_num);
        x->value = c->ops[k].obj;
        rc = x->type == NULL ? -1 : 0;
    }
    PyObject *launcher = rc == 0 ? form_for(c->u, c->li, v.nd, mask) : NULL;
    for (int i = 0; launcher != NULL && i <= c->nops; i++) {
        types[i] = args[i].type;
    }
    cj_kernel_version *kv = launcher ? cj_kernel_version_for(launcher, types, c->nops + 1,
                                                             c->device) : NULL;
    int sms = kv ? cj_device_sm_count(c->device) : -1;
    if (sms > 0) {
        int block = cj_kernel_max_threads(kv) < BLOCK_THREADS ? cj_kernel_max_threads(kv) & ~31
                                                              : BLOCK_THREADS;
        block = block > 0 ? block : 32;
        Py_ssize_t blocks = (n + block - 1) / block, cap = (Py_ssize_t)sms * BLOCKS_PER_SM;
        unsigned int grid[3] = {(unsigned int)(blocks < cap ? blocks : cap), 1, 1};
        unsigned int threads[3] = {(unsigned int)block, 1, 1};
        rc = cj_kernel_launch_args(launcher, kv, grid, threads, c->handle, args, c->nops + 1);
    } else {
        rc = -1;
    }
    Py_DECREF(count);
    return rc;
}

/* ---- results ---- */

static int sync_if_stream(call *c) {
    if (c->handle == NULL) {
        return 0; /* the legacy default stream: the copies were synchronous */
    }
    CUresult res;
    Py_BEGIN_ALLOW_THREADS
    res = CJ_CU_RAW(cuStreamSynchronize, c->handle);
    Py_END_ALLOW_THREADS
    return cj_cu_result(res, "cuStreamSynchronize");
}

/* Output k as the caller gets it: the object given as out, the device array when an input was
 * on the device, else a NumPy array (a NumPy scalar for 0-d results, as NumPy's ufuncs). */
static PyObject *result_of(call *c, int k, int on_device) {
    operand *op = &c->ops[k];
    if (op->obj != NULL) {
        if (op->kind == OPND_HOST) {
            PyObject *h = cj_copy_to_host((cj_DeviceNDArrayObject *)op->dev, op->host, c->stream);
            if (h == NULL) {
                return NULL;
            }
            Py_DECREF(h);
        }
        return Py_NewRef(op->obj);
    }
    if (on_device) {
        return Py_NewRef(op->dev);
    }
    PyObject *h = cj_copy_to_host((cj_DeviceNDArrayObject *)op->dev, NULL, c->stream);
    return h == NULL ? NULL : PyArray_Return((PyArrayObject *)h);
}

static PyObject *results(call *c) {
    int nout = c->u->nout;
    PyObject *out = nout == 1 ? NULL : PyTuple_New(nout);
    if (nout > 1 && out == NULL) {
        return NULL;
    }
    for (int j = 0; j < nout; j++) {
        PyObject *r = result_of(c, c->u->nin + j, c->on_device);
        if (r == NULL) {
            Py_XDECREF(out);
            return NULL;
        }
        if (nout == 1) {
            out = r;
        } else {
            PyTuple_SET_ITEM(out, j, r);
        }
    }
    if (sync_if_stream(c) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

/* ---- the call ---- */

static int bad_arguments(cj_CudaUFunc *u, Py_ssize_t nargs) {
    PyErr_Format(PyExc_TypeError, "%U() takes %d input(s) and optionally %d output(s), got %zd "
                 "positional argument(s)", u->name, u->nin, u->nout, nargs);
    return -1;
}

/* Reads out= (an array, or a tuple of nout arrays) and stream= into the call. */
static int parse_keywords(call *c, PyObject *const *kwvalues, PyObject *kwnames,
                          PyObject **outs, int have_outs) {
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    cj_CudaUFunc *u = c->u;
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, i), *value = kwvalues[i];
        if (PyUnicode_CompareWithASCIIString(key, "stream") == 0) {
            c->stream = value;
            continue;
        }
        if (PyUnicode_CompareWithASCIIString(key, "out") != 0) {
            PyErr_Format(PyExc_TypeError, "%U() got an unexpected keyword argument %R",
                         u->name, key);
            return -1;
        }
        if (value == Py_None) {
            continue;
        }
        if (have_outs) {
            PyErr_Format(PyExc_TypeError, "%U(): outputs given both positionally and as out=",
                         u->name);
            return -1;
        }
        if (PyTuple_Check(value)) {
            if (PyTuple_GET_SIZE(value) != u->nout) {
                PyErr_Format(PyExc_ValueError, "%U(): out= must have %d item(s)", u->name,
                             u->nout);
                return -1;
            }
            for (int j = 0; j < u->nout; j++) {
                outs[j] = PyTuple_GET_ITEM(value, j);
            }
        } else if (u->nout == 1) {
            outs[0] = value;
        } else {
            PyErr_Format(PyExc_TypeError, "%U(): out= must be a tuple of %d arrays", u->name,
                         u->nout);
            return -1;
        }
    }
    return cj_stream_handle(c->stream, &c->handle);
}

static int classify_all(call *c, PyObject *const *args, PyObject **outs) {
    for (int k = 0; k < c->nops; k++) {
        PyObject *obj = k < c->u->nin ? args[k] : outs[k - c->u->nin];
        if (k >= c->u->nin && (obj == NULL || obj == Py_None)) {
            memset(&c->ops[k], 0, sizeof(operand)); /* an output to allocate */
        } else if (classify(&c->ops[k], obj) < 0) {
            return -1;
        } else if (k >= c->u->nin && c->ops[k].obj != obj) { /* converted: not an array */
            PyErr_Format(PyExc_TypeError, "%U: output %d must be an array, not %.100s",
                         c->u->name, k - c->u->nin, Py_TYPE(obj)->tp_name);
            return -1;
        }
    }
    return 0;
}

static PyObject *cuda_ufunc_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf,
                                       PyObject *kwnames) {
    cj_CudaUFunc *u = (cj_CudaUFunc *)self;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs < u->nin || nargs > u->nin + u->nout) {
        bad_arguments(u, nargs);
        return NULL;
    }
    PyObject *outs[MAX_OPERANDS] = {NULL};
    for (Py_ssize_t j = u->nin; j < nargs; j++) {
        outs[j - u->nin] = args[j];
    }
    call cs, *c = &cs; /* only what each step reads is initialised, for speed */
    c->u = u;
    c->nops = u->nin + u->nout;
    c->stream = NULL;
    c->handle = NULL;
    for (int k = 0; k < c->nops; k++) {
        c->ops[k].host = c->ops[k].dev = NULL;
        c->ops[k].descr = NULL;
    }
    PyObject *result = NULL;
    if (parse_keywords(c, args + nargs, kwnames, outs, nargs > u->nin) < 0 ||
        (c->device = cj_ctx_ensure()) < 0 || classify_all(c, args, outs) < 0 ||
        (c->li = select_loop(u, c->ops)) < 0) {
        goto done;
    }
    c->l = &u->loops[c->li];
    if (broadcast(c) < 0 || bind_core(c) < 0 || place_operands(c) < 0 || launch(c) < 0) {
        goto done;
    }
    result = results(c);
done:
    for (int k = 0; k < c->nops; k++) {
        operand_clear(&c->ops[k]);
    }
    return result;
}

/* ---- construction ---- */

/* Loop `l` from a Signature: a ufunc's `ret(args)` (scalars), or a gufunc's `(args, outs)`
 * whose arrays have their operand's core dimensions. */
static int loop_init(cj_CudaUFunc *u, loop *l, PyObject *sig) {
    if (!PyObject_TypeCheck(sig, cj_SignatureType)) {
        PyErr_SetString(PyExc_TypeError, "CudaUFunc loops must be Signatures");
        return -1;
    }
    const cj_signature_obj *s = (const cj_signature_obj *)sig;
    int nops = u->nin + u->nout;
    int has_ret = s->ret != NULL && s->ret->kind != CJ_VOID && s->ret->kind != CJ_NONE;
    if (u->gufunc ? (s->nargs != nops || has_ret) : (s->nargs != u->nin || !has_ret)) {
        PyErr_Format(PyExc_TypeError, "signature %R does not fit %d input(s) and %d output(s)%s",
                     sig, u->nin, u->nout, u->gufunc ? " (a gufunc returns nothing)" : "");
        return -1;
    }
    if ((l->text = PyObject_Str(sig)) == NULL) {
        return -1;
    }
    for (int k = 0; k < nops; k++) {
        const cj_type *t = k < s->nargs ? s->args[k] : s->ret;
        l->is_array[k] = t->kind == CJ_ARRAY;
        const cj_type *elem = l->is_array[k] ? t->dtype : t;
        int core = u->core_ndim[k];
        int ndim_ok = l->is_array[k] ? u->gufunc && (t->ndim == core || (core == 0 && t->ndim == 1))
                                     : core == 0 && (k < u->nin || !u->gufunc);
        int typenum = cj_type_npy_typenum(elem);
        if (!ndim_ok || typenum < 0) {
            PyErr_Format(PyExc_TypeError, "signature %R: argument %d (%s) does not fit its "
                         "layout of %d core dimension(s)%s", sig, k, t->name, core,
                         u->gufunc && k >= u->nin && !l->is_array[k]
                             ? "; outputs must be arrays" : "");
            return -1;
        }
        if ((l->descr[k] = PyArray_DescrFromType(typenum)) == NULL) {
            return -1;
        }
    }
    return 0;
}

static int core_init(cj_CudaUFunc *u, PyObject *core) {
    if (!PyTuple_Check(core) || PyTuple_GET_SIZE(core) != u->nin + u->nout) {
        PyErr_SetString(PyExc_TypeError, "core must be a tuple with a tuple of ids per operand");
        return -1;
    }
    for (int k = 0; k < u->nin + u->nout; k++) {
        PyObject *dims = PyTuple_GET_ITEM(core, k);
        if (!PyTuple_Check(dims) || PyTuple_GET_SIZE(dims) > MAX_CORE) {
            PyErr_Format(PyExc_ValueError, "operand %d: at most %d core dimensions", k, MAX_CORE);
            return -1;
        }
        u->core_ndim[k] = (int)PyTuple_GET_SIZE(dims);
        u->gufunc |= u->core_ndim[k] > 0;
        for (int j = 0; j < u->core_ndim[k]; j++) {
            long id = PyLong_AsLong(PyTuple_GET_ITEM(dims, j));
            if (id < 0 || id >= MAX_OPERANDS * MAX_CORE) {
                if (!PyErr_Occurred()) {
                    PyErr_SetString(PyExc_ValueError, "core dimension ids must be small ints");
                }
                return -1;
            }
            u->core_dim[k][j] = (int)id;
            u->ncore_ids = (int)id + 1 > u->ncore_ids ? (int)id + 1 : u->ncore_ids;
        }
    }
    return 0;
}

static PyObject *cuda_ufunc_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"owner", "name", "nin", "nout", "signatures", "core", "build",
                             "gufunc", NULL};
    PyObject *owner, *name, *sigs, *core, *build;
    int nin, nout, gufunc = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OUiiO!O!O|p:CudaUFunc", kwlist, &owner,
                                     &name, &nin, &nout, &PyList_Type, &sigs, &PyTuple_Type,
                                     &core, &build, &gufunc)) {
        return NULL;
    }
    if (nin < 1 || nout < 1 || nin + nout > MAX_OPERANDS - 1 || !PyCallable_Check(build)) {
        PyErr_Format(PyExc_ValueError, "a CUDA ufunc takes 1 to %d operands and a callable "
                     "build", MAX_OPERANDS - 1);
        return NULL;
    }
    cj_CudaUFunc *u = (cj_CudaUFunc *)type->tp_alloc(type, 0);
    if (u == NULL) {
        return NULL;
    }
    u->vectorcall = cuda_ufunc_vectorcall;
    u->owner = Py_NewRef(owner);
    u->name = Py_NewRef(name);
    u->build = Py_NewRef(build);
    u->nin = nin;
    u->nout = nout;
    u->gufunc = gufunc;
    Py_ssize_t nloops = PyList_GET_SIZE(sigs);
    u->loops = PyMem_Calloc(nloops ? (size_t)nloops : 1, sizeof(loop));
    if (u->loops == NULL) {
        Py_DECREF(u);
        return PyErr_NoMemory();
    }
    if (core_init(u, core) < 0) {
        Py_DECREF(u);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nloops; i++) {
        u->nloops++;
        if (loop_init(u, &u->loops[i], PyList_GET_ITEM(sigs, i)) < 0) {
            Py_DECREF(u);
            return NULL;
        }
    }
    return (PyObject *)u;
}

static int cuda_ufunc_traverse(PyObject *self, visitproc visit, void *arg) {
    cj_CudaUFunc *u = (cj_CudaUFunc *)self;
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(u->owner);
    Py_VISIT(u->build);
    for (int i = 0; i < u->nforms; i++) {
        Py_VISIT(u->forms[i].launcher);
    }
    return 0;
}

static int cuda_ufunc_clear(PyObject *self) {
    cj_CudaUFunc *u = (cj_CudaUFunc *)self;
    Py_CLEAR(u->owner);
    Py_CLEAR(u->build);
    for (int i = 0; i < u->nforms; i++) {
        Py_CLEAR(u->forms[i].launcher);
    }
    return 0;
}

static void cuda_ufunc_dealloc(PyObject *self) {
    cj_CudaUFunc *u = (cj_CudaUFunc *)self;
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    cuda_ufunc_clear(self);
    Py_CLEAR(u->name);
    for (int i = 0; i < u->nloops; i++) {
        Py_XDECREF(u->loops[i].text);
        for (int k = 0; k < u->nin + u->nout; k++) {
            Py_XDECREF(u->loops[i].descr[k]);
        }
    }
    PyMem_Free(u->loops);
    PyMem_Free(u->forms);
    tp->tp_free(self);
    Py_DECREF(tp);
}

/* Attributes the C type lacks come from the Python half (reduce, signatures, py_func...). */
static PyObject *cuda_ufunc_getattro(PyObject *self, PyObject *name) {
    PyObject *v = PyObject_GenericGetAttr(self, name);
    cj_CudaUFunc *u = (cj_CudaUFunc *)self;
    if (v != NULL || !PyErr_ExceptionMatches(PyExc_AttributeError) || u->owner == NULL) {
        return v;
    }
    PyErr_Clear();
    return PyObject_GetAttr(u->owner, name);
}

static PyObject *cuda_ufunc_repr(PyObject *self) {
    cj_CudaUFunc *u = (cj_CudaUFunc *)self;
    return PyUnicode_FromFormat("<cujit.cuda %s %U>", u->gufunc ? "gufunc" : "ufunc", u->name);
}

static PyObject *cuda_ufunc_name(PyObject *self, void *closure) {
    return Py_NewRef(((cj_CudaUFunc *)self)->name);
}

static PyObject *cuda_ufunc_forms(PyObject *self, void *closure) {
    return PyLong_FromLong(((cj_CudaUFunc *)self)->nforms);
}

static PyGetSetDef cuda_ufunc_getset[] = {
    {"__name__", cuda_ufunc_name, NULL, "the function's name", NULL},
    {"_kernels_built", cuda_ufunc_forms, NULL, "generated kernels so far (tests)", NULL},
    {NULL},
};

static PyMemberDef cuda_ufunc_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(cj_CudaUFunc, vectorcall), READONLY},
    {"nin", T_INT, offsetof(cj_CudaUFunc, nin), READONLY, "number of inputs"},
    {"nout", T_INT, offsetof(cj_CudaUFunc, nout), READONLY, "number of outputs"},
    {NULL},
};

static PyType_Slot cuda_ufunc_slots[] = {
    {Py_tp_new, cuda_ufunc_new},
    {Py_tp_dealloc, cuda_ufunc_dealloc},
    {Py_tp_traverse, cuda_ufunc_traverse},
    {Py_tp_clear, cuda_ufunc_clear},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_getattro, cuda_ufunc_getattro},
    {Py_tp_repr, cuda_ufunc_repr},
    {Py_tp_getset, cuda_ufunc_getset},
    {Py_tp_members, cuda_ufunc_members},
    {Py_tp_doc, "A CUDA ufunc or gufunc (vectorize/guvectorize with target='cuda')."},
    {0, NULL},
};

static PyType_Spec cuda_ufunc_spec = {
    .name = "cujit._core.CudaUFunc",
    .basicsize = sizeof(cj_CudaUFunc),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .slots = cuda_ufunc_slots,
};

int cj_ufunc_cuda_init(PyObject *module) {
    cj_CudaUFuncType = (PyTypeObject *)PyType_FromSpec(&cuda_ufunc_spec);
    if (cj_CudaUFuncType == NULL) {
        return -1;
    }
    Py_INCREF(cj_CudaUFuncType);
    return PyModule_AddObject(module, "CudaUFunc", (PyObject *)cj_CudaUFuncType);
}
