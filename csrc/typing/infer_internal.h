/* infer_internal.h: the inference context shared by infer.c, builtins.c and access.c. */
#ifndef CJ_INFER_INTERNAL_H
#define CJ_INFER_INTERNAL_H

#include "typing/builtins.h"
#include "typing/infer.h"

typedef struct cj_infer_ctx {
    cj_func_ir *ir;
    cj_typing_env *env;
    const cj_type *const *argtypes;
    int nargs;
    const cj_type *ret;     /* unified return type so far (NULL: none seen) */
    cj_instr **def;         /* per variable: its only defining instruction, or NULL */
    int changed;
    struct cj_worklist *work; /* infer.c's: what to re-type when a variable widens */
    int final;              /* typing what stayed untyped, for its error: no more waiting */
    int unpack_optional;    /* optional.c: cj_vt gives an Optional's value type */
    const cj_type *yield;   /* a generator's: unified type of its yields so far (NULL: none) */
} cj_infer_ctx;

/* Each typing function: 1 typed (*out set; NULL for no result), 0 operands not known yet,
 * -1 error with an exception set. */
int cj_type_call(cj_infer_ctx *c, cj_instr *in, const cj_type **out);
/* builtins.c: the call record of `in` (in the IR's arena) for `nargs` arguments, and one
 * whose arguments are the instruction's own (`builtin` the id); NULL with an exception. */
cj_call *cj_call_record(cj_infer_ctx *c, cj_instr *in, cj_call_kind kind, int nargs);
cj_call *cj_plain_call(cj_infer_ctx *c, cj_instr *in, cj_call_kind kind, int builtin);
/* jitted_calls.c: a call of `callee`, a jitted function whose Python function is `pyfunc`. */
int cj_type_dispatcher_call(cj_infer_ctx *c, cj_instr *in, PyObject *callee, PyObject *pyfunc,
                            const cj_type **out);
/* The same, with the passed arguments given: positional variables pos[0..npos), keyword
 * variables kw[0..nkw) named by the instruction's obj; with a `label`, a failure to compile
 * the callee is re-raised at this call naming it (an extension's implementation). */
int cj_type_jitted_call(cj_infer_ctx *c, cj_instr *in, PyObject *callee, PyObject *pyfunc,
                        const int *pos, int npos, const int *kw, int nkw, PyObject *label,
                        const cj_type **out);
/* extensions.c: cujit.extending's overloads. A call of an overloaded callee (1/0/-1, or 2
 * when it is none or no overload took these types); the error for one no overload took (2
 * when `obj` has none; 0 while a wider type may still come); an attribute the core does not
 * know of type `t` (a method becomes a bound type; an attribute a call of its
 * implementation, CJ_F_ATTR_CALL); a call of such a method (2 when the name has none). */
/* extension_calls.c: a call (or attribute) the low-level API types: `chosen` is the registry's
 * ("lowlevel", return type, argument types or None, lowering function, label). */
int cj_type_lowlevel_call(cj_infer_ctx *c, cj_instr *in, PyObject *chosen, const int *pos,
                          int npos, const cj_type **out);
int cj_type_extension_call(cj_infer_ctx *c, cj_instr *in, PyObject *obj, const cj_type **out);
int cj_extension_no_match(cj_infer_ctx *c, cj_instr *in, PyObject *obj);
int cj_type_extension_getattr(cj_infer_ctx *c, cj_instr *in, const cj_type *t,
                              const cj_type **out);
int cj_type_extension_method(cj_infer_ctx *c, cj_instr *in, const cj_type *bound,
                             const cj_type **out);
/* `obj.name = value` on an extension type `t` (lower_setattr, typed by its attribute
 * templates): a CJ_CALL_EXTENSION call record, CJ_F_ATTR_CALL (1/-1), or 2 when not one. */
int cj_type_extension_setattr(cj_infer_ctx *c, cj_instr *in, const cj_type *t);
/* The exception set now re-raised at the instruction's line, `prefix` (or NULL) before its
 * message, chained to it; cujit's errors keep their class, others become TypingError (-1). */
