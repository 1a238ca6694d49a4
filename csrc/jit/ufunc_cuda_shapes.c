/* ufunc_cuda_shapes.c: the shapes of a CUDA ufunc call and where its data lives.
 * Loop dimensions broadcast as in NumPy; a gufunc's core dimensions bind to one size each.
 * Host inputs are copied to transient device memory (and scalars given for a gufunc's array
 * arguments); new outputs are allocated (Fortran-ordered when every array input is), on the
 * device when an input was there, else transient until the results are copied back. */
#include "jit/ufunc_cuda.h"

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
        if (!cj_cuf_is_array(&c->ops[k])) {
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
int cj_cuf_broadcast(call *c) {
    c->loop_nd = 0;
    for (int k = 0; k < c->nops; k++) {
        if (!cj_cuf_is_array(&c->ops[k])) {
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
        if (!cj_cuf_is_array(&c->ops[k])) {
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
        if (cj_cuf_is_array(op) && (loop_ndim_of(c, k) != c->loop_nd ||
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
int cj_cuf_bind_core(call *c) {
    cj_CudaUFunc *u = c->u;
    for (int i = 0; i < u->ncore_ids; i++) {
        c->core_size[i] = -1;
    }
    for (int k = 0; k < c->nops; k++) {
        const operand *op = &c->ops[k];
        if (!cj_cuf_is_array(op)) {
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
    cj_cuf_take_device_layout(op, d);
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
        if (!cj_cuf_is_array(op) || op->ndim < 2) {
            continue;
        }
        Py_ssize_t itemsize = PyDataType_ELSIZE(op->descr);
        if (!cj_layout_is_contiguous(op->ndim, op->shape, op->strides, itemsize, 1) ||
            cj_layout_is_contiguous(op->ndim, op->shape, op->strides, itemsize, 0)) {
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
        if (cj_layout_check_ndim(ndim) < 0) {
            return -1;
        }
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
        cj_cuf_take_device_layout(op, (cj_DeviceNDArrayObject *)op->dev);
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
        cj_cuf_take_device_layout(op, d);
    }
    return 0;
}

/* Host inputs to the device, outputs made; after select_loop, broadcast and bind_core. */
int cj_cuf_place_operands(call *c) {
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
