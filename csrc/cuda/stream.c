/* stream.c: the Stream type (numba's cuda.stream(), default/legacy/per-thread/external streams)
 * and the conversion of any `stream=` argument to a CUstream. */
#include "cuda/cuda.h"

PyTypeObject *cj_Stream_Type;
static PyObject *ctypes_c_void_p; /* ctypes.c_void_p, imported on first use (owned) */

static cj_StreamObject *stream_alloc(CUstream handle, int owned, int device, PyObject *owner) {
    cj_StreamObject *s = PyObject_GC_New(cj_StreamObject, cj_Stream_Type);
    if (s == NULL) {
        return NULL;
    }
    s->handle = handle;
    s->owned = owned;
    s->device = device;
    s->generation = device >= 0 ? cj_ctx_generation[device] : 0;
    Py_XINCREF(owner);
    s->owner = owner;
    PyObject_GC_Track(s);
    return s;
}

PyObject *cj_stream_for_handle(uintptr_t handle, PyObject *owner) {
    int device = cj_ctx_ensure();
    if (device < 0) {
        return NULL;
    }
    return (PyObject *)stream_alloc((CUstream)handle, 0, device, owner);
}

int cj_stream_handle(PyObject *stream, CUstream *handle) {
    *handle = NULL;
    if (stream == NULL || stream == Py_None) {
        return 0;
    }
    if (cj_Stream_Check(stream)) {
        cj_StreamObject *s = (cj_StreamObject *)stream;
        if (s->owned && cj_ctx_check_generation(s->device, s->generation) < 0) {
            return -1;
        }
        *handle = s->handle;
        return 0;
    }
    if (PyLong_CheckExact(stream)) {
        long v = PyLong_AsLong(stream);
        if (v == 0) {
            return 0;
        }
        if (v == -1 && PyErr_Occurred()) {
            return -1;
        }
        PyErr_SetString(PyExc_TypeError,
                        "stream must be a cujit Stream, 0 or None; wrap a raw handle with "
                        "cuda.external_stream(ptr)");
        return -1;
    }
    PyObject *proto = PyObject_GetAttrString(stream, "__cuda_stream__");
    if (proto == NULL) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "stream must be a cujit Stream, 0 or None, not %.100s",
                     Py_TYPE(stream)->tp_name);
        return -1;
    }
    PyObject *pair = PyCallable_Check(proto) ? PyObject_CallNoArgs(proto) : Py_NewRef(proto);
    Py_DECREF(proto);
    if (pair == NULL) {
        return -1;
    }
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
        Py_DECREF(pair);
        PyErr_SetString(PyExc_TypeError, "__cuda_stream__ must give a (version, handle) tuple");
        return -1;
    }
    unsigned long long h = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(pair, 1));
    Py_DECREF(pair);
    if (PyErr_Occurred()) {
        return -1;
    }
    *handle = (CUstream)(uintptr_t)h;
    return 0;
}

/* ---- module functions ---- */

static PyObject *py_stream_create(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"non_blocking", NULL};
    int non_blocking = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|p:stream_create", kwlist, &non_blocking)) {
        return NULL;
    }
    int device = cj_ctx_ensure();
    CUstream handle;
    if (device < 0 || CJ_CU(cuStreamCreate, &handle, non_blocking ? 1u : 0u) < 0) {
        return NULL;
    }
    cj_StreamObject *s = stream_alloc(handle, 1, device, NULL);
    if (s == NULL) {
        CJ_CU_RAW(cuStreamDestroy, handle);
    }
    return (PyObject *)s;
}

static PyObject *py_stream_wrap(PyObject *self, PyObject *args) {
    unsigned long long handle;
    PyObject *owner = NULL;
    if (!PyArg_ParseTuple(args, "K|O:stream_wrap", &handle, &owner)) {
        return NULL;
    }
    return cj_stream_for_handle((uintptr_t)handle, owner == Py_None ? NULL : owner);
}

/* ---- methods ---- */

static CUstream live_handle(PyObject *self, int *err) {
    cj_StreamObject *s = (cj_StreamObject *)self;
    *err = 0;
    if ((s->owned && cj_ctx_check_generation(s->device, s->generation) < 0) ||
        cj_ctx_ensure() < 0) {
        *err = 1;
    }
    return s->handle;
}