int cj_reraise_at(cj_infer_ctx *c, const cj_instr *in, PyObject *prefix);
/* A NumPy function implemented in Python (cujit.np.arraymath), on the CPU: typed as a call of
 * its jitted implementation (1 or -1), or 2 when `obj` is none of them. */
int cj_type_library_call(cj_infer_ctx *c, cj_instr *in, PyObject *obj, const cj_type **out);
/* A call of cujit.np.arraymath's jitted `name` ("module:name" another module's) with arguments vars[0..nargs) (a variable, or -1
 * for the constant consts[i], kept alive by the caller, passed as an omitted argument). */
int cj_type_library_helper_call(cj_infer_ctx *c, cj_instr *in, const char *name, int nargs,
                                const int *vars, PyObject *const *consts, const cj_type **out);
/* array_search.c: np.nonzero/a.nonzero() (receiver: the array), np.where(c), np.argwhere,
 * np.searchsorted. */
int cj_type_array_search(cj_infer_ctx *c, cj_instr *in, int id, const cj_type *receiver,
                         const cj_type **out);
int cj_search_method_by_name(const char *name); /* CJ_B_NP_NONZERO for "nonzero", or -1 */
/* array_new.c: np.empty/zeros/ones/full and their *_like forms. */
int cj_type_array_new(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out);
/* The rank of a shape argument: 1 for an int, n for a tuple of n ints, -1 for anything else. */
int cj_shape_rank(const cj_type *t);
/* array_random.c: np.random.seed ... np.random.permutation (cj_builtin_random). */
int cj_type_array_random(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out);
/* py_random.c: Python's random module, random.seed ... random.getrandbits
 * (cj_builtin_py_random). */
int cj_type_py_random(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out);
/* The dtype a compile-time object spells (np.float32, np.dtype('f4'), 'float32', float, a
 * cujit type), or NULL with no exception when it spells none. */
const cj_type *cj_dtype_of_object(PyObject *obj);
const cj_type *cj_dtype_of_var(cj_infer_ctx *c, int var); /* ... of a variable's constant */
/* array_create.c: np.arange/linspace/eye/identity/array/asarray. */
int cj_type_array_create(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out);
/* Positional and keyword arguments (in->args[first...]) into vars[0..nparams) by the
 * parameters' names; -1 where absent. -1 with a TypingError for unknown or repeated ones. */
int cj_fold_args(cj_infer_ctx *c, cj_instr *in, int first, const char *const *names,
                 int nparams, int *vars);
/* array_shape.c: a.reshape/ravel/flatten/view/item/conj and np.reshape/ravel/conj;
 * `receiver` as for reductions. */
int cj_type_array_shape(cj_infer_ctx *c, cj_instr *in, int id, const cj_type *receiver,
                        const cj_type **out);
int cj_shape_method_by_name(const char *name); /* the builtin id of a.<name>(), or -1 */
/* a.real / a.imag of an array type; NULL with a TypingError for bool arrays. */
const cj_type *cj_array_part_type(cj_infer_ctx *c, cj_instr *in, const cj_type *at);
/* array_methods.c: a.copy(), a.astype(t), a.fill(v), a.transpose(), np.copy, np.transpose;
 * `receiver` as for reductions. */
int cj_type_array_method(cj_infer_ctx *c, cj_instr *in, int id, const cj_type *receiver,
                         const cj_type **out);
int cj_array_method_by_name(const char *name); /* the builtin id of a.<name>(), or -1 */
const cj_type *cj_transposed(const cj_type *at); /* the type of a.T */
/* array_expr.c: an operator (BINOP, UNARY, COMPARE) with an array operand. */
int cj_type_array_op(cj_infer_ctx *c, cj_instr *in, const cj_type **out);
/* A NumPy ufunc builtin `id` called with an array operand: 1, 0 when `id` is no ufunc the
 * element loops take, -1 with an exception (array_expr.c). */
int cj_type_array_ufunc(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out);
/* array_fancy.c: a[mask], a[idx] and their assignments (idx an array type). */
int cj_type_fancy_getitem(cj_infer_ctx *c, cj_instr *in, const cj_type *t, const cj_type *idx,
                          const cj_type **out);
int cj_type_fancy_setitem(cj_infer_ctx *c, cj_instr *in, const cj_type *t, const cj_type *idx,
                          const cj_type *val);
