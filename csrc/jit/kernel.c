/* kernel.c: the CUDA dispatcher's table, in C (see kernel_internal.h for the three files).
 *
 * _core.KernelLauncher(pyfunc, name, device, options, cache=None) holds a cuda.jit function's
 * compiled signatures (one table, for kernels and device functions; Python asks it) and, for
 * kernels, their loaded versions per launch argument types and device. A launch whose types
 * have no version takes the overload compiled for those types, or, once the signatures are
 * fixed (lock()), the one they convert to best (types/convert.c); else it compiles one with
 * cj_cuda_compile for the launch device's compute capability, through the on-disk cache when
 * there is one.
 *
 * Threads: a miss (a version to load, a signature to compile) claims its argument types on
 * the launcher (threads.c), looks again and does the work, so one signature compiles once
 * while other threads wait. The launch hit path (find_version) takes no lock and allocates
 * nothing: entries are written before the count that shows them and never removed while the
 * launcher lives, and a grown array's old copy stays allocated (cj_table_reserve), so even a
 * reader that keeps an array pointer across Python code (the cache, another thread's
 * compilation) reads valid entries. Versions and overloads stay at their addresses. */
#include <string.h>

#include "jit/kernel_internal.h"
#include "lower/lower_kernel.h"

enum { CU_FUNC_MAX_THREADS = 0, CU_FUNC_SHARED = 1, CU_FUNC_CONST = 2, CU_FUNC_LOCAL = 3,
       CU_FUNC_REGS = 4 };

PyTypeObject *cj_KernelLauncherType;

static int same_types(const cj_type *const *a, const cj_type *const *b, int n) {
    for (int i = 0; i < n; i++) {
        if (a[i] != b[i]) {
            return 0;
        }
    }
    return 1;
}

/* ---- the table ---- */

static void overload_free(cj_cuda_overload *ov) {
    cj_cuda_result_clear(&ov->result);
    Py_XDECREF(ov->dict);
    PyMem_Free(ov);
}

static cj_cuda_overload *find_overload(cj_KernelLauncher *k, const cj_type *const *types,
                                       int nargs) {
    for (int i = 0; i < k->nov; i++) {
        if (k->ovs[i]->nargs == nargs && same_types(k->ovs[i]->argtypes, types, nargs)) {
            return k->ovs[i];
        }
    }
    return NULL;
}

static const cj_type *const *overload_argtypes(void *table, int i, int *nargs) {
    cj_cuda_overload *ov = ((cj_KernelLauncher *)table)->ovs[i];
    *nargs = ov->nargs;
    return ov->argtypes;
}

/* TypeError naming the types and the compiled signatures (numba-cuda's words). */
static void no_match(cj_KernelLauncher *k, const cj_type *const *types, int nargs) {
    PyObject *given = PyUnicode_FromString(""), *compiled = PyList_New(0);
    for (int i = 0; given != NULL && i < nargs; i++) {
        PyUnicode_AppendAndDel(&given, PyUnicode_FromFormat(i ? ", %s" : "%s", types[i]->name));
    }
    for (int i = 0; compiled != NULL && i < k->nov; i++) {
        PyObject *names = PyTuple_New(k->ovs[i]->nargs);
        for (int a = 0; names != NULL && a < k->ovs[i]->nargs; a++) {
            PyObject *n = PyUnicode_FromString(k->ovs[i]->argtypes[a]->name);
            if (n == NULL) {
                Py_CLEAR(names);
                break;
            }
            PyTuple_SET_ITEM(names, a, n);
        }
        if (names == NULL || PyList_Append(compiled, names) < 0) {
            Py_CLEAR(compiled);
        }
        Py_XDECREF(names);
    }
    if (given != NULL && compiled != NULL) {
        PyErr_Format(PyExc_TypeError, "No matching definition for argument type(s) %U of kernel "
                                      "%U; compiled for: %R", given, k->name, compiled);
    }
    Py_XDECREF(given);
    Py_XDECREF(compiled);
}

