/* excinfo.c: the exceptions compiled code can raise, by id. Compiled functions return the id;
 * the dispatcher raises a fresh exception from the entry: a class is called with no arguments,
 * an instance is rebuilt from its type and args (so tracebacks don't accumulate).
 * Ids are stable across processes (a hash of the exception's class and arguments), so cached
 * code can be loaded by another process: the built-in errors have fixed small ids.
 * try/except in compiled code asks here whether a caught id is an instance of a class (also
 * registered by id), and turns a Python exception it catches into an id: CJ_EXC_CAUGHT, the
 * thread's last caught exception (a handler that catches another before re-raising the first
 * re-raises the second). A raise with run-time arguments calls cj_exc_raiser's callable. */
#include "abi/abi.h"

#define FIRST_HASHED_ID 64
_Static_assert(CJ_EXC_BUILTIN_COUNT <= FIRST_HASHED_ID, "the fixed ids must stay below the hashed");

static PyObject *registry; /* dict: id -> exception class or instance */
static _Thread_local PyObject *caught; /* CJ_EXC_CAUGHT: this thread's last caught exception */
static PyObject *by_identity; /* dict: id(obj) -> id, so one object hashes once */

/* "module.qualname(args repr)" of an exception class or instance (new reference). */
static PyObject *describe(PyObject *exc) {
    PyObject *cls = PyType_Check(exc) ? exc : (PyObject *)Py_TYPE(exc);
    PyObject *args = PyType_Check(exc) ? PyTuple_New(0) : PyObject_GetAttrString(exc, "args");
    if (args == NULL) {
        return NULL;
    }
    PyObject *mod = PyObject_GetAttrString(cls, "__module__");
    PyObject *qual = mod ? PyObject_GetAttrString(cls, "__qualname__") : NULL;
    PyObject *text = qual ? PyUnicode_FromFormat("%S.%S%s%R", mod, qual,
                                                 PyType_Check(exc) ? ":class" : "", args)
                          : NULL;
    Py_XDECREF(mod);
    Py_XDECREF(qual);
    Py_DECREF(args);
    return text;
}

/* Whether two registered exceptions are the same (class, or class and args). */
static int equivalent(PyObject *a, PyObject *b) {
    PyObject *da = describe(a), *db = da ? describe(b) : NULL;
    int eq = db ? PyUnicode_Compare(da, db) == 0 : -1;
    Py_XDECREF(da);
    Py_XDECREF(db);
    return eq;
}

static unsigned long fnv1a(const char *s, Py_ssize_t n) {
    unsigned long h = 2166136261u;
    for (Py_ssize_t i = 0; i < n; i++) {
        h = (h ^ (unsigned char)s[i]) * 16777619u;
        h &= 0xffffffffu;
    }
    return h;
}

int cj_exc_register_at(int id, PyObject *exc) {
    PyObject *key = PyLong_FromLong(id);
    if (key == NULL) {
        return -1;
    }
    PyObject *held = PyDict_GetItemWithError(registry, key);
    int rc;
    if (held != NULL) {
        rc = equivalent(held, exc);
        rc = rc < 0 ? -1 : rc ? 0 : 1; /* 1: the id holds another exception */
    } else {
        rc = PyErr_Occurred() ? -1 : PyDict_SetItem(registry, key, exc);
    }
    Py_DECREF(key);
    return rc;
}

