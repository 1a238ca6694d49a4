/* kernel.c: the launch path of cuda.jit kernels, in C.
 *
 * _core.KernelLauncher(name, compile) holds a kernel's loaded versions. `compile` is a Python
 * callable taking a tuple of argument Types (the launch's) and returning the dict of
 * _core.cuda_compile for the version to use (whose signature may differ: eager signatures
 * convert their arguments). launch(griddim, blockdim, stream, sharedmem, args):
 *   typeof each argument (DeviceNDArray and scalars without allocating) -> find the version
 *   (compiling and loading it on a miss) -> pack the flattened parameters (lower_kernel.h's
 *   ABI) into a stack buffer -> cuLaunchKernel -> copy NumPy arguments back -> in debug
 *   versions, read the exception record and raise it.
 * NumPy arrays are copied to the device before the launch and back after it (as numba does);
 * objects with __cuda_array_interface__ are used in place. */
#include <string.h>

#include "cuda/driver.h"

#include <structmember.h>

#include "lower/lower.h"
#include "lower/lower_kernel.h"
#include "cuda/cuda.h"
#include "jit/kernel.h"
#include "jit/jit.h"
#include "util/npy.h"

#define MAX_WORDS 512
/* shared memory a block may use without opting in (cuFuncSetAttribute) */
#define MAX_SHARED_PER_BLOCK (48 * 1024)

enum { CU_FUNC_MAX_THREADS = 0, CU_FUNC_SHARED = 1, CU_FUNC_CONST = 2, CU_FUNC_LOCAL = 3,
       CU_FUNC_REGS = 4 };

struct cj_kernel_version {
    int nargs;
    const cj_type *key[CJ_MAX_ARGS];   /* the launch's argument types */
    const cj_type *decl[CJ_MAX_ARGS];  /* the compiled signature's */
    int device;
    unsigned long generation;
    CUmodule module;
    CUfunction fn;
    CUdeviceptr exc_info;           /* debug versions: the exception record, else 0 */
    int max_threads;
    int static_shared;              /* bytes of static shared memory */
    PyObject *info;                 /* the compile dict */
};
typedef struct cj_kernel_version version;

typedef struct {
    PyObject_HEAD
    PyObject *name;     /* str */
    PyObject *compile;  /* callable(argtypes) -> dict */
    version **vs;
    int n, cap;
} cj_KernelLauncher;

static PyTypeObject *cj_KernelLauncherType;

/* ---- argument types ---- */

/* types/'s cached array type, with the launcher's words for a dtype kernels do not take. */
static const cj_type *array_type(int typenum, int ndim, int c_contig, int f_contig,
                                 int readonly) {
    const cj_type *t = cj_array_type_of_layout(typenum, ndim, c_contig, f_contig, readonly);
    if (t == NULL && !PyErr_Occurred()) {
        PyErr_Format(PyExc_TypeError, "cujit kernels do not take arrays of NumPy type %d",
                     typenum);
    }
    return t;
}

/* A NumPy argument of kernel[...](...) (borrowed): copied in before the launch and back after. */
typedef struct host_arg {
    PyArrayObject *array;
    size_t nbytes;
} host_arg;

