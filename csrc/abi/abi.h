/* abi: the contracts between generated code and the run time, at the bottom of the layers
 * (it includes only util/). Generated code (lower/, target/) and the run time (jit/, cuda/)
 * both follow what is written here, and nothing else says it again.
 *
 * Calling convention of every compiled function (CPU, and CUDA device functions):
 *     i32 @name(<ret>* %ret, <arg0>, <arg1>, ...)
 * returning 0, or the id (1-based) of the exception to raise (excinfo.c below). The CPU
 * dispatcher calls a wrapper `i32 @name.wrapper(i8* ret, i8** args)`; a kernel's parameters
 * are flattened as lower/lower_kernel.h says.
 * Arrays are {T* data, i8* parent, [n x i64] shape, [n x i64] strides, cj_meminfo* meminfo},
 * strides in bytes: `parent` is the Python object an argument array came from (borrowed),
 * `meminfo` the allocation compiled code made it in (nrt.c below; NULL otherwise). The C-side
 * size of each type is types/types.h's cj_abi_size; their layout rules (default strides,
 * contiguity) are layout.c's, below. */
#ifndef CJ_ABI_H
#define CJ_ABI_H

#include <Python.h>

/* ---- limits ---- */
/* Arguments of a compiled function, a signature, a kernel launch. */
#define CJ_MAX_ARGS 64
/* Dimensions of an array (NumPy's own limit, NPY_MAXDIMS, is 32 before NumPy 2, 64 after). */
#define CJ_MAXDIM 32
/* Nesting depth of a type (a tuple in a tuple ...; types.c checks it where every type is
 * made), so every recursion over types and over the values they describe (typeof, naming,
 * unification, conversion, boxing, kernel parameters, lowering) is bounded by it. Deeper is
 * a RecursionError with this text, as numba's. */
#define CJ_MAX_NESTING 100
#define CJ_NESTING_TEXT_(n) "type nesting deeper than " #n " levels (cujit's limit)"
#define CJ_NESTING_TEXT(n) CJ_NESTING_TEXT_(n)
#define CJ_NESTING_ERROR CJ_NESTING_TEXT(CJ_MAX_NESTING)

/* ---- excinfo.c: exceptions raised by compiled code, by id ---- */
/* Registers an exception class or instance to raise; its id (>= 1), or -1 with an exception. */
int cj_exc_register(PyObject *exc);
/* Sets the Python exception for an id returned by compiled code. */
void cj_exc_raise(int id);
/* Puts `exc` at `id` (for cached code): 0 done or already there, 1 the id holds another
 * exception, -1 with an exception set. */
int cj_exc_register_at(int id, PyObject *exc);
/* The exception registered at `id` (borrowed), or NULL. */
PyObject *cj_exc_lookup(int id);
/* try/except in compiled code (lower/lower_try.c), with or without the GIL held. The id a
 * handler catches for `status`: a Python exception that is set (CJ_EXC_PYTHON) is taken out of
 * the thread state and kept as the thread's caught exception (CJ_EXC_CAUGHT, which lookup,
 * match and raise read), so handlers deal only in ids and a loop that catches does not grow
 * the registry. */
int32_t cj_exc_catch(int32_t status);
/* A callable that raises cls(*args): a raise with run-time arguments calls it from compiled
 * CPU code as an objmode call (typing/objmode_typing.c). New reference, or NULL. */