int cj_exc_register(PyObject *exc) {
    PyObject *ident = PyLong_FromVoidPtr(exc);
    if (ident == NULL) {
        return -1;
    }
    PyObject *found = PyDict_GetItemWithError(by_identity, ident);
    if (found != NULL) {
        Py_DECREF(ident);
        return (int)PyLong_AsLong(found);
    }
    PyObject *text = PyErr_Occurred() ? NULL : describe(exc);
    Py_ssize_t n;
    const char *s = text ? PyUnicode_AsUTF8AndSize(text, &n) : NULL;
    int id = -1;
    if (s != NULL) {
        unsigned long h = fnv1a(s, n);
        /* probe for a free or equivalent slot: deterministic for the same exceptions */
        for (int probe = 0; probe < 64; probe++) {
            int candidate = FIRST_HASHED_ID + (int)((h + (unsigned long)probe) % 0x3fffffffu);
            int rc = cj_exc_register_at(candidate, exc);
            if (rc <= 0) {
                id = rc == 0 ? candidate : -1;
                break;
            }
        }
    }
    Py_XDECREF(text);
    PyObject *value = id > 0 ? PyLong_FromLong(id) : NULL;
    if (value == NULL || PyDict_SetItem(by_identity, ident, value) < 0 ||
        PyList_Append(PyDict_GetItemString(by_identity, "__keep__"), exc) < 0) {
        id = -1;
    }
    Py_XDECREF(value);
    Py_DECREF(ident);
    if (id < 0 && !PyErr_Occurred()) {
        PyErr_SetString(PyExc_SystemError, "cujit: exception registry is full");
    }
    return id;
}

PyObject *cj_exc_lookup(int id) {
    if (id == CJ_EXC_CAUGHT) {
        return caught;
    }
    PyObject *key = PyLong_FromLong(id);
    if (key == NULL) {
        return NULL;
    }
    PyObject *exc = PyDict_GetItemWithError(registry, key); /* borrowed */
    Py_DECREF(key);
    return exc;
}

void cj_exc_raise(int id) {
    if (id == CJ_EXC_PYTHON) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_SystemError, "cujit: compiled code reported a Python "
                                               "exception that is not set");
        }
        return;
    }
    PyObject *exc = cj_exc_lookup(id);
    if (exc == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_SystemError, "cujit: compiled code raised unknown exception #%d",
                         id);
        }
        return;
    }
    if (PyType_Check(exc)) {
        PyErr_SetNone(exc);
        return;
    }
    PyObject *args = PyObject_GetAttrString(exc, "args");
    if (args == NULL) {
        return;
    }
    PyObject *fresh = PyObject_Call((PyObject *)Py_TYPE(exc), args, NULL);
    Py_DECREF(args);
    if (fresh != NULL) {
        PyErr_SetObject((PyObject *)Py_TYPE(fresh), fresh);
        Py_DECREF(fresh);
    }
}

int32_t cj_exc_catch(int32_t status) {
    if (status != CJ_EXC_PYTHON) {
        return status;
    }
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (value == NULL) { /* not set after all: the handler sees a SystemError that says so */
        value = PyObject_CallFunction(PyExc_SystemError, "s", "cujit: compiled code caught "
                                      "a Python exception that was not set");
        PyErr_Clear();
    }
    Py_XSETREF(caught, value);
    Py_XDECREF(type);
    Py_XDECREF(tb);
    PyGILState_Release(gil);
    return caught != NULL ? CJ_EXC_CAUGHT : CJ_EXC_MEMORY;
}

/* raiser(*args): raises cls(*args), cls being the function's self. */
static PyObject *raise_new(PyObject *cls, PyObject *args) {
    PyObject *exc = PyObject_Call(cls, args, NULL);
    if (exc != NULL && PyExceptionInstance_Check(exc)) {
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
    } else if (exc != NULL) {
        PyErr_SetString(PyExc_TypeError, "exceptions must derive from BaseException");
    }
    Py_XDECREF(exc);
    return NULL;
}

static PyMethodDef raise_new_def = {"raise_new", raise_new, METH_VARARGS,
                                    "raises self(*args) (compiled code's raise)"};

PyObject *cj_exc_raiser(PyObject *cls) { return PyCFunction_New(&raise_new_def, cls); }

int32_t cj_exc_match(int32_t status, int32_t cls_id) {
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *exc = cj_exc_lookup(status), *cls = cj_exc_lookup(cls_id); /* borrowed */
    int hit = exc != NULL && cls != NULL && PyErr_GivenExceptionMatches(exc, cls);
    if (exc == NULL || cls == NULL) {
        PyErr_Clear(); /* a lookup's failure is no match */
    }
    PyGILState_Release(gil);
    return hit;
}

static int register_builtin(int id, PyObject *type, const char *message) {
    PyObject *exc = PyObject_CallFunction(type, "s", message);
    if (exc == NULL) {
        return -1;
    }
    int rc = cj_exc_register_at(id, exc);
    Py_DECREF(exc);
    return rc;
}

