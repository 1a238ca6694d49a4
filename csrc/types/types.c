/* types.c: type construction and interning. Types live for the process: a dict maps each
 * type's unique key (its name, plus the object's id for object types) to a capsule. */
#include "types/types.h"

#include <string.h>

#include "util/npy.h"

const cj_type *cj_t_none, *cj_t_bool, *cj_t_void, *cj_t_unicode;
const cj_type *cj_t_int8, *cj_t_int16, *cj_t_int32, *cj_t_int64;
const cj_type *cj_t_uint8, *cj_t_uint16, *cj_t_uint32, *cj_t_uint64;
const cj_type *cj_t_float16, *cj_t_float32, *cj_t_float64;
const cj_type *cj_t_complex64, *cj_t_complex128;

static PyObject *interned; /* dict: key str -> capsule(cj_type *) */

static char *raw_strdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *p = PyMem_RawMalloc(n);
    if (p == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(p, s, n);
    return p;
}

/* 1 + the deepest of the types `t` holds; above CJ_MAX_NESTING a RecursionError, -1. */
static int nesting_depth(const cj_type *t) {
    int depth = 0;
    const cj_type *held[3] = {t->dtype, t->yield, t->source};
    for (int i = 0; i < 3; i++) {
        if (held[i] != NULL && held[i]->depth > depth) {
            depth = held[i]->depth;
        }
    }
    for (int i = 0; t->items != NULL && i < t->n; i++) {
        if (t->items[i]->depth > depth) {
            depth = t->items[i]->depth;
        }
    }
    for (int i = 0; t->fields != NULL && i < t->n; i++) {
        if (t->fields[i].type->depth > depth) {
            depth = t->fields[i].type->depth;
        }
    }
    if (depth + 1 > CJ_MAX_NESTING) {
        PyErr_SetString(PyExc_RecursionError, CJ_NESTING_ERROR);
        return -1;
    }
    return depth + 1;
}

/* A process-lifetime copy of a record's fields (their names too). */
static const cj_field *copy_fields(const cj_field *fields, int n) {
    cj_field *f = PyMem_RawMalloc(sizeof(cj_field) * (size_t)(n > 0 ? n : 1));
    if (f == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        f[i] = fields[i];
        if ((f[i].name = raw_strdup(fields[i].name)) == NULL) {
            return NULL;
        }
    }
    return f;
}