/* A cached kernel for these types, or 0 (no exception) on a miss. 1 when `out` was filled. */
static int cache_load(cj_KernelLauncher *k, PyObject *argtuple, PyObject *cc,
                      const cj_type *const *types, int nargs, cj_cuda_result *out) {
    PyObject *entry = PyObject_CallMethod(k->cache, "load", "OO", argtuple, cc);
    int found = entry != NULL && PyDict_Check(entry) &&
                cj_cuda_result_from_entry(entry, types, nargs, out) == 0;
    Py_XDECREF(entry);
    PyErr_Clear(); /* an unusable entry is a miss: the kernel is compiled again */
    return found;
}

static void cache_store(cj_KernelLauncher *k, PyObject *argtuple, PyObject *cc,
                        const cj_cuda_result *r) {
    if ((r->link != NULL && PyTuple_GET_SIZE(r->link) > 0) || r->ltoir != NULL) {
        return; /* declare_device(link=...) files and LTO-IR are not kept on disk: compiled again */
    }
    PyObject *d = cj_cuda_result_dict(r);
    PyObject *rc = d ? PyObject_CallMethod(k->cache, "store", "OOO", argtuple, cc, d) : NULL;
    Py_XDECREF(rc);
    Py_XDECREF(d);
    if (PyErr_Occurred()) { /* a cache that cannot be written is not an error of the launch */
        PyErr_WriteUnraisable(k->pyfunc);
    }
}

/* Compiles (or reads from the on-disk cache) the overload for `types`; -1 + exception. */
static int compile_into(cj_KernelLauncher *k, const cj_type *const *types, int nargs,
                        const cj_type *declared, const cj_cuda_options *opt,
                        cj_cuda_result *out) {
    int cached = k->cache != Py_None && !k->device_fn && !opt->debug;
    PyObject *argtuple = NULL, *cc = NULL;
    if (cached) {
        argtuple = cj_types_tuple(types, nargs);
        cc = argtuple ? Py_BuildValue("(ii)", opt->cc_major, opt->cc_minor) : NULL;
        if (cc == NULL) {
            Py_XDECREF(argtuple);
            return -1;
        }
    }
    int rc = 0;
    if (cached && cache_load(k, argtuple, cc, types, nargs, out)) {
        out->cc_major = opt->cc_major;
        out->cc_minor = opt->cc_minor;
    } else {
        rc = cj_cuda_compile(k->pyfunc, types, nargs, k->device_fn, opt, declared, out);
        if (rc == 0 && cached) {
            cache_store(k, argtuple, cc, out);
        }
    }
    Py_XDECREF(argtuple);
    Py_XDECREF(cc);
    return rc;
}