/* The array library's exceptions (np.dot, masks, np.arange, reshape, view, item, argmin,
 * nanmin), in their ids' order. */
static int register_array_exceptions(void) {
    return register_builtin(CJ_EXC_DOT_VV, PyExc_ValueError, "incompatible array sizes for "
                         "np.dot(a, b) (vector * vector)") ||
        register_builtin(CJ_EXC_DOT_MV, PyExc_ValueError, "incompatible array sizes for "
                         "np.dot(a, b) (matrix * vector)") ||
        register_builtin(CJ_EXC_DOT_VM, PyExc_ValueError, "incompatible array sizes for "
                         "np.dot(a, b) (vector * matrix)") ||
        register_builtin(CJ_EXC_DOT_MM, PyExc_ValueError, "incompatible array sizes for "
                         "np.dot(a, b) (matrix * matrix)") ||
        register_builtin(CJ_EXC_DOT_OUT, PyExc_ValueError, "incompatible output array size "
                         "for np.dot(a, b, out)") ||
        register_builtin(CJ_EXC_MASK_SHAPE, PyExc_IndexError, "boolean index did not match "
                         "indexed array") ||
        register_builtin(CJ_EXC_MASK_VALUES, PyExc_ValueError, "NumPy boolean array indexing "
                         "assignment cannot assign input values to the output values where "
                         "the mask is true") ||
        register_builtin(CJ_EXC_ARANGE_SIZE, PyExc_ValueError, "Maximum allowed size exceeded") ||
        register_builtin(CJ_EXC_RESHAPE_SIZE, PyExc_ValueError, "total size of new array must "
                         "be unchanged") ||
        register_builtin(CJ_EXC_RESHAPE_NEG, PyExc_ValueError, "multiple negative shape "
                         "values") ||
        register_builtin(CJ_EXC_ITEM_SIZE, PyExc_ValueError, "item(): can only convert an array "
                         "of size 1 to a Python scalar") ||
        register_builtin(CJ_EXC_VIEW_0D, PyExc_ValueError, "Changing the dtype of a 0d array is "
                         "only supported if the itemsize is unchanged") ||
        register_builtin(CJ_EXC_VIEW_AXIS, PyExc_ValueError, "To change to a dtype of a "
                         "different size, the last axis must be contiguous") ||
        register_builtin(CJ_EXC_VIEW_LARGER, PyExc_ValueError, "When changing to a larger "
                         "dtype, its size must be a divisor of the total size in bytes of the "
                         "last axis of the array.") ||
        register_builtin(CJ_EXC_RESHAPE_COPY, PyExc_NotImplementedError, "incompatible shape "
                         "for array") ||
        register_builtin(CJ_EXC_EMPTY_ARGMIN, PyExc_ValueError, "attempt to get argmin of an "
                         "empty sequence") ||
        register_builtin(CJ_EXC_EMPTY_ARGMAX, PyExc_ValueError, "attempt to get argmax of an "
                         "empty sequence") ||
        register_builtin(CJ_EXC_EMPTY_FMIN, PyExc_ValueError, "zero-size array to reduction "
                         "operation fmin which has no identity") ||
        register_builtin(CJ_EXC_EMPTY_FMAX, PyExc_ValueError, "zero-size array to reduction "
                         "operation fmax which has no identity");
}

static int register_random_errors(void) { /* np.random's, NumPy's words */
    return register_builtin(CJ_EXC_RANDOM_SEED, PyExc_ValueError, "Seed must be between 0 and "
                            "2**32 - 1") ||
           register_builtin(CJ_EXC_RANDOM_HIGH, PyExc_ValueError, "high <= 0") ||
           register_builtin(CJ_EXC_RANDOM_LOW_HIGH, PyExc_ValueError, "low >= high") ||
           register_builtin(CJ_EXC_RANDOM_SCALE, PyExc_ValueError, "scale < 0") ||
           register_builtin(CJ_EXC_RANDOM_RANGE, PyExc_OverflowError, "Range exceeds valid "
                            "bounds") ||
           register_builtin(CJ_EXC_RANDOM_LAM, PyExc_ValueError, "lam < 0 or lam is NaN") ||
           register_builtin(CJ_EXC_RANDOM_LAM_BIG, PyExc_ValueError, "lam value too large") ||
           register_builtin(CJ_EXC_RANDOM_EMPTY, PyExc_ValueError, "'a' cannot be empty unless "
                            "no samples are taken") ||
           register_builtin(CJ_EXC_RANDOM_A, PyExc_ValueError, "a must be greater than 0 unless "
                            "no samples are taken") ||
           register_builtin(CJ_EXC_RANDOM_N, PyExc_ValueError, "n < 0") ||
           register_builtin(CJ_EXC_RANDOM_P, PyExc_ValueError, "p < 0, p > 1 or p is NaN");
}