/* array_sort.c: np.sort/np.argsort (receiver NULL), a.sort()/a.argsort(). */
int cj_sort_method_by_name(const char *name); /* CJ_B_NP_SORT / CJ_B_NP_ARGSORT, or -1 */
int cj_type_array_sort(cj_infer_ctx *c, cj_instr *in, int id, const cj_type *receiver,
                       const cj_type **out);
/* array_join.c: np.concatenate ... np.column_stack, np.atleast_1d/2d/3d (cj_builtin_joins). */
int cj_type_array_join(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out);
/* array_linalg.c: np.dot(a, b[, out]) (out_var -1 when absent), np.vdot (vdot), a @ b. */
int cj_type_array_dot(cj_infer_ctx *c, cj_instr *in, int vdot, int a_var, int b_var,
                      int out_var, const cj_type **out);
/* array_reduce.c: np.sum(a) / a.sum() and the other whole-array reductions; `receiver` is
 * the array for the method form, NULL for the function's. */
int cj_type_array_reduce(cj_infer_ctx *c, cj_instr *in, int id, const cj_type *receiver,
                         const cj_type **out);
int cj_reduction_by_name(const char *name); /* the builtin id of a.<name>(), or -1 */
/* objmode_typing.c: whether `obj` is a `with objmode()` block's callee, and its call. */
int cj_is_objmode_block(PyObject *obj);
int cj_type_objmode_call(cj_infer_ctx *c, cj_instr *in, PyObject *block, const cj_type **out);
int cj_type_print_call(cj_infer_ctx *c, cj_instr *in, const cj_type **out); /* CPU print() */
/* SomeError(args...), the exception a raise raises (try_except.c): made now from constant
 * arguments, or at run time (cj_type_raise_call). */
int cj_type_exception_call(cj_infer_ctx *c, cj_instr *in, PyObject *cls, const cj_type **out);
/* raise cls(args...) with run-time arguments (objmode_typing.c). */
int cj_type_raise_call(cj_infer_ctx *c, cj_instr *in, PyObject *cls, const cj_type **out);
/* cuda_strings.c: UnsupportedError for a string where CUDA code cannot have one; 0 else. */
int cj_cuda_reject_strings(cj_infer_ctx *c, cj_instr *in);
/* try_except.c: CJ_I_CATCH and CJ_I_EXC_MATCH */
int cj_type_try(cj_infer_ctx *c, cj_instr *in, const cj_type **out);
/* The binary operator (cj_binop) of operator.add/iadd/... */
int cj_binop_of_builtin(int id);
int cj_type_getattr(cj_infer_ctx *c, cj_instr *in, const cj_type **out);
int cj_type_getitem(cj_infer_ctx *c, cj_instr *in, const cj_type **out);
int cj_type_setitem(cj_infer_ctx *c, cj_instr *in);
/* iterators.c: iter(x); enumerate/zip/np.ndenumerate/np.ndindex (builtin `id`); a.flat. */
int cj_type_getiter(cj_infer_ctx *c, cj_instr *in, const cj_type **out);
int cj_type_iterator_call(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out);
int cj_type_is_flat(const cj_type *t);               /* an a.flat iterator */
const cj_type *cj_type_flat_of(const cj_type *at);   /* the type of a.flat */
int cj_type_flat_getitem(cj_infer_ctx *c, cj_instr *in, const cj_type *flat,
                         const cj_type *idx, const cj_type **out);
int cj_type_flat_setitem(cj_infer_ctx *c, cj_instr *in, const cj_type *flat,
                         const cj_type *idx, const cj_type *val);
int cj_type_static_item(cj_infer_ctx *c, cj_instr *in, const cj_type **out);
/* record_access.c: records' fields. A record, or an array of records. */
int cj_is_record_subject(const cj_type *t);
/* rec.name / a.name of a field (a TypingError naming the fields when there is none). */
int cj_type_record_getattr(cj_infer_ctx *c, cj_instr *in, const cj_type *t, const char *name,
                           const cj_type **out);
/* rec['x'] / a['x']; 2: not a field access (an ordinary index of an array of records). */
int cj_type_record_getitem(cj_infer_ctx *c, cj_instr *in, const cj_type *t,
                           const cj_type **out);
