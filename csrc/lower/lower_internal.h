/* lower_internal.h: the lowering context and the helpers the lower_*.c files share. */
#ifndef CJ_LOWER_INTERNAL_H
#define CJ_LOWER_INTERNAL_H

#include "lower/lower.h"
#include "typing/builtins.h"

/* types/builtins.c: the binary operator of operator.add/iadd/... */
int cj_binop_of_builtin(int id);

typedef struct cj_lower {
    cj_func_ir *ir;
    cj_lower_env *env;
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
    LLVMValueRef fn;
    LLVMValueRef ret_ptr;
    LLVMBasicBlockRef alloca_bb;  /* allocas go here, so loops do not grow the stack */
    LLVMBasicBlockRef *blocks;    /* per IR block */
    LLVMValueRef *slots;          /* per variable: its alloca */
    const cj_type *ret_type;
    const cj_type *const *argtypes;
    cj_instr **fused;             /* per variable: the array operator computed inside its
                                   * reader's loop that defines it, or NULL (lower_array_fuse.c) */
    int owns_refs;                /* arrays held (CPU; variables, lowerings): returns via exit_bb */
    LLVMBasicBlockRef exit_bb;    /* lower_refs.c: drops the variables' references, returns */
    LLVMValueRef exit_status;     /* its phi of the status to return */
    cj_vec held;                  /* cj_held: hidden owners (an iterator's array), lower_refs.c */
    unsigned char *ref_plan;      /* per variable: cj_refs_plan (lower_refs_plan.c) */
    struct cj_pranges *pranges;   /* parallel loops to outline (lower_prange.c), or NULL */
    int in_try;                   /* the IR block lowered now has an exception handler (0 in
                                   * functions made without blocks: zero-initialised) */
    int handler;                  /* ... that block, when in_try */
    LLVMValueRef caught_status;   /* lower_try.c: the status a handler catches, or NULL */
    struct cj_gen_lower *gen;     /* lowering a generator's body (lower_generator.c), or NULL */
} cj_lower;

/* How a variable holding arrays counts references (lower_refs_plan.c). */
enum cj_refs_plan { CJ_REFS_OWNED, CJ_REFS_BORROWED, CJ_REFS_MOVED };
/* Fills L->ref_plan; -1 with an exception. */
int cj_plan_refs(cj_lower *L);

/* ---- lower.c ---- */
/* L->fn's body from the IR (L->fn, ret_ptr, env set): slots, blocks, the exit; -1 + exc. */
int cj_lower_body(cj_lower *L);
void cj_make_var_slot(cj_lower *L, int v); /* L->slots[v]: an entry alloca, zero when read early */
int cj_lower_block(cj_lower *L, int i);    /* IR block i into L->blocks[i] */
void cj_mark_function(cj_lower *L);        /* L->fn's attributes from the env (fastmath) */
void cj_seal_empty_blocks(cj_lower *L);    /* left-over empty blocks get `unreachable` */
LLVMValueRef cj_load_var(cj_lower *L, int var);               /* in the variable's type */
int cj_store_var(cj_lower *L, int var, LLVMValueRef v, const cj_type *from);
/* The same for a value whose references the variable takes over (a call's new array). */
int cj_store_var_taking(cj_lower *L, int var, LLVMValueRef v, const cj_type *from);
LLVMValueRef cj_entry_alloca(cj_lower *L, LLVMTypeRef t, const char *name);
/* Returns `id` from the function (raises exception #id); leaves the builder in a fresh,
 * unreachable block so callers can go on emitting. */
void cj_emit_raise(cj_lower *L, int id);
/* if (cond) raise #id */
void cj_emit_raise_if(cj_lower *L, LLVMValueRef cond, int id);
/* if (cond) raise type(text) (type() when text is NULL): an exception registered by its words
 * (excinfo.c) and kept with the function's (cj_exc_id); -1 with an exception. */
int cj_emit_raise_text_if(cj_lower *L, LLVMValueRef cond, PyObject *type, const char *text);
/* Raises `status`: to the current block's exception handler, else returns it (lower_try.c). */
void cj_emit_fail(cj_lower *L, LLVMValueRef status);
/* lower_try.c: CJ_I_CATCH and CJ_I_EXC_MATCH */
int cj_lower_try(cj_lower *L, cj_instr *in);
/* Propagates a callee's status: if (status != 0) return status. */
void cj_emit_check_status(cj_lower *L, LLVMValueRef status);
LLVMValueRef cj_const_value(cj_lower *L, PyObject *obj, const cj_type *t); /* NULL + exc */
LLVMBasicBlockRef cj_new_bb(cj_lower *L, const char *name);

/* ---- lower_generator.c: generator functions (abi/generator.h) ---- */
LLVMValueRef cj_lower_generator(cj_func_ir *ir, const cj_type *const *argtypes, int nargs,
                                const cj_type *ret, LLVMModuleRef module, const char *name,
                                cj_lower_env *env);
LLVMValueRef cj_gen_frame_slot(cj_lower *L, LLVMTypeRef t, const char *name);
LLVMValueRef cj_gen_load_arg(cj_lower *L, int i);
int cj_gen_enter(cj_lower *L);
int cj_gen_lower_yield(cj_lower *L, cj_instr *in);
void cj_gen_lower_return(cj_lower *L);
/* The frame of generator value `mi` and a call of its next into `out` (its status). */
LLVMValueRef cj_gen_call_next(cj_lower *L, LLVMValueRef mi, LLVMValueRef out);
/* next(g), sum(g), min(g), max(g) of a generator (CJ_CALL_GENERATOR): the value. */
LLVMValueRef cj_gen_lower_call(cj_lower *L, cj_instr *in, const cj_call *call);
/* next(iterator over a generator): the value, *ok whether it yielded one (lower_iter.c). */
LLVMValueRef cj_gen_iter_next(cj_lower *L, LLVMValueRef state, const cj_type *it,
                              LLVMValueRef *ok);

