/* lower_set.c: sets (abi/set.h, a cj_dict of no values; typed by typing/sets.c), CPU only. A
 * set value is the cj_meminfo * of its allocation, counted like a dict's (lower_refs.c); its
 * table, iteration (lower_dict.c's state) and element hashing are the dict's. An add gives
 * the set a reference to what the element holds; discard and remove drop it, pop hands it to
 * the result. An operand that is not a set of the receiver's element type (an iterable, or a
 * set of another type) is first made into one (as_set), then dropped. */
#include "abi/set.h"
#include "lower/lower_internal.h"

static LLVMTypeRef i8p_type(cj_lower *L) {
    return LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
}

static LLVMTypeRef i32_type(cj_lower *L) { return LLVMInt32TypeInContext(L->ctx); }

/* `v` of type `vt` cast to the set's element type, in memory (an i8 *). */
static LLVMValueRef element_arg(cj_lower *L, const cj_type *st, LLVMValueRef v,
                                const cj_type *vt) {
    LLVMValueRef slot = cj_entry_alloca(L, cj_llvm_type(L->ctx, st->dtype), "set_arg");
    LLVMBuildStore(L->b, cj_cast(L, v, vt, st->dtype), slot);
    return LLVMBuildBitCast(L->b, slot, i8p_type(L), "");
}

/* A call of abi/set.h's `name` on a set and an element: its int result. */
static LLVMValueRef call_with_element(cj_lower *L, const char *name, LLVMValueRef s,
                                      LLVMValueRef e) {
    LLVMTypeRef params[2] = {i8p_type(L), i8p_type(L)};
    LLVMValueRef args[2] = {s, e};
    return cj_dict_call_rt(L, name, i32_type(L), params, args, 2);
}

