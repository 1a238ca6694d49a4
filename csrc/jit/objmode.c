/* objmode.c: `with objmode(...)` blocks at run time (numba.objmode; the block becomes a call,
 * pkg/cujit/withcontexts.py), and print() (the builtin called with no outputs; a constant
 * string argument is passed as itself). Compiled CPU code calls cj_objmode_call at each: it boxes
 * the block's inputs (boxing.c: an array goes back as the object it came from), calls the
 * block's Python function under the GIL, and unboxes its outputs as their declared types,
 * checked as arguments are. A Python exception leaves the block as CJ_EXC_PYTHON, still set.
 * Compiled code holds no references (no runtime yet), so results holding arrays are kept in
 * a per-thread list until the outermost jitted call on the thread returns to Python. */
#include "jit/jit.h"

#include <string.h>

#include "lower/lower.h"
#include "util/npy.h"

#define SITE_CAPSULE "cujit.objmode_site"

typedef struct objmode_site {
    PyObject *func;             /* the block's Python function (strong) */
    PyObject *outputs;          /* tuple of the output names (strong) */
    int nargs;
    const cj_type **argtypes;   /* PyMem */
    const cj_type *ret;         /* none, the one output's type, or a tuple of them */
} objmode_site;

static _Thread_local PyObject *keepalive; /* list of block results that hold arrays, or NULL */

static void site_free(PyObject *capsule) {
    objmode_site *site = PyCapsule_GetPointer(capsule, SITE_CAPSULE);
    if (site != NULL) {
        Py_XDECREF(site->func);
        Py_XDECREF(site->outputs);
        PyMem_Free(site->argtypes);
        PyMem_Free(site);
    }
}

int cj_objmode_site(cj_lower_env *env, PyObject *block, const cj_type *const *argtypes,
                    int nargs, const cj_type *ret, void **site_out) {
    for (int i = -1; i < nargs; i++) { /* their values are not Python objects in here */
        const cj_type *t = i < 0 ? ret : argtypes[i];
        if (t->kind == CJ_EXT || cj_type_nests_extension(t)) {
            PyErr_Format(cj_UnsupportedError, "objmode blocks cannot take or give values of "
                         "extension type %s yet", t->name);
            return -1;
        }
    }
    objmode_site *site = PyMem_Calloc(1, sizeof(objmode_site));
    PyObject *capsule = site ? PyCapsule_New(site, SITE_CAPSULE, site_free) : NULL;
    if (capsule == NULL) {
        PyMem_Free(site);
        return site ? -1 : (PyErr_NoMemory(), -1);
    }
    if (PyCFunction_Check(block)) { /* print(): called as it is, returning None */
        site->func = Py_NewRef(block);
        site->outputs = PyTuple_New(0);
    } else {
        site->func = PyObject_GetAttrString(block, "py_func");
        site->outputs = site->func ? PyObject_GetAttrString(block, "outputs") : NULL;
    }
    site->argtypes = PyMem_Calloc((size_t)nargs + 1, sizeof(cj_type *));
    site->nargs = nargs;
    site->ret = ret;
    int rc = -1;
    if (site->outputs != NULL && !PyTuple_Check(site->outputs)) {
        PyErr_SetString(PyExc_TypeError, "an objmode block's outputs must be a tuple");
    } else if (site->outputs != NULL && site->argtypes == NULL) {
        PyErr_NoMemory();
    } else if (site->outputs != NULL) {
        memcpy(site->argtypes, argtypes, sizeof(cj_type *) * (size_t)nargs);
        rc = PyList_Append(env->keep, capsule); /* the code points at the site */
    }
    Py_DECREF(capsule);
    *site_out = site;
    return rc;
}

int cj_objmode_used(PyObject *keep) {
    for (Py_ssize_t i = 0; keep != NULL && i < PyList_GET_SIZE(keep); i++) {
        PyObject *item = PyList_GET_ITEM(keep, i);
        if ((PyCapsule_CheckExact(item) && PyCapsule_IsValid(item, SITE_CAPSULE)) ||
            (PyList_Check(item) && cj_objmode_used(item))) {
            return 1;
        }
    }
    return 0;
}

void cj_objmode_release(void) {
    if (keepalive != NULL) {
        Py_CLEAR(keepalive);
    }
}

/* An array output must also have the declared layout (unboxing checks dtype, ndim and
 * writability); a tuple output is checked item by item. */
