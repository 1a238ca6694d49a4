/* forall.c: kernel.forall(ntasks, tpb=0, stream=0, sharedmem=0), numba-cuda's 1-D launch over
 * a task count: a ForAll object whose call launches ceil(ntasks / tpb) blocks of tpb threads
 * (the kernel checks cuda.grid(1) < ntasks). With tpb 0 the block size is the driver's
 * occupancy choice (cuOccupancyMaxPotentialBlockSize) for the version the arguments select,
 * asked once per version and dynamic shared memory size. ntasks 0 launches nothing. */
#include <limits.h>

#include "jit/kernel_internal.h"

#define MAX_GRID_X 0x7fffffffLL
#define MAX_BLOCK 1024

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    cj_KernelLauncher *launcher; /* owned */
    long long ntasks;
    int tpb;                     /* 0: the occupancy API's choice */
    PyObject *stream;            /* owned */
    long shmem;
} cj_ForAll;

static PyTypeObject *cj_ForAllType;

/* The block size of version `v` that maximises occupancy (cached in the version). */
static int best_block(cj_KernelLauncher *k, version *v, long shmem) {
    if (v->best_block > 0 && v->best_block_shmem == shmem) {
        return v->best_block;
    }
    int min_grid = 0, block = 0;
    int limit = v->max_threads < MAX_BLOCK ? v->max_threads : MAX_BLOCK;
    if (CJ_CU(cuOccupancyMaxPotentialBlockSize, &min_grid, &block, v->fn, NULL, (size_t)shmem,
              limit) < 0) {
        return -1;
    }
    if (block <= 0 || block > limit) {
        PyErr_Format(PyExc_RuntimeError, "the occupancy API suggested %d threads per block for "
                                         "kernel %U (limit %d)", block, k->name, limit);
        return -1;
    }
    v->best_block_shmem = shmem;
    v->best_block = block;
    return block;
}

int cj_forall_dims(cj_KernelLauncher *k, version *v, cj_launch_dims *dims, long shmem) {
    int block = dims->tpb > 0 ? dims->tpb : best_block(k, v, shmem);
    if (block < 0) {
        return -1;
    }
    long long grid = (dims->ntasks + block - 1) / block;
    if (grid > MAX_GRID_X) {
        PyErr_Format(PyExc_ValueError, "forall(%lld) needs %lld blocks of %d threads; the grid "
                                       "holds at most %lld", dims->ntasks, grid, block,
                     MAX_GRID_X);
        return -1;
    }
    dims->grid[0] = (unsigned int)grid;
    dims->block[0] = (unsigned int)block;
    dims->grid[1] = dims->grid[2] = dims->block[1] = dims->block[2] = 1;
    return 0;
}

static PyObject *forall_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf,
                                   PyObject *kwnames) {
    cj_ForAll *f = (cj_ForAll *)self;
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) > 0) {
        PyErr_Format(PyExc_TypeError, "kernel %U takes no keyword arguments", f->launcher->name);
        return NULL;
    }
    if (f->ntasks == 0) {
        Py_RETURN_NONE; /* numba-cuda: no tasks, no launch */
    }
    cj_launch_dims dims = {.ntasks = f->ntasks, .tpb = f->tpb};
    return cj_launch(f->launcher, &dims, f->stream, f->shmem, args, PyVectorcall_NARGS(nargsf));
}

/* An int argument of forall (not a bool) within [lo, hi]; -1 with an exception otherwise. */
static int int_arg(PyObject *v, const char *what, long long lo, long long hi, long long *out) {
    if (PyBool_Check(v) || !PyLong_Check(v)) {
        PyErr_Format(PyExc_TypeError, "forall: %s must be an int, not %.100s", what,
                     Py_TYPE(v)->tp_name);
        return -1;
    }
    int overflow;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (x == -1 && PyErr_Occurred()) {
        return -1;
    }
    x = overflow < 0 ? LLONG_MIN : overflow > 0 ? LLONG_MAX : x;
    if (x < lo || x > hi) {
        PyErr_Format(PyExc_ValueError, "forall: %s must be in %lld..%lld, got %R", what, lo, hi,
                     v);
        return -1;
    }
    *out = x;
    return 0;
}