static LLVMValueRef is_nonzero(cj_lower *L, LLVMValueRef v) {
    return LLVMBuildICmp(L->b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
}

/* s.add(v): the set takes a reference to what v holds; MemoryError when it cannot grow. */
static void add_value(cj_lower *L, LLVMValueRef s, const cj_type *st, LLVMValueRef v,
                      const cj_type *vt) {
    v = cj_cast(L, v, vt, st->dtype);
    cj_incref(L, v, st->dtype);
    LLVMValueRef rc = call_with_element(L, "cj_set_add", s, element_arg(L, st, v, st->dtype));
    cj_emit_raise_if(L, is_nonzero(L, rc), CJ_EXC_MEMORY);
}

typedef struct adding {
    LLVMValueRef set;
    const cj_type *st;
} adding;

static void add_item(cj_lower *L, LLVMValueRef v, const cj_type *vt, void *ctx) {
    adding *a = ctx;
    add_value(L, a->set, a->st, v, vt);
}

/* s.update(the iterable in variable `var`): a set of the same type at once, else by its
 * iterator. */
static int add_all(cj_lower *L, LLVMValueRef s, const cj_type *st, int var) {
    const cj_type *lit = CJ_VAR(L->ir, var)->type, *vt = cj_type_unliteral(lit); /* "abc" */
    const cj_type *it = vt != NULL ? cj_type_iter_of(vt) : NULL;
    if (vt->kind == CJ_SET && vt->dtype == st->dtype) {
        LLVMTypeRef params[2] = {i8p_type(L), i8p_type(L)};
        LLVMValueRef args[2] = {s, cj_load_var(L, var)};
        LLVMValueRef rc = cj_dict_call_rt(L, "cj_dict_update", i32_type(L), params, args, 2);
        cj_emit_raise_if(L, is_nonzero(L, rc), CJ_EXC_MEMORY);
        return 0;
    }
    if (it == NULL) {
        PyErr_Format(cj_LoweringError, "set.update() of %s", lit->name);
        return -1;
    }
    adding a = {.set = s, .st = st};
    return cj_emit_for_each_item(L, cj_cast(L, cj_load_var(L, var), lit, vt), vt, it,
                                 add_item, &a);
}

/* A new empty set of type `st` with the elements of variable `var` (-1: none). */
static LLVMValueRef new_set(cj_lower *L, const cj_type *st, int var) {
    LLVMValueRef s = cj_dict_new_empty(L, st); /* lower_dict.c: a set is a dict */
    if (s == NULL || (var >= 0 && add_all(L, s, st, var) < 0)) {
        return NULL;
    }
    return s;
}

/* The operand in variable `var` as a set of st's element type: the variable's own (borrowed,
 * *fresh 0) or a new one (*fresh 1: the caller drops it). */
static LLVMValueRef as_set(cj_lower *L, const cj_type *st, int var, int *fresh) {
    const cj_type *vt = CJ_VAR(L->ir, var)->type;
    *fresh = !(vt->kind == CJ_SET && vt->dtype == st->dtype);
    return *fresh ? new_set(L, cj_type_set(st->dtype, 0), var) : cj_load_var(L, var);
}

static void drop_if_fresh(cj_lower *L, LLVMValueRef s, const cj_type *st, int fresh) {
    if (fresh) {
        cj_decref(L, s, cj_type_set(st->dtype, 0));
    }
}

/* a `op`= (the operand in `var`), abi/set.h's cj_set_inplace; -1 with an exception. */
static int inplace(cj_lower *L, LLVMValueRef a, const cj_type *st, int var, int op) {
    int fresh;
    LLVMValueRef b = as_set(L, st, var, &fresh);
    if (b == NULL) {
        return -1;
    }
    LLVMTypeRef params[3] = {i8p_type(L), i8p_type(L), i32_type(L)};
    LLVMValueRef args[3] = {a, b, LLVMConstInt(i32_type(L), (unsigned)op, 0)};
    LLVMValueRef rc = cj_dict_call_rt(L, "cj_set_inplace", i32_type(L), params, args, 3);
    cj_emit_raise_if(L, is_nonzero(L, rc), CJ_EXC_MEMORY);
    drop_if_fresh(L, b, st, fresh);
    return 0;
}

/* a `op` (the operand in `var`) for a cj_set_compare operation: an i1. */
static LLVMValueRef compare(cj_lower *L, LLVMValueRef a, const cj_type *st, int var, int op) {
    int fresh;
    LLVMValueRef b = as_set(L, st, var, &fresh);
    if (b == NULL) {
        return NULL;
    }
    LLVMTypeRef params[3] = {i8p_type(L), i8p_type(L), i32_type(L)};
    LLVMValueRef args[3] = {a, b, LLVMConstInt(i32_type(L), (unsigned)op, 0)};
    LLVMValueRef r = cj_dict_call_rt(L, "cj_set_compare", i32_type(L), params, args, 3);
    drop_if_fresh(L, b, st, fresh);
    return is_nonzero(L, r);
}

int cj_lower_set_build(cj_lower *L, cj_instr *in) {
    const cj_type *st = CJ_VAR(L->ir, in->dst)->type; /* refined by an add: not rtype */
    LLVMValueRef s = cj_dict_new_empty(L, st);
    if (s == NULL) {
        return -1;
    }
    for (int i = 0; i < in->nargs; i++) {
        add_value(L, s, st, cj_load_var(L, in->args[i]), CJ_VAR(L->ir, in->args[i])->type);
    }
    return cj_store_var_taking(L, in->dst, s, st);
}

/* A copy of set `s` (a new reference). */
static LLVMValueRef copy(cj_lower *L, LLVMValueRef s) {
    LLVMTypeRef p = i8p_type(L);
    LLVMValueRef c = cj_dict_call_rt(L, "cj_dict_copy", p, &p, &s, 1);
    cj_emit_raise_if(L, LLVMBuildIsNull(L->b, c, ""), CJ_EXC_MEMORY);
    return c;
}

/* s.discard(x) / s.remove(x) (numba's KeyError when missing). */
static LLVMValueRef discard(cj_lower *L, const cj_call *call, LLVMValueRef s, const cj_type *st) {
    LLVMValueRef e = element_arg(L, st, cj_load_var(L, call->args[0]), call->argtypes[0]);
    LLVMValueRef found = call_with_element(L, "cj_set_discard", s, e);
    if (call->builtin == CJ_SETOP_REMOVE &&
        cj_emit_raise_text_if(L, LLVMBuildNot(L->b, is_nonzero(L, found), ""), PyExc_KeyError,
                              "set.remove(): key not in set") < 0) {
        return NULL;
    }
    return cj_empty(L);
}

/* s.pop(): the last added element, its references handed over; numba's KeyError if empty. */
static LLVMValueRef pop(cj_lower *L, LLVMValueRef s, const cj_type *st) {
    LLVMValueRef slot = cj_entry_alloca(L, cj_llvm_type(L->ctx, st->dtype), "set_pop");
    LLVMValueRef found = call_with_element(L, "cj_set_pop", s,
                                           LLVMBuildBitCast(L->b, slot, i8p_type(L), ""));
    if (cj_emit_raise_text_if(L, LLVMBuildNot(L->b, is_nonzero(L, found), ""), PyExc_KeyError,
                              "set.pop(): empty set") < 0) {
        return NULL;
    }
    return LLVMBuildLoad2(L->b, cj_llvm_type(L->ctx, st->dtype), slot, "");
}

/* The cj_set_inplace operation of a method (intersection, difference and their forms). */
static int method_setop(int op) {
    return op == CJ_SETOP_INTERSECTION || op == CJ_SETOP_INTERSECTION_UPDATE ? CJ_SET_AND
           : op == CJ_SETOP_DIFFERENCE || op == CJ_SETOP_DIFFERENCE_UPDATE   ? CJ_SET_SUB
                                                                             : CJ_SET_XOR;
}

/* update, union and the in-place forms: `target` takes each operand in turn. */
static LLVMValueRef with_operands(cj_lower *L, const cj_call *call, LLVMValueRef target,
                                  const cj_type *st) {
    int op = call->builtin;
    for (int i = 0; i < call->nargs; i++) {
        int rc = op == CJ_SETOP_UPDATE || op == CJ_SETOP_UNION
                     ? add_all(L, target, st, call->args[i])
                     : inplace(L, target, st, call->args[i], method_setop(op));
        if (rc < 0) {
            return NULL;
        }
    }
    return op == CJ_SETOP_UPDATE || op >= CJ_SETOP_INTERSECTION_UPDATE ? cj_empty(L) : target;
}

/* One step of sum/min/max: the accumulator at `acc` (of type `at`) takes `v`; min and max
 * keep the first of the smallest (largest), as Python's. */
static void fold_step(cj_lower *L, int op, LLVMValueRef acc, const cj_type *at, LLVMValueRef v,
                      const cj_type *vt, LLVMValueRef seen) {
    LLVMTypeRef lt = cj_llvm_type(L->ctx, at);
    LLVMValueRef a = LLVMBuildLoad2(L->b, lt, acc, ""), x = cj_cast(L, v, vt, at);
    if (op == CJ_SETOP_SUM) {
        LLVMBuildStore(L->b, cj_lower_binop(L, CJ_ADD, a, at, x, at, at, at), acc);
        return;
    }
    LLVMValueRef first = LLVMBuildNot(L->b, LLVMBuildLoad2(L->b, LLVMInt1TypeInContext(L->ctx),
                                                           seen, ""), "");
    LLVMValueRef better = cj_lower_compare(L, op == CJ_SETOP_MIN ? CJ_LT : CJ_GT, x, at, a, at,
                                           at);
    LLVMBuildStore(L->b, LLVMBuildSelect(L->b, LLVMBuildOr(L->b, first, better, ""), x, a, ""),
                   acc);
    LLVMBuildStore(L->b, LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 1, 0), seen);
}