PyObject *cj_exc_raiser(PyObject *cls);
/* 1 when the exception of id `status` is an instance of the class registered at `cls_id`. */
int32_t cj_exc_match(int32_t status, int32_t cls_id);
/* Ids of the built-in errors (numba's messages). */
enum {
    CJ_EXC_INT_DIV_ZERO = 1,  /* ZeroDivisionError('integer division by zero') */
    CJ_EXC_INT_MOD_ZERO,      /* ZeroDivisionError('integer modulo by zero') */
    CJ_EXC_DIV_ZERO,          /* ZeroDivisionError('division by zero') */
    CJ_EXC_MOD_ZERO,          /* ZeroDivisionError('modulo by zero') */
    CJ_EXC_INDEX,             /* IndexError('index is out of bounds') */
    CJ_EXC_UNPACK,            /* ValueError('cannot unpack: length mismatch') */
    CJ_EXC_RANGE_STEP,        /* ValueError('range() arg 3 must not be zero') */
    CJ_EXC_POW_ZERO,          /* ZeroDivisionError('0 cannot be raised to a negative power') */
    CJ_EXC_FLOAT_NAN,         /* ValueError('cannot convert float NaN to integer') */
    CJ_EXC_FLOAT_INF,         /* OverflowError('cannot convert float infinity to integer') */
    CJ_EXC_FLOAT_RANGE,       /* OverflowError('float out of range of the integer type') */
    CJ_EXC_SSIZE_RANGE,       /* OverflowError('Python int too large to convert to C ssize_t') */
    CJ_EXC_INT64_RANGE,       /* OverflowError('Python int too large to convert to C int64') */
    CJ_EXC_PYTHON,            /* a Python exception, already set (objmode blocks); no entry */
    CJ_EXC_MEMORY,            /* MemoryError('cannot allocate memory for an array') */
    CJ_EXC_NEGATIVE_DIM,      /* ValueError('negative dimensions are not allowed') */
    CJ_EXC_TOO_BIG,           /* ValueError('array is too big; ...') (NumPy's words) */
    CJ_EXC_EMPTY_MIN,         /* ValueError('zero-size array to reduction operation minimum
                               * which has no identity'), and maximum: */
    CJ_EXC_EMPTY_MAX,
    CJ_EXC_BROADCAST,         /* ValueError('operands could not be broadcast together') */
    CJ_EXC_DOT_VV,            /* ValueError('incompatible array sizes for np.dot(a, b) (vector *
                               * vector)'), and for the other shapes: */
    CJ_EXC_DOT_MV,
    CJ_EXC_DOT_VM,
    CJ_EXC_DOT_MM,
    CJ_EXC_DOT_OUT,           /* ValueError('incompatible output array size for np.dot(a, b,
                               * out)') */
    CJ_EXC_MASK_SHAPE,        /* IndexError('boolean index did not match indexed array') */
    CJ_EXC_MASK_VALUES,       /* ValueError('NumPy boolean array indexing assignment cannot
                               * assign input values to the output values where the mask is
                               * true') */
    CJ_EXC_ARANGE_SIZE,       /* ValueError('Maximum allowed size exceeded'): np.arange */
    CJ_EXC_RESHAPE_SIZE,      /* ValueError('total size of new array must be unchanged') */
    CJ_EXC_RESHAPE_NEG,       /* ValueError('multiple negative shape values') */
    CJ_EXC_ITEM_SIZE,         /* ValueError('item(): can only convert an array of size 1 ...') */
    CJ_EXC_VIEW_0D,           /* ValueError: a.view() of a 0-d array to another item size */
    CJ_EXC_VIEW_AXIS,         /* ValueError: ... whose last axis is not contiguous */
    CJ_EXC_VIEW_LARGER,       /* ValueError: ... whose last axis has bytes the size doesn't divide */
    CJ_EXC_RESHAPE_COPY,      /* NotImplementedError('incompatible shape for array'): numba's
                               * reshape of an F array that would need a copy */
    CJ_EXC_EMPTY_ARGMIN,      /* ValueError('attempt to get argmin of an empty sequence'), and
                               * argmax: */
    CJ_EXC_EMPTY_ARGMAX,
    CJ_EXC_EMPTY_FMIN,        /* ValueError('zero-size array to reduction operation fmin which
                               * has no identity'), and fmax (np.nanmin, np.nanmax): */
    CJ_EXC_EMPTY_FMAX,
    CJ_EXC_RANDOM_SEED,       /* ValueError('Seed must be between 0 and 2**32 - 1') */
    CJ_EXC_RANDOM_HIGH,       /* ValueError('high <= 0'): np.random.randint(0) */
    CJ_EXC_RANDOM_LOW_HIGH,   /* ValueError('low >= high') */
    CJ_EXC_RANDOM_SCALE,      /* ValueError('scale < 0') */
    CJ_EXC_RANDOM_RANGE,      /* OverflowError('Range exceeds valid bounds'): np.random.uniform */
    CJ_EXC_RANDOM_LAM,        /* ValueError('lam < 0 or lam is NaN') */
    CJ_EXC_RANDOM_LAM_BIG,    /* ValueError('lam value too large') */
    CJ_EXC_RANDOM_EMPTY,      /* ValueError("'a' cannot be empty unless no samples are taken") */
    CJ_EXC_RANDOM_A,          /* ValueError('a must be greater than 0 unless no samples are
                               * taken'): np.random.choice(n) */
    CJ_EXC_RANDOM_N,          /* ValueError('n < 0'): np.random.binomial */
    CJ_EXC_RANDOM_P,          /* ValueError('p < 0, p > 1 or p is NaN') */
    CJ_EXC_CAUGHT,            /* the Python exception this thread's handler caught last */
    CJ_EXC_BUILTIN_COUNT,
};
int cj_excinfo_init(PyObject *module);

