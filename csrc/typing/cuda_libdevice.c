/* cuda_libdevice.c: the libdevice functions of cujit.cuda.libdevice. Each is a Python object
 * (pkg/cujit/cuda/libdevice.py, from the generated _libdevice_table.py) registered here with
 * its C name and signature (_core.cuda_register_libdevice); a call of one types as numba-cuda
 * types it (one concrete signature: each argument must convert to the declared type, the
 * result is the C return value and the out-parameters' values, a tuple when several) and
 * resolves to a CJ_CALL_CUDA record (builtin CJ_CU_LIBDEVICE) that lower_libdevice.c lowers.
 * Hook called by cj_cuda_type_call for callees that are no CUDA intrinsic. */
#include "typing/cuda_intrinsics.h"

#include <ctype.h>
#include <string.h>

#define CAPSULE_NAME "cujit.libdevice_fn"

static PyObject *libdevice_fns; /* dict: object -> capsule of a cj_libdevice_fn */

const cj_type *cj_libdevice_type(char code) {
    switch (tolower((unsigned char)code)) {
    case 'f':
        return cj_t_float32;
    case 'd':
        return cj_t_float64;
    case 'i':
        return cj_t_int32;
    case 'l':
        return cj_t_int64;
    case 'h':
        return cj_t_int16;
    case 'v':
        return cj_t_none;
    default:
        return NULL;
    }
}

static const cj_libdevice_fn *lookup(PyObject *obj) {
    if (libdevice_fns == NULL) {
        return NULL;
    }
    PyObject *cap = PyDict_GetItemWithError(libdevice_fns, obj); /* borrowed */
    if (cap == NULL) {
        PyErr_Clear(); /* unhashable objects are simply not libdevice functions */
        return NULL;
    }
    return PyCapsule_GetPointer(cap, CAPSULE_NAME);
}

/* The Python-level name: cname without "__nv_". */
static const char *pyname(const cj_libdevice_fn *fn) { return fn->cname + 5; }

/* The call's result type: the C return value (unless void), then each out-parameter's. */
static const cj_type *result_type(const cj_libdevice_fn *fn) {
    const cj_type *items[CJ_LIBDEVICE_MAX_PARAMS + 1];
    int n = 0;
    if (fn->sig[0] != 'v') {
        items[n++] = cj_libdevice_type(fn->sig[0]);
    }
    for (const char *p = fn->sig + 1; *p; p++) {
        if (isupper((unsigned char)*p)) {
            items[n++] = cj_libdevice_type(*p);
        }
    }
    return n == 1 ? items[0] : cj_type_tuple(n, items);
}

int cj_cuda_type_libdevice(cj_infer_ctx *c, cj_instr *in, PyObject *callee,
                           const cj_type **out) {
    const cj_libdevice_fn *fn = lookup(callee);
    if (fn == NULL) {
        return 2;
    }
    if (c->env->target != CJ_TARGET_CUDA) {
        return cj_unsupported_error(c, in, "libdevice.%s() can only be used in CUDA kernels and "
                                           "device functions (cuda.jit), not in CPU code",
                                    pyname(fn));
    }
    if (in->index > 0) {
        return cj_typing_error(c, in, "libdevice.%s() takes no keyword arguments", pyname(fn));
    }
    char qualname[64];
    PyOS_snprintf(qualname, sizeof(qualname), "libdevice.%s", pyname(fn));
    int n = in->nargs - 1, k = 0;
    for (const char *p = fn->sig + 1; *p; p++) {
        if (isupper((unsigned char)*p)) {
            continue;
        }
        if (k >= n || !cj_can_convert(cj_vt(c, in->args[1 + k]), cj_libdevice_type(*p))) {
            return cj_cuda_no_implementation(c, in, qualname, pyname(fn));
        }
        k++;
    }
    if (k != n) {
        return cj_cuda_no_implementation(c, in, qualname, pyname(fn));
    }
    cj_call *call = cj_cuda_record(c, in, CJ_CU_LIBDEVICE, n, in->args + 1);
    if (call == NULL) {
        return -1;
    }
    call->callee = (void *)fn;
    *out = result_type(fn);
    return *out ? 1 : -1;
}

/* ---- _core.cuda_register_libdevice(obj, name, sig) ---- */

static void free_fn(PyObject *cap) { PyMem_Free(PyCapsule_GetPointer(cap, CAPSULE_NAME)); }

static int sig_ok(const char *sig) {
    size_t n = strlen(sig);
    if (n < 1 || n > CJ_LIBDEVICE_MAX_PARAMS + 1 || cj_libdevice_type(sig[0]) == NULL ||
        isupper((unsigned char)sig[0])) {
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        if (cj_libdevice_type(sig[i]) == NULL || tolower((unsigned char)sig[i]) == 'v') {
            return 0;
        }
    }
    return 1;
}

static PyObject *register_libdevice(PyObject *self, PyObject *args) {
    PyObject *obj;
    const char *name, *sig;
    if (!PyArg_ParseTuple(args, "Oss:cuda_register_libdevice", &obj, &name, &sig)) {
        return NULL;
    }
    if (strlen(name) + 6 > sizeof(((cj_libdevice_fn *)0)->cname) || !sig_ok(sig)) {
        PyErr_Format(PyExc_ValueError, "invalid libdevice function %s (signature %s)", name, sig);
        return NULL;
    }
    cj_libdevice_fn *fn = PyMem_Calloc(1, sizeof(*fn));
    if (fn == NULL) {
        return PyErr_NoMemory();
    }
    PyOS_snprintf(fn->cname, sizeof(fn->cname), "__nv_%s", name);
    PyOS_snprintf(fn->sig, sizeof(fn->sig), "%s", sig);
    PyObject *cap = PyCapsule_New(fn, CAPSULE_NAME, free_fn);
    if (cap == NULL) {
        PyMem_Free(fn);
        return NULL;
    }
    int rc = PyDict_SetItem(libdevice_fns, obj, cap);
    Py_DECREF(cap);
    if (rc < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef libdevice_methods[] = {
    {"cuda_register_libdevice", register_libdevice, METH_VARARGS,
     "cuda_register_libdevice(obj, name, sig): `obj` is libdevice's __nv_<name> in kernels"},
    {NULL},
};

int cj_cuda_libdevice_init(PyObject *module) {
    libdevice_fns = PyDict_New();
    if (libdevice_fns == NULL) {
        return -1;
    }
    return PyModule_AddFunctions(module, libdevice_methods);
}
