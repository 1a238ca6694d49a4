/* ufunc_cuda_launch.c: the launch of a CUDA ufunc call and its results. Loop dimensions
 * merge where every operand allows (fewer dimensions, cheaper indexing in the kernel); the
 * generated kernel for (loop, loop dimensions, scalar inputs) is built on first use and run
 * grid-stride through jit/kernel.h's launcher API (cj_kernel_version_for,
 * cj_kernel_max_threads, cj_kernel_launch_args). Results stay on the device when an input
 * was there, else they come back as NumPy arrays (numba's rule). */
#include "jit/ufunc_cuda.h"

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
        if (!cj_cuf_is_array(op)) {
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
    int c_contig = cj_layout_is_contiguous(x->ndim, x->shape, x->strides, itemsize, 0);
    int f_contig = cj_layout_is_contiguous(x->ndim, x->shape, x->strides, itemsize, 1);
    x->type = cj_array_type_of_layout(op->descr->type_num, x->ndim, c_contig, f_contig,
                                      k < c->u->nin && op->readonly);
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

int cj_cuf_launch(call *c) {
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
        if (cj_cuf_is_array(&c->ops[k])) {
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

PyObject *cj_cuf_results(call *c) {
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
