/* types: cujit's type objects (interned: compare with ==), typeof for Python values, the
 * Python-facing Type and Signature objects, and the typing rules shared by both targets.
 * Sections: types.c (kinds, interning, names), pyclass.c (C types <-> cujit.types classes),
 * pytype.c (Signature objects, _core type constructors),
 * typeof.c (Python value -> type), unify.c (unification and promotion), convert.c (the
 * argument conversion rule of dispatch), layout.c (a type's C-side size), record.c (records
 * of NumPy structured dtypes), cpointer.c (C pointers), extension_type.c (a user's type
 * with a data model), optional.c (numba's OptionalType). */
#ifndef CJ_TYPES_H
#define CJ_TYPES_H

#include "abi/abi.h"
#include "util/util.h"

typedef enum cj_kind {
    CJ_NONE,      /* NoneType */
    CJ_BOOL,      /* boolean */
    CJ_INT,       /* bits 8..64, is_signed */
    CJ_FLOAT,     /* bits 16, 32, 64 */
    CJ_COMPLEX,   /* bits 64 (2 x float32), 128 */
    CJ_ARRAY,     /* dtype, ndim, layout, readonly */
    CJ_TUPLE,     /* items[n] */
    CJ_SLICE,     /* slice(start, stop, step) of ints; n = 2 or 3 given parts */
    CJ_RANGE,     /* range object: start, stop, step as int64; step_one when step is 1 */
    CJ_ITER,      /* iterator state; iter_kind says over what */
    CJ_OMITTED,   /* an argument left to its default: obj holds the default value */
    CJ_CONST_OBJ, /* a compile-time Python object: module, function, class, string, dispatcher */
    CJ_VOID,      /* return type of kernels and functions returning nothing (prints as none) */
    CJ_BOUND,     /* a method bound to a receiver: source = receiver type, obj = name */
    CJ_RECORD,    /* a NumPy structured dtype: n fields, itemsize, aligned; obj = the dtype */
    CJ_LIST,      /* a list on the heap (abi/list.c): dtype = item type (NULL: not known yet,
                   * numba's list(undefined)), reflected (a Python list passed in) */
    CJ_EXT,       /* a user's types.Type with a data model (extension_type.c): obj = the Type
                   * object; n members items[] (StructModel: an LLVM struct; bits ==
                   * CJ_EXT_PRIMITIVE: PrimitiveModel, its one member's value), or n = 0
                   * (OpaqueModel: i8*); at the call boundary its Python object */
    CJ_UNICODE,   /* numba's unicode_type: a string on the heap (abi/unicode.c); a literal
                   * string is a CJ_CONST_OBJ of a str (numba's Literal[str]) until it meets one */
    CJ_DICT,      /* a dict on the heap (abi/dict.c): items[0] key, items[1] value (n = 2;
                   * n = 0: not known yet, numba's DictType[undefined,undefined]) */
    CJ_CPOINTER,  /* numba's CPointer(dtype), float32* (cpointer.c): the element's address;
                   * dtype NULL: voidptr (numba's RawPointer void*, an i8*) */
    CJ_SET,       /* a set on the heap (abi/set.h, a cj_dict of no values): dtype = element
                   * type (NULL: not known yet, numba's set(undefined)), reflected (passed in) */
    CJ_OPTIONAL,  /* numba's Optional: dtype = the value's type; laid out as the tuple
                   * items[] = {dtype, bool} (n = 2): the value (zero when None), valid */
    CJ_GENERATOR, /* a generator's frame on the heap (abi/generator.h): yield = what it
                   * yields, obj = the Python function, items[n] = its argument types */
} cj_kind;

typedef enum cj_iter_kind {
    CJ_ITER_RANGE,
    CJ_ITER_ARRAY,
    CJ_ITER_TUPLE,
    CJ_ITER_ENUMERATE,
    CJ_ITER_ZIP,
    CJ_ITER_FLAT,        /* a.flat: the elements in C order; also indexed by a flat index */
    CJ_ITER_NDENUMERATE, /* np.ndenumerate(a): ((i, j, ...), element) in C order */
    CJ_ITER_NDINDEX,     /* np.ndindex(shape): the index tuples of a shape in C order */
    CJ_ITER_LIST,        /* the items of a list (source) */
    CJ_ITER_UNICODE,     /* the characters of a string, each a string */
    CJ_ITER_DICT_KEYS,   /* a dict's (source) keys, values or (key, value) items, in */
    CJ_ITER_DICT_VALUES, /* insertion order (typing/dicts.c) */
    CJ_ITER_DICT_ITEMS,
    CJ_ITER_SET,         /* a set's (source) elements, in insertion order (typing/sets.c) */
    CJ_ITER_GENERATOR,   /* a generator (source): what it yields (lower/lower_generator.c) */
} cj_iter_kind;