/* Whether arrays of records have attribute `name` (besides their fields). */
int cj_record_array_attr_ok(const char *name);
/* -1 with a TypingError when `in` computes with records (operators, calls other than jitted
 * functions and len/enumerate/zip/np.ndenumerate), else 0. */
int cj_record_operands_check(cj_infer_ctx *c, cj_instr *in);
/* -1 with an UnsupportedError when `in` (a RETURN of type t) may return a record whose bytes
 * are in an array the function made (records hold no reference), else 0. */
int cj_record_return_check(cj_infer_ctx *c, cj_instr *in, const cj_type *t);
/* rec['x'] = v / rec.x = v; 2: not a field assignment. */
int cj_type_record_setitem(cj_infer_ctx *c, cj_instr *in, const cj_type *t,
                           const cj_type *val);

/* infer.c: unifies `t` into variable `var` (widening it); TypingError when they cannot. */
int cj_assign(cj_infer_ctx *c, cj_instr *in, int var, const cj_type *t);
/* lists.c: a list literal (BUILD_TUPLE or LIST_EXTEND's COPY flagged CJ_F_LIST): 1 typed as
 * a list, 2 when np.array()/np.asarray() or a join reads it (a tuple, as before), 0 wait, -1
 * error. For the COPY, *out comes in as the folded tuple's type. */
int cj_type_list_literal(cj_infer_ctx *c, cj_instr *in, const cj_type **out);
/* lists.c: l.append(x) ... l.pop(i) (`bound` the method's type). */
int cj_type_list_method(cj_infer_ctx *c, cj_instr *in, const cj_type *bound,
                        const cj_type **out);
int cj_type_list_getitem(cj_infer_ctx *c, cj_instr *in, const cj_type *t, const cj_type *idx,
                         const cj_type **out);
int cj_type_list_setitem(cj_infer_ctx *c, cj_instr *in, const cj_type *t, const cj_type *idx,
                         const cj_type *val);
/* lists.c: list(), list(it), sorted(it), and sum/min/max of a list (builtin `id`): 1, 0,
 * -1, or 2 when the arguments are not those (the caller types them). */
int cj_type_list_builtin(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out);
/* starargs.c: a call of a jitted function with *args: its last parameter (call->nargs, past
 * the named ones) the tuple of the `n` positional arguments pos[0..n) past the named ones
 * (CJ_ARG_PACKED, the variables after it); call->nargs counts it. 0, or -1. */
int cj_pack_star_arguments(cj_infer_ctx *c, cj_call *call, const int *pos, int n,
                           const cj_type *star);
/* The type of a call's argument slot v: a variable's, or item k of `star` (the tuple of a
 * g(*t) call) for CJ_ARG_STAR_ITEM(k). */
const cj_type *cj_call_slot_type(cj_infer_ctx *c, int v, const cj_type *star);
/* starargs.c: g(*t) (a CALL flagged CJ_F_STAR_CALL) of a jitted function. */
int cj_type_star_call(cj_infer_ctx *c, cj_instr *in, const cj_type **out);
/* jitted_calls.c: the call of jitted `callee` with the items of tuple type `star` as its
 * positional arguments. */
int cj_type_jitted_star_call(cj_infer_ctx *c, cj_instr *in, PyObject *callee, PyObject *pyfunc,
                             const cj_type *star, const cj_type **out);
/* literal_unroll.c: a call of `obj` when it is cujit.literal_unroll (1 or -1), else 2. */
int cj_type_literal_unroll(cj_infer_ctx *c, cj_instr *in, PyObject *obj, const cj_type **out);
/* sort_key.c: sorted(it, key=f, reverse=r), l.sort(key=f, reverse=r) (`list` the receiver's
 * variable, the call typed None) and min/max(it, key=f), as calls of cujit.cpython.listobj;
 * whether a key (a variable, -1 when not passed) is given, not None. */
int cj_sort_key_given(cj_infer_ctx *c, int key);
int cj_type_sorted_key(cj_infer_ctx *c, cj_instr *in, int iterable, int key, int reverse,
                       const cj_type **out);