typedef struct folding {
    int op;
    LLVMValueRef acc, seen;
    const cj_type *at;
} folding;

static void fold_item(cj_lower *L, LLVMValueRef v, const cj_type *vt, void *ctx) {
    folding *f = ctx;
    fold_step(L, f->op, f->acc, f->at, v, vt, f->seen);
}

/* sum(s), min(s), max(s) over the set in variable `var` (lists' rules, lower_list_ops.c):
 * min and max of nothing are Python's ValueError. */
static LLVMValueRef fold(cj_lower *L, int op, int var, const cj_type *at) {
    const cj_type *st = CJ_VAR(L->ir, var)->type, *it = cj_type_iter_of(st);
    LLVMTypeRef i1 = LLVMInt1TypeInContext(L->ctx), lt = cj_llvm_type(L->ctx, at);
    LLVMValueRef acc = cj_entry_alloca(L, lt, "acc"), seen = cj_entry_alloca(L, i1, "seen");
    LLVMBuildStore(L->b, LLVMConstNull(lt), acc);
    LLVMBuildStore(L->b, LLVMConstNull(i1), seen);
    folding f = {.op = op, .acc = acc, .seen = seen, .at = at};
    if (it == NULL) {
        PyErr_Format(cj_LoweringError, "sum/min/max of %s", st->name);
        return NULL;
    }
    if (cj_emit_for_each_item(L, cj_load_var(L, var), st, it, fold_item, &f) < 0) {
        return NULL;
    }
    if (op != CJ_SETOP_SUM &&
        cj_emit_raise_text_if(L, LLVMBuildNot(L->b, LLVMBuildLoad2(L->b, i1, seen, ""), ""),
                              PyExc_ValueError, op == CJ_SETOP_MIN
                              ? "min() arg is an empty sequence"
                              : "max() arg is an empty sequence") < 0) {
        return NULL;
    }
    return LLVMBuildLoad2(L->b, lt, acc, "");
}

