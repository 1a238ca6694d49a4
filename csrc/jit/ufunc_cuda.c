/* ufunc_cuda.c: the call path of CUDA ufuncs and gufuncs (vectorize / guvectorize with
 * target='cuda'), in C, so a call on device arrays costs little more than its launch.
 *
 * _core.CudaUFunc(owner, name, nin, nout, signatures, core, build) where `signatures` are the
 * loops in signature order, `core` gives each operand's core dimensions as ids (all () for a
 * ufunc) and build(loop, loop_ndim, scalar_mask) returns the KernelLauncher of the generated
 * kernel for one loop, a number of loop dimensions and the inputs passed as scalars. A call:
 *   classify the operands (device arrays, host arrays, scalars) -> pick the first loop the
 *   inputs cast to safely (NumPy's rule; Python scalars by kind) -> broadcast the loop
 *   dimensions and bind the core ones -> copy host inputs to the device, allocate outputs ->
 *   merge loop dimensions that are contiguous in every operand -> launch a grid-stride kernel
 *   -> device results when an input was on the device, else NumPy arrays (numba's rule).
 * Attributes the C type does not have are looked up on `owner` (the Python half).
 * This file: the type, its construction and the call; ufunc_cuda.h lists the steps' files. */
#include "jit/ufunc_cuda.h"

static PyTypeObject *cj_CudaUFuncType;

/* ---- the call ---- */

static int bad_arguments(cj_CudaUFunc *u, Py_ssize_t nargs) {
    PyErr_Format(PyExc_TypeError, "%U() takes %d input(s) and optionally %d output(s), got %zd "
                 "positional argument(s)", u->name, u->nin, u->nout, nargs);
    return -1;
}

/* Reads out= (an array, or a tuple of nout arrays) and stream= into the call. */
static int parse_keywords(call *c, PyObject *const *kwvalues, PyObject *kwnames,
                          PyObject **outs, int have_outs) {
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    cj_CudaUFunc *u = c->u;
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, i), *value = kwvalues[i];
        if (PyUnicode_CompareWithASCIIString(key, "stream") == 0) {
            c->stream = value;
            continue;
        }
        if (PyUnicode_CompareWithASCIIString(key, "out") != 0) {
            PyErr_Format(PyExc_TypeError, "%U() got an unexpected keyword argument %R",
                         u->name, key);
            return -1;
        }
        if (value == Py_None) {
            continue;
        }
        if (have_outs) {
            PyErr_Format(PyExc_TypeError, "%U(): outputs given both positionally and as out=",
                         u->name);
            return -1;
        }
        if (PyTuple_Check(value)) {
            if (PyTuple_GET_SIZE(value) != u->nout) {
                PyErr_Format(PyExc_ValueError, "%U(): out= must have %d item(s)", u->name,
                             u->nout);
                return -1;
            }
            for (int j = 0; j < u->nout; j++) {
                outs[j] = PyTuple_GET_ITEM(value, j);
            }
        } else if (u->nout == 1) {
            outs[0] = value;
        } else {
            PyErr_Format(PyExc_TypeError, "%U(): out= must be a tuple of %d arrays", u->name,
                         u->nout);
            return -1;
        }
    }
    return cj_stream_handle(c->stream, &c->handle);
}

static int classify_all(call *c, PyObject *const *args, PyObject **outs) {
    for (int k = 0; k < c->nops; k++) {
        PyObject *obj = k < c->u->nin ? args[k] : outs[k - c->u->nin];
        if (k >= c->u->nin && (obj == NULL || obj == Py_None)) {
            memset(&c->ops[k], 0, sizeof(operand)); /* an output to allocate */
        } else if (cj_cuf_classify(&c->ops[k], obj) < 0) {
            return -1;
        } else if (k >= c->u->nin && c->ops[k].obj != obj) { /* converted: not an array */
            PyErr_Format(PyExc_TypeError, "%U: output %d must be an array, not %.100s",
                         c->u->name, k - c->u->nin, Py_TYPE(obj)->tp_name);
            return -1;
        }
    }
    return 0;
}