/* ---- workqueue.c: the threads that run prange loops ---- */
#define CJ_PARALLEL_MAX_THREADS 128 /* the pool's limit, and a prange's most chunks */
/* An outlined prange body: runs iterations [start, stop), its reductions' partials at
 * `partial`; returns 0 or an exception id. */
typedef int32_t (*cj_chunk_fn)(void *ctx, int64_t start, int64_t stop, void *partial);
/* Runs body over [0, n) in contiguous chunks, chunk c given partials + c * partial_size; the
 * chunk count (<= CJ_PARALLEL_MAX_THREADS, 1 for n <= 1), *status the first failure's id. */
int64_t cj_parallel_for(cj_chunk_fn body, void *ctx, int64_t n, void *partials,
                        int64_t partial_size, int32_t *status);
/* The same on at most `threads` threads (the pool's size caps it), for run-time code. */
int64_t cj_parallel_run(cj_chunk_fn body, void *ctx, int64_t n, void *partials,
                        int64_t partial_size, int threads, int32_t *status);
int cj_workqueue_size(void);       /* NUMBA_NUM_THREADS, else the CPUs (at most the limit) */
int cj_get_num_threads(void);      /* this thread's set_num_threads(), else the pool's size */
int cj_set_num_threads(int n);     /* -1 unless 1 <= n <= cj_workqueue_size() */
int cj_get_thread_id(void);        /* 0 outside the pool's workers */

/* ---- nrt.c: memory compiled code allocates, reference counted (numba's NRT) ---- */
typedef struct cj_meminfo {
    _Atomic long long refcount; /* first (compiled code adds to it): variables of compiled
                                 * code, NumPy arrays' bases */
    void *data;                 /* 64-byte aligned, after the header */
    long long size;             /* bytes */
    void *raw;                  /* what malloc gave */
    void (*dtor)(struct cj_meminfo *); /* run before the memory is freed (a list drops its
                                        * items' references), NULL for arrays */
} cj_meminfo;
/* A new allocation of `nbytes` with one reference, or NULL (no exception: no GIL); zeroed:
 * its bytes are 0. */
cj_meminfo *cj_nrt_allocate(int64_t nbytes);
/* nrt_pool.c: `bytes` (at most CJ_POOL_MAX) carved from this thread's slab, 16-byte aligned,
 * *owner its slab; NULL when out of memory. cj_pool_free(owner) gives it back (any thread). */
#define CJ_POOL_MAX 512
void *cj_pool_alloc(size_t bytes, void **owner);
void cj_pool_free(void *owner);
cj_meminfo *cj_nrt_allocate_zeroed(int64_t nbytes);
/* The same with the data right after the header, 16-byte aligned (not zeroed): small objects
 * (strings) in one small block. */
cj_meminfo *cj_nrt_allocate_packed(int64_t nbytes);
void cj_nrt_incref(cj_meminfo *mi); /* NULL: nothing */
void cj_nrt_decref(cj_meminfo *mi); /* NULL: nothing; the last reference frees it */
void cj_nrt_free(cj_meminfo *mi);   /* for compiled code, when its count reached zero */
/* Allocations made and freed since the process started. */
void cj_nrt_stats(unsigned long long *allocated, unsigned long long *freed);