LLVMValueRef cj_lower_set_call(cj_lower *L, cj_instr *in, const cj_call *call) {
    int method = call->builtin < CJ_SETOP_NEW;
    const cj_instr *get_attr = method ? cj_method_getattr(L, in) : NULL;
    if (method && get_attr == NULL) {
        return NULL;
    }
    int receiver = method ? get_attr->args[0] : -1;
    const cj_type *st = receiver >= 0 ? CJ_VAR(L->ir, receiver)->type : NULL;
    LLVMValueRef s = receiver >= 0 ? cj_load_var(L, receiver) : NULL;
    LLVMTypeRef p = i8p_type(L);
    static const int compare_ops[] = {CJ_SETCMP_LE, CJ_SETCMP_GE, CJ_SETCMP_DISJOINT};
    switch (call->builtin) {
    case CJ_SETOP_ADD:
        add_value(L, s, st, cj_load_var(L, call->args[0]), call->argtypes[0]);
        return cj_empty(L);
    case CJ_SETOP_DISCARD:
    case CJ_SETOP_REMOVE:
        return discard(L, call, s, st);
    case CJ_SETOP_POP:
        return pop(L, s, st);
    case CJ_SETOP_CLEAR:
        cj_dict_call_rt(L, "cj_dict_clear", LLVMVoidTypeInContext(L->ctx), &p, &s, 1);
        return cj_empty(L);
    case CJ_SETOP_COPY:
        return copy(L, s);
    case CJ_SETOP_ISSUBSET:
    case CJ_SETOP_ISSUPERSET:
    case CJ_SETOP_ISDISJOINT:
        return compare(L, s, st, call->args[0], compare_ops[call->builtin - CJ_SETOP_ISSUBSET]);
    case CJ_SETOP_NEW: /* set(), set(iterable): its variable's type, refined by an add */
        return new_set(L, CJ_VAR(L->ir, in->dst)->type, call->nargs > 0 ? call->args[0] : -1);
    case CJ_SETOP_LEN:
        return cj_dict_len_value(L, cj_load_var(L, call->args[0])); /* lower_dict.c */
    case CJ_SETOP_BOOL:
        return cj_truth(L, cj_load_var(L, call->args[0]), call->argtypes[0]);
    case CJ_SETOP_SUM:
    case CJ_SETOP_MIN:
    case CJ_SETOP_MAX:
        return fold(L, call->builtin, call->args[0], in->rtype);
    case CJ_SETOP_UPDATE:
    case CJ_SETOP_INTERSECTION_UPDATE:
    case CJ_SETOP_DIFFERENCE_UPDATE:
    case CJ_SETOP_SYMMETRIC_DIFFERENCE_UPDATE:
        return with_operands(L, call, s, st);
    default: /* union, intersection, difference, symmetric_difference: on a copy */
        return with_operands(L, call, copy(L, s), st);
    }
}