/* Returns the interned twin of `proto` (whose name is set), creating it on first use. */
const cj_type *cj_type_intern(const cj_type *proto, const char *key) {
    int depth = nesting_depth(proto);
    if (depth < 0) {
        return NULL;
    }
    PyObject *found = PyDict_GetItemString(interned, key); /* borrowed */
    if (found != NULL) {
        return PyCapsule_GetPointer(found, NULL);
    }
    cj_type *t = PyMem_RawMalloc(sizeof(cj_type));
    if (t == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    *t = *proto;
    t->pyobj = NULL;
    t->depth = depth;
    t->name = raw_strdup(proto->name);
    if (t->name == NULL) {
        PyMem_RawFree(t);
        return NULL;
    }
    if (proto->n > 0 && proto->items != NULL) {
        const cj_type **items = PyMem_RawMalloc(sizeof(cj_type *) * (size_t)proto->n);
        if (items == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        memcpy(items, proto->items, sizeof(cj_type *) * (size_t)proto->n);
        t->items = items;
    }
    if (proto->kind == CJ_RECORD && (t->fields = copy_fields(proto->fields, proto->n)) == NULL) {
        return NULL;
    }
    Py_XINCREF(t->obj);
    PyObject *cap = PyCapsule_New(t, NULL, NULL);
    if (cap == NULL || PyDict_SetItemString(interned, key, cap) < 0) {
        Py_XDECREF(cap);
        return NULL;
    }
    Py_DECREF(cap);
    return t;
}

static const cj_type *intern_named(cj_type *proto, const char *name) {
    proto->name = name;
    return cj_type_intern(proto, name);
}

const cj_type *cj_type_int(int bits, int is_signed) {
    char name[16];
    PyOS_snprintf(name, sizeof(name), "%sint%d", is_signed ? "" : "u", bits);
    cj_type t = {.kind = CJ_INT, .bits = bits, .is_signed = is_signed};
    return intern_named(&t, name);
}

const cj_type *cj_type_float(int bits) {
    char name[16];
    PyOS_snprintf(name, sizeof(name), "float%d", bits);
    cj_type t = {.kind = CJ_FLOAT, .bits = bits};
    return intern_named(&t, name);
}

const cj_type *cj_type_complex(int bits) {
    char name[16];
    PyOS_snprintf(name, sizeof(name), "complex%d", bits);
    cj_type t = {.kind = CJ_COMPLEX, .bits = bits};
    return intern_named(&t, name);
}

/* a record's name may be long (record.c allows 8192 bytes) */
#define RECORD_ARRAY_NAME 8300

const cj_type *cj_type_array(const cj_type *dtype, int ndim, char layout, int readonly) {
    if (cj_layout_check_ndim(ndim) < 0) {
        return NULL;
    }
    if (ndim <= 1 && layout == 'F') {
        layout = 'C'; /* numba: 0-d and 1-d contiguous arrays are 'C' */
    }
    char name[RECORD_ARRAY_NAME];
    PyOS_snprintf(name, sizeof(name), "%s%sarray(%s, %dd, %c)",
                  dtype->kind == CJ_RECORD && !dtype->aligned ? "unaligned " : "",
                  readonly ? "readonly " : "", dtype->name, ndim, layout);
    cj_type t = {.kind = CJ_ARRAY, .dtype = dtype, .ndim = ndim, .layout = layout,
                 .readonly = readonly};
    return intern_named(&t, name);
}

/* numba's names: UniTuple(int64 x 3) for homogeneous tuples, Tuple(int64, float64) else. */
static int tuple_name(char *buf, size_t size, int n, const cj_type *const *items) {
    int uni = n > 0;
    for (int i = 1; i < n; i++) {
        uni = uni && items[i] == items[0];
    }
    size_t pos;
    if (uni) {
        pos = (size_t)PyOS_snprintf(buf, size, "UniTuple(%s x %d)", items[0]->name, n);
        return pos < size ? 0 : -1;
    }
    pos = (size_t)PyOS_snprintf(buf, size, "Tuple(");
    for (int i = 0; i < n && pos < size; i++) {
        pos += (size_t)PyOS_snprintf(buf + pos, size - pos, "%s%s", i ? ", " : "",
                                     items[i]->name);
    }
    if (pos < size) {
        pos += (size_t)PyOS_snprintf(buf + pos, size - pos, ")");
    }
    return pos < size - 1 ? 0 : -1;
}

const cj_type *cj_type_tuple(int n, const cj_type *const *items) {
    /* a range's step-1 mark serves loops over it directly: in a tuple it is a plain range, so
     * (range(n), range(0, n, 2)) stays UniTuple(range_state64 x 2), as numba's */
    const cj_type *plain[256];
    if (n <= 256) {
        for (int i = 0; i < n; i++) {
            plain[i] = items[i]->kind == CJ_RANGE ? cj_type_range(0) : items[i];
            if (plain[i] == NULL) {
                return NULL;
            }
        }
        items = plain;
    }
    char name[2048];
    if (tuple_name(name, sizeof(name), n, items) < 0) {
        PyErr_SetString(cj_UnsupportedError, "tuple type is too large");
        return NULL;
    }
    cj_type t = {.kind = CJ_TUPLE, .n = n, .items = (const cj_type **)items};
    return intern_named(&t, name);
}

const cj_type *cj_type_slice(int nparts) {
    cj_type t = {.kind = CJ_SLICE, .n = nparts};
    return intern_named(&t, nparts == 3 ? "slice<a:b:c>" : "slice<a:b>");
}

const cj_type *cj_type_range(int step_one) {
    cj_type t = {.kind = CJ_RANGE, .step_one = step_one != 0};
    return intern_named(&t, step_one ? "range_state64[step=1]" : "range_state64");
}

const cj_type *cj_type_iter(cj_iter_kind kind, const cj_type *yield, const cj_type *source,
                            int n, const cj_type *const *inner) {
    char name[2048];
    size_t pos = 0;
    switch (kind) {
    case CJ_ITER_RANGE:
        pos = (size_t)PyOS_snprintf(name, sizeof(name), "range_iter64%s",
                                    source->step_one ? "[step=1]" : "");
        break;
    case CJ_ITER_ARRAY:
    case CJ_ITER_TUPLE:
    case CJ_ITER_LIST:
    case CJ_ITER_SET:
    case CJ_ITER_GENERATOR: /* (generators of one name share it: same code) */
        pos = (size_t)PyOS_snprintf(name, sizeof(name), "iter(%s)", source->name);
        break;
    case CJ_ITER_UNICODE: /* numba's */
        pos = (size_t)PyOS_snprintf(name, sizeof(name), "iter(unicode_type)");
        break;
    case CJ_ITER_FLAT: /* numba's names */
        pos = (size_t)PyOS_snprintf(name, sizeof(name), "array.flat(%s)", source->name);
        break;
    case CJ_ITER_NDENUMERATE:
        pos = (size_t)PyOS_snprintf(name, sizeof(name), "ndenumerate(%s)", source->name);
        break;
    case CJ_ITER_NDINDEX:
        pos = (size_t)PyOS_snprintf(name, sizeof(name), "ndindex(ndim=%d)", source->n);
        break;
    case CJ_ITER_DICT_KEYS:
    case CJ_ITER_DICT_VALUES:
    case CJ_ITER_DICT_ITEMS:
        pos = (size_t)PyOS_snprintf(name, sizeof(name), "dict_%s(%s)",
                                    kind == CJ_ITER_DICT_KEYS     ? "keys"
                                    : kind == CJ_ITER_DICT_VALUES ? "values"
                                                                  : "items",
                                    source->name);
        break;
    case CJ_ITER_ENUMERATE:
    case CJ_ITER_ZIP:
        pos = (size_t)PyOS_snprintf(name, sizeof(name), "%s(",
                                    kind == CJ_ITER_ZIP ? "zip" : "enumerate");
        for (int i = 0; i < n && pos < sizeof(name); i++) {
            pos += (size_t)PyOS_snprintf(name + pos, sizeof(name) - pos, "%s%s", i ? ", " : "",
                                         inner[i]->name);
        }
        if (pos < sizeof(name)) {
            pos += (size_t)PyOS_snprintf(name + pos, sizeof(name) - pos, ")");
        }
        break;
    }
    if (pos >= sizeof(name) - 1) {
        PyErr_SetString(cj_UnsupportedError, "iterator type is too large");
        return NULL;
    }
    cj_type t = {.kind = CJ_ITER, .iter_kind = kind, .yield = yield, .source = source, .n = n,
                 .items = (const cj_type **)inner,
                 .step_one = kind == CJ_ITER_RANGE && source->step_one};
    return intern_named(&t, name);
}

/* The iterator type over a value: range, array, homogeneous tuple, or an iterator itself. */
const cj_type *cj_type_iter_of(const cj_type *t) {
    switch (t->kind) {
    case CJ_RANGE:
        return cj_type_iter(CJ_ITER_RANGE, cj_t_int64, t, 0, NULL);
    case CJ_ARRAY: {
        if (t->ndim == 0) {
            return NULL; /* NumPy: iteration over a 0-d array */
        }
        const cj_type *y = t->ndim == 1
                               ? t->dtype
                               : cj_type_array(t->dtype, t->ndim - 1,
                                               t->layout == 'C' ? 'C' : 'A', t->readonly);
        return y ? cj_type_iter(CJ_ITER_ARRAY, y, t, 0, NULL) : NULL;
    }
    case CJ_TUPLE:
        if (t->n > 0 && cj_type_is_unituple(t)) {
            return cj_type_iter(CJ_ITER_TUPLE, t->items[0], t, 0, NULL);
        }
        return NULL;
    case CJ_LIST:
        return cj_type_iter(CJ_ITER_LIST, t->dtype, t, 0, NULL);
    case CJ_UNICODE:
        return cj_type_iter(CJ_ITER_UNICODE, t, t, 0, NULL);
    case CJ_SET: /* settype.c: its elements */
        return t->dtype != NULL ? cj_type_iter(CJ_ITER_SET, t->dtype, t, 0, NULL) : NULL;
    case CJ_DICT: /* dicttype.c: its keys */
        return t->n == 2 ? cj_type_dict_iter(t, CJ_ITER_DICT_KEYS) : NULL;
    case CJ_ITER:
        return t;
    case CJ_GENERATOR: /* generator_type.c */
        return cj_type_iter(CJ_ITER_GENERATOR, t->yield, t, 0, NULL);
    default:
        return NULL;
    }
}

/* Object types are keyed by identity; the name is for messages. */
static const cj_type *intern_object(cj_kind kind, PyObject *obj, const char *prefix) {
    PyObject *repr = PyObject_Repr(obj);
    if (repr == NULL) {
        return NULL;
    }
    const char *r = PyUnicode_AsUTF8(repr);
    if (r == NULL) {
        Py_DECREF(repr);
        return NULL;
    }
    char name[512], key[600];
    PyOS_snprintf(name, sizeof(name), "%s(%.400s)", prefix, r);
    PyOS_snprintf(key, sizeof(key), "%s@%p", name, (void *)obj);
    Py_DECREF(repr);
    cj_type t = {.kind = kind, .obj = obj, .name = name};
    return cj_type_intern(&t, key);
}

static const char *const_obj_prefix(PyObject *obj) {
    if (PyModule_Check(obj)) {
        return "Module";
    }
    if (PyUnicode_Check(obj)) {
        return "Literal[str]";
    }
    if (PyType_Check(obj)) {
        return "Class";
    }
    return "Function";
}

const cj_type *cj_type_const_obj(PyObject *obj) {
    return intern_object(CJ_CONST_OBJ, obj, const_obj_prefix(obj));
}

const cj_type *cj_type_omitted(PyObject *default_value) {
    return intern_object(CJ_OMITTED, default_value, "omitted");
}

const cj_type *cj_type_bound(const cj_type *receiver, PyObject *name) {
    const char *n = PyUnicode_AsUTF8(name);
    if (n == NULL) {
        return NULL;
    }
    char buf[2600]; /* a receiver's name is at most 2048: never cut, as it is the key */
    if ((size_t)PyOS_snprintf(buf, sizeof(buf), "BoundFunction(%s.%s)", receiver->name, n) >=
        sizeof(buf)) {
        PyErr_SetString(cj_UnsupportedError, "method name is too long");
        return NULL;
    }
    cj_type t = {.kind = CJ_BOUND, .source = receiver, .obj = name};
    return intern_named(&t, buf);
}

const cj_type *cj_type_list(const cj_type *item, int reflected) {
    if (item != NULL && item->kind == CJ_EXT) {
        PyErr_Format(cj_UnsupportedError, "lists of extension type %s are not supported yet",
                     item->name);
        return NULL;
    }
    char name[2200]; /* an item's name is at most 2048: never cut, as it is the key */
    PyOS_snprintf(name, sizeof(name), reflected == CJ_LIST_TYPED ? "ListType[%s%s]"
                                                                : "%slist(%s)<iv=None>",
                  reflected == 1 ? "reflected " : "", item != NULL ? item->name : "undefined");
    cj_type t = {.kind = CJ_LIST, .dtype = item, .reflected = reflected};
    return intern_named(&t, name);
}

int cj_type_is_number(const cj_type *t) {
    return t->kind == CJ_BOOL || t->kind == CJ_INT || t->kind == CJ_FLOAT ||
           t->kind == CJ_COMPLEX;
}

int cj_type_is_integer(const cj_type *t) { return t->kind == CJ_BOOL || t->kind == CJ_INT; }

int cj_type_is_unituple(const cj_type *t) {
    if (t->kind != CJ_TUPLE) {
        return 0;
    }
    for (int i = 1; i < t->n; i++) {
        if (t->items[i] != t->items[0]) {
            return 0;
        }
    }
    return 1;
}

const cj_type *cj_type_from_npy_typenum(int typenum) {
    switch (typenum) {
    case NPY_BOOL:
        return cj_t_bool;
    case NPY_BYTE:
        return cj_t_int8;
    case NPY_UBYTE:
        return cj_t_uint8;
    case NPY_SHORT:
        return cj_t_int16;
    case NPY_USHORT:
        return cj_t_uint16;
    case NPY_HALF:
        return cj_t_float16;
    case NPY_FLOAT:
        return cj_t_float32;
    case NPY_DOUBLE:
        return cj_t_float64;
    case NPY_CFLOAT:
        return cj_t_complex64;
    case NPY_CDOUBLE:
        return cj_t_complex128;
    default:
        break;
    }
    /* C int/long/longlong sizes vary by platform: go by size */
    if (typenum == NPY_INT || typenum == NPY_LONG || typenum == NPY_LONGLONG) {
        int size = typenum == NPY_INT ? (int)sizeof(int)
                   : typenum == NPY_LONG ? (int)sizeof(long) : (int)sizeof(long long);
        return size == 4 ? cj_t_int32 : cj_t_int64;
    }
    if (typenum == NPY_UINT || typenum == NPY_ULONG || typenum == NPY_ULONGLONG) {
        int size = typenum == NPY_UINT ? (int)sizeof(unsigned)
                   : typenum == NPY_ULONG ? (int)sizeof(unsigned long)
                                          : (int)sizeof(unsigned long long);
        return size == 4 ? cj_t_uint32 : cj_t_uint64;
    }
    return NULL;
}

int cj_type_npy_typenum(const cj_type *t) {
    if (t->kind == CJ_ARRAY) {
        t = t->dtype;
    }
    switch (t->kind) {
    case CJ_BOOL:
        return NPY_BOOL;
    case CJ_INT:
        switch (t->bits) {
        case 8:
            return t->is_signed ? NPY_INT8 : NPY_UINT8;
        case 16:
            return t->is_signed ? NPY_INT16 : NPY_UINT16;
        case 32:
            return t->is_signed ? NPY_INT32 : NPY_UINT32;
        default:
            return t->is_signed ? NPY_INT64 : NPY_UINT64;
        }
    case CJ_FLOAT:
        return t->bits == 16 ? NPY_HALF : t->bits == 32 ? NPY_FLOAT32 : NPY_FLOAT64;
    case CJ_COMPLEX:
        return t->bits == 64 ? NPY_COMPLEX64 : NPY_COMPLEX128;
    default:
        return -1;
    }
}

static const struct {
    const char *name;
    const cj_type **type;
} scalar_names[] = {
    {"boolean", &cj_t_bool},     {"bool_", &cj_t_bool},         {"b1", &cj_t_bool},
    {"bool", &cj_t_bool},
    {"int8", &cj_t_int8},        {"int16", &cj_t_int16},        {"int32", &cj_t_int32},
    {"int64", &cj_t_int64},      {"uint8", &cj_t_uint8},        {"uint16", &cj_t_uint16},
    {"uint32", &cj_t_uint32},    {"uint64", &cj_t_uint64},      {"intp", &cj_t_int64},
    {"uintp", &cj_t_uint64},     {"intc", &cj_t_int32},         {"uintc", &cj_t_uint32},
    {"byte", &cj_t_int8},        {"char", &cj_t_int8},          {"short", &cj_t_int16},
    {"int_", &cj_t_int64},       {"long_", &cj_t_int64},        {"longlong", &cj_t_int64},
    {"ulonglong", &cj_t_uint64}, {"float16", &cj_t_float16},    {"float32", &cj_t_float32},
    {"float64", &cj_t_float64},  {"float_", &cj_t_float32},     {"double", &cj_t_float64},
    {"f2", &cj_t_float16},       {"f4", &cj_t_float32},         {"f8", &cj_t_float64},
    {"i1", &cj_t_int8},          {"i2", &cj_t_int16},           {"i4", &cj_t_int32},
    {"i8", &cj_t_int64},         {"u1", &cj_t_uint8},           {"u2", &cj_t_uint16},
    {"u4", &cj_t_uint32},        {"u8", &cj_t_uint64},          {"complex64", &cj_t_complex64},
    {"complex128", &cj_t_complex128}, {"c8", &cj_t_complex64},  {"c16", &cj_t_complex128},
    {"none", &cj_t_none},        {"void", &cj_t_void},          {"unicode_type", &cj_t_unicode},
};

const cj_type *cj_type_by_name(const char *name) {
    for (size_t i = 0; i < sizeof(scalar_names) / sizeof(scalar_names[0]); i++) {
        if (strcmp(scalar_names[i].name, name) == 0) {
            return *scalar_names[i].type;
        }
    }
    return NULL;
}

static int make_singletons(void) {
    cj_type none = {.kind = CJ_NONE}, boolean = {.kind = CJ_BOOL}, v = {.kind = CJ_VOID};
    cj_type unicode = {.kind = CJ_UNICODE};
    if (!(cj_t_none = intern_named(&none, "none")) ||
        !(cj_t_unicode = intern_named(&unicode, "unicode_type")) ||
        !(cj_t_bool = intern_named(&boolean, "bool")) ||
        !(cj_t_void = intern_named(&v, "void")) || !(cj_t_int8 = cj_type_int(8, 1)) ||
        !(cj_t_int16 = cj_type_int(16, 1)) || !(cj_t_int32 = cj_type_int(32, 1)) ||
        !(cj_t_int64 = cj_type_int(64, 1)) || !(cj_t_uint8 = cj_type_int(8, 0)) ||
        !(cj_t_uint16 = cj_type_int(16, 0)) || !(cj_t_uint32 = cj_type_int(32, 0)) ||
        !(cj_t_uint64 = cj_type_int(64, 0)) || !(cj_t_float16 = cj_type_float(16)) ||
        !(cj_t_float32 = cj_type_float(32)) || !(cj_t_float64 = cj_type_float(64)) ||
        !(cj_t_complex64 = cj_type_complex(64)) || !(cj_t_complex128 = cj_type_complex(128))) {
        return -1;
    }
    return 0;
}

int cj_pytype_init(PyObject *module);

int cj_types_init(PyObject *module) {
    if (interned == NULL) {
        interned = PyDict_New();
        if (interned == NULL) {
            return -1;
        }
    }
    if (make_singletons() < 0) {
        return -1;
    }
    return cj_pytype_init(module);
}