/* ---- list.c: the lists compiled code makes (numba's list), in an NRT allocation ----
 * A list value is the cj_meminfo * of its allocation; its data is a cj_list header. Items lie
 * in `items` (malloc'd, `cap` of them), each in the C layout of the item type (cj_abi_size);
 * compiled code reads and writes them and `len` directly, and counts their references itself.
 * The destructor drops the references at `ref_offsets` (the meminfo pointers of the arrays and
 * lists an item holds) of every item, then frees `items`. */
typedef struct cj_list {
    int64_t len;      /* first: compiled code reads it at offset 0 */
    int64_t cap;
    char *items;      /* offset 16 */
    int64_t item_size;
    char *snapshot;   /* a reflected list's items as they came from Python (jit/reflect.c), or
                       * NULL; freed with the list */
    PyObject *parent; /* a reflected list's Python list (borrowed for the call), or NULL */
    int32_t nrefs;
    int32_t ref_offsets[]; /* nrefs of them */
} cj_list;
/* The most references one item may hold (a tuple of arrays ...). */
#define CJ_LIST_MAX_REFS 64
/* A new list of `len` items (their bytes not set) and one reference, or NULL when out of
 * memory (no exception: no GIL). */
cj_meminfo *cj_list_new(int64_t item_size, int32_t nrefs, const int32_t *ref_offsets,
                        int64_t len);
/* Room for `extra` more items (amortised growth): the items pointer, or NULL when out of
 * memory; the length does not change. */
char *cj_list_reserve(cj_meminfo *mi, int64_t extra);
/* Sorts a list of numbers in place (sort.c's `kind` and order, NaN last), descending when
 * `reverse`; equal items keep their order where it can be seen (-0.0 and 0.0), as Python's
 * stable sort; 0, or -1 out of memory. */
int cj_list_sort(cj_meminfo *mi, int kind, int reverse);
/* list_slice.c: l[start::step] (its n items, as slice.indices gives them) = the items of the
 * list src (of the same item type): 0, -1 out of memory, -2 when an extended slice (step
 * != 1) is given another number of items than it selects (CPython's ValueError); and
 * del l[start::step] of those n items. */
int32_t cj_list_assign_slice(cj_meminfo *dst, int64_t start, int64_t step, int64_t n,
                             const cj_meminfo *src);
void cj_list_delete_slice(cj_meminfo *dst, int64_t start, int64_t step, int64_t n);

/* ---- unicode.c, unicode_methods.c: strings (numba's unicode_type), in an NRT allocation ----
 * A string value is the cj_meminfo * of its allocation; its data is a cj_str header. The code
 * points are CPython's PEP 393 form, in the smallest kind that holds them (as CPython keeps
 * every str), so equal strings have equal bytes and CPython's hash. A str from Python is read
 * in place: `parent` holds a reference to it (dropped with the GIL when the string is freed).
 * Functions returning a string or list return a new reference, or NULL when out of memory. */