/* The type of a launch argument; fills its layout (arrays) or value (scalars) in `slot`. */
static const cj_type *typeof_arg(PyObject *arg, cj_launch_arg *slot, host_arg *host) {
    host->array = NULL;
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
        return array_type(a->dtype->type_num, a->ndim,
                          cj_devicearray_is_c_contiguous(a),
                          cj_devicearray_is_f_contiguous(a), a->readonly);
    }
    if (PyArray_Check(arg)) {
        PyArrayObject *h = (PyArrayObject *)arg;
        host->array = h;
        slot->data = 0; /* until copy_in */
        slot->ndim = PyArray_NDIM(h);
        host->nbytes = (size_t)PyArray_NBYTES(h);
        /* the device copy is C-contiguous (an empty one: strides outside a 0 are 0) */
        memcpy(slot->shape, PyArray_DIMS(h), sizeof(Py_ssize_t) * (size_t)slot->ndim);
        cj_layout_default_strides(slot->ndim, slot->shape, PyArray_ITEMSIZE(h), 0,
                                  CJ_EMPTY_STRIDES, slot->strides);
        return array_type(PyArray_TYPE(h), slot->ndim, 1, slot->ndim <= 1, 0);
    }
    if (PyLong_Check(arg) || PyFloat_Check(arg) || PyBool_Check(arg) || PyComplex_Check(arg) ||
        PyTuple_Check(arg) || PyArray_IsScalar(arg, Generic)) {
        slot->value = arg;
        return cj_typeof(arg);
    }
    PyObject *cai_attr = PyObject_GetAttrString(arg, "__cuda_array_interface__");
    if (cai_attr == NULL) {
        PyErr_Clear();
        return cj_typeof(arg); /* its TypeError names the value */
    }
    cj_cai cai;
    int rc = cj_cai_parse_dict(cai_attr, &cai);
    Py_DECREF(cai_attr);
    if (rc < 0) {
        return NULL;
    }
    PyArray_Descr *d = cj_cai_dtype(&cai);
    if (d == NULL) {
        return NULL;
    }
    int typenum = d->type_num;
    Py_DECREF(d);
    slot->data = cai.data;
    slot->ndim = cai.ndim;
    memcpy(slot->shape, cai.shape, sizeof(Py_ssize_t) * (size_t)cai.ndim);
    memcpy(slot->strides, cai.strides, sizeof(Py_ssize_t) * (size_t)cai.ndim);
    /* never 'F' past one dimension, and an empty one by its strides, as before */
    int c_contig = cj_layout_is_contiguous(cai.ndim, cai.shape, cai.strides, cai.itemsize, 0,
                                           CJ_EMPTY_SKIP_ZERO);
    return array_type(typenum, cai.ndim, c_contig, cai.ndim <= 1 && c_contig, cai.readonly);
}

/* ---- versions ---- */

static void version_free(version *v) {
    if (v == NULL) {
        return;
    }
    if (v->module != NULL && cj_ctx_check_generation(v->device, v->generation) == 0) {
        (void)CJ_CU_RAW(cuModuleUnload, v->module);
    }
    PyErr_Clear();
    Py_XDECREF(v->info);
    PyMem_Free(v);
}

static version *find(cj_KernelLauncher *k, const cj_type *const *types, int nargs, int device) {
    for (int i = 0; i < k->n; i++) {
        version *v = k->vs[i];
        if (v->nargs != nargs || v->device != device) {
            continue;
        }
        int same = 1;
        for (int a = 0; same && a < nargs; a++) {
            same = v->key[a] == types[a];
        }
        if (same) {
            return v;
        }
    }
    return NULL;
}