static PyObject *cuda_ufunc_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf,
                                       PyObject *kwnames) {
    cj_CudaUFunc *u = (cj_CudaUFunc *)self;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs < u->nin || nargs > u->nin + u->nout) {
        bad_arguments(u, nargs);
        return NULL;
    }
    PyObject *outs[MAX_OPERANDS] = {NULL};
    for (Py_ssize_t j = u->nin; j < nargs; j++) {
        outs[j - u->nin] = args[j];
    }
    call cs, *c = &cs; /* only what each step reads is initialised, for speed */
    c->u = u;
    c->nops = u->nin + u->nout;
    c->stream = NULL;
    c->handle = NULL;
    for (int k = 0; k < c->nops; k++) {
        c->ops[k].host = c->ops[k].dev = NULL;
        c->ops[k].descr = NULL;
    }
    PyObject *result = NULL;
    if (parse_keywords(c, args + nargs, kwnames, outs, nargs > u->nin) < 0 ||
        (c->device = cj_ctx_ensure()) < 0 || classify_all(c, args, outs) < 0 ||
        (c->li = cj_cuf_select_loop(u, c->ops)) < 0) {
        goto done;
    }
    c->l = &u->loops[c->li];
    if (cj_cuf_broadcast(c) < 0 || cj_cuf_bind_core(c) < 0 || cj_cuf_place_operands(c) < 0 ||
        cj_cuf_launch(c) < 0) {
        goto done;
    }
    result = cj_cuf_results(c);
done:
    for (int k = 0; k < c->nops; k++) {
        cj_cuf_operand_clear(&c->ops[k]);
    }
    return result;
}

/* ---- construction ---- */

/* Loop `l` from a Signature: a ufunc's `ret(args)` (scalars), or a gufunc's `(args, outs)`
 * whose arrays have their operand's core dimensions. */
static int loop_init(cj_CudaUFunc *u, loop *l, PyObject *sig) {
    if (!PyObject_TypeCheck(sig, cj_SignatureType)) {
        PyErr_SetString(PyExc_TypeError, "CudaUFunc loops must be Signatures");
        return -1;
    }
    const cj_signature_obj *s = (const cj_signature_obj *)sig;
    int nops = u->nin + u->nout;
    int has_ret = s->ret != NULL && s->ret->kind != CJ_VOID && s->ret->kind != CJ_NONE;
    if (u->gufunc ? (s->nargs != nops || has_ret) : (s->nargs != u->nin || !has_ret)) {
        PyErr_Format(PyExc_TypeError, "signature %R does not fit %d input(s) and %d output(s)%s",
                     sig, u->nin, u->nout, u->gufunc ? " (a gufunc returns nothing)" : "");
        return -1;
    }
    if ((l->text = PyObject_Str(sig)) == NULL) {
        return -1;
    }
    for (int k = 0; k < nops; k++) {
        const cj_type *t = k < s->nargs ? s->args[k] : s->ret;
        l->is_array[k] = t->kind == CJ_ARRAY;
        const cj_type *elem = l->is_array[k] ? t->dtype : t;
        int core = u->core_ndim[k];
        int ndim_ok = l->is_array[k] ? u->gufunc && (t->ndim == core || (core == 0 && t->ndim == 1))
                                     : core == 0 && (k < u->nin || !u->gufunc);
        int typenum = cj_type_npy_typenum(elem);
        if (!ndim_ok || typenum < 0) {
            PyErr_Format(PyExc_TypeError, "signature %R: argument %d (%s) does not fit its "
                         "layout of %d core dimension(s)%s", sig, k, t->name, core,
                         u->gufunc && k >= u->nin && !l->is_array[k]
                             ? "; outputs must be arrays" : "");
            return -1;
        }
        if ((l->descr[k] = PyArray_DescrFromType(typenum)) == NULL) {
            return -1;
        }
    }
    return 0;
}

