/* launch.c: the launch path of cuda.jit kernels, in C, with no Python code run:
 *   typeof each argument (DeviceNDArray and scalars without allocating) -> the loaded version
 *   (kernel.c; compiled and loaded on a miss) -> pack the flattened parameters (lower_kernel.h's
 *   ABI) into a stack buffer -> cuLaunchKernel -> copy NumPy arguments back -> in debug
 *   versions, read the exception record and raise it.
 * NumPy arrays are copied to the device before the launch and back after it (as numba does);
 * objects with __cuda_array_interface__ are used in place. The C API of kernel.h serves launch
 * paths that prepare their own arguments (the CUDA ufuncs). */
#include <string.h>

#include "jit/kernel_internal.h"
#include "lower/lower_kernel.h"
#include "util/npy.h"

#define MAX_WORDS 512
/* shared memory a block may use without opting in (cuFuncSetAttribute) */
#define MAX_SHARED_PER_BLOCK (48 * 1024)

/* ---- argument types ---- */

/* types/'s array type of a dtype (records too), with the launcher's words for a dtype
 * kernels do not take. `descr` is borrowed. */
static const cj_type *array_type(PyArray_Descr *descr, int ndim, int c_contig, int f_contig,
                                 int readonly) {
    const cj_type *t = cj_array_type_of_descr((PyObject *)descr, ndim, c_contig, f_contig,
                                              readonly);
    if (t == NULL && !PyErr_Occurred()) {
        PyErr_Format(PyExc_TypeError, "cujit kernels do not take arrays of dtype %R",
                     (PyObject *)descr);
    }
    return t;
}

/* A NumPy argument of kernel[...](...): copied in before the launch and back after. Borrowed,
 * except the 0-d array a record argument is viewed as (`owned`: released after the launch). */
typedef struct host_arg {
    PyArrayObject *array;
    size_t nbytes;
    int owned;
} host_arg;

/* A record (np.void) argument, as numba-cuda passes it: a device copy of its bytes, copied
 * back after the launch (writes reach the caller's array). Its bytes are viewed as a 0-d
 * array so the NumPy arguments' copy-in and copy-back serve it. */
static const cj_type *record_arg(PyObject *arg, const cj_type *t, cj_launch_arg *slot,
                                 host_arg *host) {
    PyVoidScalarObject *v = (PyVoidScalarObject *)arg;
    PyArray_Descr *descr = (PyArray_Descr *)Py_NewRef(v->descr);
    int flags = NPY_ARRAY_C_CONTIGUOUS | (v->flags & NPY_ARRAY_WRITEABLE); /* read-only: no
                                                                             * copy back */
    PyObject *view = PyArray_NewFromDescr(&PyArray_Type, descr, 0, NULL, NULL, v->obval, flags,
                                          NULL); /* steals descr */
    if (view == NULL || PyArray_SetBaseObject((PyArrayObject *)view, Py_NewRef(arg)) < 0) {
        Py_XDECREF(view); /* SetBaseObject steals the base, even on failure */
        return NULL;
    }
    host->array = (PyArrayObject *)view;
    host->owned = 1;
    host->nbytes = (size_t)t->itemsize;
    slot->data = 0; /* until copy_in */
    slot->ndim = 0;
    return t;
}

/* A scalar argument's type and value; a record goes to record_arg. */
static const cj_type *scalar_type(PyObject *arg, cj_launch_arg *slot, host_arg *host) {
    const cj_type *t = cj_typeof(arg);
    if (t != NULL && t->kind == CJ_RECORD) {
        return record_arg(arg, t, slot, host);
    }
    slot->value = arg;
    return t;
}

/* A cuda.to_device(record) (pkg/cujit/cuda/arrays.py's DeviceRecord, known by its class name
 * and its `_array`, a 0-d device array of the record's dtype) passes its device address as
 * the record; any other object is typed by cj_typeof, whose TypeError names it. */