typedef struct cj_type cj_type;

/* One field of a record: a scalar, a nested record, or a fixed-size array (a subarray dtype,
 * whose type is a C-contiguous array of the element type and whose shape is `shape`). */
#define CJ_MAX_FIELD_DIMS 8
typedef struct cj_field {
    const char *name;
    const cj_type *type;
    int64_t offset;                     /* bytes from the record's start */
    int64_t shape[CJ_MAX_FIELD_DIMS];   /* subarray fields: type->ndim entries */
} cj_field;

struct cj_type {
    cj_kind kind;
    int bits;                /* CJ_INT / CJ_FLOAT / CJ_COMPLEX */
    int is_signed;           /* CJ_INT */
    const cj_type *dtype;    /* CJ_ARRAY: element type; CJ_LIST: item type (NULL: undefined) */
    int ndim;                /* CJ_ARRAY */
    char layout;             /* CJ_ARRAY: 'C', 'F' or 'A' */
    int readonly;            /* CJ_ARRAY */
    int reflected;           /* CJ_LIST: numba's reflected list (an argument from Python) */
    int n;                   /* CJ_TUPLE: item count; CJ_ITER: count of inner iterators */
    const cj_type **items;   /* CJ_TUPLE items; CJ_ITER inner iterators (enumerate/zip) */
    cj_iter_kind iter_kind;  /* CJ_ITER */
    const cj_type *yield;    /* CJ_ITER: the type each step produces; CJ_ITER_ARRAY/TUPLE source */
    const cj_type *source;   /* CJ_ITER_ARRAY / _TUPLE / _FLAT / _NDENUMERATE: the container;
                              * CJ_ITER_RANGE: the range; CJ_ITER_NDINDEX: the shape tuple */
    int step_one;            /* CJ_RANGE / CJ_ITER_RANGE: the step is the constant 1 */
    PyObject *obj;           /* CJ_CONST_OBJ / CJ_OMITTED: strong reference, process lifetime */
    const char *name;        /* numba's spelling: int64, array(float64, 2d, C), UniTuple(...) */
    PyObject *pyobj;         /* the cujit Type object for this type, made on demand */
    int depth;               /* 1 + the deepest type it holds, <= CJ_MAX_NESTING */
    const cj_field *fields;  /* CJ_RECORD: n fields in the dtype's order */
    int64_t itemsize;        /* CJ_RECORD: bytes of one record (the dtype's itemsize) */
    int64_t alignment;       /* CJ_RECORD: the dtype's alignment */
    int aligned;             /* CJ_RECORD: made with align=True (numba's `aligned`) */
};

/* ---- types.c ---- */
/* Singletons (valid after cj_types_init). */
extern const cj_type *cj_t_none, *cj_t_bool, *cj_t_void;
extern const cj_type *cj_t_int8, *cj_t_int16, *cj_t_int32, *cj_t_int64;
extern const cj_type *cj_t_uint8, *cj_t_uint16, *cj_t_uint32, *cj_t_uint64;
extern const cj_type *cj_t_float16, *cj_t_float32, *cj_t_float64;
extern const cj_type *cj_t_complex64, *cj_t_complex128;
extern const cj_type *cj_t_unicode; /* unicode_type */
/* A string: unicode_type, or a literal one (a CJ_CONST_OBJ of a str). */
static inline int cj_type_is_str(const cj_type *t) {
    return t != NULL && (t->kind == CJ_UNICODE ||
                         (t->kind == CJ_CONST_OBJ && PyUnicode_Check(t->obj)));
}
/* numba's unliteral: a literal string's type (in a tuple too) where a value is kept (returned,
 * a list's item); NULL only when a tuple type could not be made (an exception set). */
const cj_type *cj_type_unliteral(const cj_type *t);