/* Adds the overload compiled for `types` (for compute capability cc) to the table. */
static cj_cuda_overload *add_overload(cj_KernelLauncher *k, const cj_type *const *types,
                                      int nargs, const cj_type *declared, int cc_major,
                                      int cc_minor) {
    cj_cuda_overload *ov = PyMem_Calloc(1, sizeof(cj_cuda_overload));
    if (ov == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    cj_cuda_options opt = k->opt;
    opt.cc_major = cc_major;
    opt.cc_minor = cc_minor;
    if (compile_into(k, types, nargs, declared, &opt, &ov->result) < 0 ||
        cj_table_reserve((void ***)&k->ovs, k->nov, &k->capov) < 0) {
        overload_free(ov);
        return NULL;
    }
    ov->nargs = nargs;
    memcpy(ov->argtypes, types, sizeof(cj_type *) * (size_t)nargs);
    k->ovs[k->nov] = ov;
    k->nov++;
    return ov;
}

/* The overload a launch with these types runs on `device`. */
static const cj_cuda_overload *overload_for_launch(cj_KernelLauncher *k,
                                                   const cj_type *const *types, int nargs,
                                                   int device) {
    cj_cuda_overload *ov = find_overload(k, types, nargs);
    if (ov != NULL) {
        return ov;
    }
    if (k->locked) {
        int i = cj_best_conversion(types, nargs, overload_argtypes, k, k->nov);
        if (i < 0) {
            no_match(k, types, nargs);
            return NULL;
        }
        return k->ovs[i];
    }
    int major, minor;
    if (cj_device_compute_capability(device, &major, &minor) < 0) {
        return NULL;
    }
    return add_overload(k, types, nargs, NULL, major, minor);
}

/* ---- versions: overloads loaded on a device ---- */

/* Frees a version; the caller's pending exception, if any, survives the module's unload. */
static void version_free(version *v) {
    if (v == NULL) {
        return;
    }
    if (v->module != NULL) {
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        if (cj_ctx_check_generation(v->device, v->generation) == 0) {
            (void)CJ_CU_RAW(cuModuleUnload, v->module);
        }
        PyErr_Restore(type, value, tb); /* drops a stale generation's CudaSupportError */
    }
    PyMem_Free(v);
}

static version *find_version(cj_KernelLauncher *k, const cj_type *const *types, int nargs,
                             int device) {
    for (int i = 0; i < k->n; i++) {
        version *v = k->vs[i];
        if (v->nargs == nargs && v->device == device && same_types(v->key, types, nargs)) {
            return v;
        }
    }
    return NULL;
}

/* The files to link into `ov`: the kernel's link=[...], then those its external functions
 * need (declare_device(link=...)), each once. A new tuple, or NULL + exception. */
static PyObject *link_files(cj_KernelLauncher *k, const cj_cuda_overload *ov) {
    PyObject *own = ov->result.link;
    if (own == NULL || PyTuple_GET_SIZE(own) == 0) {
        return Py_NewRef(k->link);
    }
    PyObject *set = PyDict_New(), *out = NULL;
    for (Py_ssize_t i = 0; set != NULL && i < PyTuple_GET_SIZE(k->link) + PyTuple_GET_SIZE(own);
         i++) {
        PyObject *f = i < PyTuple_GET_SIZE(k->link)
                          ? PyTuple_GET_ITEM(k->link, i)
                          : PyTuple_GET_ITEM(own, i - PyTuple_GET_SIZE(k->link));
        if (PyDict_SetItem(set, f, Py_None) < 0) {
            Py_CLEAR(set);
        }
    }
    out = set ? PySequence_Tuple(set) : NULL;
    Py_XDECREF(set);
    return out;
}

/* Loads `ov`'s PTX (linked with its files when there are any) on the current context (the
 * launch's `device`). */
static int load_module(cj_KernelLauncher *k, version *v, const cj_cuda_overload *ov) {
    const char *image = PyUnicode_AsUTF8(ov->result.ptx);
    PyObject *files = image ? link_files(k, ov) : NULL;
    PyObject *cubin = files != NULL && (PyTuple_GET_SIZE(files) > 0 || ov->result.ltoir)
                          ? cj_kernel_link(&ov->result, files)
                          : NULL;
    Py_XDECREF(files);
    if (image == NULL || files == NULL || (cubin == NULL && PyErr_Occurred())) {
        return -1;
    }
    int rc = CJ_CU(cuModuleLoadData, &v->module, cubin ? PyBytes_AS_STRING(cubin) : image);
    Py_XDECREF(cubin);
    if (rc < 0 || CJ_CU(cuModuleGetFunction, &v->fn, v->module, ov->result.entry) < 0 ||
        CJ_CU(cuFuncGetAttribute, &v->max_threads, CU_FUNC_MAX_THREADS, v->fn) < 0 ||
        CJ_CU(cuFuncGetAttribute, &v->static_shared, CU_FUNC_SHARED, v->fn) < 0) {
        return -1;
    }
    v->cooperative = strstr(image, CJ_GRID_BARRIER_SYMBOL) != NULL;
    size_t size;
    if (ov->result.debug &&
        CJ_CU(cuModuleGetGlobal, &v->exc_info, &size, v->module, CJ_CUDA_EXC_GLOBAL) < 0) {
        return -1;
    }
    return 0;
}

/* Loads (compiling if needed) the version for launch types on `device`; the caller holds
 * the claim on the types. */
static version *load_version(cj_KernelLauncher *k, const cj_type *const *types, int nargs,
                             int device) {
    version *v;
    const cj_cuda_overload *ov = overload_for_launch(k, types, nargs, device);
    if (ov == NULL || (v = PyMem_Calloc(1, sizeof(version))) == NULL) {
        return ov == NULL ? NULL : (version *)PyErr_NoMemory();
    }
    *v = (version){.nargs = nargs, .ov = ov, .device = device,
                   .generation = cj_ctx_generation[device]};
    memcpy(v->key, types, sizeof(cj_type *) * (size_t)nargs);
    if (load_module(k, v, ov) < 0 || cj_table_reserve((void ***)&k->vs, k->n, &k->cap) < 0) {
        version_free(v);
        return NULL;
    }
    k->vs[k->n] = v;
    k->n++; /* visible to launches once complete */
    return v;
}

version *cj_launcher_version(cj_KernelLauncher *k, const cj_type *const *types, int nargs,
                             int device) {
    version *v = find_version(k, types, nargs, device);
    if (v != NULL) {
        return v; /* the launch hit path: no lock, no allocation */
    }
    if (k->device_fn) {
        PyErr_Format(PyExc_TypeError, "device function %U cannot be launched", k->name);
        return NULL;
    }
    cj_pending *claim = NULL;
    int rc = 0;
    while ((v = find_version(k, types, nargs, device)) == NULL &&
           (rc = cj_pending_begin(&k->pending, types, nargs, k->pyfunc, &claim)) == 0) {
        /* another thread loaded them meanwhile (or failed to: then we try) */
    }
    if (v != NULL || rc < 0) {
        return v;
    }
    v = load_version(k, types, nargs, device);
    cj_pending_end(&k->pending, claim);
    return v;
}

/* ---- Python methods ---- */

/* Types from a tuple of cujit types (at most CJ_MAX_ARGS); -1 + TypeError naming `what`. */
static int types_of(PyObject *tuple, const cj_type **types, int *nargs, const char *what) {
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) > CJ_MAX_ARGS) {
        PyErr_Format(PyExc_TypeError, "%s takes a tuple of argument types", what);
        return -1;
    }
    *nargs = (int)PyTuple_GET_SIZE(tuple);
    for (int i = 0; i < *nargs; i++) {
        if ((types[i] = cj_type_from_py_checked(PyTuple_GET_ITEM(tuple, i), what)) == NULL) {
            return -1;
        }
    }
    return 0;
}