/* Compiles (through the Python callback) and loads the version for these types. */
static version *load(cj_KernelLauncher *k, const cj_type *const *types, int nargs, int device) {
    PyObject *key = PyTuple_New(nargs);
    for (int i = 0; key != NULL && i < nargs; i++) {
        PyObject *t = cj_type_to_py(types[i]);
        if (t == NULL) {
            Py_CLEAR(key);
            break;
        }
        Py_INCREF(t);
        PyTuple_SET_ITEM(key, i, t);
    }
    if (key == NULL) {
        return NULL;
    }
    PyObject *info = PyObject_CallOneArg(k->compile, key);
    Py_DECREF(key);
    if (info == NULL) {
        return NULL;
    }
    version *v = PyMem_Calloc(1, sizeof(version));
    if (v == NULL) {
        Py_DECREF(info);
        PyErr_NoMemory();
        return NULL;
    }
    v->info = info; /* steals */
    v->nargs = nargs;
    v->device = device;
    v->generation = cj_ctx_generation[device];
    memcpy(v->key, types, sizeof(cj_type *) * (size_t)nargs);
    PyObject *ptx = PyDict_Check(info) ? PyDict_GetItemString(info, "ptx") : NULL;
    PyObject *entry = PyDict_Check(info) ? PyDict_GetItemString(info, "entry") : NULL;
    PyObject *sig = PyDict_Check(info) ? PyDict_GetItemString(info, "signature") : NULL;
    PyObject *debug = PyDict_Check(info) ? PyDict_GetItemString(info, "debug") : NULL;
    if (ptx == NULL || !PyUnicode_Check(ptx) || entry == NULL || !PyUnicode_Check(entry) ||
        sig == NULL || !PyObject_TypeCheck(sig, cj_SignatureType) ||
        ((cj_signature_obj *)sig)->nargs != nargs) {
        PyErr_SetString(PyExc_TypeError, "the kernel's compile callback returned a bad result");
        version_free(v);
        return NULL;
    }
    memcpy(v->decl, ((cj_signature_obj *)sig)->args, sizeof(cj_type *) * (size_t)nargs);
    const char *image = PyUnicode_AsUTF8(ptx), *name = PyUnicode_AsUTF8(entry);
    if (image == NULL || name == NULL || CJ_CU(cuModuleLoadData, &v->module, image) < 0 ||
        CJ_CU(cuModuleGetFunction, &v->fn, v->module, name) < 0 ||
        CJ_CU(cuFuncGetAttribute, &v->max_threads, CU_FUNC_MAX_THREADS, v->fn) < 0 ||
        CJ_CU(cuFuncGetAttribute, &v->static_shared, CU_FUNC_SHARED, v->fn) < 0) {
        version_free(v);
        return NULL;
    }
    if (debug != NULL && PyObject_IsTrue(debug) == 1) {
        size_t size;
        if (CJ_CU(cuModuleGetGlobal, &v->exc_info, &size, v->module, CJ_CUDA_EXC_GLOBAL) < 0) {
            version_free(v);
            return NULL;
        }
    }
    if (k->n == k->cap) {
        int cap = k->cap ? k->cap * 2 : 4;
        version **vs = PyMem_Realloc(k->vs, sizeof(version *) * (size_t)cap);
        if (vs == NULL) {
            version_free(v);
            PyErr_NoMemory();
            return NULL;
        }
        k->vs = vs;
        k->cap = cap;
    }
    k->vs[k->n++] = v;
    return v;
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

static int pack_array(packer *p, const cj_launch_arg *s, const cj_type *decl) {
    if (s->ndim != decl->ndim || s->type->dtype != decl->dtype ||
        (decl->layout != 'A' && decl->layout != s->type->layout)) {
        PyErr_Format(PyExc_TypeError, "an argument of type %s cannot be passed as %s",
                     s->type->name, decl->name);
        return -1;
    }
    void *w = next_word(p);
    if (w == NULL) {
        return -1;
    }
    memcpy(w, &s->data, sizeof(CUdeviceptr));
    for (int field = 0; field < 2; field++) {
        for (int d = 0; d < s->ndim; d++) {
            long long v = field == 0 ? (long long)s->shape[d] : (long long)s->strides[d];
            if ((w = next_word(p)) == NULL) {
                return -1;
            }
            memcpy(w, &v, sizeof(v));
        }
    }
    return 0;
}

static int pack_args(packer *p, const version *v, const cj_launch_arg *args, int nargs) {
    p->n = 0;
    for (int i = 0; i < nargs; i++) {
        int rc = args[i].type->kind == CJ_ARRAY ? pack_array(p, &args[i], v->decl[i])
                                                : pack_value(p, args[i].value, v->decl[i]);
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
    if (block[0] * block[1] * block[2] > (unsigned int)v->max_threads) {
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

/* The launch itself, for a validated configuration; `args` borrowed. */
static PyObject *launch_core(cj_KernelLauncher *k, const unsigned int *grid,
                             const unsigned int *block, PyObject *stream_obj, long shmem,
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
    int nhost = 0;
    for (Py_ssize_t i = 0; i < nargs; i++) {
        types[i] = slots[i].type = typeof_arg(args[i], &slots[i], &hosts[i]);
        if (types[i] == NULL) {
            return NULL;
        }
        nhost += hosts[i].array != NULL;
    }
    version *v = find(k, types, (int)nargs, device);
    if ((v == NULL && (v = load(k, types, (int)nargs, device)) == NULL) ||
        check_limits(k, v, block, shmem) < 0) {
        return NULL;
    }
    /* NumPy arguments get device copies: slots[i].data is set once copied */
    int rc = 0;
    for (Py_ssize_t i = 0; nhost && i < nargs; i++) {
        if (hosts[i].array != NULL && copy_in(&hosts[i], &slots[i].data) < 0) {
            rc = -1;
            break;
        }
    }
    if (rc == 0) {
        rc = pack_and_launch(k, v, grid, block, (unsigned int)shmem, stream, slots, (int)nargs);
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
        PyErr_SetString(PyExc_TypeError, "a KernelLauncher of at most 64 arguments is needed");
        return NULL;
    }
    version *v = find(k, types, nargs, device);
    return v != NULL ? v : load(k, types, nargs, device);
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

static PyObject *launcher_launch(PyObject *self, PyObject *const *fargs, Py_ssize_t nfargs) {
    cj_KernelLauncher *k = (cj_KernelLauncher *)self;
    if (nfargs != 5 || !PyTuple_Check(fargs[4])) {
        PyErr_SetString(PyExc_TypeError, "launch(griddim, blockdim, stream, sharedmem, args)");
        return NULL;
    }
    unsigned int grid[3], block[3];
    long shmem = PyLong_AsLong(fargs[3]);
    if (dims_of(fargs[0], grid, "griddim") < 0 || dims_of(fargs[1], block, "blockdim") < 0 ||
        (shmem == -1 && PyErr_Occurred())) {
        return NULL;
    }
    if (shmem < 0) {
        PyErr_SetString(PyExc_ValueError, "sharedmem must not be negative");
        return NULL;
    }
    return launch_core(k, grid, block, fargs[2], shmem, &PyTuple_GET_ITEM(fargs[4], 0),
                       PyTuple_GET_SIZE(fargs[4]));
}

/* ---- kernel[griddim, blockdim(, stream(, sharedmem))]: validated here, before the driver ---- */

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    cj_KernelLauncher *launcher; /* owned */
    unsigned int grid[3], block[3];
    PyObject *stream;            /* owned */
    long shmem;
} cj_KernelLaunch;

static PyTypeObject *cj_KernelLaunchType;

static const unsigned int grid_limits[3] = {0x7fffffffu, 65535, 65535};
static const unsigned int block_limits[3] = {1024, 1024, 64};

static int dim_item(PyObject *v, const char *what, PyObject *whole, unsigned int *out) {
    if (PyBool_Check(v) || !PyLong_Check(v)) {
        PyErr_Format(PyExc_ValueError, "%s must be an int or a tuple of 1 to 3 ints, not %R",
                     what, whole);
        return -1;
    }
    int overflow;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (x == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow || x <= 0 || x > 0x7fffffffLL) {
        PyErr_Format(PyExc_ValueError, "%s must be positive and fit 31 bits, got %R", what, whole);
        return -1;
    }
    *out = (unsigned int)x;
    return 0;
}

static int parse_dim3(PyObject *v, const char *what, const unsigned int *limits,
                      unsigned int *out) {
    out[0] = out[1] = out[2] = 1;
    if (PyTuple_Check(v) || PyList_Check(v)) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(v);
        if (n < 1 || n > 3) {
            PyErr_Format(PyExc_ValueError, "%s must have 1 to 3 dimensions, got %R", what, v);
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            if (dim_item(PySequence_Fast_GET_ITEM(v, i), what, v, &out[i]) < 0) {
                return -1;
            }
        }
    } else if (dim_item(v, what, v, &out[0]) < 0) {
        return -1;
    }
    for (int i = 0; i < 3; i++) {
        if (out[i] > limits[i]) {
            PyErr_Format(PyExc_ValueError, "%s.%c = %u exceeds the maximum %u", what, "xyz"[i],
                         out[i], limits[i]);
            return -1;
        }
    }
    return 0;
}

static PyObject *kernel_launch_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf,
                                          PyObject *kwnames) {
    cj_KernelLaunch *l = (cj_KernelLaunch *)self;
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) > 0) {
        PyErr_Format(PyExc_TypeError, "kernel %U takes no keyword arguments",
                     l->launcher->name);
        return NULL;
    }
    return launch_core(l->launcher, l->grid, l->block, l->stream, l->shmem, args,
                       PyVectorcall_NARGS(nargsf));
}

