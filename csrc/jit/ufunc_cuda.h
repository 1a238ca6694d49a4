/* ufunc_cuda.h: what the files of the CUDA ufunc call path share (private to them; the
 * module sees only jit.h's cj_ufunc_cuda_init). The path, in call order:
 *   ufunc_cuda.c           the CudaUFunc type, its construction and the call (vectorcall)
 *   ufunc_cuda_operands.c  classifying the operands and choosing the loop
 *   ufunc_cuda_shapes.c    broadcasting, binding core dimensions, placing operands on the
 *                          device (host copies in, outputs allocated)
 *   ufunc_cuda_launch.c    merging loop dimensions, the launch through jit/kernel.h's
 *                          launcher API, and the results */
#ifndef CJ_UFUNC_CUDA_H
#define CJ_UFUNC_CUDA_H

#include <string.h>

#include "cuda/driver.h"

#include <structmember.h>

#include "cuda/cuda.h"
#include "jit/kernel.h"
#include "jit/jit.h"
#include "util/npy.h"

#define MAX_OPERANDS 32
#define MAX_CORE 8
#define BLOCK_THREADS 256
#define BLOCKS_PER_SM 32
typedef struct loop {
    PyArray_Descr *descr[MAX_OPERANDS]; /* owned: each operand's dtype */
    int is_array[MAX_OPERANDS];         /* declared as an array (gufuncs' `float64[:]`) */
    PyObject *text;                     /* owned: the signature, for messages */
} loop;

/* A generated kernel: one loop, a number of loop dimensions, the inputs passed as scalars. */
typedef struct form {
    int loop, loop_nd;
    unsigned int scalar_mask;
    PyObject *launcher; /* owned KernelLauncher */
} form;

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *owner; /* the Python half: attributes, build() */
    PyObject *name;
    PyObject *build;
    int nin, nout, gufunc;
    int core_ndim[MAX_OPERANDS];
    int core_dim[MAX_OPERANDS][MAX_CORE]; /* ids of the core dimensions */
    int ncore_ids;
    loop *loops;
    int nloops;
    form *forms;
    int nforms, forms_cap;
} cj_CudaUFunc;

/* ---- operands ---- */

typedef enum { OPND_NONE, OPND_DEVICE, OPND_HOST, OPND_SCALAR } operand_kind;

typedef struct operand {
    operand_kind kind;
    PyObject *obj;        /* borrowed: what the caller passed (outputs: NULL when none) */
    PyObject *host;       /* owned: HOST: the NumPy array; SCALAR from a 0-d array: the scalar */
    PyObject *dev;        /* owned: the device array used (a copy, a CAI view, a new output) */
    PyArray_Descr *descr; /* owned: the dtype; NULL for Python scalars */
    int pykind;           /* Python scalars (NEP 50 "weak"): 0 bool, 1 int, 2 float, 3 complex */
    int ndim;
    Py_ssize_t shape[CJ_MAXDIM];
    Py_ssize_t strides[CJ_MAXDIM];
    CUdeviceptr data;
    int readonly;
} operand;

/* One call in progress. */
typedef struct call {
    cj_CudaUFunc *u;
    operand ops[MAX_OPERANDS]; /* the inputs, then the outputs */
    int nops;
    const loop *l;
    int li;
    PyObject *stream;          /* borrowed: the stream= argument, or NULL */
    int on_device;             /* an input is on the device: results stay there */
    CUstream handle;
    int device;
    int loop_nd;
    Py_ssize_t loop_shape[CJ_MAXDIM];
    Py_ssize_t core_size[MAX_OPERANDS * MAX_CORE]; /* by core dimension id; -1: unbound */
} call;

static inline int cj_cuf_is_array(const operand *op) {
    return op->kind == OPND_DEVICE || op->kind == OPND_HOST;
}

/* ---- ufunc_cuda_operands.c ---- */
/* Drops the operand's references. */
void cj_cuf_operand_clear(operand *op);
/* Sorts `obj` into a device array, a host array or a scalar (taking its own references);
 * 0 or -1. */
int cj_cuf_classify(operand *op, PyObject *obj);
/* Shape and strides of a device array into the operand. */
void cj_cuf_take_device_layout(operand *op, const cj_DeviceNDArrayObject *a);
/* The index of the first loop the inputs cast to safely; -1 with TypeError when none. */
int cj_cuf_select_loop(const cj_CudaUFunc *u, operand *ops);

/* ---- ufunc_cuda_shapes.c ---- */
/* The loop shape from the operands' non-core dimensions (NumPy broadcasting); 0 or -1. */
int cj_cuf_broadcast(call *c);
/* Binds each core dimension id to one size across the operands; 0 or -1. */
int cj_cuf_bind_core(call *c);
/* Host inputs to the device, outputs made; after select_loop, broadcast and bind_core. */
int cj_cuf_place_operands(call *c);

/* ---- ufunc_cuda_launch.c ---- */
/* Launches the kernel for the call (nothing for an empty loop); 0 or -1. */
int cj_cuf_launch(call *c);
/* The outputs (one object, or a tuple of nout) after the launch; new reference or NULL. */
PyObject *cj_cuf_results(call *c);

#endif