/* Interned constructors: NULL with an exception set on failure. */
const cj_type *cj_type_int(int bits, int is_signed);
const cj_type *cj_type_float(int bits);
const cj_type *cj_type_complex(int bits);
const cj_type *cj_type_array(const cj_type *dtype, int ndim, char layout, int readonly);
const cj_type *cj_type_tuple(int n, const cj_type *const *items);
const cj_type *cj_type_slice(int nparts);
/* step_one: made by range(n) or range(a, b), whose step is 1 (known to the lowering). */
const cj_type *cj_type_range(int step_one);
/* CJ_ITER_RANGE: source is the range type (its step_one carries over). */
const cj_type *cj_type_iter(cj_iter_kind kind, const cj_type *yield, const cj_type *source,
                            int n, const cj_type *const *inner);
/* The interned type equal to `proto` under `key` (its unique name), made on first use: the
 * constructors' common step (record.c's too). */
const cj_type *cj_type_intern(const cj_type *proto, const char *key);
/* The iterator type over a value of type `t` (range, array, homogeneous tuple, list, an
 * iterator itself), or NULL (no exception unless a type could not be made). */
const cj_type *cj_type_iter_of(const cj_type *t);
/* `obj` is borrowed; the type keeps its own reference. */
const cj_type *cj_type_const_obj(PyObject *obj);
const cj_type *cj_type_omitted(PyObject *default_value);
/* `name` (a str) is borrowed; BoundFunction(complex128.conjugate). */
const cj_type *cj_type_bound(const cj_type *receiver, PyObject *name);
/* list(int64)<iv=None>; item NULL: list(undefined)<iv=None>, an empty literal's type until an
 * append refines it; reflected: 1 a Python list passed in (numba's reflected list), or
 * CJ_LIST_TYPED, a cujit.typed.List (numba's ListType[int64]). */
const cj_type *cj_type_list(const cj_type *item, int reflected);
#define CJ_LIST_TYPED 2
/* ---- optional.c: numba's OptionalType(T) (typing/optional.c types its uses) ---- */
/* OptionalType(t); t itself when it is none or an Optional (numba's types.optional). NULL
 * with UnsupportedError for a type no Optional can hold. */
const cj_type *cj_type_optional(const cj_type *t);
/* What none or an Optional unifies to with `other` (numba's NoneType/Optional.unify), or NULL
 * (no exception) when neither is one or the value types do not unify. */
const cj_type *cj_unify_optional(const cj_type *a, const cj_type *b);
/* ---- generator_type.c ---- */
/* numba's Generator: the generator `pyfunc` (borrowed) called with `argtypes` yields `yield`. */
const cj_type *cj_type_generator(PyObject *pyfunc, const cj_type *yield, int nargs,
                                 const cj_type *const *argtypes);
/* ---- dicttype.c ---- */
/* DictType[int64,float64]<iv=None> (numba's, also a cujit.typed.Dict's type); key and value
 * NULL: DictType[undefined,undefined], an empty literal's type until d[k] = v refines it. */
const cj_type *cj_type_dict(const cj_type *key, const cj_type *value);
/* The iterator over a dict's keys, values or items (`kind` one of CJ_ITER_DICT_*), and whether
 * `t` is one (d.keys(), d.values(), d.items(): len() and, of the keys, `in` take them). */
const cj_type *cj_type_dict_iter(const cj_type *dict, cj_iter_kind kind);
int cj_type_is_dict_view(const cj_type *t);
/* ---- settype.c ---- */
/* set(int64), reflected set(int64) (a Python set passed in); item NULL: set(undefined), an
 * empty set() until its first add refines it. */
const cj_type *cj_type_set(const cj_type *item, int reflected);
/* typeof of a Python set: reflected set(<its first element's type>); ValueError when empty. */
const cj_type *cj_typeof_set(PyObject *value);
/* cujit.typed.Dict objects (jit/typed_dict.c): the dict they hold and its DictType. */
typedef struct cj_typed_dict_obj {
    PyObject_HEAD
    cj_meminfo *mi;     /* NULL until the key and value types are known */
    const cj_type *type;
} cj_typed_dict_obj;
extern PyTypeObject *cj_TypedDictType;
/* cujit.typed.List objects (jit/typed_list.c): the list they hold and its ListType. */
typedef struct cj_typed_list_obj {
    PyObject_HEAD
    cj_meminfo *mi;     /* NULL until the item type is known */
    const cj_type *type;
} cj_typed_list_obj;
extern PyTypeObject *cj_TypedListType;
/* ---- dispatcher_type.c: a jitted function as a value (jit/dispatcher.c's objects) ---- */
extern PyTypeObject *cj_DispatcherType;
/* Its compile-time type, or NULL (an exception set only on failure) for any other object. */
const cj_type *cj_typeof_dispatcher(PyObject *value);

