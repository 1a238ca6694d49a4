/* infer: type inference over the IR (numba's rules), with the typing rules it uses.
 * Sections: infer.c (fixpoint over reachable blocks, unification, pruning), rules.c (operators),
 * builtins.c (calls to builtins, math/cmath/operator/NumPy functions, casts), jitted_calls.c
 * (calls to jitted functions), objmode_typing.c (objmode blocks), access.c (attributes,
 * indexing, iteration). */
#ifndef CJ_INFER_H
#define CJ_INFER_H

#include "ir/ir.h"

enum { CJ_TARGET_CPU = 0, CJ_TARGET_CUDA = 1 };

/* What a call resolved to (instr->resolved points at one of these, in the IR's arena). */
typedef enum cj_call_kind {
    CJ_CALL_BUILTIN,     /* builtin: the cj_builtin id */
    CJ_CALL_DISPATCHER,  /* another jitted function: callee is the env's overload handle */
    CJ_CALL_SELF,        /* recursion into the function being compiled */
    CJ_CALL_CAST,        /* int()/float()/np.float32()/cujit.float32(): cast to sig_ret */
    CJ_CALL_EXCEPTION,   /* an exception class called with constant args (raise only) */
    CJ_CALL_METHOD,      /* a method bound by GETATTR: builtin id; receiver = GETATTR's arg */
    CJ_CALL_CUDA,        /* a CUDA intrinsic (cuda_intrinsics.h): builtin = intrinsic id */
    CJ_CALL_OBJMODE,     /* a `with objmode()` block: callee is the ObjModeBlock (kept by
                          * the IR); the result is its declared output type */
    CJ_CALL_UFUNC,       /* a NumPy ufunc (builtin id) on arrays, element by element: args
                          * are its inputs, then `out` when given (array_expr.c) */
    CJ_CALL_LIST,        /* a list method (lists.c): builtin = cj_list_op; receiver as for
                          * CJ_CALL_METHOD */
    CJ_CALL_EXTENSION,   /* a low-level extension (type_callable + lower_builtin, intrinsic,
                          * an attribute's lower_getattr): callee is the registry's tuple
                          * (kept by the IR), argtypes the types its lowering takes */
    CJ_CALL_STR,         /* a string operation (strings.c): builtin = cj_str_op, args its
                          * operands (a method's receiver first), -1 for an omitted one */
    CJ_CALL_DICT,        /* a dict method or builtin (dicts.c): builtin = cj_dict_op */
    CJ_CALL_SET,         /* a set method or builtin (sets.c): builtin = cj_set_op */
    CJ_CALL_GENERATOR,   /* next(g), sum(g), min(g), max(g) of a generator (generators.c):
                          * builtin the cj_builtin id, args[0] the generator */
} cj_call_kind;

typedef enum cj_set_op {
    /* methods: the receiver is bound by GETATTR */
    CJ_SETOP_ADD, CJ_SETOP_DISCARD, CJ_SETOP_REMOVE, CJ_SETOP_POP, CJ_SETOP_CLEAR,
    CJ_SETOP_COPY, CJ_SETOP_UPDATE, CJ_SETOP_UNION, CJ_SETOP_INTERSECTION,
    CJ_SETOP_DIFFERENCE, CJ_SETOP_SYMMETRIC_DIFFERENCE, CJ_SETOP_INTERSECTION_UPDATE,
    CJ_SETOP_DIFFERENCE_UPDATE, CJ_SETOP_SYMMETRIC_DIFFERENCE_UPDATE, CJ_SETOP_ISSUBSET,
    CJ_SETOP_ISSUPERSET, CJ_SETOP_ISDISJOINT,
    /* builtins of args: set(), set(iterable), len(s), sum(s), min(s), max(s), bool(s) */
    CJ_SETOP_NEW, CJ_SETOP_LEN, CJ_SETOP_SUM, CJ_SETOP_MIN, CJ_SETOP_MAX, CJ_SETOP_BOOL,
} cj_set_op;