static PyObject *overload_dict(cj_cuda_overload *ov) {
    if (ov->dict == NULL && (ov->dict = cj_cuda_result_dict(&ov->result)) == NULL) {
        return NULL;
    }
    return Py_NewRef(ov->dict);
}

/* compile(argtypes, restype, cc) -> the overload's dict, compiled unless already there. */
static PyObject *launcher_compile(PyObject *self, PyObject *args) {
    cj_KernelLauncher *k = (cj_KernelLauncher *)self;
    PyObject *argtypes, *restype;
    int major, minor, nargs;
    const cj_type *types[CJ_MAX_ARGS], *declared = NULL;
    if (!PyArg_ParseTuple(args, "OO(ii):compile", &argtypes, &restype, &major, &minor) ||
        types_of(argtypes, types, &nargs, "compile()") < 0) {
        return NULL;
    }
    if (restype != Py_None && (declared = cj_type_from_py_checked(restype, "restype")) == NULL) {
        return NULL;
    }
    cj_cuda_overload *ov;
    cj_pending *claim = NULL;
    int rc = 0;
    while ((ov = find_overload(k, types, nargs)) == NULL &&
           (rc = cj_pending_begin(&k->pending, types, nargs, k->pyfunc, &claim)) == 0) {
    }
    if (ov == NULL && rc == 1) {
        ov = add_overload(k, types, nargs, declared, major, minor);
        cj_pending_end(&k->pending, claim);
    }
    return ov == NULL ? NULL : overload_dict(ov);
}

static PyObject *launcher_lock(PyObject *self, PyObject *unused) {
    ((cj_KernelLauncher *)self)->locked = 1;
    Py_RETURN_NONE;
}

/* overloads() -> {argtypes: dict}, in compile order. */
static PyObject *launcher_overloads(PyObject *self, PyObject *unused) {
    cj_KernelLauncher *k = (cj_KernelLauncher *)self;
    PyObject *out = PyDict_New();
    for (int i = 0; out != NULL && i < k->nov; i++) {
        PyObject *key = cj_types_tuple(k->ovs[i]->argtypes, k->ovs[i]->nargs);
        PyObject *d = key ? overload_dict(k->ovs[i]) : NULL;
        if (d == NULL || PyDict_SetItem(out, key, d) < 0) {
            Py_CLEAR(out);
        }
        Py_XDECREF(key);
        Py_XDECREF(d);
    }
    return out;
}