/* configure((griddim, blockdim[, stream[, sharedmem]])) -> a launchable configuration. */
static PyObject *launcher_configure(PyObject *self, PyObject *config) {
    if (!PyTuple_Check(config)) {
        PyErr_Format(PyExc_ValueError, "a kernel launch needs [griddim, blockdim], not [%R]",
                     config);
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(config);
    if (n < 2 || n > 4) {
        PyErr_Format(PyExc_ValueError, "a kernel launch takes [griddim, blockdim(, stream(, "
                                       "sharedmem))], got %zd items", n);
        return NULL;
    }
    unsigned int grid[3], block[3];
    if (parse_dim3(PyTuple_GET_ITEM(config, 0), "griddim", grid_limits, grid) < 0 ||
        parse_dim3(PyTuple_GET_ITEM(config, 1), "blockdim", block_limits, block) < 0) {
        return NULL;
    }
    unsigned long threads = (unsigned long)block[0] * block[1] * block[2];
    if (threads > 1024) {
        PyErr_Format(PyExc_ValueError, "blockdim %R has %lu threads per block; the maximum is "
                                       "1024", PyTuple_GET_ITEM(config, 1), threads);
        return NULL;
    }
    long shmem = 0;
    if (n == 4) {
        PyObject *s = PyTuple_GET_ITEM(config, 3);
        if (PyBool_Check(s) || !PyLong_Check(s)) {
            PyErr_Format(PyExc_ValueError, "sharedmem must be an int (bytes), not %R", s);
            return NULL;
        }
        shmem = PyLong_AsLong(s);
        if (shmem == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (shmem < 0) {
            PyErr_Format(PyExc_ValueError, "sharedmem must not be negative, not %ld", shmem);
            return NULL;
        }
    }
    cj_KernelLaunch *l = PyObject_GC_New(cj_KernelLaunch, cj_KernelLaunchType);
    if (l == NULL) {
        return NULL;
    }
    l->vectorcall = kernel_launch_vectorcall;
    l->launcher = (cj_KernelLauncher *)Py_NewRef(self);
    memcpy(l->grid, grid, sizeof(grid));
    memcpy(l->block, block, sizeof(block));
    l->stream = Py_NewRef(n >= 3 ? PyTuple_GET_ITEM(config, 2) : Py_None);
    l->shmem = shmem;
    PyObject_GC_Track(l);
    return (PyObject *)l;
}

static int kernel_launch_traverse(PyObject *self, visitproc visit, void *arg) {
    cj_KernelLaunch *l = (cj_KernelLaunch *)self;
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(l->launcher);
    Py_VISIT(l->stream);
    return 0;
}

static int kernel_launch_clear(PyObject *self) {
    cj_KernelLaunch *l = (cj_KernelLaunch *)self;
    Py_CLEAR(l->launcher);
    Py_CLEAR(l->stream);
    return 0;
}

static void kernel_launch_dealloc(PyObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    kernel_launch_clear(self);
    PyObject_GC_Del(self);
    Py_DECREF(tp);
}

static PyObject *dims_tuple(const unsigned int *d) {
    return Py_BuildValue("(III)", d[0], d[1], d[2]);
}

static PyObject *kl_griddim(PyObject *self, void *c) {
    return dims_tuple(((cj_KernelLaunch *)self)->grid);
}
static PyObject *kl_blockdim(PyObject *self, void *c) {
    return dims_tuple(((cj_KernelLaunch *)self)->block);
}
static PyObject *kl_stream(PyObject *self, void *c) {
    PyObject *s = ((cj_KernelLaunch *)self)->stream;
    return Py_NewRef(s);
}
static PyObject *kl_sharedmem(PyObject *self, void *c) {
    return PyLong_FromLong(((cj_KernelLaunch *)self)->shmem);
}

static PyObject *kernel_launch_repr(PyObject *self) {
    cj_KernelLaunch *l = (cj_KernelLaunch *)self;
    return PyUnicode_FromFormat("<launch of %U grid=(%u, %u, %u) block=(%u, %u, %u) "
                                "sharedmem=%ld>", l->launcher->name, l->grid[0], l->grid[1],
                                l->grid[2], l->block[0], l->block[1], l->block[2], l->shmem);
}

static PyGetSetDef kernel_launch_getset[] = {
    {"griddim", kl_griddim, NULL, "the grid, 3 ints", NULL},
    {"blockdim", kl_blockdim, NULL, "the block, 3 ints", NULL},
    {"stream", kl_stream, NULL, "the stream (None: the default stream)", NULL},
    {"sharedmem", kl_sharedmem, NULL, "dynamic shared memory, bytes", NULL},
    {NULL},
};

static PyMemberDef kernel_launch_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(cj_KernelLaunch, vectorcall), READONLY},
    {NULL},
};