/* ---- lower_refs.c: references to compiled code's allocations (CPU) ---- */
/* `slot` (dominating every exit) owns a reference of type t that the exit drops. */
int cj_hold_slot(cj_lower *L, LLVMValueRef slot, const cj_type *t);
int cj_counts_refs(cj_lower *L, const cj_type *t); /* ... and the target counts them */
void cj_incref(cj_lower *L, LLVMValueRef v, const cj_type *t);
void cj_decref(cj_lower *L, LLVMValueRef v, const cj_type *t);
/* `ret status`, by the exit block when variables hold references. */
void cj_emit_return(cj_lower *L, LLVMValueRef status);
void cj_finish_exit(cj_lower *L); /* fills the exit block, after every block is lowered */
/* Keeps `v` alive until the function returns or this site runs again (an iterator's array,
 * which the loop's body may drop from its variable). -1 with an exception. */
int cj_hold(cj_lower *L, LLVMValueRef v, const cj_type *t);
/* A run-time function (abi.h) declared in the module by name. */
LLVMValueRef cj_runtime_fn(cj_lower *L, const char *name, LLVMTypeRef ret,
                           LLVMTypeRef *params, unsigned nparams);

/* ---- lower_list.c: lists (typing/lists.c), a cj_meminfo * to an abi.h cj_list ---- */
LLVMValueRef cj_list_len(cj_lower *L, LLVMValueRef list);
/* Item `i` (an in-range int64) of a list of type `lt`: a pointer to its LLVM type. */
LLVMValueRef cj_list_item_ptr(cj_lower *L, LLVMValueRef list, const cj_type *lt,
                              LLVMValueRef i);
/* A list literal: BUILD_TUPLE, or LIST_EXTEND's COPY of a folded tuple (CJ_F_LIST). */
int cj_lower_list_build(cj_lower *L, cj_instr *in);
int cj_lower_list_getitem(cj_lower *L, cj_instr *in);
int cj_lower_list_setitem(cj_lower *L, cj_instr *in);
/* lower_cpointer.c: p[i] and p[i] = v of a C pointer (typing/cpointer.c). */
int cj_lower_cpointer_getitem(cj_lower *L, cj_instr *in);
int cj_lower_cpointer_setitem(cj_lower *L, cj_instr *in);
/* A CJ_CALL_LIST call (a method or a builtin of a list). */
LLVMValueRef cj_lower_list_call(cj_lower *L, cj_instr *in, const cj_call *call);
/* An empty list of type `lt` with room for nothing yet, holding its one reference. */
LLVMValueRef cj_list_new_empty(cj_lower *L, const cj_type *lt);
/* Stores `v` (of type `from`, cast) as item `i`, which then holds its own reference. */
void cj_list_put_item(cj_lower *L, LLVMValueRef list, const cj_type *lt, LLVMValueRef i,
                      LLVMValueRef v, const cj_type *from);
/* Room for `extra` more items (abi/list.c); MemoryError when there is none. */
void cj_list_reserve_more(cj_lower *L, LLVMValueRef list, LLVMValueRef extra);
/* Appends `v` (of type `from`): MemoryError when there is no room. */
void cj_list_append(cj_lower *L, LLVMValueRef list, const cj_type *lt, LLVMValueRef v,
                    const cj_type *from);
/* The index, from the end when negative; IndexError(text) when out of [0, len). */
LLVMValueRef cj_list_checked_index(cj_lower *L, LLVMValueRef idx, const cj_type *it,
                                   LLVMValueRef len, const char *text);
void cj_list_set_len(cj_lower *L, LLVMValueRef list, LLVMValueRef n);
/* lower_list_ops.c: the methods and builtins beyond append/pop, `in` and slices. */
LLVMValueRef cj_lower_list_op(cj_lower *L, cj_instr *in, const cj_call *call,
                              LLVMValueRef list, const cj_type *lt);
LLVMValueRef cj_lower_list_contains(cj_lower *L, cj_instr *in);
LLVMValueRef cj_list_slice(cj_lower *L, LLVMValueRef list, const cj_type *lt, LLVMValueRef sl);
/* lower_list_concat.c: an instruction typing/list_ops.c flagged CJ_F_LIST_OP. */
int cj_lower_list_operator(cj_lower *L, cj_instr *in);
/* l1 <op> l2 of two list values (items by cj_lower_compare, then the lengths). */
LLVMValueRef cj_list_compare(cj_lower *L, int op, LLVMValueRef a, const cj_type *at,
                             LLVMValueRef b, const cj_type *bt);
/* lower_list_slice.c: list[sl] = src (a list of the same item type; -1 with an exception)
 * and del list[sl], for a slice value sl. */
int cj_list_assign_slice_lower(cj_lower *L, LLVMValueRef list, LLVMValueRef sl,
                               LLVMValueRef src);
void cj_list_delete_slice_lower(cj_lower *L, LLVMValueRef list, LLVMValueRef sl);

/* ---- lower_str.c, lower_str_ops.c: strings (typing/strings.c), a cj_meminfo * to a cj_str ---- */
LLVMValueRef cj_str_literal(cj_lower *L, PyObject *s); /* a str constant: an immortal global */
LLVMValueRef cj_str_len(cj_lower *L, LLVMValueRef s);
/* abi/unicode.c's `name`(args) returning `ret`; _new: a new string or list (MemoryError when
 * NULL). */
LLVMValueRef cj_str_call(cj_lower *L, const char *name, LLVMTypeRef ret, LLVMValueRef *args,
                         unsigned n);