static PyObject *stream_synchronize(PyObject *self, PyObject *unused) {
    int err;
    CUstream h = live_handle(self, &err);
    if (err) {
        return NULL;
    }
    CUresult res;
    Py_BEGIN_ALLOW_THREADS
    res = CJ_CU_RAW(cuStreamSynchronize, h);
    Py_END_ALLOW_THREADS
    if (cj_cu_result(res, "cuStreamSynchronize") < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *stream_query(PyObject *self, PyObject *unused) {
    int err;
    CUstream h = live_handle(self, &err);
    if (err) {
        return NULL;
    }
    CUresult res = CJ_CU_RAW(cuStreamQuery, h);
    if (res == CUDA_ERROR_NOT_READY) {
        Py_RETURN_FALSE;
    }
    if (cj_cu_result(res, "cuStreamQuery") < 0) {
        return NULL;
    }
    Py_RETURN_TRUE;
}

static PyObject *stream_enter(PyObject *self, PyObject *unused) {
    return Py_NewRef(self);
}

static PyObject *stream_exit(PyObject *self, PyObject *args) {
    return stream_synchronize(self, NULL);
}

typedef struct callback_data {
    PyObject *stream, *callback, *arg; /* owned, released on the driver's thread with the GIL */
} callback_data;

static void run_callback(CUstream handle, CUresult status, void *user) {
    callback_data *d = user;
    if (!Py_IsInitialized()) {
        return; /* interpreter gone: leak the few references rather than touch it */
    }
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *r = PyObject_CallFunction(d->callback, "OiO", d->stream, (int)status, d->arg);
    if (r == NULL) {
        PyErr_WriteUnraisable(d->callback);
    }
    Py_XDECREF(r);
    Py_DECREF(d->stream);
    Py_DECREF(d->callback);
    Py_DECREF(d->arg);
    PyMem_RawFree(d);
    PyGILState_Release(gil);
}

/* add_callback(callback, arg=None): callback(stream, status, arg) runs on a driver thread once
 * the work queued so far is done. It must not call CUDA (a driver rule). */
static PyObject *stream_add_callback(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"callback", "arg", NULL};
    PyObject *callback, *arg = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:add_callback", kwlist, &callback, &arg)) {
        return NULL;
    }
    if (!PyCallable_Check(callback)) {
        PyErr_SetString(PyExc_TypeError, "callback must be callable");
        return NULL;
    }
    int err;
    CUstream h = live_handle(self, &err);
    if (err) {
        return NULL;
    }
    /* the driver thread needs the GIL machinery ready */
    callback_data *d = PyMem_RawMalloc(sizeof(*d));
    if (d == NULL) {
        return PyErr_NoMemory();
    }
    d->stream = Py_NewRef(self);
    d->callback = Py_NewRef(callback);
    d->arg = Py_NewRef(arg);
    if (CJ_CU(cuStreamAddCallback, h, run_callback, d, 0) < 0) {
        Py_DECREF(d->stream);
        Py_DECREF(d->callback);
        Py_DECREF(d->arg);
        PyMem_RawFree(d);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *stream_get_handle(PyObject *self, void *closure) {
    if (ctypes_c_void_p == NULL) {
        PyObject *ctypes = PyImport_ImportModule("ctypes");
        if (ctypes == NULL) {
            return NULL;
        }
        ctypes_c_void_p = PyObject_GetAttrString(ctypes, "c_void_p");
        Py_DECREF(ctypes);
        if (ctypes_c_void_p == NULL) {
            return NULL;
        }
    }
    PyObject *value = PyLong_FromVoidPtr(((cj_StreamObject *)self)->handle);
    if (value == NULL) {
        return NULL;
    }
    PyObject *r = PyObject_CallOneArg(ctypes_c_void_p, value);
    Py_DECREF(value);
    return r;
}

static PyObject *stream_get_handle_value(PyObject *self, void *closure) {
    return PyLong_FromVoidPtr(((cj_StreamObject *)self)->handle);
}

static PyObject *stream_get_device(PyObject *self, void *closure) {
    return PyLong_FromLong(((cj_StreamObject *)self)->device);
}

static PyObject *stream_get_external(PyObject *self, void *closure) {
    return PyBool_FromLong(!((cj_StreamObject *)self)->owned);
}

static PyObject *stream_cuda_stream(PyObject *self, PyObject *unused) {
    return Py_BuildValue("(iN)", 0, PyLong_FromVoidPtr(((cj_StreamObject *)self)->handle));
}

static PyObject *stream_int(PyObject *self) {
    return PyLong_FromVoidPtr(((cj_StreamObject *)self)->handle);
}

static int stream_bool(PyObject *self) {
    return 1;
}

static PyObject *stream_repr(PyObject *self) {
    cj_StreamObject *s = (cj_StreamObject *)self;
    uintptr_t h = (uintptr_t)s->handle;
    const char *what = h == 0   ? "default CUDA stream"
                       : h == 1 ? "legacy default CUDA stream"
                       : h == 2 ? "per-thread default CUDA stream"
                       : s->owned ? "CUDA stream"
                                  : "external CUDA stream";
    char text[160];
    snprintf(text, sizeof(text), "<%s 0x%zx on device %d>", what, (size_t)h, s->device);
    return PyUnicode_FromString(text);
}

static int stream_traverse(PyObject *self, visitproc visit, void *arg) {
    Py_VISIT(((cj_StreamObject *)self)->owner);
    Py_VISIT(Py_TYPE(self));
    return 0;
}

static int stream_clear(PyObject *self) {
    Py_CLEAR(((cj_StreamObject *)self)->owner);
    return 0;
}

static void stream_dealloc(PyObject *self) {
    cj_StreamObject *s = (cj_StreamObject *)self;
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    if (s->owned && cj_ctx_primary(s->device) != NULL &&
        cj_ctx_generation[s->device] == s->generation) {
        /* the driver destroys a stream once its queued work completes, from any context */
        CJ_CU_RAW(cuStreamDestroy, s->handle);
    }
    stream_clear(self);
    PyObject_GC_Del(self);
    Py_DECREF(tp);
}

static PyMethodDef stream_methods[] = {
    {"synchronize", stream_synchronize, METH_NOARGS, "Waits until the stream's work is done."},
    {"query", stream_query, METH_NOARGS, "True when all the stream's work is done."},
    {"auto_synchronize", stream_enter, METH_NOARGS,
     "Context manager: `with stream.auto_synchronize():` synchronizes at exit."},
    {"__enter__", stream_enter, METH_NOARGS, NULL},
    {"__exit__", stream_exit, METH_VARARGS, NULL},
    {"add_callback", (PyCFunction)(void (*)(void))stream_add_callback,
     METH_VARARGS | METH_KEYWORDS, "add_callback(callback, arg=None): callback(stream, status, arg)."},
    {"__cuda_stream__", stream_cuda_stream, METH_NOARGS, "(0, handle): the CUDA stream protocol."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef stream_getset[] = {
    {"handle", stream_get_handle, NULL, "The CUstream as ctypes.c_void_p (numba's type).", NULL},
    {"handle_value", stream_get_handle_value, NULL, "The CUstream as an int.", NULL},
    {"device", stream_get_device, NULL, "Device ordinal.", NULL},
    {"external", stream_get_external, NULL, "True when cujit did not create it.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot stream_slots[] = {
    {Py_tp_dealloc, stream_dealloc},
    {Py_tp_traverse, stream_traverse},
    {Py_tp_clear, stream_clear},
    {Py_tp_repr, stream_repr},
    {Py_tp_methods, stream_methods},
    {Py_tp_getset, stream_getset},
    {Py_nb_int, stream_int},
    {Py_nb_index, stream_int},
    {Py_nb_bool, stream_bool},
    {Py_tp_doc, "A CUDA stream (numba's cuda.stream())."},
    {0, NULL},
};

static PyType_Spec stream_spec = {
    .name = "cujit.cuda.Stream",
    .basicsize = sizeof(cj_StreamObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .slots = stream_slots,
};

static PyMethodDef stream_functions[] = {
    {"stream_create", (PyCFunction)(void (*)(void))py_stream_create, METH_VARARGS | METH_KEYWORDS,
     "stream_create(non_blocking=False) -> a new Stream."},
    {"stream_wrap", py_stream_wrap, METH_VARARGS,
     "stream_wrap(handle, owner=None) -> Stream over an existing handle (0, 1, 2 or external)."},
    {NULL, NULL, 0, NULL},
};

int cj_stream_init(PyObject *module) {
    cj_Stream_Type = (PyTypeObject *)PyType_FromSpec(&stream_spec);
    if (cj_Stream_Type == NULL) {
        return -1;
    }
    Py_INCREF(cj_Stream_Type);
    if (PyModule_AddObject(module, "Stream", (PyObject *)cj_Stream_Type) < 0) {
        Py_DECREF(cj_Stream_Type);
        return -1;
    }
    return PyModule_AddFunctions(module, stream_functions);
}
