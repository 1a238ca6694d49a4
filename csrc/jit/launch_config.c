/* launch_config.c: kernel[griddim, blockdim(, stream(, sharedmem))], validated here before
 * the driver sees it: a KernelLaunch object whose call (vectorcall) launches. */

#include "jit/kernel_internal.h"

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

int cj_parse_blockdim(PyObject *blockdim, unsigned int *out) {
    return parse_dim3(blockdim, "blockdim", block_limits, out);
}

static PyObject *kernel_launch_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf,
                                          PyObject *kwnames) {
    cj_KernelLaunch *l = (cj_KernelLaunch *)self;
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) > 0) {
        PyErr_Format(PyExc_TypeError, "kernel %U takes no keyword arguments",
                     l->launcher->name);
        return NULL;
    }
    cj_launch_dims dims = {.ntasks = -1};
    memcpy(dims.grid, l->grid, sizeof(dims.grid));
    memcpy(dims.block, l->block, sizeof(dims.block));
    return cj_launch(l->launcher, &dims, l->stream, l->shmem, args, PyVectorcall_NARGS(nargsf));
}

/* configure((griddim, blockdim[, stream[, sharedmem]])) -> a launchable configuration. */
PyObject *cj_launcher_configure(PyObject *self, PyObject *config) {
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
int cj_launch_config_init(void) {
    cj_KernelLaunchType = (PyTypeObject *)PyType_FromSpec(&kernel_launch_spec);
    return cj_KernelLaunchType == NULL ? -1 : 0;
}