typedef struct cj_str {
    int64_t length;   /* code points; first: compiled code reads it at offset 0 */
    int32_t kind;     /* bytes per code point: 1, 2 or 4 */
    int32_t is_ascii;
    int64_t hash;     /* CPython's hash, -1 until computed */
    void *data;       /* the code points, then a 0 */
    PyObject *parent; /* the str it was read from (a strong reference), or NULL */
} cj_str;
enum {
    CJ_STR_ISDIGIT, CJ_STR_ISALPHA, CJ_STR_ISSPACE, CJ_STR_ISUPPER, CJ_STR_ISLOWER,
    CJ_STR_ISALNUM, CJ_STR_ISDECIMAL, CJ_STR_ISNUMERIC, CJ_STR_ISTITLE, CJ_STR_ISASCII,
    CJ_STR_ISPRINTABLE
};
/* cj_str_case's mappings (unicode_case.c), CPython's full ones. */
enum {
    CJ_CASE_LOWER, CJ_CASE_UPPER, CJ_CASE_CASEFOLD, CJ_CASE_SWAPCASE, CJ_CASE_TITLE,
    CJ_CASE_CAPITALIZE
};
uint32_t cj_str_char(const cj_str *s, int64_t i);
void cj_str_put(cj_str *s, int64_t i, uint32_t c);
int cj_str_kind_of(uint32_t maxchar);
cj_meminfo *cj_str_alloc(int64_t length, int kind, int is_ascii);
/* A new string of `length` code points of `kind` bytes at `data`, in its smallest kind. */
cj_meminfo *cj_str_from_data(const void *data, int64_t length, int32_t kind);
/* With the GIL: a string over `obj`'s data (NULL with an exception), and the str of one. */
cj_meminfo *cj_str_from_pyobject(PyObject *obj);
PyObject *cj_str_to_pyobject(const cj_meminfo *mi);
cj_meminfo *cj_str_concat(const cj_meminfo *a, const cj_meminfo *b);
cj_meminfo *cj_str_repeat(const cj_meminfo *a, int64_t n);
cj_meminfo *cj_str_slice(const cj_meminfo *a, int64_t start, int64_t step, int64_t n);
cj_meminfo *cj_str_getitem(const cj_meminfo *a, int64_t i);
cj_meminfo *cj_str_chr(int64_t code);    /* NULL also outside range(0x110000) */
int64_t cj_str_ord(const cj_meminfo *a); /* -1 unless its length is 1 */
/* Equality and hash, the rule every container of strings (a dict's keys) calls. */
int32_t cj_str_equal(const cj_meminfo *a, const cj_meminfo *b);
int64_t cj_str_hash(const cj_meminfo *a);
int32_t cj_str_compare(const cj_meminfo *a, const cj_meminfo *b); /* code-point order */
int32_t cj_str_in_list(const cj_meminfo *list, const cj_meminfo *s); /* s in a list of str */
int64_t cj_str_find(const cj_meminfo *a, const cj_meminfo *sub, int64_t start, int64_t end,
                    int32_t reverse);
/* s.count(sub) (whole string, the entry cached code calls) and s.count(sub, start, end). */
int64_t cj_str_count(const cj_meminfo *a, const cj_meminfo *sub);
int64_t cj_str_count_range(const cj_meminfo *a, const cj_meminfo *sub, int64_t start,
                           int64_t end);
int32_t cj_str_startswith(const cj_meminfo *a, const cj_meminfo *prefix, int32_t at_end);
/* An empty list of strings; appending a[start:stop] to one: 0, or -1 out of memory. */
cj_meminfo *cj_str_list_new(void);
int cj_str_list_append_part(cj_meminfo *list, const cj_meminfo *a, int64_t start, int64_t stop);
cj_meminfo *cj_str_split(const cj_meminfo *a, const cj_meminfo *sep, int64_t maxsplit);
cj_meminfo *cj_str_join(const cj_meminfo *sep, const cj_meminfo *list);
cj_meminfo *cj_str_strip(const cj_meminfo *a, const cj_meminfo *chars, int32_t which);
cj_meminfo *cj_str_case(const cj_meminfo *a, int32_t mode); /* CJ_CASE_* */
cj_meminfo *cj_str_replace(const cj_meminfo *a, const cj_meminfo *old, const cj_meminfo *new_,
                           int64_t count);
int32_t cj_str_is(const cj_meminfo *a, int32_t what); /* CJ_STR_IS* */
/* unicode_layout.c: s.center/ljust/rjust (which 0, 1, 2; fill NULL: a space, else its one
 * character), zfill, expandtabs, partition/rpartition (out[3], new references; 0, or -1
 * out of memory), rsplit (as split), splitlines, and list(s) (its characters). */
cj_meminfo *cj_str_pad(const cj_meminfo *a, int64_t width, const cj_meminfo *fill,
                       int32_t which);
cj_meminfo *cj_str_zfill(const cj_meminfo *a, int64_t width);
cj_meminfo *cj_str_expandtabs(const cj_meminfo *a, int64_t tabsize);
int32_t cj_str_partition(const cj_meminfo *a, const cj_meminfo *sep, int32_t reverse,
                         cj_meminfo **out);