static int check_layout(PyObject *value, const cj_type *t) {
    if (t->kind == CJ_OPTIONAL) { /* None, or a value of its type */
        return value == Py_None ? 0 : check_layout(value, t->dtype);
    }
    if (t->kind == CJ_TUPLE && PyTuple_Check(value) && PyTuple_GET_SIZE(value) == t->n) {
        for (int i = 0; i < t->n; i++) {
            if (check_layout(PyTuple_GET_ITEM(value, i), t->items[i]) < 0) {
                return -1;
            }
        }
        return 0;
    }
    if (t->kind != CJ_ARRAY || !PyArray_Check(value) || t->layout == 'A') {
        return 0;
    }
    PyArrayObject *arr = (PyArrayObject *)value;
    if (t->layout == 'C' ? PyArray_IS_C_CONTIGUOUS(arr) : PyArray_IS_F_CONTIGUOUS(arr)) {
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "expected a %s-contiguous array, got one that is not",
                 t->layout == 'C' ? "C" : "Fortran");
    return -1;
}

/* One output into its slot; the error names the output and its declared type. */
static int unbox_output(PyObject *value, const cj_type *t, PyObject *name, void *dst) {
    if (t->kind == CJ_NONE) {
        if (value == Py_None) {
            return 0;
        }
        PyErr_Format(PyExc_TypeError, "expected None, got %.200s", Py_TYPE(value)->tp_name);
    } else if (check_layout(value, t) == 0 && cj_unbox(value, t, dst) == 0) {
        return 0;
    }
    if (name == NULL) {
        return -1;
    }
    PyObject *type, *exc, *tb;
    PyErr_Fetch(&type, &exc, &tb);
    PyErr_NormalizeException(&type, &exc, &tb);
    PyErr_Format(type, "with objmode(): output '%U' is declared %s: %S", name, t->name, exc);
    Py_XDECREF(type);
    Py_XDECREF(exc);
    Py_XDECREF(tb);
    return -1;
}

static int unbox_outputs(const objmode_site *site, PyObject *result, void *out) {
    Py_ssize_t n = PyTuple_GET_SIZE(site->outputs);
    if (n <= 1) {
        return unbox_output(result, site->ret, n ? PyTuple_GET_ITEM(site->outputs, 0) : NULL,
                            out);
    }
    if (!PyTuple_Check(result) || PyTuple_GET_SIZE(result) != n || site->ret->n != n) {
        PyErr_SetString(PyExc_SystemError, "cujit: an objmode block returned the wrong outputs");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (unbox_output(PyTuple_GET_ITEM(result, i), site->ret->items[i],
                         PyTuple_GET_ITEM(site->outputs, i),
                         (char *)out + cj_abi_tuple_offset(site->ret, i)) < 0) {
            return -1;
        }
    }
    return 0;
}

static PyObject *box_inputs(const objmode_site *site, void **in) {
    PyObject *args = PyTuple_New(site->nargs);
    for (int i = 0; args != NULL && i < site->nargs; i++) {
        const cj_type *t = site->argtypes[i]; /* a compile-time constant is its object */
        PyObject *item = t->kind == CJ_CONST_OBJ ? Py_NewRef(t->obj) : cj_box(in[i], t);
        if (item == NULL) {
            Py_CLEAR(args);
            break;
        }
        PyTuple_SET_ITEM(args, i, item);
    }
    return args;
}

int cj_objmode_call(void *site_ptr, void **in, void *out) {
    const objmode_site *site = site_ptr;
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *args = box_inputs(site, in);
    /* calls the block makes to jitted functions release their own arrays, not ours */
    PyObject *outer = keepalive;
    keepalive = NULL;
    PyObject *result = args ? PyObject_Call(site->func, args, NULL) : NULL;
    Py_XDECREF(args);
    Py_XSETREF(keepalive, outer);
    int status = 0;
    if (result == NULL || unbox_outputs(site, result, out) < 0) {
        status = CJ_EXC_PYTHON;
    } else if (cj_type_has_refs(site->ret)) { /* lower_refs.c's rule: it holds arrays */
        if (keepalive == NULL) {
            keepalive = PyList_New(0);
        }
        if (keepalive == NULL || PyList_Append(keepalive, result) < 0) {
            status = CJ_EXC_PYTHON;
        }
    }
    Py_XDECREF(result);
    PyGILState_Release(gil);
    return status;
}