static PyType_Slot kernel_launch_slots[] = {
    {Py_tp_dealloc, kernel_launch_dealloc},
    {Py_tp_traverse, kernel_launch_traverse},
    {Py_tp_clear, kernel_launch_clear},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_repr, kernel_launch_repr},
    {Py_tp_getset, kernel_launch_getset},
    {Py_tp_members, kernel_launch_members},
    {Py_tp_doc, "kernel[griddim, blockdim, stream, sharedmem]: call it with the arguments."},
    {0, NULL},
};

static PyType_Spec kernel_launch_spec = {
    .name = "cujit._core.KernelLaunch",
    .basicsize = sizeof(cj_KernelLaunch),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .slots = kernel_launch_slots,
};

/* attributes(argtypes) -> {regs, shared, const, local, max_threads} of a loaded version. */
static PyObject *launcher_attributes(PyObject *self, PyObject *key) {
    cj_KernelLauncher *k = (cj_KernelLauncher *)self;
    const cj_type *types[CJ_MAX_ARGS];
    if (!PyTuple_Check(key) || PyTuple_GET_SIZE(key) > CJ_MAX_ARGS) {
        PyErr_SetString(PyExc_TypeError, "attributes() takes a tuple of argument types");
        return NULL;
    }
    int nargs = (int)PyTuple_GET_SIZE(key);
    for (int i = 0; i < nargs; i++) {
        if ((types[i] = cj_type_from_py(PyTuple_GET_ITEM(key, i))) == NULL) {
            PyErr_SetString(PyExc_TypeError, "attributes() takes cujit types");
            return NULL;
        }
    }
    int device = cj_ctx_ensure();
    if (device < 0) {
        return NULL;
    }
    version *v = find(k, types, nargs, device);
    if (v == NULL && (v = load(k, types, nargs, device)) == NULL) {
        return NULL;
    }
    int regs, shared, cnst, local, maxt;
    if (CJ_CU(cuFuncGetAttribute, &regs, CU_FUNC_REGS, v->fn) < 0 ||
        CJ_CU(cuFuncGetAttribute, &shared, CU_FUNC_SHARED, v->fn) < 0 ||
        CJ_CU(cuFuncGetAttribute, &cnst, CU_FUNC_CONST, v->fn) < 0 ||
        CJ_CU(cuFuncGetAttribute, &local, CU_FUNC_LOCAL, v->fn) < 0 ||
        CJ_CU(cuFuncGetAttribute, &maxt, CU_FUNC_MAX_THREADS, v->fn) < 0) {
        return NULL;
    }
    return Py_BuildValue("{s:i,s:i,s:i,s:i,s:i}", "regs", regs, "shared", shared, "const", cnst,
                         "local", local, "max_threads", maxt);
}