static int core_init(cj_CudaUFunc *u, PyObject *core) {
    if (!PyTuple_Check(core) || PyTuple_GET_SIZE(core) != u->nin + u->nout) {
        PyErr_SetString(PyExc_TypeError, "core must be a tuple with a tuple of ids per operand");
        return -1;
    }
    for (int k = 0; k < u->nin + u->nout; k++) {
        PyObject *dims = PyTuple_GET_ITEM(core, k);
        if (!PyTuple_Check(dims) || PyTuple_GET_SIZE(dims) > MAX_CORE) {
            PyErr_Format(PyExc_ValueError, "operand %d: at most %d core dimensions", k, MAX_CORE);
            return -1;
        }
        u->core_ndim[k] = (int)PyTuple_GET_SIZE(dims);
        u->gufunc |= u->core_ndim[k] > 0;
        for (int j = 0; j < u->core_ndim[k]; j++) {
            long id = PyLong_AsLong(PyTuple_GET_ITEM(dims, j));
            if (id < 0 || id >= MAX_OPERANDS * MAX_CORE) {
                if (!PyErr_Occurred()) {
                    PyErr_SetString(PyExc_ValueError, "core dimension ids must be small ints");
                }
                return -1;
            }
            u->core_dim[k][j] = (int)id;
            u->ncore_ids = (int)id + 1 > u->ncore_ids ? (int)id + 1 : u->ncore_ids;
        }
    }
    return 0;
}

static PyObject *cuda_ufunc_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"owner", "name", "nin", "nout", "signatures", "core", "build",
                             "gufunc", NULL};
    PyObject *owner, *name, *sigs, *core, *build;
    int nin, nout, gufunc = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OUiiO!O!O|p:CudaUFunc", kwlist, &owner,
                                     &name, &nin, &nout, &PyList_Type, &sigs, &PyTuple_Type,
                                     &core, &build, &gufunc)) {
        return NULL;
    }
    if (nin < 1 || nout < 1 || nin + nout > MAX_OPERANDS - 1 || !PyCallable_Check(build)) {
        PyErr_Format(PyExc_ValueError, "a CUDA ufunc takes 1 to %d operands and a callable "
                     "build", MAX_OPERANDS - 1);
        return NULL;
    }
    cj_CudaUFunc *u = (cj_CudaUFunc *)type->tp_alloc(type, 0);
    if (u == NULL) {
        return NULL;
    }
    u->vectorcall = cuda_ufunc_vectorcall;
    u->owner = Py_NewRef(owner);
    u->name = Py_NewRef(name);
    u->build = Py_NewRef(build);
    u->nin = nin;
    u->nout = nout;
    u->gufunc = gufunc;
    Py_ssize_t nloops = PyList_GET_SIZE(sigs);
    u->loops = PyMem_Calloc(nloops ? (size_t)nloops : 1, sizeof(loop));
    if (u->loops == NULL) {
        Py_DECREF(u);
        return PyErr_NoMemory();
    }
    if (core_init(u, core) < 0) {
        Py_DECREF(u);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nloops; i++) {
        u->nloops++;
        if (loop_init(u, &u->loops[i], PyList_GET_ITEM(sigs, i)) < 0) {
            Py_DECREF(u);
            return NULL;
        }
    }
    return (PyObject *)u;
}

static int cuda_ufunc_traverse(PyObject *self, visitproc visit, void *arg) {
    cj_CudaUFunc *u = (cj_CudaUFunc *)self;
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(u->owner);
    Py_VISIT(u->build);
    for (int i = 0; i < u->nforms; i++) {
        Py_VISIT(u->forms[i].launcher);
    }
    return 0;
}