/* attributes(argtypes) -> {regs, shared, const, local, max_threads} of a loaded version. */
static PyObject *launcher_attributes(PyObject *self, PyObject *key) {
    cj_KernelLauncher *k = (cj_KernelLauncher *)self;
    const cj_type *types[CJ_MAX_ARGS];
    int nargs;
    if (types_of(key, types, &nargs, "attributes()") < 0) {
        return NULL;
    }
    int device = cj_ctx_ensure();
    version *v = device < 0 ? NULL : cj_launcher_version(k, types, nargs, device);
    if (v == NULL) {
        return NULL;
    }
    int regs, shared, cnst, local, maxt;
    if (CJ_CU(cuFuncGetAttribute, &regs, CU_FUNC_REGS, v->fn) < 0 ||
        CJ_CU(cuFuncGetAttribute, &shared, CU_FUNC_SHARED, v->fn) < 0 ||
        CJ_CU(cuFuncGetAttribute, &cnst, CU_FUNC_CONST, v->fn) < 0 ||
        CJ_CU(cuFuncGetAttribute, &local, CU_FUNC_LOCAL, v->fn) < 0 ||
        CJ_CU(cuFuncGetAttribute, &maxt, CU_FUNC_MAX_THREADS, v->fn) < 0) {
        return NULL;
    }
    return Py_BuildValue("{s:i,s:i,s:i,s:i,s:i}", "regs", regs, "shared", shared, "const", cnst,
                         "local", local, "max_threads", maxt);
}

/* max_cooperative_grid_blocks(argtypes, blockdim, dynsmemsize): numba-cuda's, for a grid
 * that syncs (launch_cooperative.c). */
static PyObject *launcher_max_cooperative(PyObject *self, PyObject *args) {
    cj_KernelLauncher *k = (cj_KernelLauncher *)self;
    PyObject *key, *blockdim;
    Py_ssize_t shmem = 0;
    const cj_type *types[CJ_MAX_ARGS];
    unsigned int block[3];
    int nargs;
    if (!PyArg_ParseTuple(args, "OO|n:max_cooperative_grid_blocks", &key, &blockdim, &shmem) ||
        types_of(key, types, &nargs, "max_cooperative_grid_blocks()") < 0 ||
        cj_parse_blockdim(blockdim, block) < 0) {
        return NULL;
    }
    if (shmem < 0) {
        PyErr_Format(PyExc_ValueError, "dynsmemsize must not be negative, got %zd", shmem);
        return NULL;
    }
    int device = cj_ctx_ensure();
    version *v = device < 0 ? NULL : cj_launcher_version(k, types, nargs, device);
    long long most = v == NULL ? -1 : cj_cooperative_max_blocks(
                                          v, (unsigned long long)block[0] * block[1] * block[2],
                                          (size_t)shmem);
    return most < 0 ? NULL : PyLong_FromLongLong(most);
}

/* ---- type ---- */

static PyObject *launcher_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"pyfunc", "name", "device", "options", "cache", "link", NULL};
    PyObject *pyfunc, *name, *options, *cache = Py_None, *link = NULL;
    int device_fn;
    cj_cuda_options opt;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OUpO|OO!:KernelLauncher", kwlist, &pyfunc,
                                     &name, &device_fn, &options, &cache, &PyTuple_Type,
                                     &link) ||
        cj_cuda_parse_options(options, &opt) < 0) {
        return NULL;
    }
    if (!PyFunction_Check(pyfunc)) {
        PyErr_Format(PyExc_TypeError, "cujit compiles Python functions, not %.200s",
                     Py_TYPE(pyfunc)->tp_name);
        return NULL;
    }
    cj_KernelLauncher *k = (cj_KernelLauncher *)type->tp_alloc(type, 0);
    if (k == NULL) {
        return NULL;
    }
    k->pyfunc = Py_NewRef(pyfunc);
    k->name = Py_NewRef(name);
    k->cache = Py_NewRef(cache);
    k->link = link ? Py_NewRef(link) : PyTuple_New(0);
    if (k->link == NULL) {
        Py_DECREF(k);
        return NULL;
    }
    k->device_fn = device_fn;
    k->opt = opt;
    return (PyObject *)k;
}

