/* context.c: each device's primary context (shared with CuPy and PyTorch in this process), the
 * device a thread works on, and close(). State is process-wide and changed only with the GIL. */
#include "cuda/driver.h"
#include "util/util.h"

static CUcontext primary[CJ_MAX_DEVICES];
static size_t total_memory[CJ_MAX_DEVICES];
static int sm_count[CJ_MAX_DEVICES];
unsigned long cj_ctx_generation[CJ_MAX_DEVICES];
/* The device select_device() chose on this thread; -1: none yet (device 0 then). */
static _Thread_local int selected_device = -1;

static int device_count(void) {
    int count = 0;
    if (CJ_CU(cuDeviceGetCount, &count) < 0) {
        return -1;
    }
    return count < CJ_MAX_DEVICES ? count : CJ_MAX_DEVICES;
}

/* Validates `device`, raising CudaSupportError for an ordinal with no device behind it. */
static int check_device(int device) {
    int count = device_count();
    if (count < 0) {
        return -1;
    }
    if (device < 0 || device >= count) {
        PyErr_Format(cj_CudaSupportError, "there is no CUDA device %d (this machine has %d)",
                     device, count);
        return -1;
    }
    return 0;
}

int cj_ctx_activate(int device) {
    if (cj_driver_load() < 0 || check_device(device) < 0) {
        return -1;
    }
    if (primary[device] == NULL) {
        CUdevice dev;
        CUcontext ctx;
        if (CJ_CU(cuDeviceGet, &dev, device) < 0 ||
            CJ_CU(cuDevicePrimaryCtxRetain, &ctx, dev) < 0) {
            return -1;
        }
        primary[device] = ctx;
        if (cj_ctx_generation[device] == 0) {
            cj_ctx_generation[device] = 1;
        }
    }
    if (CJ_CU(cuCtxSetCurrent, primary[device]) < 0) {
        return -1;
    }
    selected_device = device;
    return 0;
}

int cj_ctx_ensure(void) {
    if (cj_driver_load() < 0) {
        return -1;
    }
    CUcontext current = NULL;
    if (CJ_CU(cuCtxGetCurrent, &current) < 0) {
        return -1;
    }
    if (current == NULL) {
        int device = selected_device >= 0 ? selected_device : 0;
        return cj_ctx_activate(device) < 0 ? -1 : device;
    }
    for (int i = 0; i < CJ_MAX_DEVICES; i++) {
        if (primary[i] == current) {
            return i;
        }
    }
    /* a context someone else made current (CuPy, PyTorch, a user's own): work in it, and hold
     * the device's primary context so the device stays initialised while we use it */
    CUdevice dev;
    if (CJ_CU(cuCtxGetDevice, &dev) < 0) {
        return -1;
    }
    if (dev < 0 || dev >= CJ_MAX_DEVICES) {
        PyErr_Format(cj_CudaSupportError, "CUDA device %d is beyond cujit's limit", dev);
        return -1;
    }
    if (primary[dev] == NULL) {
        CUcontext ctx;
        if (CJ_CU(cuDevicePrimaryCtxRetain, &ctx, dev) < 0) {
            return -1;
        }
        primary[dev] = ctx;
        if (cj_ctx_generation[dev] == 0) {
            cj_ctx_generation[dev] = 1;
        }
    }
    return dev;
}

int cj_ctx_check_generation(int device, unsigned long generation) {
    if (device < 0 || device >= CJ_MAX_DEVICES || cj_ctx_generation[device] != generation) {
        PyErr_SetString(cj_CudaSupportError,
                        "this object belongs to a CUDA context that cuda.close() has closed");
        return -1;
    }
    return 0;
}

CUcontext cj_ctx_primary(int device) {
    return device >= 0 && device < CJ_MAX_DEVICES ? primary[device] : NULL;
}