static const cj_type *device_record(PyObject *arg, cj_launch_arg *slot) {
    PyObject *inner = PyObject_GetAttrString(arg, "_array");
    if (inner == NULL || !cj_DeviceNDArray_Check(inner) ||
        ((cj_DeviceNDArrayObject *)inner)->ndim != 0 ||
        strcmp(Py_TYPE(arg)->tp_name, "DeviceRecord") != 0) {
        Py_XDECREF(inner);
        PyErr_Clear();
        return cj_typeof(arg);
    }
    cj_DeviceNDArrayObject *a = (cj_DeviceNDArrayObject *)inner;
    const cj_type *t = NULL;
    if (cj_ctx_check_generation(a->device, a->generation) == 0) {
        t = cj_type_from_descr((PyObject *)a->dtype);
        if ((t == NULL && !PyErr_Occurred()) || (t != NULL && t->kind != CJ_RECORD)) {
            t = NULL;
            PyErr_Format(PyExc_TypeError, "a DeviceRecord of dtype %R is not a record cujit "
                                          "takes", (PyObject *)a->dtype);
        }
        slot->data = a->data; /* the device array keeps it: `arg` holds the array */
        slot->ndim = 0;
    }
    Py_DECREF(inner);
    return t;
}

/* The type of a launch argument; fills its layout (arrays) or value (scalars) in `slot`. */
static const cj_type *typeof_arg(PyObject *arg, cj_launch_arg *slot, host_arg *host) {
    host->array = NULL;
    host->owned = 0;
    slot->value = NULL;
    if (cj_DeviceNDArray_Check(arg)) {
        cj_DeviceNDArrayObject *a = (cj_DeviceNDArrayObject *)arg;
        if (cj_ctx_check_generation(a->device, a->generation) < 0) {
            return NULL;
        }
        slot->data = a->data;
        slot->ndim = a->ndim;
        memcpy(slot->shape, a->shape, sizeof(Py_ssize_t) * (size_t)a->ndim);
        memcpy(slot->strides, a->strides, sizeof(Py_ssize_t) * (size_t)a->ndim);
        return array_type(a->dtype, a->ndim, cj_devicearray_is_c_contiguous(a),
                          cj_devicearray_is_f_contiguous(a), a->readonly);
    }
    if (PyArray_Check(arg)) {
        PyArrayObject *h = (PyArrayObject *)arg;
        if (cj_layout_check_ndim(PyArray_NDIM(h)) < 0) {
            return NULL;
        }
        host->array = h;
        slot->data = 0; /* until copy_in */
        slot->ndim = PyArray_NDIM(h);
        host->nbytes = (size_t)PyArray_NBYTES(h);
        /* the device copy is C-contiguous */
        memcpy(slot->shape, PyArray_DIMS(h), sizeof(Py_ssize_t) * (size_t)slot->ndim);
        cj_layout_default_strides(slot->ndim, slot->shape, PyArray_ITEMSIZE(h), 0,
                                  slot->strides);
        return array_type(PyArray_DESCR(h), slot->ndim, 1, slot->ndim <= 1, 0);
    }
    if (PyLong_Check(arg) || PyFloat_Check(arg) || PyBool_Check(arg) || PyComplex_Check(arg) ||
        PyTuple_Check(arg) || PyArray_IsScalar(arg, Generic)) {
        return scalar_type(arg, slot, host);
    }
    cj_cai cai;
    int rc = cj_cai_fast(arg, &cai); /* CuPy, PyTorch: no dict */
    if (rc < 0) {
        return NULL;
    }
    if (rc == 0) {
        PyObject *cai_attr = PyObject_GetAttrString(arg, "__cuda_array_interface__");
        if (cai_attr == NULL) {
            if (!PyErr_ExceptionMatches(PyExc_AttributeError)) {
                return NULL; /* the interface says why it cannot be had (torch: grad) */
            }
            PyErr_Clear();
            return device_record(arg, slot); /* else cj_typeof's TypeError names the value */
        }
        rc = cj_cai_parse_dict(cai_attr, &cai);
        Py_DECREF(cai_attr);
        if (rc < 0) {
            return NULL;
        }
    }
    PyArray_Descr *d = cj_cai_dtype(&cai);
    if (d == NULL) {
        return NULL;
    }
    slot->data = cai.data;
    slot->ndim = cai.ndim;
    memcpy(slot->shape, cai.shape, sizeof(Py_ssize_t) * (size_t)cai.ndim);
    memcpy(slot->strides, cai.strides, sizeof(Py_ssize_t) * (size_t)cai.ndim);
    /* typed as a DeviceNDArray of the same layout would be */
    int c_contig = cj_layout_is_contiguous(cai.ndim, cai.shape, cai.strides, cai.itemsize, 0);
    int f_contig = cj_layout_is_contiguous(cai.ndim, cai.shape, cai.strides, cai.itemsize, 1);
    const cj_type *t = array_type(d, cai.ndim, c_contig, f_contig, cai.readonly);
    Py_DECREF(d);
    return t;
}