PyObject *cj_launcher_forall(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"ntasks", "tpb", "stream", "sharedmem", NULL};
    cj_KernelLauncher *k = (cj_KernelLauncher *)self;
    PyObject *ntasks_obj, *tpb_obj = NULL, *stream = NULL, *shmem_obj = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OOO:forall", names, &ntasks_obj, &tpb_obj,
                                     &stream, &shmem_obj)) {
        return NULL;
    }
    if (k->device_fn) {
        PyErr_Format(PyExc_TypeError, "device function %U cannot be launched", k->name);
        return NULL;
    }
    long long ntasks, tpb = 0, shmem = 0;
    CUstream handle;
    if (int_arg(ntasks_obj, "ntasks", LLONG_MIN, LLONG_MAX / 2, &ntasks) < 0) {
        return NULL;
    }
    if (ntasks < 0) { /* numba-cuda's words */
        PyErr_Format(PyExc_ValueError, "Can't create ForAll with negative task count: %R",
                     ntasks_obj);
        return NULL;
    }
    if ((tpb_obj != NULL && int_arg(tpb_obj, "tpb", 0, MAX_BLOCK, &tpb) < 0) ||
        (shmem_obj != NULL && int_arg(shmem_obj, "sharedmem", 0, LONG_MAX, &shmem) < 0) ||
        (stream != NULL && cj_stream_handle(stream, &handle) < 0)) {
        return NULL;
    }
    cj_ForAll *f = PyObject_GC_New(cj_ForAll, cj_ForAllType);
    if (f == NULL) {
        return NULL;
    }
    f->vectorcall = forall_vectorcall;
    f->launcher = (cj_KernelLauncher *)Py_NewRef(self);
    f->ntasks = ntasks;
    f->tpb = (int)tpb;
    f->stream = Py_NewRef(stream != NULL ? stream : Py_None);
    f->shmem = (long)shmem;
    PyObject_GC_Track(f);
    return (PyObject *)f;
}

static int forall_traverse(PyObject *self, visitproc visit, void *arg) {
    cj_ForAll *f = (cj_ForAll *)self;
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(f->launcher);
    Py_VISIT(f->stream);
    return 0;
}

static int forall_clear(PyObject *self) {
    cj_ForAll *f = (cj_ForAll *)self;
    Py_CLEAR(f->launcher);
    Py_CLEAR(f->stream);
    return 0;
}

static void forall_dealloc(PyObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    forall_clear(self);
    PyObject_GC_Del(self);
    Py_DECREF(tp);
}

static PyObject *forall_repr(PyObject *self) {
    cj_ForAll *f = (cj_ForAll *)self;
    return PyUnicode_FromFormat("<forall of %U ntasks=%lld tpb=%d sharedmem=%ld>",
                                f->launcher->name, f->ntasks, f->tpb, f->shmem);
}

static PyMemberDef forall_members[] = {
    {"ntasks", T_LONGLONG, offsetof(cj_ForAll, ntasks), READONLY, "the number of tasks"},
    {"thread_per_block", T_INT, offsetof(cj_ForAll, tpb), READONLY,
     "threads per block (0: chosen by the occupancy API at the launch)"},
    {"stream", T_OBJECT, offsetof(cj_ForAll, stream), READONLY, "the stream (None: default)"},
    {"sharedmem", T_LONG, offsetof(cj_ForAll, shmem), READONLY, "dynamic shared memory, bytes"},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(cj_ForAll, vectorcall), READONLY},
    {NULL},
};

static PyType_Slot forall_slots[] = {
    {Py_tp_dealloc, forall_dealloc},
    {Py_tp_traverse, forall_traverse},
    {Py_tp_clear, forall_clear},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_repr, forall_repr},
    {Py_tp_members, forall_members},
    {Py_tp_doc, "kernel.forall(ntasks, tpb, stream, sharedmem): call it with the arguments."},
    {0, NULL},
};

static PyType_Spec forall_spec = {
    .name = "cujit._core.ForAll",
    .basicsize = sizeof(cj_ForAll),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .slots = forall_slots,
};

int cj_forall_init(void) {
    cj_ForAllType = (PyTypeObject *)PyType_FromSpec(&forall_spec);
    return cj_ForAllType == NULL ? -1 : 0;
}