/* ---- type ---- */

static PyObject *launcher_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    PyObject *name, *compile;
    if (!PyArg_ParseTuple(args, "UO:KernelLauncher", &name, &compile)) {
        return NULL;
    }
    if (!PyCallable_Check(compile)) {
        PyErr_SetString(PyExc_TypeError, "compile must be callable");
        return NULL;
    }
    cj_KernelLauncher *k = (cj_KernelLauncher *)type->tp_alloc(type, 0);
    if (k == NULL) {
        return NULL;
    }
    k->name = Py_NewRef(name);
    k->compile = Py_NewRef(compile);
    return (PyObject *)k;
}

static int launcher_traverse(PyObject *self, visitproc visit, void *arg) {
    cj_KernelLauncher *k = (cj_KernelLauncher *)self;
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(k->name);
    Py_VISIT(k->compile);
    for (int i = 0; i < k->n; i++) {
        Py_VISIT(k->vs[i]->info);
    }
    return 0;
}

static int launcher_clear(PyObject *self) {
    cj_KernelLauncher *k = (cj_KernelLauncher *)self;
    Py_CLEAR(k->name);
    Py_CLEAR(k->compile);
    return 0;
}

static void launcher_dealloc(PyObject *self) {
    cj_KernelLauncher *k = (cj_KernelLauncher *)self;
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    launcher_clear(self);
    for (int i = 0; i < k->n; i++) {
        if (Py_IsInitialized()) {
            version_free(k->vs[i]);
        }
    }
    PyMem_Free(k->vs);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *launcher_count(PyObject *self, void *closure) {
    return PyLong_FromLong(((cj_KernelLauncher *)self)->n);
}

static PyMethodDef launcher_methods[] = {
    {"launch", (PyCFunction)(void (*)(void))launcher_launch, METH_FASTCALL,
     "launch(griddim, blockdim, stream, sharedmem, args): griddim/blockdim are 3-tuples"},
    {"configure", launcher_configure, METH_O,
     "configure((griddim, blockdim[, stream[, sharedmem]])) -> KernelLaunch (validated)"},
    {"attributes", launcher_attributes, METH_O,
     "attributes(argtypes) -> {regs, shared, const, local, max_threads}"},
    {NULL},
};

static PyGetSetDef launcher_getset[] = {
    {"loaded", launcher_count, NULL, "number of loaded versions", NULL},
    {NULL},
};

static PyType_Slot launcher_slots[] = {
    {Py_tp_new, launcher_new},
    {Py_tp_dealloc, launcher_dealloc},
    {Py_tp_traverse, launcher_traverse},
    {Py_tp_clear, launcher_clear},
    {Py_tp_methods, launcher_methods},
    {Py_tp_getset, launcher_getset},
    {Py_tp_doc, "The loaded versions of a cuda.jit kernel and its C launch path."},
    {0, NULL},
};

static PyType_Spec launcher_spec = {
    .name = "cujit._core.KernelLauncher",
    .basicsize = sizeof(cj_KernelLauncher),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .slots = launcher_slots,
};

int cj_kernel_init(PyObject *module) {
    cj_KernelLauncherType = (PyTypeObject *)PyType_FromSpec(&launcher_spec);
    cj_KernelLaunchType = (PyTypeObject *)PyType_FromSpec(&kernel_launch_spec);
    if (cj_KernelLauncherType == NULL || cj_KernelLaunchType == NULL) {
        return -1;
    }
    Py_INCREF(cj_KernelLauncherType);
    return PyModule_AddObject(module, "KernelLauncher", (PyObject *)cj_KernelLauncherType);
}