/* ---- packing (lower_kernel.h's ABI): each leaf in its own 8-byte-aligned word ---- */

typedef struct packer {
    _Alignas(16) unsigned char words[MAX_WORDS][16];
    void *params[MAX_WORDS];
    int n;
} packer;

static void *next_word(packer *p) {
    if (p->n >= MAX_WORDS) {
        PyErr_SetString(cj_UnsupportedError, "too many kernel parameters");
        return NULL;
    }
    p->params[p->n] = p->words[p->n];
    return p->words[p->n++];
}

static int pack_value(packer *p, PyObject *value, const cj_type *t) {
    switch (t->kind) {
    case CJ_TUPLE: {
        if (!PyTuple_Check(value) || PyTuple_GET_SIZE(value) != t->n) {
            PyErr_Format(PyExc_TypeError, "expected a tuple of %d items for %s", t->n, t->name);
            return -1;
        }
        for (int i = 0; i < t->n; i++) {
            if (pack_value(p, PyTuple_GET_ITEM(value, i), t->items[i]) < 0) {
                return -1;
            }
        }
        return 0;
    }
    case CJ_COMPLEX: {
        unsigned char tmp[16];
        if (cj_unbox(value, t, tmp) < 0) {
            return -1;
        }
        size_t half = (size_t)t->bits / 16;
        void *re = next_word(p), *im = re ? next_word(p) : NULL;
        if (im == NULL) {
            return -1;
        }
        memcpy(re, tmp, half);
        memcpy(im, tmp + half, half);
        return 0;
    }
    case CJ_BOOL:
    case CJ_INT:
    case CJ_FLOAT: {
        void *w = next_word(p);
        return w == NULL ? -1 : cj_unbox(value, t, w);
    }
    case CJ_ARRAY:
        PyErr_Format(PyExc_TypeError, "arrays inside tuples are not supported as kernel "
                                      "arguments (%s)", t->name);
        return -1;
    default:
        return 0; /* no data */
    }
}

/* `n` bytes at `v` in the next word; -1 with an exception when the words run out. */
static int pack_bytes(packer *p, const void *v, size_t n) {
    void *w = next_word(p);
    if (w == NULL) {
        return -1;
    }
    memcpy(w, v, n);
    return 0;
}

static int cannot_pass(const cj_launch_arg *s, const cj_type *decl) {
    PyErr_Format(PyExc_TypeError, "an argument of type %s cannot be passed as %s",
                 s->type->name, decl->name);
    return -1;
}