cj_meminfo *cj_str_rsplit(const cj_meminfo *a, const cj_meminfo *sep, int64_t maxsplit);
cj_meminfo *cj_str_splitlines(const cj_meminfo *a, int32_t keepends);
cj_meminfo *cj_str_chars(const cj_meminfo *a);
/* unicode_number.c: int(s) and float(s) into *value: 0, -1 not a number, -2 past int64, -3
 * out of memory. */
int32_t cj_str_to_int(const cj_meminfo *a, int64_t *value);
int32_t cj_str_to_float(const cj_meminfo *a, double *value);
cj_meminfo *cj_str_from_int(int64_t v, int32_t is_unsigned);
cj_meminfo *cj_str_from_double(double v);
/* unicode_repr.c */
cj_meminfo *cj_str_from_bool(int32_t v);
cj_meminfo *cj_str_repr(const cj_meminfo *am);

/* ---- blas.c: np.dot / np.vdot / @ through the process's BLAS (found at run time) ---- */
/* kind: 0 float32, 1 float64, 2 complex64, 3 complex128. Strides in bytes, any sign. */
int cj_blas_find(void); /* 1 when a BLAS was found (compile time, with the GIL), else 0 */
/* c (m x n, C-contiguous, n >= 1 columns apart) = a (m x k) @ b (k x n): 0, or -1 when a
 * copy of a non-contiguous operand could not be allocated. */
int cj_blas_gemm(int kind, int64_t m, int64_t n, int64_t k, const char *a, int64_t as0,
                 int64_t as1, const char *b, int64_t bs0, int64_t bs1, char *c);
/* *out = sum x[i] * y[i] (conj: conj(x[i]) * y[i]) over n elements: 0, or -1 as above. */
int cj_blas_dot(int kind, int conj, int64_t n, const char *x, int64_t xs, const char *y,
                int64_t ys, char *out);

/* ---- sort.c: np.sort / np.argsort of one contiguous row (NaN last) ---- */
enum {
    CJ_SORT_INT8, CJ_SORT_UINT8, CJ_SORT_INT16, CJ_SORT_UINT16, CJ_SORT_INT32, CJ_SORT_UINT32,
    CJ_SORT_INT64, CJ_SORT_UINT64, CJ_SORT_FLOAT32, CJ_SORT_FLOAT64, /* bool sorts as UINT8 */
    CJ_SORT_STR /* strings (unicode.c's order): lists only (cj_list_sort) */
};
void cj_sort(int kind, char *data, int64_t n); /* in place */
/* out[0..n) = the indices of data's n elements in sorted order (stable): 0, or -1 when the
 * scratch buffer could not be allocated. */
int cj_argsort(int kind, const char *data, int64_t n, int64_t *out);

/* ---- select.c: order statistics for compiled code ---- */
/* The median of data[0..n) (reordered): NaN for n == 0 or when any element is NaN. */
double cj_median_f64(double *data, int64_t n);

/* ---- random.c: np.random's generator, NumPy's legacy RandomState (MT19937), per thread;
 * random_discrete.c its discrete distributions (random_internal.h between them) ---- */
/* Seeds the calling thread's state as np.random.seed(seed) does (the gauss cache dropped). */
void cj_random_seed(uint32_t seed);
/* out[0..n) = a + b * random() (UNIFORM), a + b * gauss() (NORMAL), a * -log(1 - random())
 * (EXPONENTIAL), or the distribution named with its NumPy parameters in order as (a, b, c)
 * (GAMMA: shape, scale), each drawn as NumPy's legacy RandomState draws it. */