static int launcher_traverse(PyObject *self, visitproc visit, void *arg) {
    cj_KernelLauncher *k = (cj_KernelLauncher *)self;
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(k->pyfunc);
    Py_VISIT(k->name);
    Py_VISIT(k->cache);
    for (int i = 0; i < k->nov; i++) {
        Py_VISIT(k->ovs[i]->dict);
    }
    return 0;
}

static int launcher_clear(PyObject *self) {
    cj_KernelLauncher *k = (cj_KernelLauncher *)self;
    Py_CLEAR(k->pyfunc);
    Py_CLEAR(k->name);
    Py_CLEAR(k->cache);
    for (int i = 0; i < k->nov; i++) {
        Py_CLEAR(k->ovs[i]->dict);
    }
    return 0;
}

static void launcher_dealloc(PyObject *self) {
    cj_KernelLauncher *k = (cj_KernelLauncher *)self;
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    launcher_clear(self);
    Py_CLEAR(k->link); /* str and bytes only: never in a cycle, so never cleared by the GC */
    for (int i = 0; i < k->n; i++) {
        version_free(k->vs[i]);
    }
    for (int i = 0; i < k->nov; i++) {
        overload_free(k->ovs[i]);
    }
    cj_table_free((void **)k->vs);
    cj_table_free((void **)k->ovs);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *launcher_count(PyObject *self, void *closure) {
    return PyLong_FromLong(((cj_KernelLauncher *)self)->n);
}

static PyObject *launcher_locked(PyObject *self, void *closure) {
    return PyBool_FromLong(((cj_KernelLauncher *)self)->locked);
}

static PyMethodDef launcher_methods[] = {
    {"launch", (PyCFunction)(void (*)(void))cj_launcher_launch, METH_FASTCALL,
     "launch(griddim, blockdim, stream, sharedmem, args): griddim/blockdim are 3-tuples"},
    {"configure", cj_launcher_configure, METH_O,
     "configure((griddim, blockdim[, stream[, sharedmem]])) -> KernelLaunch (validated)"},
    {"compile", launcher_compile, METH_VARARGS,
     "compile(argtypes, restype, (major, minor)) -> the overload's dict (compiled once)"},
    {"lock", launcher_lock, METH_NOARGS,
     "fix the signatures: launches convert their arguments to the best one"},
    {"overloads", launcher_overloads, METH_NOARGS, "overloads() -> {argtypes: dict}"},
    {"forall", (PyCFunction)(void (*)(void))cj_launcher_forall, METH_VARARGS | METH_KEYWORDS,
     "forall(ntasks, tpb=0, stream=0, sharedmem=0) -> ForAll: a 1-D launch over ntasks"},
    {"max_cooperative_grid_blocks", launcher_max_cooperative, METH_VARARGS,
     "max_cooperative_grid_blocks(argtypes, blockdim, dynsmemsize) -> int"},
    {"attributes", launcher_attributes, METH_O,
     "attributes(argtypes) -> {regs, shared, const, local, max_threads}"},
    {NULL},
};

static PyGetSetDef launcher_getset[] = {
    {"loaded", launcher_count, NULL, "number of loaded versions", NULL},
    {"locked", launcher_locked, NULL, "whether the signatures are fixed", NULL},
    {NULL},
};

static PyType_Slot launcher_slots[] = {
    {Py_tp_new, launcher_new},
    {Py_tp_dealloc, launcher_dealloc},
    {Py_tp_traverse, launcher_traverse},
    {Py_tp_clear, launcher_clear},
    {Py_tp_methods, launcher_methods},
    {Py_tp_getset, launcher_getset},
    {Py_tp_doc, "A cuda.jit function's compiled signatures, loaded versions and launch path."},
    {0, NULL},
};

static PyType_Spec launcher_spec = {
    .name = "cujit._core.KernelLauncher",
    .basicsize = sizeof(cj_KernelLauncher),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .slots = launcher_slots,
};

int cj_kernel_init(PyObject *module) {
    cj_KernelLauncherType = (PyTypeObject *)PyType_FromSpec(&launcher_spec);
    if (cj_KernelLauncherType == NULL || cj_launch_config_init() < 0 || cj_forall_init() < 0) {
        return -1;
    }
    Py_INCREF(cj_KernelLauncherType);
    return PyModule_AddObject(module, "KernelLauncher", (PyObject *)cj_KernelLauncherType);
}
