/* errors.c: cujit's exception classes, made once at module init and exported from _core. */
#include "util/util.h"

PyObject *cj_CujitError;
PyObject *cj_TypingError;
PyObject *cj_UnsupportedError;
PyObject *cj_LoweringError;
PyObject *cj_CudaSupportError;
PyObject *cj_CudaAPIError;
PyObject *cj_NvvmError;

/* Makes cujit._core.<name> with the given bases (a new tuple or a single class) and adds it. */
static int add_error(PyObject *module, PyObject **slot, const char *name, PyObject *bases,
                     const char *doc) {
    char qualname[128];
    PyOS_snprintf(qualname, sizeof(qualname), "cujit.errors.%s", name);
    *slot = PyErr_NewExceptionWithDoc(qualname, doc, bases, NULL);
    if (*slot == NULL) {
        return -1;
    }
    Py_INCREF(*slot); /* one reference for the module, one kept for the C slot */
    if (PyModule_AddObject(module, name, *slot) < 0) {
        Py_DECREF(*slot);
        return -1;
    }
    return 0;
}

int cj_errors_init(PyObject *module) {
    if (add_error(module, &cj_CujitError, "CujitError", PyExc_Exception,
                  "Base class of the errors cujit raises.") < 0) {
        return -1;
    }
    if (add_error(module, &cj_TypingError, "TypingError", cj_CujitError,
                  "A function could not be typed in nopython mode.") < 0) {
        return -1;
    }
    PyObject *bases = PyTuple_Pack(2, cj_CujitError, PyExc_NotImplementedError);
    if (bases == NULL) {
        return -1;
    }
    int rc = add_error(module, &cj_UnsupportedError, "UnsupportedError", bases,
                       "A construct that cujit does not compile.");
    Py_DECREF(bases);
    if (rc < 0) {
        return -1;
    }
    if (add_error(module, &cj_LoweringError, "LoweringError", cj_CujitError,
                  "Code generation failed.") < 0 ||
        add_error(module, &cj_CudaSupportError, "CudaSupportError", cj_CujitError,
                  "CUDA is not available: no driver or no device.") < 0 ||
        add_error(module, &cj_CudaAPIError, "CudaAPIError", cj_CujitError,
                  "A CUDA driver API call failed.") < 0 ||
        add_error(module, &cj_NvvmError, "NvvmError", cj_CujitError,
                  "libnvvm is missing or failed to compile.") < 0) {
        return -1;
    }
    return 0;
}