enum {
    CJ_RANDOM_UNIFORM, CJ_RANDOM_NORMAL, CJ_RANDOM_EXPONENTIAL, CJ_RANDOM_LOGNORMAL,
    CJ_RANDOM_GAMMA, CJ_RANDOM_CHISQUARE, CJ_RANDOM_BETA, CJ_RANDOM_PARETO, CJ_RANDOM_WEIBULL,
    CJ_RANDOM_POWER, CJ_RANDOM_CAUCHY, CJ_RANDOM_STANDARD_T, CJ_RANDOM_LAPLACE,
    CJ_RANDOM_GUMBEL, CJ_RANDOM_LOGISTIC, CJ_RANDOM_RAYLEIGH, CJ_RANDOM_F, CJ_RANDOM_WALD,
    CJ_RANDOM_VONMISES, CJ_RANDOM_TRIANGULAR,
};
void cj_random_doubles(int kind, double a, double b, double c, int64_t n, double *out);
/* out[0..n) = randint(a, b) (INT: a < b checked by the caller), poisson(p) (POISSON),
 * binomial(a, p) (BINOMIAL), geometric(p), negative_binomial(p, q), logseries(p), zipf(p),
 * hypergeometric(a, b, p). */
enum {
    CJ_RANDOM_INT, CJ_RANDOM_POISSON, CJ_RANDOM_BINOMIAL, CJ_RANDOM_GEOMETRIC,
    CJ_RANDOM_NEGATIVE_BINOMIAL, CJ_RANDOM_LOGSERIES, CJ_RANDOM_ZIPF, CJ_RANDOM_HYPERGEOMETRIC,
};
void cj_random_ints(int kind, int64_t a, int64_t b, double p, double q, int64_t n,
                    int64_t *out);
/* NumPy's legacy shuffle of n items (itemsize <= 16) `stride` bytes apart from `data`. */
void cj_random_shuffle(int64_t n, int64_t stride, int64_t itemsize, char *data);
/* choice(a, count, replace=False): the first `count` (<= pop) of permutation(pop) into out,
 * as int64s when `a` is NULL, else the items of a (itemsize <= 16, `stride` apart) they index:
 * 0, or -1 when the permutation could not be allocated. */
int cj_random_choice_unique(int64_t pop, int64_t count, const char *a, int64_t stride,
                            int64_t itemsize, char *out);

/* ---- py_random.c: Python's random module (numba's functions), the thread's second state ---- */
/* The calling thread's state for the random module (seeded from entropy at its first use):
 * what the others take; compiled code draws random() from it itself (random_internal.h). */
void *cj_py_random_state(void);
/* The state's next 624 words (MT19937's twist), its position back to 0: compiled code's
 * draw when the position reached 624. */
void cj_py_random_twist(void *st);
/* random.seed(n) with magnitude = abs(n): CPython's seeding of an int. */
void cj_py_random_seed(void *st, uint64_t magnitude);
/* A standard normal by the polar method (the pair's second value kept): random.gauss. */
double cj_py_random_gauss(void *st);
/* Swaps the sub-arrays of rank ndim (shape, byte strides) at a and b: two rows of an array
 * random.shuffle walks. */
void cj_py_random_swap(int64_t ndim, const int64_t *shape, const int64_t *strides,
                       int64_t itemsize, char *a, char *b);

/* ---- layout.c: the layout rules of an array (ndim, shape, byte strides, itemsize) ---- */
/* The rule, NumPy's: a dimension of size 1 never breaks contiguity (its stride is ignored);
 * an array with a 0 in its shape holds nothing and is contiguous both ways; default strides
 * count a 0 as 1, so an empty array gets the strides of a non-empty one of the same rank.
 * Every layout in cujit (DeviceNDArray, __cuda_array_interface__, kernel arguments, CUDA
 * ufunc operands) follows it. */
/* Fills strides[0..ndim) with the strides of a C (fortran 0) or F (fortran 1) ordered array. */
void cj_layout_default_strides(int ndim, const Py_ssize_t *shape, Py_ssize_t itemsize,
                               int fortran, Py_ssize_t *strides);
/* Whether the array is C- (fortran 0) or F-contiguous (fortran 1): 1 or 0. */
int cj_layout_is_contiguous(int ndim, const Py_ssize_t *shape, const Py_ssize_t *strides,
                            Py_ssize_t itemsize, int fortran);
/* 0 when an array of `ndim` dimensions fits a CJ_MAXDIM layout, else -1 with a ValueError.
 * Checked before any ndim entries are copied into a CJ_MAXDIM array (NumPy 2 has 64). */
int cj_layout_check_ndim(Py_ssize_t ndim);

#endif