size_t cj_device_total_memory(int device) {
    if (device < 0 || device >= CJ_MAX_DEVICES) {
        CJ_UNREACHABLE("device ordinal out of range");
        return 0;
    }
    if (total_memory[device] == 0) {
        CUdevice dev;
        size_t bytes = 0;
        if (CJ_CU(cuDeviceGet, &dev, device) < 0 || CJ_CU(cuDeviceTotalMem, &bytes, dev) < 0) {
            return 0;
        }
        total_memory[device] = bytes;
    }
    return total_memory[device];
}

int cj_device_sm_count(int device) {
    if (device < 0 || device >= CJ_MAX_DEVICES) {
        CJ_UNREACHABLE("device ordinal out of range");
        return -1;
    }
    if (sm_count[device] == 0) {
        CUdevice dev;
        int count = 0;
        if (CJ_CU(cuDeviceGet, &dev, device) < 0 ||
            CJ_CU(cuDeviceGetAttribute, &count, CJ_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                  dev) < 0) {
            return -1;
        }
        sm_count[device] = count > 0 ? count : 1;
    }
    return sm_count[device];
}

int cj_device_compute_capability(int device, int *major, int *minor) {
    CUdevice dev;
    if (CJ_CU(cuDeviceGet, &dev, device) < 0 ||
        CJ_CU(cuDeviceGetAttribute, major, CJ_DEVICE_ATTRIBUTE_CC_MAJOR, dev) < 0 ||
        CJ_CU(cuDeviceGetAttribute, minor, CJ_DEVICE_ATTRIBUTE_CC_MINOR, dev) < 0) {
        return -1;
    }
    return 0;
}

/* ---- Python-facing functions (private; cujit.cuda wraps them) ---- */