LLVMValueRef cj_str_call_new(cj_lower *L, const char *name, LLVMValueRef *args, unsigned n);
/* A CJ_CALL_STR record's string operand i (NULL when omitted) and int operand (`absent` when
 * omitted), as a string and an i64. */
LLVMValueRef cj_str_arg(cj_lower *L, const cj_call *call, int i);
LLVMValueRef cj_str_arg_int(cj_lower *L, const cj_call *call, int i, long long absent);
/* lower_str_methods.c: the methods beyond lower_str_ops.c's (case mappings, padding, index,
 * partition, rsplit, splitlines, expandtabs) and list(s); *fresh 1 (a new value). */
LLVMValueRef cj_str_method_more(cj_lower *L, const cj_call *call, int *fresh);
/* a <op> b (CJ_EQ ... CJ_GE) as an i1, and hash(s) as an i64: the one equality, order and
 * hash of strings (abi/unicode.c's), for a dict's keys too. */
LLVMValueRef cj_str_compare_lower(cj_lower *L, int op, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef cj_str_hash_value(cj_lower *L, LLVMValueRef s);
LLVMValueRef cj_str_getitem_lower(cj_lower *L, cj_instr *in, LLVMValueRef s); /* new */
LLVMValueRef cj_str_from_lower(cj_lower *L, int var, int *fresh); /* str(x) */
LLVMValueRef cj_str_ord_chr(cj_lower *L, int op, int var); /* CJ_STR_ORD / CJ_STR_CHR */
LLVMValueRef cj_str_iter_next(cj_lower *L, LLVMValueRef state, const cj_type *it,
                              LLVMValueRef *ok);
int cj_lower_str_instr(cj_lower *L, cj_instr *in); /* a CJ_F_STR instruction */
/* ---- lower_dict.c, lower_dict_ops.c: dicts (typing/dicts.c), a cj_meminfo * to a cj_dict ---- */
/* A call of run-time function `name` (abi/dict.h), declared on first use. */
LLVMValueRef cj_dict_call_rt(cj_lower *L, const char *name, LLVMTypeRef ret,
                             LLVMTypeRef *params, LLVMValueRef *args, unsigned n);
LLVMValueRef cj_dict_len_value(cj_lower *L, LLVMValueRef d); /* len(d), an int64 */
/* The dict of a dict value or of a view's iterator state `v` of type `t`; *dt its type. */
LLVMValueRef cj_dict_or_view(cj_lower *L, LLVMValueRef v, const cj_type *t,
                             const cj_type **dt);
/* hash.c's code of a key type: a constant int32 array; NULL with UnsupportedError. */
LLVMValueRef cj_key_code_const(cj_lower *L, const cj_type *key);
/* An empty dict (or set, abi/set.h) of type `dt` holding its one reference; MemoryError when
 * there is none. */
LLVMValueRef cj_dict_new_empty(cj_lower *L, const cj_type *dt);
/* The value of type `t` at i8 * `p`. */
LLVMValueRef cj_dict_load(cj_lower *L, LLVMValueRef p, const cj_type *t);
/* An i8 * to the value of key `k` (of type `kt`, cast), or null when it is missing. */
LLVMValueRef cj_dict_lookup_ptr(cj_lower *L, LLVMValueRef d, const cj_type *dt, LLVMValueRef k,
                                const cj_type *kt);
/* d[k] = v, casting both; the dict takes a reference to what v holds. */
void cj_emit_dict_insert(cj_lower *L, LLVMValueRef d, const cj_type *dt, LLVMValueRef k,
                    const cj_type *kt, LLVMValueRef v, const cj_type *vt);
int cj_lower_dict_build(cj_lower *L, cj_instr *in); /* a display (CJ_F_DICT) */
int cj_lower_dict_getitem(cj_lower *L, cj_instr *in);
int cj_lower_dict_setitem(cj_lower *L, cj_instr *in);
LLVMValueRef cj_lower_dict_contains(cj_lower *L, cj_instr *in);
int cj_dict_iter_init(cj_lower *L, LLVMValueRef state, LLVMValueRef d, const cj_type *dt);
LLVMValueRef cj_dict_iter_next(cj_lower *L, LLVMValueRef state, const cj_type *it,
                               LLVMValueRef *ok);
LLVMValueRef cj_lower_dict_call(cj_lower *L, cj_instr *in, const cj_call *call);
int cj_dict_op_hands_over(int op); /* the call's result is the caller's (a cj_dict_op) */

/* ---- lower_set.c: sets (typing/sets.c), a cj_meminfo * to a cj_dict of no values ---- */
int cj_lower_set_build(cj_lower *L, cj_instr *in); /* a display (CJ_F_SET) */
LLVMValueRef cj_lower_set_call(cj_lower *L, cj_instr *in, const cj_call *call);
int cj_set_op_hands_over(int op); /* the call's result is the caller's (a cj_set_op) */
/* A BINOP or COMPARE with a set operand (typing/sets.c's cj_type_set_op), result stored. */
int cj_lower_set_op(cj_lower *L, cj_instr *in);

/* ---- lower_types.c ---- */
/* lower_extension.c: a CJ_CALL_EXTENSION call, by the user's lowering function. */
LLVMValueRef cj_lower_extension_call(cj_lower *L, cj_instr *in, const cj_call *call);
/* Whether `ir` runs a low-level extension's lowering (a CJ_CALL_EXTENSION call). */
int cj_lowers_extensions(const cj_func_ir *ir);
/* ... and `obj.attr = v` of an extension type, by its lower_setattr (0/-1). */
int cj_lower_extension_setattr(cj_lower *L, cj_instr *in);
/* ... and a global of an extension type, by its lower_constant. */
LLVMValueRef cj_lower_extension_constant(cj_lower *L, cj_instr *in);
/* ... and a conversion from or to an extension type, by its lower_cast. */
LLVMValueRef cj_lower_extension_cast(cj_lower *L, LLVMValueRef v, const cj_type *from,
                                     const cj_type *to);
LLVMValueRef cj_cast(cj_lower *L, LLVMValueRef v, const cj_type *from, const cj_type *to);
/* lower_optional.c: casts from and to an OptionalType (numba's: a None where a value is
 * needed raises TypeError('expected T, got None')), and `x is None` of an Optional x. */
LLVMValueRef cj_cast_optional(cj_lower *L, LLVMValueRef v, const cj_type *from,
                              const cj_type *to);
LLVMValueRef cj_optional_is_none(cj_lower *L, int op, LLVMValueRef a, const cj_type *at,
                                 LLVMValueRef b, const cj_type *bt);
/* A float to an int type as Python's int(), round(), math.floor/ceil/trunc: under
 * error_model='python' NaN is a ValueError, inf and out of range an OverflowError (CPython's
 * texts); under 'numpy' it saturates (NaN is 0), as every other float-to-int cast (cj_cast). */
LLVMValueRef cj_float_to_int_checked(cj_lower *L, LLVMValueRef v, const cj_type *to);
LLVMValueRef cj_truth(cj_lower *L, LLVMValueRef v, const cj_type *t);
LLVMTypeRef cj_elem_type(LLVMContextRef ctx, const cj_type *dtype); /* in memory (bool: i8) */
LLVMTypeRef cj_iter_state_type(LLVMContextRef ctx, const cj_type *it);
LLVMValueRef cj_i64(cj_lower *L, long long v);
LLVMValueRef cj_empty(cj_lower *L); /* the value of a type without data */

/* ---- lower_tuple.c: t[a:b:c] by constants, x in t, sum(t) (typing/tuples.c) ---- */
LLVMValueRef cj_lower_tuple_slice(cj_lower *L, const cj_instr *in);
LLVMValueRef cj_lower_tuple_contains(cj_lower *L, const cj_instr *in);
LLVMValueRef cj_lower_tuple_index(cj_lower *L, const cj_call *call, LLVMValueRef tup,
                                  const cj_type *tt);
/* lower_slice.c: s.start, s.stop, s.step of a slice value (numba's defaults for None). */
LLVMValueRef cj_lower_slice_attr(cj_lower *L, LLVMValueRef slice, const char *name);
LLVMValueRef cj_lower_tuple_sum(cj_lower *L, const cj_instr *in, const cj_call *call);

/* ---- lower_num.c ---- */
LLVMValueRef cj_lower_binop(cj_lower *L, int op, LLVMValueRef a, const cj_type *at,
                            LLVMValueRef b, const cj_type *bt, const cj_type *optype,
                            const cj_type *rtype);
LLVMValueRef cj_lower_unary(cj_lower *L, int op, LLVMValueRef a, const cj_type *at,
                            const cj_type *rtype);
/* a <op> b by the one comparison of each type (rules.c's cj_rule_compare let it through):
 * numbers in `optype` (NULL: the rule's), strings, lists and tuples item by item. */
LLVMValueRef cj_lower_compare(cj_lower *L, int op, LLVMValueRef a, const cj_type *at,
                              LLVMValueRef b, const cj_type *bt, const cj_type *optype);
/* A call to the target's math function `cname` (sin, atan2...) in float type `t`. */
LLVMValueRef cj_math_call(cj_lower *L, const char *cname, const cj_type *t, int nargs,
                          LLVMValueRef *args);
/* One- and two-argument forms of cj_math_call. */
static inline LLVMValueRef cj_math1(cj_lower *L, const char *cname, const cj_type *t,
                                    LLVMValueRef x) {
    return cj_math_call(L, cname, t, 1, &x);
}
static inline LLVMValueRef cj_math2(cj_lower *L, const char *cname, const cj_type *t,
                                    LLVMValueRef x, LLVMValueRef y) {
    LLVMValueRef args[2] = {x, y};
    return cj_math_call(L, cname, t, 2, args);
}
LLVMValueRef cj_complex_parts(cj_lower *L, LLVMValueRef c, LLVMValueRef *im); /* re */
LLVMValueRef cj_make_complex(cj_lower *L, const cj_type *t, LLVMValueRef re, LLVMValueRef im);
LLVMValueRef cj_float_const(cj_lower *L, const cj_type *t, double v);
LLVMValueRef cj_complex_mul(cj_lower *L, LLVMValueRef a, LLVMValueRef b, const cj_type *t);

/* ---- lower_pow.c: numba's powers (an LLVM constant exponent is multiplied out) ---- */
/* i ** n, both int64 or both uint64 (`is_signed`). */
LLVMValueRef cj_lower_int_pow(cj_lower *L, LLVMValueRef base, LLVMValueRef exp, int is_signed);
/* a ** n for `a` of float type `t` and `n` of integer type `nt` (its own width). */
LLVMValueRef cj_lower_float_int_pow(cj_lower *L, LLVMValueRef a, const cj_type *t,
                                    LLVMValueRef n, const cj_type *nt);
/* z ** w of complex type `t`. */
LLVMValueRef cj_lower_complex_pow(cj_lower *L, LLVMValueRef a, LLVMValueRef b, const cj_type *t);
/* round(x, ndigits) of a float (numba's algorithm, CPython's answers at the ends) and of an
 * int64 (CPython's: half to even on a multiple of 10**-ndigits). */
LLVMValueRef cj_round_float(cj_lower *L, const cj_type *xt, LLVMValueRef x, LLVMValueRef nd);
LLVMValueRef cj_round_int(cj_lower *L, LLVMValueRef x, LLVMValueRef nd);

/* lower_array_sort.c: abi/sort.c's kind for a bool, int or float32/64 type. */
int cj_sort_kind(const cj_type *dtype);

/* ---- lower_starargs.c: a jitted call's argument i when a *args tuple it packs or an item
 * of its g(*t) tuple (CJ_ARG_PACKED, CJ_ARG_STAR_ITEM), converted to its parameter type ---- */
LLVMValueRef cj_lower_star_slot(cj_lower *L, const cj_instr *in, const cj_call *call, int i);

/* ---- lower_call.c ---- */
/* The GETATTR that bound the method `in` calls (its receiver is args[0]); NULL + error. */
const cj_instr *cj_method_getattr(cj_lower *L, const cj_instr *in);
/* lower_array.c: Python's slice.indices(dim) of a slice value: start, step, length. */
void cj_slice_indices(cj_lower *L, LLVMValueRef sl, LLVMValueRef dim, LLVMValueRef *start,
                      LLVMValueRef *step, LLVMValueRef *len);
static inline const cj_type *cj_complex_part(const cj_type *complex_t) {
    return cj_type_float(complex_t->bits / 2); /* the type of a complex's real and imag */
}
int cj_lower_call(cj_lower *L, cj_instr *in);
/* lower_try.c: raise (a compile-time exception, or a caught one again) */
int cj_lower_raise(cj_lower *L, cj_instr *in);
/* The id compiled code returns to raise `exc` (an instance or class), registered and listed
 * with the function's exceptions (for the cache); -1 with an exception. */
int cj_exc_id(cj_lower *L, PyObject *exc);
/* lower_cmath.c: cmath function `id` (a cj_builtin) of `z`, of complex type `t`. */
LLVMValueRef cj_lower_cmath1(cj_lower *L, int id, LLVMValueRef z, const cj_type *t);
/* lower_cmath.c: np.log1p/expm1/exp2/log2/rint/sign of `z`, of complex type `t` (numba's). */
LLVMValueRef cj_lower_complex_ufunc1(cj_lower *L, int id, LLVMValueRef z, const cj_type *t);

/* ---- lower_array_new.c: np.empty/zeros/ones/full(_like), a new array the call hands over ---- */
LLVMValueRef cj_lower_array_new(cj_lower *L, cj_instr *in, const cj_call *call);
/* Whether the call's result is a new reference the caller must drop once stored. */
int cj_call_hands_over(const cj_call *call);
/* A new C-contiguous array of type `at` and `shape` (int64s; NumPy's errors for negative
 * or too large sizes), holding its one reference; zeroed: its bytes are 0. */
LLVMValueRef cj_new_array(cj_lower *L, const cj_type *at, LLVMValueRef *shape, int zeroed);
/* The dimensions a shape argument (variable `var` of type `t`: an int or a tuple of `ndim`
 * ints) asks for, as int64s. */
void cj_shape_values(cj_lower *L, int var, const cj_type *t, int ndim, LLVMValueRef *shape);
/* Every element of `arr` = value (of at->dtype). */
void cj_fill_array(cj_lower *L, LLVMValueRef arr, const cj_type *at, LLVMValueRef value);

/* ---- lower_random.c: np.random (typing/array_random.c; abi/random.c's generator) ---- */
LLVMValueRef cj_lower_random(cj_lower *L, cj_instr *in, const cj_call *call);
int cj_random_makes_array(const cj_call *call); /* a new array the call hands over */

/* ---- lower_py_random.c: Python's random module (typing/py_random.c; abi/py_random.c) ---- */
LLVMValueRef cj_lower_py_random(cj_lower *L, cj_instr *in, const cj_call *call);

/* ---- lower_array_methods.c: a.copy(), a.astype(t), a.fill(v), a.transpose(), a.T ---- */
LLVMValueRef cj_lower_array_method(cj_lower *L, int id, LLVMValueRef arr, const cj_type *at,
                                   cj_instr *in, const cj_call *call, int first_arg);
LLVMValueRef cj_array_transpose(cj_lower *L, LLVMValueRef arr, const cj_type *at);
/* A new C-contiguous copy (of type rt: at's shape, any dtype, cast) of `arr`. */
LLVMValueRef cj_array_copy(cj_lower *L, LLVMValueRef arr, const cj_type *at, const cj_type *rt);

/* ---- lower_array_create.c: np.arange/linspace/eye/identity/array/asarray ---- */
LLVMValueRef cj_lower_array_create(cj_lower *L, cj_instr *in, const cj_call *call);
/* lower_array_from_list.c: np.array(l) of a list of numbers (1-D) or of lists of them (2-D,
 * every row of one length, else numba's ValueError), as a new array of type rt. */
LLVMValueRef cj_array_from_list(cj_lower *L, LLVMValueRef list, const cj_type *lt,
                                const cj_type *rt);
/* A new array of type `at` and `shape`: C-contiguous, or F-contiguous when at is 'F'. */
LLVMValueRef cj_new_array_as(cj_lower *L, const cj_type *at, LLVMValueRef *shape, int zeroed);

/* ---- lower_array_shape.c: reshape, ravel, flatten, view, item, conj; a.real, a.imag ---- */
/* Method or function `id` of `arr`; the other arguments are call->args[first_arg...]. */
LLVMValueRef cj_lower_array_shape(cj_lower *L, int id, LLVMValueRef arr, const cj_type *at,
                                  cj_instr *in, const cj_call *call, int first_arg);
/* a.real / a.imag (imag: 1) of type rt; *fresh: a new array (the imag of a real array). */
LLVMValueRef cj_array_part(cj_lower *L, LLVMValueRef arr, const cj_type *at, int imag,
                           const cj_type *rt, int *fresh);

/* ---- lower_loops.c: visiting every element of arrays ---- */
/* A nest of loops over `shape` (C order) moving `nptrs` byte pointers by their own strides
 * per dimension (0: stays); fn gets the pointers at each element. When `versioned`, the
 * innermost loop has a second copy stepping each pointer by elem_size[k] bytes (0: one that
 * always stays), taken when the strides equal those sizes: a loop LLVM can vectorise. */
#define CJ_LOOP_NEST_PTRS 16
typedef struct cj_loop_nest {
    int ndim, nptrs, versioned;
    int elem_size[CJ_LOOP_NEST_PTRS];
    LLVMValueRef shape[CJ_MAXDIM];
    LLVMValueRef strides[CJ_LOOP_NEST_PTRS][CJ_MAXDIM];
    void (*fn)(cj_lower *L, LLVMValueRef *ptrs, void *ctx);
    void *ctx;
} cj_loop_nest;
void cj_emit_loop_nest(cj_lower *L, const cj_loop_nest *n, LLVMValueRef *bases);
LLVMValueRef cj_array_bytes(cj_lower *L, LLVMValueRef arr); /* data as an i8* */
/* for (i = 0; i < n; i++) fn(i): an emitted loop over an i64. */
typedef void (*cj_index_fn)(cj_lower *L, LLVMValueRef i, void *ctx);
void cj_emit_for(cj_lower *L, LLVMValueRef n, cj_index_fn fn, void *ctx);
typedef void (*cj_element_fn)(cj_lower *L, LLVMValueRef element_ptr, void *ctx);
/* Calls fn at each element of `arr` (C order; element_ptr an i8*), in emitted loops. */
void cj_array_for_each(cj_lower *L, LLVMValueRef arr, const cj_type *at, cj_element_fn fn,
                       void *ctx);
/* The element at `ptr` (an i8*) as a value of `dtype` (bool: an i1), and its store. */
LLVMValueRef cj_load_element(cj_lower *L, LLVMValueRef ptr, const cj_type *dtype);
void cj_store_element(cj_lower *L, LLVMValueRef ptr, LLVMValueRef v, const cj_type *dtype);

/* ---- lower_array_reduce.c: whole-array reductions to a number ---- */
/* np.sum(a) ... np.count_nonzero(a) (builtin `id`, not cumsum/cumprod/median) of `arr`, in the
 * result type `rt`. */
LLVMValueRef cj_lower_array_reduce(cj_lower *L, int id, LLVMValueRef arr, const cj_type *at,
                                   const cj_type *rt);
/* np.var / np.std (`id`) of `arr` with `ddof` (a float64): float64, as numba's. */
LLVMValueRef cj_lower_variance(cj_lower *L, int id, LLVMValueRef arr, const cj_type *at,
                               LLVMValueRef ddof);
/* One step of reduction `id` (sum ... max, nan* forms, any, all, count_nonzero): acc (of
 * acc_type) combined with element x (of dtype). */
LLVMValueRef cj_reduce_step(cj_lower *L, int id, const cj_type *dtype, const cj_type *acc_type,
                            LLVMValueRef acc, LLVMValueRef x);

/* ---- lower_reduce_axis.c: a reduction call (typing/array_reduce.c), along an axis too ---- */
/* The call `in` of reduction call->builtin on `arr` (its axis argument at call->args[first_arg]
 * or the default there, ddof= after it); a new array when in->rtype is one (the call hands it
 * over). */
LLVMValueRef cj_lower_reduction(cj_lower *L, cj_instr *in, const cj_call *call,
                                LLVMValueRef arr, const cj_type *at, int first_arg);

/* The axis argument call->args[first_arg] (or the constant default there) in 0..ndim-1,
 * raising NumPy's AxisError otherwise, as an int64; *none (and 0) when the call has none (a
 * NULL or None default). NULL with an exception. */
LLVMValueRef cj_axis_value(cj_lower *L, const cj_call *call, int first_arg, int ndim,
                           int *none);

/* ---- lower_reduce_scan.c: np.cumsum/np.cumprod (a new 1-D array), np.median ---- */
LLVMValueRef cj_lower_cumulative(cj_lower *L, int id, LLVMValueRef arr, const cj_type *at,
                                 const cj_type *rt);
LLVMValueRef cj_lower_median(cj_lower *L, LLVMValueRef arr, const cj_type *at);

/* ---- lower_array_fuse.c: operators on arrays computed inside their reader's loop ---- */
#define CJ_FUSED_NODES 64
int cj_is_elementwise_array_op(cj_lower *L, const cj_instr *in);
/* lower_array_expr.c: the operand variables of an element-wise operator or ufunc call. */
int cj_elementwise_operands(const cj_instr *in, const int **vars);
int cj_find_fused_array_ops(cj_lower *L); /* fills L->fused; -1 with MemoryError */

/* ---- lower_array_expr.c: operators on arrays (typing/array_expr.c) ---- */
/* BINOP / UNARY / COMPARE `in` with an array operand, or a CJ_CALL_UFUNC call: the result
 * (a new array, or the left array of an in-place operator, or `out`); *fresh says whether it
 * is a new array to hand over. */
LLVMValueRef cj_lower_array_op(cj_lower *L, cj_instr *in, int *fresh);
/* dest = src element by element (src broadcast to dest's shape, cast to its dtype), as if src
 * were copied first when the two share memory: 0, or -1 with an exception. */
int cj_array_assign(cj_lower *L, LLVMValueRef dest, const cj_type *dt, LLVMValueRef src,
                    const cj_type *st);
/* The same when dest and src cannot share memory (dest a new array's part): no check. */
int cj_array_assign_disjoint(cj_lower *L, LLVMValueRef dest, const cj_type *dt,
                             LLVMValueRef src, const cj_type *st);
/* lower_array_fancy.c: a[mask], a[idx] (typing/array_fancy.c): a new array; and the
 * assignments a[mask] = v, a[idx] = v: 0, or -1 with an exception. */
LLVMValueRef cj_lower_fancy_getitem(cj_lower *L, cj_instr *in);
int cj_lower_fancy_setitem(cj_lower *L, cj_instr *in);
/* lower_array_sort.c: np.sort / np.argsort of `arr`, or a.sort() (in_place: None): the
 * result, a new array when *fresh. */
LLVMValueRef cj_lower_array_sort(cj_lower *L, cj_instr *in, int id, LLVMValueRef arr,
                                 const cj_type *at, int in_place, int *fresh);
/* lower_array_search.c: np.nonzero / a.nonzero() / np.where(c) and np.argwhere (builtin `id`,
 * NP_NONZERO or NP_ARGWHERE) of `v`, an array or a number of type `at`: a tuple of new arrays
 * or a new array, handed over. */
LLVMValueRef cj_lower_array_search(cj_lower *L, cj_instr *in, int id, LLVMValueRef v,
                                   const cj_type *at);
/* lower_array_join.c: np.concatenate ... np.column_stack (a new array the call hands over),
 * np.atleast_1d/2d/3d (a view of the argument). */
LLVMValueRef cj_lower_array_join(cj_lower *L, cj_instr *in, const cj_call *call);
/* lower_array_linalg.c: np.dot(a, b[, out]) (out_var -1 when absent), np.vdot (conj), a @ b:
 * a number, a new array (*fresh) or out. */
LLVMValueRef cj_lower_dot(cj_lower *L, cj_instr *in, int a_var, int b_var, int out_var,
                          int conj, int *fresh);
/* lower_call.c: ufunc `id`'s element (y: the second input, or NULL) in its loop's types. */
LLVMValueRef cj_lower_ufunc_element(cj_lower *L, int id, LLVMValueRef x, LLVMValueRef y,
                                    const cj_type *loop_in, const cj_type *loop_out);

/* ---- lower_objmode.c: the call a `with objmode()` block became (CJ_CALL_OBJMODE) ---- */
LLVMValueRef cj_lower_objmode_call(cj_lower *L, cj_instr *in, const cj_call *call);

/* ---- lower_array.c ---- */
LLVMValueRef cj_array_dim(cj_lower *L, LLVMValueRef arr, int field, int i); /* shape/strides */
LLVMValueRef cj_array_getitem(cj_lower *L, LLVMValueRef arr, const cj_type *at,
                              LLVMValueRef idx, const cj_type *it, const cj_type *rtype);
int cj_array_setitem(cj_lower *L, LLVMValueRef arr, const cj_type *at, LLVMValueRef idx,
                     const cj_type *it, LLVMValueRef v, const cj_type *vt,
                     const cj_type *target);
LLVMValueRef cj_array_attr(cj_lower *L, LLVMValueRef arr, const cj_type *at, const char *name);
LLVMValueRef cj_array_size(cj_lower *L, LLVMValueRef arr, const cj_type *at);
LLVMValueRef cj_const_array(cj_lower *L, PyObject *array, const cj_type *t);
/* A view of `arr` (sharing its data, parent and allocation) of type vt at `offset` bytes into
 * the data, with `ndim` dimensions shape/strides. */
LLVMValueRef cj_array_view(cj_lower *L, LLVMValueRef arr, LLVMValueRef offset, int ndim,
                           LLVMValueRef *shape, LLVMValueRef *strides, const cj_type *vt);
#define CJ_ARR_DATA 0
#define CJ_ARR_PARENT 1
#define CJ_ARR_SHAPE 2
#define CJ_ARR_STRIDES 3
#define CJ_ARR_MEMINFO 4

/* ---- lower_record.c: records' fields (CJ_SUB_FIELD) ---- */
/* Field i of the record at `rec`: its value, a nested record's pointer, an array field. */
LLVMValueRef cj_record_field(cj_lower *L, LLVMValueRef rec, const cj_type *t, int i);
/* rec.field = v, cast to the field's type. */
int cj_record_set_field(cj_lower *L, LLVMValueRef rec, const cj_type *t, int i, LLVMValueRef v,
                        const cj_type *vt);
/* a.field of an array of records: a view of type rt. */
LLVMValueRef cj_record_array_field(cj_lower *L, LLVMValueRef arr, const cj_type *at, int i,
                                   const cj_type *rt);

/* ---- lower_cuda.c: CUDA intrinsics (calls resolved to CJ_CALL_CUDA, threadIdx.x...) ---- */
LLVMValueRef cj_cuda_lower_call(cj_lower *L, cj_instr *in, const cj_call *call);
int cj_cuda_lower_getattr(cj_lower *L, cj_instr *in);
/* An inline PTX instruction `text` with these operands (at most 4; a side effect) */
LLVMValueRef cj_ptx_asm(cj_lower *L, const char *text, const char *constraints, LLVMTypeRef ret,
                        LLVMValueRef *ops, unsigned n);
/* lower_libdevice.c: a call of a libdevice function (builtin CJ_CU_LIBDEVICE) */
LLVMValueRef cj_cuda_lower_libdevice(cj_lower *L, cj_instr *in, const cj_call *call);
/* lower_cuda_atomic.c: cuda.atomic.* (ids CJ_CU_ATOMIC_ADD..CJ_CU_ATOMIC_CAS2): the old value */
LLVMValueRef cj_cuda_lower_atomic(cj_lower *L, const cj_call *call, int id);
/* lower_cuda_sync.c: syncwarp, nanosleep, cooperative groups' sync (ids from CJ_CU_SYNCWARP) */
LLVMValueRef cj_cuda_lower_sync(cj_lower *L, cj_instr *in, const cj_call *call, int id);

/* ---- lower_prange.c: prange loops under parallel=True (CPU) ---- */
int cj_plan_pranges(cj_lower *L);            /* finds them; -1 with an exception */
int cj_prange_body(cj_lower *L, int block);  /* block i is outlined (not lowered here) */
int cj_prange_header(cj_lower *L, int block);
int cj_lower_prange_header(cj_lower *L, int block); /* goes to the loop's exit */
int cj_prange_at(cj_lower *L, const cj_instr *getiter); /* this GETITER starts one */
int cj_lower_prange(cj_lower *L, cj_instr *getiter); /* outlines it and calls the pool */
LLVMValueRef cj_lower_thread_query(cj_lower *L, int id); /* get_thread_id/get_num_threads() */
/* CUDA's min(x, y)/max(x, y) of two float32/float64 values, as numba-cuda: libdevice's
 * fmin/fmax (PTX min/max: a NaN operand yields the other). 1 with *out set, 0 (nothing
 * emitted) when the call is not that form or the target is the CPU (lower_num.c). */
int cj_cuda_float_minmax(cj_lower *L, const cj_call *call, int is_max, const cj_type *rt,
                         LLVMValueRef *out);
/* lower_call.c: max(acc, x) (is_max) or min(acc, x) of numbers of type t, Python's rule: acc
 * unless x compares greater (less). */
LLVMValueRef cj_pick_minmax(cj_lower *L, int is_max, LLVMValueRef acc, LLVMValueRef x,
                            const cj_type *t);

/* ---- lower_pool.c: one instruction's work over the thread pool (parallel=True, CPU) ---- */
int cj_pool_wanted(cj_lower *L); /* parallel=True on the CPU, outside prange bodies */
/* Below this many elements an array's work runs on its thread: waking the pool costs more. */
#define CJ_POOL_MIN_ELEMENTS 32768
/* B->slots[v]: a slot of B's own holding the value at `addr` (the function's slot of v), read
 * once at B's entry by the builder `b` (positioned there). */
void cj_copy_in(cj_lower *B, LLVMBuilderRef b, int v, LLVMValueRef addr);
/* i32 @<fn>.<what><k>(i8* ctx, i64 start, i64 stop, i8* partial): a new internal function. */
LLVMValueRef cj_pool_function(cj_lower *P, const char *what);
/* Emits chunk [start, stop) into B, a function reading L's variables (no references counted)
 * and extra[i], pointers to the caller's extra values; 0, or -1 with an exception. */
typedef int (*cj_chunk_emitter)(cj_lower *B, LLVMValueRef start, LLVMValueRef stop,
                                LLVMValueRef *extra, void *arg);
/* Partials of a pool run: `type` given, `slots` ([CJ_PARALLEL_MAX_THREADS x type]*) and
 * `chunks` (how many were written) come back; the chunk writes its own at B's 4th parameter. */
typedef struct cj_pool_partials {
    LLVMTypeRef type;
    LLVMValueRef slots, chunks;
} cj_pool_partials;
/* Runs `emit`'s chunks of [0, count) on the pool here (a call of cj_parallel_for). */
int cj_run_on_pool(cj_lower *L, LLVMValueRef count, LLVMValueRef *extra, int nextra,
                   cj_chunk_emitter emit, void *arg, cj_pool_partials *partials);

/* ---- lower_iter.c ---- */
/* len() of a range value {start, stop, step}: an int64. */
LLVMValueRef cj_range_len(cj_lower *L, LLVMValueRef v);
/* A new iterator over `v` (a pointer to its state, allocated in the entry block). */
LLVMValueRef cj_lower_getiter(cj_lower *L, LLVMValueRef v, const cj_type *vt,
                              const cj_type *it);
/* Initialises the state at `state` for iterating `v` (-1 with an exception). */
int cj_iter_init(cj_lower *L, LLVMValueRef state, LLVMValueRef v, const cj_type *vt,
                 const cj_type *it);
/* Steps the iterator: returns the value (in it->yield) and sets *ok. */
LLVMValueRef cj_lower_iternext(cj_lower *L, LLVMValueRef state, const cj_type *it,
                               LLVMValueRef *ok);
/* for item in v (of type vt, iterated as `it`): fn(item) in an emitted loop, the item of
 * type it->yield (borrowed); the one loop of set.update, list.extend and a set's sum/min/max.
 * -1 with an exception. */
typedef void (*cj_item_fn)(cj_lower *L, LLVMValueRef item, const cj_type *yield, void *ctx);
int cj_emit_for_each_item(cj_lower *L, LLVMValueRef v, const cj_type *vt, const cj_type *it,
                          cj_item_fn fn, void *ctx);
/* enumerate/zip/np.ndenumerate/np.ndindex call `in`: its iterator state; NULL + exception. */
LLVMValueRef cj_lower_make_iterator(cj_lower *L, cj_instr *in, const cj_call *call);
/* a.flat of array `arr` (it: its CJ_ITER_FLAT type): a new state; len(a.flat); a.flat[i]
 * read (a value of it->yield) and written (v of type vt, cast to the dtype). */
LLVMValueRef cj_lower_flat(cj_lower *L, LLVMValueRef arr, const cj_type *it);
LLVMValueRef cj_flat_len(cj_lower *L, LLVMValueRef state, const cj_type *it);
LLVMValueRef cj_flat_getitem(cj_lower *L, LLVMValueRef state, const cj_type *it,
                             LLVMValueRef i, const cj_type *index_t);
int cj_flat_setitem(cj_lower *L, LLVMValueRef state, const cj_type *it, LLVMValueRef i,
                    const cj_type *index_t, LLVMValueRef v, const cj_type *vt);

#endif