typedef enum cj_dict_op {
    /* methods (the receiver as for CJ_CALL_METHOD) */
    CJ_DICT_GET, CJ_DICT_POP, CJ_DICT_SETDEFAULT, CJ_DICT_POPITEM, CJ_DICT_CLEAR, CJ_DICT_COPY,
    CJ_DICT_UPDATE, CJ_DICT_KEYS, CJ_DICT_VALUES, CJ_DICT_ITEMS, CJ_DICT_DELITEM,
    /* builtins of args[0]: dict(), dict(d) (CJ_DICT_COPY is a method), len(d), hash(x) */
    CJ_DICT_NEW, CJ_DICT_LEN, CJ_DICT_HASH,
} cj_dict_op;

typedef enum cj_list_op {
    /* methods (the receiver as for CJ_CALL_METHOD) */
    CJ_LIST_APPEND, CJ_LIST_POP, CJ_LIST_EXTEND, CJ_LIST_INSERT, CJ_LIST_REMOVE, CJ_LIST_INDEX,
    CJ_LIST_COUNT, CJ_LIST_CLEAR, CJ_LIST_COPY, CJ_LIST_REVERSE, CJ_LIST_SORT,
    CJ_LIST_DELITEM, /* del l[i] (the frontend's l.__delitem__(i)) */
    /* builtins of an argument (args[0]): list(), list(iterable), sorted(), sum(), min(), max() */
    CJ_LIST_NEW, CJ_LIST_SORTED, CJ_LIST_SUM, CJ_LIST_MIN, CJ_LIST_MAX,
    /* operators (list_ops.c; args: the list, the other operand): + * += *= and comparisons */
    CJ_LIST_CONCAT, CJ_LIST_REPEAT, CJ_LIST_IADD, CJ_LIST_IMUL, CJ_LIST_COMPARE,
} cj_list_op;
/* strings.c's operations; the methods in this order (their result types go by it). */
typedef enum cj_str_op {
    CJ_STR_CONCAT, CJ_STR_REPEAT, CJ_STR_COMPARE, CJ_STR_CONTAINS, CJ_STR_GETITEM, CJ_STR_SLICE,
    CJ_STR_LEN, CJ_STR_FROM, CJ_STR_ORD, CJ_STR_CHR, CJ_STR_HASH, CJ_STR_GETITER, CJ_STR_BOOL, CJ_STR_IN_SEQ,
    CJ_STR_REPR,
    CJ_STR_STARTSWITH, CJ_STR_ENDSWITH, CJ_STR_FIND, CJ_STR_RFIND, CJ_STR_COUNT, CJ_STR_SPLIT,
    CJ_STR_JOIN, CJ_STR_STRIP, CJ_STR_LSTRIP, CJ_STR_RSTRIP, CJ_STR_LOWER, CJ_STR_UPPER,
    CJ_STR_REPLACE, CJ_STR_ISDIGIT_M, CJ_STR_ISALPHA_M, CJ_STR_ISSPACE_M, CJ_STR_ISUPPER_M,
    CJ_STR_ISLOWER_M, CJ_STR_ISALNUM_M, CJ_STR_ISDECIMAL_M, CJ_STR_ISNUMERIC_M, CJ_STR_ISTITLE_M,
    CJ_STR_ISASCII_M, CJ_STR_ISPRINTABLE_M, /* the CJ_STR_IS* order of abi.h */
    CJ_STR_CASEFOLD, CJ_STR_SWAPCASE, CJ_STR_TITLE, CJ_STR_CAPITALIZE, CJ_STR_CENTER,
    CJ_STR_LJUST, CJ_STR_RJUST, CJ_STR_ZFILL, CJ_STR_EXPANDTABS, CJ_STR_INDEX, CJ_STR_RINDEX,
    CJ_STR_PARTITION, CJ_STR_RPARTITION, CJ_STR_RSPLIT, CJ_STR_SPLITLINES,
    CJ_STR_CHARS, /* list(s) */
    CJ_STR_TO_INT, CJ_STR_TO_FLOAT, /* int(s), float(s) */
} cj_str_op;

/* Whether a CJ_CALL_LIST op is a method (its receiver bound by GETATTR). */
static inline int cj_list_op_is_method(int op) { return op <= CJ_LIST_DELITEM; }