static int arg_device(PyObject *arg, CUdevice *dev) {
    long ordinal = PyLong_AsLong(arg);
    if (ordinal == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (cj_driver_load() < 0 || check_device((int)ordinal) < 0 ||
        CJ_CU(cuDeviceGet, dev, (int)ordinal) < 0) {
        return -1;
    }
    return 0;
}

static PyObject *py_device_count(PyObject *self, PyObject *unused) {
    if (cj_driver_load() < 0) {
        return NULL;
    }
    int count = device_count();
    return count < 0 ? NULL : PyLong_FromLong(count);
}

static PyObject *py_device_name(PyObject *self, PyObject *arg) {
    CUdevice dev;
    char name[256] = {0};
    if (arg_device(arg, &dev) < 0 || CJ_CU(cuDeviceGetName, name, (int)sizeof(name) - 1, dev) < 0) {
        return NULL;
    }
    return PyUnicode_FromString(name);
}

static PyObject *py_device_attribute(PyObject *self, PyObject *args) {
    PyObject *ordinal;
    int attribute;
    if (!PyArg_ParseTuple(args, "Oi:cuda_device_attribute", &ordinal, &attribute)) {
        return NULL;
    }
    CUdevice dev;
    int value = 0;
    if (arg_device(ordinal, &dev) < 0 || CJ_CU(cuDeviceGetAttribute, &value, attribute, dev) < 0) {
        return NULL;
    }
    return PyLong_FromLong(value);
}

static PyObject *py_device_uuid(PyObject *self, PyObject *arg) {
    CUdevice dev;
    CUuuid uuid;
    if (arg_device(arg, &dev) < 0 || CJ_CU(cuDeviceGetUuid, &uuid, dev) < 0) {
        return NULL;
    }
    const unsigned char *b = (const unsigned char *)uuid.bytes;
    char text[64];
    snprintf(text, sizeof(text),
             "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
             b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
             b[15]);
    return PyUnicode_FromString(text);
}

static PyObject *py_device_pci_bus_id(PyObject *self, PyObject *arg) {
    CUdevice dev;
    char bus[64] = {0};
    if (arg_device(arg, &dev) < 0 ||
        CJ_CU(cuDeviceGetPCIBusId, bus, (int)sizeof(bus) - 1, dev) < 0) {
        return NULL;
    }
    return PyUnicode_FromString(bus);
}

static PyObject *py_device_total_memory(PyObject *self, PyObject *arg) {
    CUdevice dev;
    if (arg_device(arg, &dev) < 0) {
        return NULL;
    }
    size_t bytes = cj_device_total_memory(dev);
    return bytes == 0 ? NULL : PyLong_FromSize_t(bytes);
}

static PyObject *py_select_device(PyObject *self, PyObject *arg) {
    long ordinal = PyLong_AsLong(arg);
    if ((ordinal == -1 && PyErr_Occurred()) || cj_ctx_activate((int)ordinal) < 0) {
        return NULL;
    }
    return PyLong_FromLong(ordinal);
}

static PyObject *py_current_device(PyObject *self, PyObject *unused) {
    int device = cj_ctx_ensure();
    return device < 0 ? NULL : PyLong_FromLong(device);
}

static PyObject *py_context_handle(PyObject *self, PyObject *unused) {
    CUcontext current = NULL;
    if (cj_ctx_ensure() < 0 || CJ_CU(cuCtxGetCurrent, &current) < 0) {
        return NULL;
    }
    return PyLong_FromVoidPtr(current);
}

static PyObject *py_synchronize(PyObject *self, PyObject *unused) {
    if (cj_ctx_ensure() < 0) {
        return NULL;
    }
    CUresult res;
    Py_BEGIN_ALLOW_THREADS
    res = CJ_CU_RAW(cuCtxSynchronize);
    Py_END_ALLOW_THREADS
    if (cj_cu_result(res, "cuCtxSynchronize") < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *py_mem_get_info(PyObject *self, PyObject *unused) {
    size_t free_bytes = 0, total_bytes = 0;
    if (cj_ctx_ensure() < 0 || CJ_CU(cuMemGetInfo, &free_bytes, &total_bytes) < 0) {
        return NULL;
    }
    return Py_BuildValue("(nn)", (Py_ssize_t)free_bytes, (Py_ssize_t)total_bytes);
}

/* Releases every primary context cujit retained and leaves this thread with none current;
 * arrays made before keep their old generation and refuse further use. The caller flushes the
 * pending deallocations first (runtime layer). */
static PyObject *py_close_contexts(PyObject *self, PyObject *unused) {
    const char *why;
    if (!cj_driver_available(&why)) {
        Py_RETURN_NONE; /* nothing was ever opened */
    }
    for (int i = 0; i < CJ_MAX_DEVICES; i++) {
        if (primary[i] == NULL) {
            continue;
        }
        CUdevice dev;
        if (CJ_CU(cuDeviceGet, &dev, i) < 0 || CJ_CU(cuDevicePrimaryCtxRelease, dev) < 0) {
            return NULL;
        }
        primary[i] = NULL;
        cj_ctx_generation[i]++;
    }
    if (CJ_CU(cuCtxSetCurrent, (CUcontext)NULL) < 0) {
        return NULL;
    }
    selected_device = -1;
    Py_RETURN_NONE;
}

static PyMethodDef context_functions[] = {
    {"cuda_device_count", py_device_count, METH_NOARGS, NULL},
    {"cuda_device_name", py_device_name, METH_O, NULL},
    {"cuda_device_attribute", py_device_attribute, METH_VARARGS, NULL},
    {"cuda_device_uuid", py_device_uuid, METH_O, NULL},
    {"cuda_device_pci_bus_id", py_device_pci_bus_id, METH_O, NULL},
    {"cuda_device_total_memory", py_device_total_memory, METH_O, NULL},
    {"cuda_select_device", py_select_device, METH_O, NULL},
    {"cuda_current_device", py_current_device, METH_NOARGS, NULL},
    {"cuda_context_handle", py_context_handle, METH_NOARGS, NULL},
    {"cuda_synchronize", py_synchronize, METH_NOARGS, NULL},
    {"cuda_mem_get_info", py_mem_get_info, METH_NOARGS, NULL},
    {"cuda_close_contexts", py_close_contexts, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

int cj_context_init(PyObject *module) {
    return PyModule_AddFunctions(module, context_functions);
}