int cj_set_op_hands_over(int op) {
    return op == CJ_SETOP_POP || op == CJ_SETOP_COPY || op == CJ_SETOP_NEW ||
           (op >= CJ_SETOP_UNION && op <= CJ_SETOP_SYMMETRIC_DIFFERENCE);
}

/* `x in s`, `x not in s`. */
static LLVMValueRef contains(cj_lower *L, cj_instr *in) {
    const cj_type *st = CJ_VAR(L->ir, in->args[1])->type;
    LLVMValueRef e = element_arg(L, st, cj_load_var(L, in->args[0]),
                                 CJ_VAR(L->ir, in->args[0])->type);
    LLVMTypeRef params[2] = {i8p_type(L), i8p_type(L)}; /* a set is a dict: its lookup */
    LLVMValueRef args[2] = {cj_load_var(L, in->args[1]), e};
    LLVMValueRef found = LLVMBuildIsNotNull(L->b, cj_dict_call_rt(L, "cj_dict_lookup",
                                                                   i8p_type(L), params, args, 2),
                                            "");
    return in->sub == CJ_IN ? found : LLVMBuildNot(L->b, found, "");
}

/* a | b, a & b, a - b, a ^ b: a new set, or a itself in place. */
static int binop(cj_lower *L, cj_instr *in, LLVMValueRef a, const cj_type *st) {
    int op = in->sub == CJ_OR ? CJ_SET_OR : in->sub == CJ_AND ? CJ_SET_AND
             : in->sub == CJ_SUB ? CJ_SET_SUB : CJ_SET_XOR;
    if (in->flags & CJ_F_INPLACE) {
        return inplace(L, a, st, in->args[1], op) < 0 ? -1 : cj_store_var(L, in->dst, a, st);
    }
    int fresh;
    LLVMValueRef b = as_set(L, st, in->args[1], &fresh);
    if (b == NULL) {
        return -1;
    }
    LLVMTypeRef params[3] = {i8p_type(L), i8p_type(L), i32_type(L)};
    LLVMValueRef args[3] = {a, b, LLVMConstInt(i32_type(L), (unsigned)op, 0)};
    LLVMValueRef r = cj_dict_call_rt(L, "cj_set_binop", i8p_type(L), params, args, 3);
    cj_emit_raise_if(L, LLVMBuildIsNull(L->b, r, ""), CJ_EXC_MEMORY);
    drop_if_fresh(L, b, st, fresh);
    return cj_store_var_taking(L, in->dst, r, in->rtype);
}

int cj_lower_set_op(cj_lower *L, cj_instr *in) {
    static const int compare_ops[] = {[CJ_EQ] = CJ_SETCMP_EQ, [CJ_NE] = CJ_SETCMP_NE,
                                      [CJ_LT] = CJ_SETCMP_LT, [CJ_LE] = CJ_SETCMP_LE,
                                      [CJ_GT] = CJ_SETCMP_GT, [CJ_GE] = CJ_SETCMP_GE};
    const cj_type *st = CJ_VAR(L->ir, in->args[0])->type;
    LLVMValueRef r;
    if (in->op == CJ_I_BINOP) {
        return binop(L, in, cj_load_var(L, in->args[0]), st);
    }
    if (in->sub == CJ_IN || in->sub == CJ_NOTIN) {
        r = contains(L, in);
    } else {
        r = compare(L, cj_load_var(L, in->args[0]), st, in->args[1], compare_ops[in->sub]);
    }
    return r != NULL ? cj_store_var(L, in->dst, r, cj_t_bool) : -1;
}