#define CJ_ARG_PACKED (-3)
/* Item k of the tuple of a call g(*t) (the CALL's last argument, flagged CJ_F_STAR_CALL) */
#define CJ_ARG_STAR_ITEM(k) (-16 - (k))
#define CJ_ARG_STAR_INDEX(v) (-16 - (v))
typedef struct cj_call {
    cj_call_kind kind;
    int builtin;            /* cj_builtin id */
    const void *callee;     /* CJ_CALL_DISPATCHER: opaque handle from the env; OBJMODE: block */
    int nargs;              /* arguments after folding keywords and defaults */
    int *args;              /* variable per argument, or -1 where the default is used, or
                             * CJ_ARG_PACKED: a *args tuple of args[nargs..] (starargs.c),
                             * or CJ_ARG_STAR_ITEM(k) */
    PyObject **defaults;    /* borrowed default values (kept by the IR) where args[i] == -1 */
    const cj_type **argtypes;
    PyObject *exception;    /* CJ_CALL_EXCEPTION: the exception instance (kept by the IR) */
    int nin;                /* CJ_CALL_UFUNC: the inputs (args beyond them: out) */
    const cj_type *loop_in, *loop_out; /* CJ_CALL_UFUNC: the NumPy loop's types */
    int truth;              /* CJ_B_ISINSTANCE: its answer, known at compile time */
} cj_call;

/* array_expr.c: the operator a NumPy ufunc builtin is (np.add: CJ_I_BINOP with *sub CJ_ADD),
 * or -1 (np.logical_and, np.sqrt, ...). */
int cj_ufunc_operator(int id, int *sub);

typedef struct cj_typing_env cj_typing_env;
struct cj_typing_env {
    int target;                 /* CJ_TARGET_* */
    PyObject *self_dispatcher;  /* the dispatcher being compiled (for recursion), or NULL */
    /* For a callee that may be a jitted function: 1 if it is one (its return type in *ret and
     * a handle in *callee, valid as long as the env), 0 if it is not, -1 with an exception.
     * A callee with declared parameter types (cuda.declare_device) replaces `argtypes` with
     * them: the call converts its arguments. */
    int (*resolve_dispatcher)(cj_typing_env *env, PyObject *callee, int nargs,
                              const cj_type **argtypes, const cj_type **ret,
                              const void **handle);
    /* The Python function behind a dispatcher (borrowed), or NULL if `obj` is not one. */
    PyObject *(*dispatcher_pyfunc)(PyObject *obj);
    void *opaque;
};

/* Types every variable of `ir` for the argument types; sets *ret to the return type.
 * -1 with TypingError / UnsupportedError set on failure. */
int cj_infer(cj_func_ir *ir, const cj_type *const *argtypes, int nargs, cj_typing_env *env,
             const cj_type **ret);

/* ---- rules.c ---- */
/* Result types of operators; NULL (no exception) when the operation does not apply.
 * *optype receives the type both operands are converted to before operating. */
const cj_type *cj_rule_binop(int op, const cj_type *a, const cj_type *b, const cj_type **optype);
/* cuda_fp16_rules.c: numba-cuda's float16 operators in kernels: + - * / of float16 with
 * float16 (or an int8, converted safely) stay float16 (the CPU's rule computes in
 * float32). Sets *out and *optype when the operation is one of those. */
void cj_cuda_fp16_binop(int op, const cj_type *a, const cj_type *b, const cj_type **out,
                        const cj_type **optype);
/* Whether builtin `id` called with these `nargs` arguments (the first `a`) is one of
 * numba-cuda's float16 math functions (math.sin cos sqrt exp log log2 log10 fabs floor ceil
 * trunc of a float16), whose result is float16 in kernels. */
int cj_cuda_fp16_math(int id, int nargs, const cj_type *a);
const cj_type *cj_rule_unary(int op, const cj_type *a);
const cj_type *cj_rule_compare(int op, const cj_type *a, const cj_type *b,
                               const cj_type **optype);
/* Whether `t` has a truth value (numbers, none, tuples). */
int cj_rule_has_truth(const cj_type *t);
/* The float type numba computes in for mixed float arithmetic (float32 or float64), or complex. */
const cj_type *cj_rule_float_result(const cj_type *a, const cj_type *b);

/* ---- array_reduce.c ---- */
/* numba's result type (the element type for cumsum/cumprod) of reduction `id` (a cj_builtin,
 * np.sum ... np.count_nonzero) of an array of `dtype`. */
const cj_type *cj_reduce_result(int id, const cj_type *dtype);

#endif