int cj_type_is_number(const cj_type *t);     /* bool, int, float, complex */
int cj_type_is_integer(const cj_type *t);    /* bool or int */
int cj_type_is_unituple(const cj_type *t);   /* tuple with all items the same (or empty) */
/* The NumPy type number of a scalar type (or of an array type's dtype), or -1. */
int cj_type_npy_typenum(const cj_type *t);
/* Scalar type from a NumPy type number, or NULL (no exception) if unsupported. */
const cj_type *cj_type_from_npy_typenum(int typenum);
/* A scalar type by numba's name ("float32", "intp", "complex128", "bool_"), or NULL. */
const cj_type *cj_type_by_name(const char *name);

/* ---- cpointer.c ---- */
/* CPointer(dtype), named as numba's "float32*"; dtype NULL: voidptr ("void*"). Only numbers
 * and bools are pointed to (NULL + UnsupportedError otherwise). */
const cj_type *cj_type_cpointer(const cj_type *dtype);

/* ---- record.c: NumPy structured dtypes ---- */
/* The element type of a NumPy dtype: a scalar, or a record for a structured dtype (numba's
 * from_dtype). NULL with an exception (UnsupportedError naming the field, TypeError for a
 * dtype cujit does not take) on failure. `descr` is borrowed. */
const cj_type *cj_type_from_descr(PyObject *descr);
/* The index of field `name` of record `t`, or -1 (no exception). */
int cj_record_field_index(const cj_type *t, const char *name);
/* The `(name1, name2, ...)` text of numba's "Field 'z' was not found" message (new ref). */
PyObject *cj_record_field_names(const cj_type *t);

/* ---- unify.c: numba's unification and NumPy promotion ---- */
/* The type both unify to, or NULL (no exception) when they cannot. */
const cj_type *cj_unify(const cj_type *a, const cj_type *b);
/* NumPy's result type for mixed scalar kinds (numba's rules for ints); NULL if not numbers. */
const cj_type *cj_promote(const cj_type *a, const cj_type *b);
/* Result of integer arithmetic between two integers (int64, or uint64 when both unsigned). */
const cj_type *cj_int_arith_type(const cj_type *a, const cj_type *b);

/* ---- typeof.c ---- */
/* The type of a Python argument value (new dispatch key), NULL with TypeError when the value
 * has no cujit type. Arrays: NumPy arrays and buffers; scalars; tuples; None. */
const cj_type *cj_typeof(PyObject *value);
/* The array type of a NumPy type number, rank and layout (C when c_contig, else F when
 * f_contig, else A), from a static cache, so the hot paths allocate nothing. NULL with no
 * exception set when NumPy type `typenum` has no cujit type (the caller says so in its own
 * words); NULL with an exception when the type cannot be made. */
const cj_type *cj_array_type_of_layout(int typenum, int ndim, int c_contig, int f_contig,
                                       int readonly);

/* The array type of a NumPy dtype (`descr`, borrowed), records too: as
 * cj_array_type_of_layout, NULL with no exception set for a dtype with no cujit type, with one
 * when a record's field is refused (record.c) or the type cannot be made. */
const cj_type *cj_array_type_of_descr(PyObject *descr, int ndim, int c_contig, int f_contig,
                                      int readonly);

/* ---- pyclass.c: C types <-> cujit.types' classes (made once, cached both ways) ---- */
/* The Type object of `t` (borrowed; owned by the type): an instance of the cujit.types class
 * of its kind (Integer, Array, UniTuple, ...). NULL with an exception on failure. */
PyObject *cj_type_to_py(const cj_type *t);
/* The type inside a Type object, NULL (no exception) if `obj` is not one or is a type only
 * Python knows (Optional, a CPointer in an address space or to a record, a user's subclass
 * of cujit.types.Type without a data model; one with a model gets its C type here,
 * extension_type.c). */
const cj_type *cj_type_from_py(PyObject *obj);
/* As cj_type_from_py, but NULL with an exception naming `what`: UnsupportedError for a type
 * the compiler does not know, TypeError for a value that is no type. */
const cj_type *cj_type_from_py_checked(PyObject *obj, const char *what);
/* The base class _core.Type (subclassable; cujit.types.Type derives from it). */
PyTypeObject *cj_type_class_new(void);
PyObject *cj_register_type_factory(PyObject *module, PyObject *fn);
extern PyTypeObject *cj_TypeType;