static int pack_array(packer *p, const cj_launch_arg *s, const cj_type *decl) {
    if (s->ndim != decl->ndim || s->type->dtype != decl->dtype ||
        (decl->layout != 'A' && decl->layout != s->type->layout)) {
        return cannot_pass(s, decl);
    }
    if (pack_bytes(p, &s->data, sizeof(CUdeviceptr)) < 0) {
        return -1;
    }
    for (int field = 0; field < 2; field++) {
        for (int d = 0; d < s->ndim; d++) {
            long long v = field == 0 ? (long long)s->shape[d] : (long long)s->strides[d];
            if (pack_bytes(p, &v, sizeof(v)) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

/* A record: the device address of its bytes (lower_kernel.h's ABI). */
static int pack_record(packer *p, const cj_launch_arg *s, const cj_type *decl) {
    return s->type != decl ? cannot_pass(s, decl) : pack_bytes(p, &s->data, sizeof(CUdeviceptr));
}

static int pack_args(packer *p, const version *v, const cj_launch_arg *args, int nargs) {
    p->n = 0;
    for (int i = 0; i < nargs; i++) {
        const cj_type *decl = v->ov->argtypes[i];
        int rc = args[i].type->kind == CJ_ARRAY    ? pack_array(p, &args[i], decl)
                 : args[i].type->kind == CJ_RECORD ? pack_record(p, &args[i], decl)
                                                   : pack_value(p, args[i].value, decl);
        if (rc < 0) {
            return -1;
        }
    }
    return 0;
}

/* ---- launch ---- */

static int dims_of(PyObject *t, unsigned int *out, const char *what) {
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 3) {
        PyErr_Format(PyExc_ValueError, "%s must be a tuple of 3 ints", what);
        return -1;
    }
    for (int i = 0; i < 3; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(t, i));
        if (v == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (v <= 0 || v > 0x7fffffffL) {
            PyErr_Format(PyExc_ValueError, "%s must be positive: %R", what, t);
            return -1;
        }
        out[i] = (unsigned int)v;
    }
    return 0;
}

/* Adds the kernel's name to a failure of the driver. */
static int launch_failed(cj_KernelLauncher *k) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    PyObject *msg = value ? PyObject_Str(value) : NULL;
    if (msg != NULL && type != NULL) {
        PyErr_Format(type, "launching kernel %U failed: %U", k->name, msg);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
    } else {
        PyErr_Restore(type, value, tb);
    }
    Py_XDECREF(msg);
    return -1;
}

static int check_exception(cj_KernelLauncher *k, version *v, CUstream stream) {
    unsigned int rec[7];
    if (CJ_CU(cuStreamSynchronize, stream) < 0 ||
        CJ_CU(cuMemcpyDtoH, rec, v->exc_info, sizeof(rec)) < 0) {
        return launch_failed(k);
    }
    if (rec[0] == 0) {
        return 0;
    }
    if (CJ_CU(cuMemsetD32, v->exc_info, 0, 7) < 0) {
        return -1;
    }
    PyObject *t = Py_BuildValue("(IIIIIII)", rec[0], rec[1], rec[2], rec[3], rec[4], rec[5],
                                rec[6]);
    PyObject *mod = t ? PyImport_ImportModule("cujit._core") : NULL;
    PyObject *exc = mod ? PyObject_CallMethod(mod, "cuda_exception", "(O)", t) : NULL;
    Py_XDECREF(mod);
    Py_XDECREF(t);
    if (exc == NULL) {
        return -1;
    }
    PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
    Py_DECREF(exc);
    return -1;
}

/* Checks the launch against the version's own limits, before the driver sees it. */
static int check_limits(cj_KernelLauncher *k, const version *v, const unsigned int *block,
                        long shmem) {
    /* 64 bits: launch() takes extents up to 2^31 each, whose product wraps 32 */
    if ((unsigned long long)block[0] * block[1] * block[2] > (unsigned long long)v->max_threads) {
        PyErr_Format(PyExc_ValueError, "blockdim (%u, %u, %u) has more threads than kernel %U "
                                       "can run per block (%d)", block[0], block[1], block[2],
                     k->name, v->max_threads);
        return -1;
    }
    if (shmem + v->static_shared > MAX_SHARED_PER_BLOCK) {
        PyErr_Format(PyExc_ValueError, "kernel %U asks for %ld bytes of dynamic shared memory; "
                                       "with its %d bytes of static shared memory the limit is "
                                       "%d", k->name, shmem, v->static_shared,
                     MAX_SHARED_PER_BLOCK);
        return -1;
    }
    return 0;
}

/* Packs the arguments and launches; 0, or -1 with the kernel's name in the message. */
static int pack_and_launch(cj_KernelLauncher *k, version *v, const unsigned int *grid,
                           const unsigned int *block, unsigned int shmem, CUstream stream,
                           const cj_launch_arg *args, int nargs) {
    packer pk; /* on the stack: no allocation per launch */
    if (pack_args(&pk, v, args, nargs) < 0) {
        return -1;
    }
    if (v->cooperative) {
        return cj_launch_cooperative(k, v, grid, block, shmem, stream, pk.params) < 0
                   ? launch_failed(k)
                   : 0;
    }
    if (CJ_CU(cuLaunchKernel, v->fn, grid[0], grid[1], grid[2], block[0], block[1], block[2],
              shmem, stream, pk.params, NULL) < 0) {
        return launch_failed(k);
    }
    return 0;
}

/* Copies a NumPy argument's device copy back into it (when writable) and frees the copy. */
static int copy_back(const host_arg *h, CUdeviceptr data, CUstream stream, int ok) {
    int rc = ok ? 0 : -1;
    if (ok && h->nbytes && PyArray_ISWRITEABLE(h->array)) {
        if (CJ_CU(cuStreamSynchronize, stream) < 0) {
            rc = -1;
        } else if (PyArray_IS_C_CONTIGUOUS(h->array)) {
            rc = CJ_CU(cuMemcpyDtoH, PyArray_DATA(h->array), data, h->nbytes);
        } else {
            PyArrayObject *tmp = (PyArrayObject *)PyArray_NewLikeArray(h->array, NPY_CORDER,
                                                                       NULL, 0);
            rc = tmp == NULL ? -1 : CJ_CU(cuMemcpyDtoH, PyArray_DATA(tmp), data, h->nbytes);
            if (rc == 0) {
                rc = PyArray_CopyInto(h->array, tmp);
            }
            Py_XDECREF(tmp);
        }
    }
    if (rc == 0) {
        return CJ_CU(cuMemFree, data);
    }
    (void)CJ_CU_RAW(cuMemFree, data);
    return -1;
}

/* Allocates a NumPy argument's device copy and copies it in; 0 or -1. */
static int copy_in(const host_arg *h, CUdeviceptr *data) {
    PyArrayObject *c = (PyArrayObject *)PyArray_FROM_OF((PyObject *)h->array,
                                                        NPY_ARRAY_C_CONTIGUOUS);
    int rc = c == NULL || CJ_CU(cuMemAlloc, data, h->nbytes ? h->nbytes : 1) < 0 ||
             (h->nbytes && CJ_CU(cuMemcpyHtoD, *data, PyArray_DATA(c), h->nbytes) < 0);
    Py_XDECREF(c);
    return rc ? -1 : 0;
}

/* Drops the 0-d views record arguments made (the first `n` host args are set). */
static void release_views(host_arg *hosts, Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < n; i++) {
        if (hosts[i].owned) {
            Py_CLEAR(hosts[i].array);
        }
    }
}

/* The launch itself, for a validated configuration; `args` borrowed. */
PyObject *cj_launch(cj_KernelLauncher *k, cj_launch_dims *dims, PyObject *stream_obj, long shmem,
                    PyObject *const *args, Py_ssize_t nargs) {
    CUstream stream;
    if (cj_stream_handle(stream_obj, &stream) < 0) {
        return NULL;
    }
    if (nargs > CJ_MAX_ARGS) {
        PyErr_Format(cj_UnsupportedError, "kernels take at most %d arguments", CJ_MAX_ARGS);
        return NULL;
    }
    int device = cj_ctx_ensure();
    if (device < 0) {
        return NULL;
    }
    cj_launch_arg slots[CJ_MAX_ARGS];
    host_arg hosts[CJ_MAX_ARGS];
    const cj_type *types[CJ_MAX_ARGS];
    int nhost = 0, ntyped = 0, rc = 0;
    for (; ntyped < nargs && rc == 0; ntyped++) {
        types[ntyped] = slots[ntyped].type = typeof_arg(args[ntyped], &slots[ntyped],
                                                        &hosts[ntyped]);
        rc = types[ntyped] == NULL ? -1 : 0;
        nhost += types[ntyped] != NULL && hosts[ntyped].array != NULL;
    }
    version *v = rc == 0 ? cj_launcher_version(k, types, (int)nargs, device) : NULL;
    if (v == NULL || (dims->ntasks >= 0 && cj_forall_dims(k, v, dims, shmem) < 0) ||
        check_limits(k, v, dims->block, shmem) < 0) {
        release_views(hosts, ntyped);
        return NULL;
    }
    /* NumPy arguments get device copies: slots[i].data is set once copied */
    for (Py_ssize_t i = 0; nhost && i < nargs; i++) {
        if (hosts[i].array != NULL && copy_in(&hosts[i], &slots[i].data) < 0) {
            rc = -1;
            break;
        }
    }
    if (rc == 0) {
        rc = pack_and_launch(k, v, dims->grid, dims->block, (unsigned int)shmem, stream, slots,
                             (int)nargs);
    }
    for (Py_ssize_t i = 0; nhost && i < nargs; i++) {
        if (hosts[i].array != NULL && slots[i].data != 0 &&
            copy_back(&hosts[i], slots[i].data, stream, rc == 0) < 0) {
            rc = -1;
        }
    }
    if (rc == 0 && v->exc_info != 0) {
        rc = check_exception(k, v, stream);
    }
    release_views(hosts, ntyped);
    if (rc < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---- C API (kernel.h) ---- */

cj_kernel_version *cj_kernel_version_for(PyObject *launcher, const cj_type *const *types,
                                         int nargs, int device) {
    cj_KernelLauncher *k = (cj_KernelLauncher *)launcher;
    if (!PyObject_TypeCheck(launcher, cj_KernelLauncherType) || nargs > CJ_MAX_ARGS) {
        PyErr_SetString(PyExc_TypeError, "a KernelLauncher of at most " Py_STRINGIFY(CJ_MAX_ARGS) " arguments is needed");
        return NULL;
    }
    return cj_launcher_version(k, types, nargs, device);
}

int cj_kernel_max_threads(const cj_kernel_version *v) {
    return v->max_threads;
}

int cj_kernel_launch_args(PyObject *launcher, cj_kernel_version *v, const unsigned int *grid,
                          const unsigned int *block, CUstream stream, const cj_launch_arg *args,
                          int nargs) {
    cj_KernelLauncher *k = (cj_KernelLauncher *)launcher;
    if (check_limits(k, v, block, 0) < 0 ||
        pack_and_launch(k, v, grid, block, 0, stream, args, nargs) < 0) {
        return -1;
    }
    return v->exc_info != 0 ? check_exception(k, v, stream) : 0;
}

PyObject *cj_launcher_launch(PyObject *self, PyObject *const *fargs, Py_ssize_t nfargs) {
    cj_KernelLauncher *k = (cj_KernelLauncher *)self;
    if (nfargs != 5 || !PyTuple_Check(fargs[4])) {
        PyErr_SetString(PyExc_TypeError, "launch(griddim, blockdim, stream, sharedmem, args)");
        return NULL;
    }
    cj_launch_dims dims = {.ntasks = -1};
    long shmem = PyLong_AsLong(fargs[3]);
    if (dims_of(fargs[0], dims.grid, "griddim") < 0 ||
        dims_of(fargs[1], dims.block, "blockdim") < 0 ||
        (shmem == -1 && PyErr_Occurred())) {
        return NULL;
    }
    if (shmem < 0) {
        PyErr_SetString(PyExc_ValueError, "sharedmem must not be negative");
        return NULL;
    }
    return cj_launch(k, &dims, fargs[2], shmem, &PyTuple_GET_ITEM(fargs[4], 0),
                     PyTuple_GET_SIZE(fargs[4]));
}
