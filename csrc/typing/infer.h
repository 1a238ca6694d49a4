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
    CJ_CALL_DICT,        /* a dict method or builtin (dicts.c): builtin = cj_dict_op */
} cj_call_kind;

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
} cj_list_op;
/* Whether a CJ_CALL_LIST op is a method (its receiver bound by GETATTR). */
static inline int cj_list_op_is_method(int op) { return op <= CJ_LIST_DELITEM; }

typedef struct cj_call {
    cj_call_kind kind;
    int builtin;            /* cj_builtin id */
    const void *callee;     /* CJ_CALL_DISPATCHER: opaque handle from the env; OBJMODE: block */
    int nargs;              /* arguments after folding keywords and defaults */
    int *args;              /* variable per argument, or -1 where the default is used */
    PyObject **defaults;    /* borrowed default values (kept by the IR) where args[i] == -1 */
    const cj_type **argtypes;
    PyObject *exception;    /* CJ_CALL_EXCEPTION: the exception instance (kept by the IR) */
    int nin;                /* CJ_CALL_UFUNC: the inputs (args beyond them: out) */
    const cj_type *loop_in, *loop_out; /* CJ_CALL_UFUNC: the NumPy loop's types */
} cj_call;

/* array_expr.c: the operator a NumPy ufunc builtin is (np.add: CJ_I_BINOP with *sub CJ_ADD),
 * or -1 (np.logical_and, np.sqrt, ...). */
int cj_ufunc_operator(int id, int *sub);

typedef struct cj_typing_env cj_typing_env;
struct cj_typing_env {
    int target;                 /* CJ_TARGET_* */
    PyObject *self_dispatcher;  /* the dispatcher being compiled (for recursion), or NULL */
    /* For a callee that may be a jitted function: 1 if it is one (its return type in *ret and
     * a handle in *callee, valid as long as the env), 0 if it is not, -1 with an exception. */
    int (*resolve_dispatcher)(cj_typing_env *env, PyObject *callee, int nargs,
                              const cj_type *const *argtypes, const cj_type **ret,
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