int cj_type_list_sort_key(cj_infer_ctx *c, cj_instr *in, int list, int key, int reverse);
int cj_type_minmax_key(cj_infer_ctx *c, cj_instr *in, int is_max, const cj_type **out);
/* sorted(it) and l.sort() of items the C sort does not take (tuples, strings): compiled
 * cujit/cpython/listobj.py, comparing with `<`. */
int cj_type_sorted_items(cj_infer_ctx *c, cj_instr *in, int iterable, int reverse,
                         const cj_type **out);
int cj_type_list_sort_items(cj_infer_ctx *c, cj_instr *in, int list, int reverse);
/* lists.c: `x in l` / `x not in l`. */
int cj_type_list_contains(cj_infer_ctx *c, cj_instr *in, const cj_type *x, const cj_type *lt,
                          const cj_type **out);
/* lists.c: a call of cujit.typed.List or List.empty_list (ListType lists made in compiled
 * code): 1, 0, -1, or 2 when `obj` is neither. */
int cj_type_typed_list_call(cj_infer_ctx *c, cj_instr *in, PyObject *obj, const cj_type **out);
/* strings.c: an instruction on strings: 1, 0, -1, or 2 when it is none (infer.c types it). */
int cj_type_str_instr(cj_infer_ctx *c, cj_instr *in, const cj_type **out);
/* list_ops.c: a list operator (+ * += *= comparisons): 1, 0, -1, or 2 when it is none. */
int cj_type_list_operator(cj_infer_ctx *c, cj_instr *in, const cj_type **out);
/* range_ops.c: `x in r`, `x not in r`, `r[i]` of a range, as calls of jitted helpers; 2 when
 * the instruction is none of them */
int cj_type_range_op(cj_infer_ctx *c, cj_instr *in, const cj_type **out);
/* slices.c: a BUILD_SLICE, and slice(...) called (it becomes one) */
int cj_type_build_slice(cj_infer_ctx *c, cj_instr *in, const cj_type **out);
int cj_type_slice_call(cj_infer_ctx *c, cj_instr *in, const cj_type **out);
/* getattr_builtin.c: getattr(x, "name"[, default]) and hasattr(x, "name") (is_has) */
int cj_type_getattr_builtin(cj_infer_ctx *c, cj_instr *in, int is_has, const cj_type **out);
/* type_builtin.c: type(x) of a number, its class */
int cj_type_type_builtin(cj_infer_ctx *c, cj_instr *in, const cj_type **out);
/* lists.c: numba's "Cannot infer the type of variable" for a list (or dict) never refined. */
int cj_check_list_types(cj_infer_ctx *c);
/* lists.c: variable `var` and those it was copied from take the refined container type `t`
 * (an empty list's first append, an empty dict's first d[k] = v); -1 with an error. */
int cj_refine_var(cj_infer_ctx *c, cj_instr *in, int var, const cj_type *t, int depth);
/* 1: `t` is a container still waiting for its refinement (list(undefined), an empty dict's
 * DictType[undefined,undefined], set(undefined)); what stores it waits too. */
int cj_type_is_unrefined(const cj_type *t);
/* lists.c: the receiver variable of a method call (the GETATTR that bound it), or -1. */
int cj_method_receiver(cj_infer_ctx *c, const cj_instr *in);
/* ---- dicts.c: dicts (numba's typed dict), each as its lists.c counterpart ---- */
/* numba's _sentry_safe_cast: whether a value of `from` may be stored where `to` is kept. */
int cj_casts_safely(const cj_type *from, const cj_type *to);
int cj_type_is_hashable(const cj_type *t); /* bool, ints, floats, complex, tuples of them */
int cj_type_dict_display(cj_infer_ctx *c, cj_instr *in, const cj_type **out);
int cj_type_dict_getitem(cj_infer_ctx *c, cj_instr *in, const cj_type *t, const cj_type *key,
                         const cj_type **out);
int cj_type_dict_setitem(cj_infer_ctx *c, cj_instr *in, const cj_type *t, const cj_type *key,
                         const cj_type *val);
int cj_type_dict_contains(cj_infer_ctx *c, cj_instr *in, const cj_type *key, const cj_type *t,
                          const cj_type **out);