static int cuda_ufunc_clear(PyObject *self) {
    cj_CudaUFunc *u = (cj_CudaUFunc *)self;
    Py_CLEAR(u->owner);
    Py_CLEAR(u->build);
    for (int i = 0; i < u->nforms; i++) {
        Py_CLEAR(u->forms[i].launcher);
    }
    return 0;
}

static void cuda_ufunc_dealloc(PyObject *self) {
    cj_CudaUFunc *u = (cj_CudaUFunc *)self;
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    cuda_ufunc_clear(self);
    Py_CLEAR(u->name);
    for (int i = 0; i < u->nloops; i++) {
        Py_XDECREF(u->loops[i].text);
        for (int k = 0; k < u->nin + u->nout; k++) {
            Py_XDECREF(u->loops[i].descr[k]);
        }
    }
    PyMem_Free(u->loops);
    PyMem_Free(u->forms);
    tp->tp_free(self);
    Py_DECREF(tp);
}

/* Attributes the C type lacks come from the Python half (reduce, signatures, py_func...). */
static PyObject *cuda_ufunc_getattro(PyObject *self, PyObject *name) {
    PyObject *v = PyObject_GenericGetAttr(self, name);
    cj_CudaUFunc *u = (cj_CudaUFunc *)self;
    if (v != NULL || !PyErr_ExceptionMatches(PyExc_AttributeError) || u->owner == NULL) {
        return v;
    }
    PyErr_Clear();
    return PyObject_GetAttr(u->owner, name);
}

static PyObject *cuda_ufunc_repr(PyObject *self) {
    cj_CudaUFunc *u = (cj_CudaUFunc *)self;
    return PyUnicode_FromFormat("<cujit.cuda %s %U>", u->gufunc ? "gufunc" : "ufunc", u->name);
}

static PyObject *cuda_ufunc_name(PyObject *self, void *closure) {
    return Py_NewRef(((cj_CudaUFunc *)self)->name);
}

static PyObject *cuda_ufunc_forms(PyObject *self, void *closure) {
    return PyLong_FromLong(((cj_CudaUFunc *)self)->nforms);
}

static PyGetSetDef cuda_ufunc_getset[] = {
    {"__name__", cuda_ufunc_name, NULL, "the function's name", NULL},
    {"_kernels_built", cuda_ufunc_forms, NULL, "generated kernels so far (tests)", NULL},
    {NULL},
};

static PyMemberDef cuda_ufunc_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(cj_CudaUFunc, vectorcall), READONLY},
    {"nin", T_INT, offsetof(cj_CudaUFunc, nin), READONLY, "number of inputs"},
    {"nout", T_INT, offsetof(cj_CudaUFunc, nout), READONLY, "number of outputs"},
    {NULL},
};

static PyType_Slot cuda_ufunc_slots[] = {
    {Py_tp_new, cuda_ufunc_new},
    {Py_tp_dealloc, cuda_ufunc_dealloc},
    {Py_tp_traverse, cuda_ufunc_traverse},
    {Py_tp_clear, cuda_ufunc_clear},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_getattro, cuda_ufunc_getattro},
    {Py_tp_repr, cuda_ufunc_repr},
    {Py_tp_getset, cuda_ufunc_getset},
    {Py_tp_members, cuda_ufunc_members},
    {Py_tp_doc, "A CUDA ufunc or gufunc (vectorize/guvectorize with target='cuda')."},
    {0, NULL},
};

static PyType_Spec cuda_ufunc_spec = {
    .name = "cujit._core.CudaUFunc",
    .basicsize = sizeof(cj_CudaUFunc),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .slots = cuda_ufunc_slots,
};

int cj_ufunc_cuda_init(PyObject *module) {
    cj_CudaUFuncType = (PyTypeObject *)PyType_FromSpec(&cuda_ufunc_spec);
    if (cj_CudaUFuncType == NULL) {
        return -1;
    }
    Py_INCREF(cj_CudaUFuncType);
    return PyModule_AddObject(module, "CudaUFunc", (PyObject *)cj_CudaUFuncType);
}
