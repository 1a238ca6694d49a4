/* driver.c: libcuda opened with dlopen into `cj_cu` at first use; CUresult -> CudaAPIError.
 * Loading happens once per process with the GIL held; a failure is remembered with its reason
 * so every later device call raises the same CudaSupportError. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/driver.h"
#include "util/util.h"

cj_driver_table cj_cu;

enum load_state { NOT_TRIED, LOADED, FAILED };
static enum load_state state = NOT_TRIED;
static char failure[512];
static void *libcuda;

/* Entry points whose current ABI is the `_v2` symbol with the same signature. Others (notably
 * cuCtxGetDevice and cuCtxSynchronize, whose CUDA 13 `_v2` take a context) stay unversioned. */
static const char *const versioned[] = {
    "cuDeviceTotalMem", "cuDevicePrimaryCtxRelease", "cuDevicePrimaryCtxReset", "cuMemGetInfo",
    "cuMemAlloc", "cuMemFree", "cuMemGetAddressRange", "cuMemHostRegister",
    "cuMemHostGetDevicePointer", "cuMemcpyHtoD", "cuMemcpyDtoH", "cuMemcpyDtoD",
    "cuMemcpyHtoDAsync", "cuMemcpyDtoHAsync", "cuMemcpyDtoDAsync", "cuMemsetD8", "cuMemsetD16",
    "cuMemsetD32", "cuIpcOpenMemHandle", "cuStreamDestroy", "cuEventDestroy",
    "cuEventElapsedTime", "cuModuleGetGlobal", "cuLinkCreate", "cuLinkAddData",
    "cuDeviceGetUuid",
};

static void *resolve(const char *name) {
    for (size_t i = 0; i < sizeof(versioned) / sizeof(versioned[0]); i++) {
        if (strcmp(versioned[i], name) == 0) {
            char v2[96];
            snprintf(v2, sizeof(v2), "%s_v2", name);
            void *fn = dlsym(libcuda, v2);
            if (fn != NULL) {
                return fn;
            }
            break;
        }
    }
    return dlsym(libcuda, name);
}

static int fail(const char *fmt, const char *detail) {
    snprintf(failure, sizeof(failure), fmt, detail);
    state = FAILED;
    return -1;
}

static int load_once(void) {
    const char *path = getenv("CUJIT_CUDA_DRIVER");
    if (path != NULL && path[0] != '\0') {
        libcuda = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    } else {
        libcuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (libcuda == NULL) {
            libcuda = dlopen("libcuda.so", RTLD_NOW | RTLD_LOCAL);
        }
    }
    if (libcuda == NULL) {
        const char *why = dlerror();
        return fail("the CUDA driver library (libcuda.so.1) could not be loaded: %s",
                    why ? why : "not found");
    }
#define CJ_DRIVER_RESOLVE(name, params) *(void **)&cj_cu.name = resolve(#name);
    CJ_DRIVER_FUNCTIONS(CJ_DRIVER_RESOLVE)
#undef CJ_DRIVER_RESOLVE
    if (cj_cu.cuInit == NULL || cj_cu.cuDeviceGetCount == NULL || cj_cu.cuDeviceGet == NULL ||
        cj_cu.cuDevicePrimaryCtxRetain == NULL || cj_cu.cuCtxSetCurrent == NULL) {
        return fail("%s", "libcuda lacks the basic entry points (cuInit, cuDeviceGet, ...)");
    }
    CUresult res = cj_cu.cuInit(0);
    if (res != CUDA_SUCCESS) {
        const char *name = NULL;
        if (cj_cu.cuGetErrorName == NULL || cj_cu.cuGetErrorName(res, &name) != CUDA_SUCCESS) {
            name = "unknown error";
        }
        return fail("cuInit failed: %s (no usable GPU or driver)", name);
    }
    int count = 0;
    if (cj_cu.cuDeviceGetCount(&count) != CUDA_SUCCESS || count <= 0) {
        return fail("%s", "the CUDA driver found no GPU");
    }
    state = LOADED;
    return 0;
}

int cj_driver_available(const char **why) {
    if (state == NOT_TRIED) {
        load_once();
    }
    *why = state == LOADED ? NULL : failure;
    return state == LOADED;
}

