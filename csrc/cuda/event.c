/* event.c: the Event type (numba's cuda.event(timing=True)). */
#include "cuda/cuda.h"

typedef struct event_object {
    PyObject_HEAD
    CUevent handle;
    int timing;
    int device;
    unsigned long generation;
} event_object;

static PyTypeObject *event_type;

static PyObject *py_event_create(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"timing", NULL};
    int timing = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|p:event", kwlist, &timing)) {
        return NULL;
    }
    int device = cj_ctx_ensure();
    CUevent handle;
    if (device < 0 ||
        CJ_CU(cuEventCreate, &handle, timing ? 0u : 2u /* CU_EVENT_DISABLE_TIMING */) < 0) {
        return NULL;
    }
    event_object *e = PyObject_New(event_object, event_type);
    if (e == NULL) {
        CJ_CU_RAW(cuEventDestroy, handle);
        return NULL;
    }
    e->handle = handle;
    e->timing = timing;
    e->device = device;
    e->generation = cj_ctx_generation[device];
    return (PyObject *)e;
}

static int event_live(event_object *e) {
    if (cj_ctx_check_generation(e->device, e->generation) < 0 || cj_ctx_ensure() < 0) {
        return -1;
    }
    return 0;
}

static int parse_stream(PyObject *args, PyObject *kwargs, const char *fmt, CUstream *h) {
    static char *kwlist[] = {"stream", NULL};
    PyObject *stream = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, fmt, kwlist, &stream)) {
        return -1;
    }
    return cj_stream_handle(stream, h);
}

static PyObject *event_record(PyObject *self, PyObject *args, PyObject *kwargs) {
    event_object *e = (event_object *)self;
    CUstream h;
    if (parse_stream(args, kwargs, "|O:record", &h) < 0 || event_live(e) < 0 ||
        CJ_CU(cuEventRecord, e->handle, h) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *event_wait(PyObject *self, PyObject *args, PyObject *kwargs) {
    event_object *e = (event_object *)self;
    CUstream h;
    if (parse_stream(args, kwargs, "|O:wait", &h) < 0 || event_live(e) < 0 ||
        CJ_CU(cuStreamWaitEvent, h, e->handle, 0) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *event_query(PyObject *self, PyObject *unused) {
    event_object *e = (event_object *)self;
    if (event_live(e) < 0) {
        return NULL;
    }
    CUresult res = CJ_CU_RAW(cuEventQuery, e->handle);
    if (res == CUDA_ERROR_NOT_READY) {
        Py_RETURN_FALSE;
    }
    if (cj_cu_result(res, "cuEventQuery") < 0) {
        return NULL;
    }
    Py_RETURN_TRUE;
}

static PyObject *event_synchronize(PyObject *self, PyObject *unused) {
    event_object *e = (event_object *)self;
    if (event_live(e) < 0) {
        return NULL;
    }
    CUresult res;
    Py_BEGIN_ALLOW_THREADS
    res = CJ_CU_RAW(cuEventSynchronize, e->handle);
    Py_END_ALLOW_THREADS
    if (cj_cu_result(res, "cuEventSynchronize") < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* Milliseconds from `start` to `end` (both recorded and complete, both with timing). */
static PyObject *elapsed(PyObject *start, PyObject *end) {
    if (!PyObject_TypeCheck(start, event_type) || !PyObject_TypeCheck(end, event_type)) {
        PyErr_SetString(PyExc_TypeError, "elapsed_time needs two cujit events");
        return NULL;
    }
    event_object *a = (event_object *)start, *b = (event_object *)end;
    if (!a->timing || !b->timing) {
        PyErr_SetString(PyExc_ValueError,
                        "elapsed_time needs events created with timing=True");
        return NULL;
    }
    float ms = 0.0f;
    if (event_live(a) < 0 || event_live(b) < 0 ||
        CJ_CU(cuEventElapsedTime, &ms, a->handle, b->handle) < 0) {
        return NULL;
    }
    return PyFloat_FromDouble(ms);
}

static PyObject *event_elapsed_time(PyObject *self, PyObject *other) {
    return elapsed(self, other);
}

static PyObject *py_event_elapsed_time(PyObject *self, PyObject *args) {
    PyObject *a, *b;
    if (!PyArg_ParseTuple(args, "OO:event_elapsed_time", &a, &b)) {
        return NULL;
    }
    return elapsed(a, b);
}

static PyObject *event_get_handle_value(PyObject *self, void *closure) {
    return PyLong_FromVoidPtr(((event_object *)self)->handle);
}

static PyObject *event_repr(PyObject *self) {
    event_object *e = (event_object *)self;
    return PyUnicode_FromFormat("<CUDA event %p on device %d%s>", (void *)e->handle, e->device,
                                e->timing ? "" : " (no timing)");
}

static void event_dealloc(PyObject *self) {
    event_object *e = (event_object *)self;
    PyTypeObject *tp = Py_TYPE(self);
    if (cj_ctx_primary(e->device) != NULL && cj_ctx_generation[e->device] == e->generation) {
        CJ_CU_RAW(cuEventDestroy, e->handle);
    }
    PyObject_Free(self);
    Py_DECREF(tp);
}

static PyMethodDef event_methods[] = {
    {"record", (PyCFunction)(void (*)(void))event_record, METH_VARARGS | METH_KEYWORDS,
     "record(stream=0): records the event on the stream."},
    {"wait", (PyCFunction)(void (*)(void))event_wait, METH_VARARGS | METH_KEYWORDS,
     "wait(stream=0): work queued later on the stream waits for this event."},
    {"query", event_query, METH_NOARGS, "True when the recorded work is done."},
    {"synchronize", event_synchronize, METH_NOARGS, "Waits for the event."},
    {"elapsed_time", event_elapsed_time, METH_O, "Milliseconds from this event to `other`."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef event_getset[] = {
    {"handle_value", event_get_handle_value, NULL, "The CUevent as an int.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot event_slots[] = {
    {Py_tp_dealloc, event_dealloc},
    {Py_tp_repr, event_repr},
    {Py_tp_methods, event_methods},
    {Py_tp_getset, event_getset},
    {Py_tp_doc, "A CUDA event (numba's cuda.event())."},
    {0, NULL},
};

static PyType_Spec event_spec = {
    .name = "cujit.cuda.Event",
    .basicsize = sizeof(event_object),
    .flags = Py_TPFLAGS_DEFAULT,
    .slots = event_slots,
};

static PyMethodDef event_functions[] = {
    {"event_create", (PyCFunction)(void (*)(void))py_event_create, METH_VARARGS | METH_KEYWORDS,
     "event_create(timing=True) -> Event."},
    {"event_elapsed_time", py_event_elapsed_time, METH_VARARGS,
     "event_elapsed_time(start, end) -> milliseconds."},
    {NULL, NULL, 0, NULL},
};

int cj_event_init(PyObject *module) {
    event_type = (PyTypeObject *)PyType_FromSpec(&event_spec);
    if (event_type == NULL) {
        return -1;
    }
    Py_INCREF(event_type);
    if (PyModule_AddObject(module, "Event", (PyObject *)event_type) < 0) {
        Py_DECREF(event_type);
        return -1;
    }
    return PyModule_AddFunctions(module, event_functions);
}