int cj_type_dict_method(cj_infer_ctx *c, cj_instr *in, const cj_type *bound,
                        const cj_type **out);
/* Dict.empty(key_type, value_type) and Dict() in compiled code: 1, -1, or 2 (`obj` neither). */
int cj_type_typed_dict_call(cj_infer_ctx *c, cj_instr *in, PyObject *obj, const cj_type **out);
/* dict(), dict(d), hash(x), len(d): 1, 0, -1, or 2 (len of something else). */
int cj_type_dict_builtin(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out);
/* ---- enums.c: enum.Enum members known at compile time ---- */
int cj_is_enum_member(PyObject *obj); /* isinstance(obj, enum.Enum) */
/* ==, !=, is, is not of two members: the instruction made a constant bool (1); 2: not two
 * members; -1 with an exception. */
int cj_type_enum_compare(cj_infer_ctx *c, cj_instr *in, const cj_type *a, const cj_type *b,
                         const cj_type **out);
/* ---- cpointer.c: C pointers (numba's CPointer) and cffi's ffi.from_buffer ---- */
/* Whether `obj` is a cffi FFI instance (cffi.FFI, or a compiled module's ffi). */
int cj_is_ffi_instance(PyObject *obj);
/* ffi.<name> (`t` the ffi's object type), p[i], p[i] = v, ffi.from_buffer(a): as lists.c's. */
int cj_type_ffi_getattr(cj_infer_ctx *c, cj_instr *in, const cj_type *t, const char *name,
                        const cj_type **out);
int cj_type_cpointer_getitem(cj_infer_ctx *c, cj_instr *in, const cj_type *t,
                             const cj_type *idx, const cj_type **out);
int cj_type_cpointer_setitem(cj_infer_ctx *c, cj_instr *in, const cj_type *t,
                             const cj_type *idx, const cj_type *val);
int cj_type_ffi_method(cj_infer_ctx *c, cj_instr *in, const cj_type *bound,
                       const cj_type **out);
/* ---- sets.c: sets (numba's set type), each as its dicts.c counterpart ---- */
int cj_type_set_display(cj_infer_ctx *c, cj_instr *in, const cj_type **out);
int cj_type_set_method(cj_infer_ctx *c, cj_instr *in, const cj_type *bound,
                       const cj_type **out);
/* set(), set(iterable), len(s), sum(s), min(s), max(s), bool(s): 1, 0 or -1. */
int cj_type_set_builtin(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out);
/* A BINOP (| & - ^, in place too) or COMPARE (in, ==, <=, ...) with a set operand. */
int cj_type_set_op(cj_infer_ctx *c, cj_instr *in, const cj_type *a, const cj_type *b,
                   const cj_type **out);

/* generators.c: a yield (1/0/-1, *out None), a return in a generator (its value must be
 * None), and the type of a generator function's call when typing ends (in *ret). */
int cj_type_yield(cj_infer_ctx *c, cj_instr *in, const cj_type **out);
int cj_type_generator_return(cj_infer_ctx *c, cj_instr *in);
int cj_generator_result(cj_infer_ctx *c, const cj_type **ret);
/* next(g), sum(g), min(g), max(g) of a generator g: 1/0/-1, or 2 when g is not one. */
int cj_type_generator_call(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out);
/* A returned value of type t holding a generator expression (which reads this function's
 * iterator in place) is an UnsupportedError: 0, or -1. */
int cj_generator_return_check(cj_infer_ctx *c, cj_instr *in, const cj_type *t);

static inline const cj_type *cj_vt(cj_infer_ctx *c, int var) {
    const cj_type *t = CJ_VAR(c->ir, var)->type;
    return c->unpack_optional && t != NULL && t->kind == CJ_OPTIONAL ? t->dtype : t;
}
/* ---- tuples.c: t[a:b:c] by constants; sum(t), min/max of tuples (2: not a tuple's) ---- */
int cj_type_tuple_slice(cj_infer_ctx *c, cj_instr *in, const cj_type *t, const cj_type **out);
int cj_type_tuple_builtin(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out);
int cj_type_tuple_method(cj_infer_ctx *c, cj_instr *in, const cj_type *bound,
                         const cj_type **out);