int cj_driver_load(void) {
    const char *why;
    if (cj_driver_available(&why)) {
        return 0;
    }
    PyErr_Format(cj_CudaSupportError, "CUDA is not available: %s", why);
    return -1;
}

int cj_cu_raise(CUresult res, const char *fn) {
    if (res == CJ_CUDA_ERROR_MISSING_ENTRY) {
        PyErr_Format(cj_CudaSupportError, "this CUDA driver has no %s (driver too old?)", fn);
        return -1;
    }
    const char *name = NULL;
    const char *msg = NULL;
    if (cj_cu.cuGetErrorName == NULL || cj_cu.cuGetErrorName(res, &name) != CUDA_SUCCESS) {
        name = "CUDA_ERROR_UNKNOWN";
    }
    if (cj_cu.cuGetErrorString == NULL || cj_cu.cuGetErrorString(res, &msg) != CUDA_SUCCESS) {
        msg = "unknown error";
    }
    PyObject *text = PyUnicode_FromFormat("[%d] %s: %s (in %s)", res, name, msg, fn);
    if (text == NULL) {
        return -1;
    }
    PyObject *exc = PyObject_CallOneArg(cj_CudaAPIError, text); /* new */
    Py_DECREF(text);
    if (exc == NULL) {
        return -1;
    }
    PyObject *code = PyLong_FromLong(res);
    PyObject *pyname = PyUnicode_FromString(name);
    PyObject *pymsg = PyUnicode_FromString(msg);
    PyObject *pyfn = PyUnicode_FromString(fn);
    if (code == NULL || pyname == NULL || pymsg == NULL || pyfn == NULL ||
        PyObject_SetAttrString(exc, "code", code) < 0 ||
        PyObject_SetAttrString(exc, "name", pyname) < 0 ||
        PyObject_SetAttrString(exc, "msg", pymsg) < 0 ||
        PyObject_SetAttrString(exc, "function", pyfn) < 0) {
        Py_XDECREF(code);
        Py_XDECREF(pyname);
        Py_XDECREF(pymsg);
        Py_XDECREF(pyfn);
        Py_DECREF(exc);
        return -1;
    }
    Py_DECREF(code);
    Py_DECREF(pyname);
    Py_DECREF(pymsg);
    Py_DECREF(pyfn);
    PyErr_SetObject(cj_CudaAPIError, exc);
    Py_DECREF(exc);
    return -1;
}

int cj_cu_result(CUresult res, const char *fn) {
    return res == CUDA_SUCCESS ? 0 : cj_cu_raise(res, fn);
}

/* _core.cuda_available() -> (bool, reason or None); never raises for a missing driver. */
static PyObject *py_cuda_available(PyObject *self, PyObject *unused) {
    const char *why;
    int ok = cj_driver_available(&why);
    return Py_BuildValue("(Oz)", ok ? Py_True : Py_False, why);
}

static PyObject *py_driver_version(PyObject *self, PyObject *unused) {
    int version = 0;
    if (cj_driver_load() < 0 || CJ_CU(cuDriverGetVersion, &version) < 0) {
        return NULL;
    }
    return Py_BuildValue("(ii)", version / 1000, (version % 1000) / 10);
}

/* _core.cuda_error_name(code) -> the driver's name for a CUresult (a test/diagnostic hook). */
static PyObject *py_raise_cuda_error(PyObject *self, PyObject *arg) {
    long code = PyLong_AsLong(arg);
    if (code == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (cj_driver_load() < 0) {
        return NULL;
    }
    cj_cu_raise((CUresult)code, "cujit.cuda._raise_error");
    return NULL;
}

static PyMethodDef driver_functions[] = {
    {"cuda_available", py_cuda_available, METH_NOARGS,
     "(available, reason): loads the driver on first call, never raises for its absence."},
    {"cuda_driver_version", py_driver_version, METH_NOARGS, "(major, minor) of the driver."},
    {"cuda_raise_error", py_raise_cuda_error, METH_O,
     "Raises the CudaAPIError the driver would give for a CUresult code."},
    {NULL, NULL, 0, NULL},
};

int cj_driver_init(PyObject *module) {
    return PyModule_AddFunctions(module, driver_functions);
}