int cj_excinfo_init(PyObject *module) {
    registry = PyDict_New();
    by_identity = PyDict_New();
    PyObject *keep = PyList_New(0); /* objects registered by identity stay alive */
    if (registry == NULL || by_identity == NULL || keep == NULL ||
        PyDict_SetItemString(by_identity, "__keep__", keep) < 0) {
        Py_XDECREF(keep);
        return -1;
    }
    Py_DECREF(keep);
    if (register_builtin(CJ_EXC_INT_DIV_ZERO, PyExc_ZeroDivisionError, "integer division by zero") ||
        register_builtin(CJ_EXC_INT_MOD_ZERO, PyExc_ZeroDivisionError, "integer modulo by zero") ||
        register_builtin(CJ_EXC_DIV_ZERO, PyExc_ZeroDivisionError, "division by zero") ||
        register_builtin(CJ_EXC_MOD_ZERO, PyExc_ZeroDivisionError, "modulo by zero") ||
        register_builtin(CJ_EXC_INDEX, PyExc_IndexError, "index is out of bounds") ||
        register_builtin(CJ_EXC_UNPACK, PyExc_ValueError, "cannot unpack: the sequence has the "
                                                         "wrong length or is empty") ||
        register_builtin(CJ_EXC_RANGE_STEP, PyExc_ValueError, "slice step / range() arg 3 must "
                                                             "not be zero") ||
        register_builtin(CJ_EXC_POW_ZERO, PyExc_ZeroDivisionError, "0 cannot be raised to a "
                                                                  "negative power") ||
        register_builtin(CJ_EXC_FLOAT_NAN, PyExc_ValueError, "cannot convert float NaN to "
                                                             "integer") ||
        register_builtin(CJ_EXC_FLOAT_INF, PyExc_OverflowError, "cannot convert float infinity "
                                                                "to integer") ||
        register_builtin(CJ_EXC_FLOAT_RANGE, PyExc_OverflowError, "float out of range of the "
                                                                  "integer type") ||
        register_builtin(CJ_EXC_SSIZE_RANGE, PyExc_OverflowError, "Python int too large to "
                                                                  "convert to C ssize_t") ||
        register_builtin(CJ_EXC_INT64_RANGE, PyExc_OverflowError, "Python int too large to "
                                                                  "convert to C int64") ||
        register_builtin(CJ_EXC_MEMORY, PyExc_MemoryError, "cannot allocate memory for an "
                                                           "array") ||
        register_builtin(CJ_EXC_NEGATIVE_DIM, PyExc_ValueError, "negative dimensions are not "
                                                                "allowed") ||
        register_builtin(CJ_EXC_TOO_BIG, PyExc_ValueError, "array is too big; `arr.size * "
                         "arr.dtype.itemsize` is larger than the maximum possible size.") ||
        register_builtin(CJ_EXC_EMPTY_MIN, PyExc_ValueError, "zero-size array to reduction "
                         "operation minimum which has no identity") ||
        register_builtin(CJ_EXC_EMPTY_MAX, PyExc_ValueError, "zero-size array to reduction "
                         "operation maximum which has no identity") ||
        register_builtin(CJ_EXC_BROADCAST, PyExc_ValueError, "operands could not be broadcast "
                         "together") ||
        register_array_exceptions() ||
        register_random_errors()) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_SystemError, "cujit: exception registry out of order");
        }
        return -1;
    }
    return 0;
}