int cj_type_tuple_compare(cj_infer_ctx *c, cj_instr *in, const cj_type *a, const cj_type *b,
                          const cj_type **out);
/* ---- optional.c: uses of OptionalType values ---- */
/* Whether `in` is typed with its Optional operands unpacked (then flagged CJ_F_OPT_UNPACK). */
int cj_optional_unpacks(cj_infer_ctx *c, cj_instr *in);
/* After typing: each unpacked operand read through a checked copy of its value; -1 + exc. */
int cj_optional_unpack_pass(cj_infer_ctx *c);
/* ---- isinstance.c: isinstance(x, classes), decided at compile time ---- */
int cj_type_isinstance(cj_infer_ctx *c, cj_instr *in, const cj_type **out);
/* The compile-time truth of a call (isinstance's answer), or 2 when it has none. */
int cj_call_known(const cj_instr *in);
/* The constant a variable was set to (borrowed), or NULL if it is not a constant temporary. */
PyObject *cj_const_of(cj_infer_ctx *c, int var);
/* numba's "No implementation of function Function(fname) found for signature" (-1). */
int cj_no_match(cj_infer_ctx *c, cj_instr *in, const char *fname);
/* numba's "Invalid use of `what` with argument(s) of type(s): ..." (-1). */
int cj_invalid_use(cj_infer_ctx *c, cj_instr *in, const char *what);
/* TypingError at the instruction's line; returns -1. */
int cj_typing_error(cj_infer_ctx *c, const cj_instr *in, const char *fmt, ...);
int cj_unsupported_error(cj_infer_ctx *c, const cj_instr *in, const char *fmt, ...);
/* "(t1, t2, ...)" of the instruction's argument types from `first` on (new reference). */
PyObject *cj_argtypes_text(cj_infer_ctx *c, const cj_instr *in, int first);
/* The type of a Python constant, NULL with an exception if it has none. */
const cj_type *cj_const_type(PyObject *value);
int cj_const_type_at(cj_infer_ctx *c, const cj_instr *in, PyObject *value, const cj_type **out);

/* ---- worklist.c: what to type again (infer.c's rounds) ---- */
/* Instructions are numbered by position (blocks in order, then their instructions); a round
 * takes them in that order from `now`; one queued at or before the current position waits
 * in `next` for the following round, as a whole round would have reached it only then. */
typedef struct cj_worklist {
    int ninstrs;
    cj_instr **instr;   /* by position */
    int *block_of;      /* by position */
    int *first;         /* per block: its first position (first[nblocks] = ninstrs) */
    int *use_start;     /* per variable: its readers are uses[use_start[v]..use_start[v+1]) */
    int *uses;
    char *is_cond;      /* per variable: read by a branch (its knowledge moves reachability) */
    int *calls, ncalls; /* CALLs: a call of this very compilation reads the return type */
    char *queued;       /* per position: in `now` or `next` */
    char *typed;        /* per position: its last typing was complete */
    int *now, nnow, *next, nnext;
    int cur;            /* the position being typed; -1 between rounds */
    int reach_dirty;    /* a branch's knowledge or reachability changed since the last walk */
    char *seen;         /* per block, for the walk from the entry */
    int *stack;
} cj_worklist;

/* Positions, readers and heaps for c->ir; -1 with an exception. */
int cj_work_build(cj_infer_ctx *c, cj_worklist *w);
/* `var` widened (its type, or its compile-time truth when `known`): queues its readers;
 * -1: the return type widened (queues the calls). */
void cj_work_widened(cj_infer_ctx *c, int var, int known);
/* Marks block `b` reachable and queues its instructions. */
void cj_work_open_block(cj_infer_ctx *c, int b);
/* The list literal defining `var` (if it is one) is queued again: it waits for a reader's
 * callee to be typed (lists.c), which a literal's readers do not otherwise wake. */
void cj_work_wake_literal(cj_infer_ctx *c, int var);
/* The smallest position of this round (w->nnow > 0). */
int cj_work_pop(cj_worklist *w);
/* The first instruction, in block order, of a reachable block whose last typing was not
 * complete; NULL if none. */
cj_instr *cj_work_first_untyped(cj_infer_ctx *c);

#endif