/* ---- extension_type.c: the low-level extension API's types (cujit.extending) ---- */
#define CJ_EXT_PRIMITIVE 1 /* cj_type.bits of a CJ_EXT held as its one member */
/* The C type of a user's Type object `obj` (borrowed) whose class has a registered data model,
 * made once; NULL with no exception when it has none, with one when its model fails. */
const cj_type *cj_type_extension_of(PyObject *obj);
/* The type cujit.extending.typeof_impl gives `value`; NULL with no exception when none is
 * registered for its class. */
const cj_type *cj_typeof_extension(PyObject *value);
/* What an extension type and another type unify to (the types' numba hooks unify,
 * can_convert_to, can_convert_from), or NULL (no exception). */
const cj_type *cj_unify_extension(const cj_type *a, const cj_type *b);
/* Whether `t` holds an extension type inside a tuple or list (not at the boundary). */
int cj_type_nests_extension(const cj_type *t);
/* Sets the C slot of Type object `obj` (pyclass.c). */
void cj_type_py_set_slot(PyObject *obj, const cj_type *t);

/* ---- pytype.c: Signature objects and the _core type constructors (float64(float64)) ---- */
/* A tuple of the Type objects of `items` (new reference). */
PyObject *cj_types_tuple(const cj_type *const *items, int n);
extern PyTypeObject *cj_SignatureType;
/* Signature accessors: return type may be NULL (signature given without one). */
typedef struct cj_signature_obj {
    PyObject_HEAD
    const cj_type *ret;
    int nargs;
    const cj_type **args; /* PyMem_Malloc'd */
} cj_signature_obj;
/* New Signature object; `args` copied. */
PyObject *cj_signature_new(const cj_type *ret, int nargs, const cj_type *const *args);

int cj_types_init(PyObject *module);

/* ---- convert.c: passing a value of one type where another is declared (numba's rule) ---- */
typedef enum cj_conversion {
    CJ_CONV_EXACT,
    CJ_CONV_PROMOTE,  /* a wider type of the same kind */
    CJ_CONV_SAFE,     /* no value is lost */
    CJ_CONV_UNSAFE,   /* narrowing, float -> int, ... */
    CJ_CONV_NONE,     /* not passed */
} cj_conversion;
cj_conversion cj_conversion_kind(const cj_type *from, const cj_type *to);
int cj_can_convert(const cj_type *from, const cj_type *to);
/* The index of the candidate signature (of `count`, read through `declared`) that `given`
 * converts to best, or -1 when none takes it. */
int cj_best_conversion(const cj_type *const *given, int nargs,
                       const cj_type *const *(*declared)(void *table, int i, int *nargs),
                       void *table, int count);
PyObject *cj_can_convert_py(PyObject *self, PyObject *const *args, Py_ssize_t nargs);

/* ---- layout.c ---- */
/* The C-side layout of an element of type `t` (x86-64 / NVPTX natural alignment): what an
 * array of `t` holds per item (a record: its itemsize and the dtype's alignment). */
size_t cj_abi_size(const cj_type *t);
size_t cj_abi_align(const cj_type *t);
/* The layout of a value of `t` passed or returned (argument structs, tuple items): as
 * cj_abi_size except records, which are passed by reference (a pointer to their data). */
size_t cj_abi_value_size(const cj_type *t);
size_t cj_abi_value_align(const cj_type *t);
/* Byte offset of item `i` of a tuple type, or of field i of an array struct. */
size_t cj_abi_tuple_offset(const cj_type *t, int i);
/* The byte offsets (from `base`) of the meminfo pointers a value of type `t` holds (its
 * arrays' and lists' allocations), appended at out[*n] (at most `max`); -1 when more. */
int cj_abi_ref_offsets(const cj_type *t, size_t base, int32_t *out, int *n, int max);
/* dictlayout.c: abi/hash.c's code of key type `t` at `base` appended at code[*n] (-1: not a
 * key type, or too deep), and all abi/dict.c's cj_dict_new takes for DictType `dt` (-1). */
int cj_abi_key_code(const cj_type *t, size_t base, int32_t *code, int *n);
struct cj_dict_layout;
int cj_abi_dict_layout(const cj_type *dt, struct cj_dict_layout *out);
/* The same for a set(T) (settype.c): a dict of T keys and no values. */
int cj_abi_set_layout(const cj_type *st, struct cj_dict_layout *out);

#endif
