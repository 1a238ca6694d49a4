/* lower_dict_ops.c: the dict methods and builtins (typing/dicts.c's cj_dict_op) and the
 * iterators over a dict's keys, values and items (a state {dict, position, length at the
 * start}: a dict that changed size raises numba's and CPython's RuntimeError). */
#include "abi/dict.h"
#include "lower/lower_internal.h"

static LLVMTypeRef i8p_type(cj_lower *L) {
    return LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
}

static LLVMValueRef key_hash(cj_lower *L, LLVMValueRef v, const cj_type *t) {
    LLVMValueRef slot = cj_entry_alloca(L, cj_llvm_type(L->ctx, t), "hash_arg");
    LLVMBuildStore(L->b, v, slot);
    LLVMValueRef code = cj_key_code_const(L, t); /* lower_dict.c */
    if (code == NULL) {
        return NULL;
    }
    LLVMTypeRef params[2] = {LLVMPointerType(LLVMInt32TypeInContext(L->ctx), 0), i8p_type(L)};
    LLVMValueRef args[2] = {code, LLVMBuildBitCast(L->b, slot, i8p_type(L), "")};
    return cj_dict_call_rt(L, "cj_key_hash", LLVMInt64TypeInContext(L->ctx), params, args, 2);
}

/* A slot of type `t` for a value the run time writes, as an i8 *. */
static LLVMValueRef out_slot(cj_lower *L, const cj_type *t, LLVMValueRef *slot) {
    *slot = cj_entry_alloca(L, cj_llvm_type(L->ctx, t), "dict_out");
    return LLVMBuildBitCast(L->b, *slot, i8p_type(L), "");
}

/* d.pop(k[, default]): the value leaves with its references; the default gets one. */
static LLVMValueRef pop(cj_lower *L, cj_instr *in, const cj_call *call, LLVMValueRef d,
                        const cj_type *dt) {
    const cj_type *v = dt->items[1], *rt = in->rtype;
    LLVMValueRef slot, kslot;
    LLVMValueRef out = out_slot(L, v, &slot), key = out_slot(L, dt->items[0], &kslot);
    LLVMBuildStore(L->b, cj_cast(L, cj_load_var(L, call->args[0]), call->argtypes[0],
                                 dt->items[0]), kslot);
    LLVMTypeRef params[3] = {i8p_type(L), i8p_type(L), i8p_type(L)};
    LLVMValueRef args[3] = {d, key, out};
    LLVMValueRef found = cj_dict_call_rt(L, "cj_dict_pop", LLVMInt32TypeInContext(L->ctx),
                                         params, args, 3);
    LLVMValueRef missing = LLVMBuildICmp(L->b, LLVMIntEQ, found,
                                         LLVMConstNull(LLVMTypeOf(found)), "");
    if (call->nargs == 1) {
        return cj_emit_raise_text_if(L, missing, PyExc_KeyError, NULL) < 0 ? NULL
               : cj_dict_load(L, out, v);
    }
    LLVMValueRef dflt = cj_cast(L, cj_load_var(L, call->args[1]), call->argtypes[1], rt);
    LLVMBasicBlockRef give = cj_new_bb(L, "pop_default"), done = cj_new_bb(L, "pop_done");
    LLVMValueRef got = cj_cast(L, LLVMBuildLoad2(L->b, cj_llvm_type(L->ctx, v), slot, ""), v, rt);
    LLVMBasicBlockRef here = LLVMGetInsertBlock(L->b);
    LLVMBuildCondBr(L->b, missing, give, done);
    LLVMPositionBuilderAtEnd(L->b, give);
    cj_incref(L, dflt, rt);
    LLVMBasicBlockRef gave = LLVMGetInsertBlock(L->b);
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, done);
    LLVMValueRef phi = LLVMBuildPhi(L->b, cj_llvm_type(L->ctx, rt), "popped");
    LLVMValueRef vals[2] = {got, dflt};
    LLVMBasicBlockRef from[2] = {here, gave};
    LLVMAddIncoming(phi, vals, from, 2);
    return phi;
}

/* d.get(k, default): the value (borrowed) or the default, as the unified type; d.get(k): an
 * OptionalType(V), None when missing. */
static LLVMValueRef get(cj_lower *L, cj_instr *in, const cj_call *call, LLVMValueRef d,
                        const cj_type *dt) {
    const cj_type *v = dt->items[1], *rt = in->rtype;
    LLVMValueRef p = cj_dict_lookup_ptr(L, d, dt, cj_load_var(L, call->args[0]),
                                        call->argtypes[0]);
    LLVMValueRef dflt = call->nargs < 2 ? LLVMConstNull(cj_llvm_type(L->ctx, rt)) /* None */
                        : cj_cast(L, cj_load_var(L, call->args[1]), call->argtypes[1], rt);
    LLVMValueRef slot = cj_entry_alloca(L, cj_llvm_type(L->ctx, rt), "got");
    LLVMBuildStore(L->b, dflt, slot);
    LLVMBasicBlockRef load = cj_new_bb(L, "get_found"), done = cj_new_bb(L, "get_done");
    LLVMBuildCondBr(L->b, LLVMBuildIsNotNull(L->b, p, ""), load, done);
    LLVMPositionBuilderAtEnd(L->b, load);
    LLVMBuildStore(L->b, cj_cast(L, cj_dict_load(L, p, v), v, rt), slot);
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, done);
    return LLVMBuildLoad2(L->b, cj_llvm_type(L->ctx, rt), slot, "");
}

/* d.setdefault(k, default): the value there, or the default after storing it (not looked up
 * again: a NaN key is never found). */
static LLVMValueRef setdefault(cj_lower *L, const cj_call *call, LLVMValueRef d,
                               const cj_type *dt) {
    const cj_type *v = dt->items[1];
    LLVMValueRef k = cj_load_var(L, call->args[0]);
    LLVMValueRef p = cj_dict_lookup_ptr(L, d, dt, k, call->argtypes[0]);
    LLVMValueRef slot = cj_entry_alloca(L, cj_llvm_type(L->ctx, v), "setdefault");
    LLVMBasicBlockRef put = cj_new_bb(L, "setdefault_put"), there = cj_new_bb(L, "found");
    LLVMBasicBlockRef done = cj_new_bb(L, "setdefault");
    LLVMBuildCondBr(L->b, LLVMBuildIsNull(L->b, p, ""), put, there);
    LLVMPositionBuilderAtEnd(L->b, put);
    LLVMValueRef dflt = cj_load_var(L, call->args[1]);
    cj_emit_dict_insert(L, d, dt, k, call->argtypes[0], dflt, call->argtypes[1]);
    LLVMBuildStore(L->b, cj_cast(L, dflt, call->argtypes[1], v), slot);
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, there);
    LLVMBuildStore(L->b, cj_dict_load(L, p, v), slot);
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, done);
    return LLVMBuildLoad2(L->b, cj_llvm_type(L->ctx, v), slot, "");
}

/* d.popitem(): (key, value), the last inserted; numba's KeyError when empty. */
static LLVMValueRef popitem(cj_lower *L, cj_instr *in, LLVMValueRef d, const cj_type *dt) {
    LLVMValueRef kslot, vslot;
    LLVMValueRef kp = out_slot(L, dt->items[0], &kslot), vp = out_slot(L, dt->items[1], &vslot);
    LLVMTypeRef params[3] = {i8p_type(L), i8p_type(L), i8p_type(L)};
    LLVMValueRef args[3] = {d, kp, vp};
    LLVMValueRef found = cj_dict_call_rt(L, "cj_dict_popitem", LLVMInt32TypeInContext(L->ctx),
                                         params, args, 3);
    LLVMValueRef empty = LLVMBuildICmp(L->b, LLVMIntEQ, found,
                                       LLVMConstNull(LLVMTypeOf(found)), "");
    if (cj_emit_raise_text_if(L, empty, PyExc_KeyError, "dictionary is empty") < 0) {
        return NULL;
    }
    LLVMValueRef t = LLVMGetUndef(cj_llvm_type(L->ctx, in->rtype));
    t = LLVMBuildInsertValue(L->b, t, cj_dict_load(L, kp, dt->items[0]), 0, "");
    return LLVMBuildInsertValue(L->b, t, cj_dict_load(L, vp, dt->items[1]), 1, "");
}

/* A void run-time call on the dict (clear), or one returning a new dict (copy) or a status
 * (update). */
static LLVMValueRef whole(cj_lower *L, const cj_call *call, LLVMValueRef d) {
    LLVMTypeRef params[2] = {i8p_type(L), i8p_type(L)};
    if (call->builtin == CJ_DICT_CLEAR) {
        cj_dict_call_rt(L, "cj_dict_clear", LLVMVoidTypeInContext(L->ctx), params, &d, 1);
        return cj_empty(L);
    }
    if (call->builtin == CJ_DICT_COPY) {
        LLVMValueRef copy = cj_dict_call_rt(L, "cj_dict_copy", i8p_type(L), params, &d, 1);
        cj_emit_raise_if(L, LLVMBuildIsNull(L->b, copy, ""), CJ_EXC_MEMORY);
        return copy;
    }
    LLVMValueRef args[2] = {d, cj_load_var(L, call->args[0])};
    LLVMValueRef rc = cj_dict_call_rt(L, "cj_dict_update", LLVMInt32TypeInContext(L->ctx), params,
                              args, 2);
    cj_emit_raise_if(L, LLVMBuildICmp(L->b, LLVMIntNE, rc, LLVMConstNull(LLVMTypeOf(rc)), ""),
                     CJ_EXC_MEMORY);
    return cj_empty(L);
}

static LLVMValueRef del_item(cj_lower *L, const cj_call *call, LLVMValueRef d,
                             const cj_type *dt) {
    LLVMValueRef kslot, kp = out_slot(L, dt->items[0], &kslot);
    LLVMBuildStore(L->b, cj_cast(L, cj_load_var(L, call->args[0]), call->argtypes[0],
                                 dt->items[0]), kslot);
    LLVMTypeRef params[3] = {i8p_type(L), i8p_type(L), i8p_type(L)};
    LLVMValueRef args[3] = {d, kp, LLVMConstNull(i8p_type(L))};
    LLVMValueRef found = cj_dict_call_rt(L, "cj_dict_pop", LLVMInt32TypeInContext(L->ctx),
                                         params, args, 3);
    LLVMValueRef missing = LLVMBuildICmp(L->b, LLVMIntEQ, found,
                                         LLVMConstNull(LLVMTypeOf(found)), "");
    return cj_emit_raise_text_if(L, missing, PyExc_KeyError, NULL) < 0 ? NULL : cj_empty(L);
}

/* d.keys() / values() / items(): an iterator over the dict (lower_dict.c's state). */
static LLVMValueRef view(cj_lower *L, cj_instr *in, LLVMValueRef d, const cj_type *dt) {
    LLVMValueRef state = cj_entry_alloca(L, cj_iter_state_type(L->ctx, in->rtype), "dict_iter");
    return cj_dict_iter_init(L, state, d, dt) < 0 ? NULL : state;
}

int cj_dict_op_hands_over(int op) {
    return op == CJ_DICT_POP || op == CJ_DICT_POPITEM || op == CJ_DICT_COPY ||
           op == CJ_DICT_NEW;
}

LLVMValueRef cj_lower_dict_call(cj_lower *L, cj_instr *in, const cj_call *call) {
    /* dict(d) is CJ_DICT_COPY too, a builtin: a method's callee is bound */
    int method = call->builtin <= CJ_DICT_DELITEM &&
                 CJ_VAR(L->ir, in->args[0])->type->kind == CJ_BOUND;
    const cj_instr *get_attr = method ? cj_method_getattr(L, in) : NULL;
    if (method && get_attr == NULL) {
        return NULL;
    }
    int receiver = method ? get_attr->args[0] : call->nargs > 0 ? call->args[0] : -1;
    /* dict(): its variable's type, refined by a d[k] = v after it (not rtype) */
    const cj_type *dt = CJ_VAR(L->ir, receiver >= 0 ? receiver : in->dst)->type;
    LLVMValueRef d = receiver >= 0 ? cj_load_var(L, receiver) : NULL;
    switch (call->builtin) {
    case CJ_DICT_GET:
        return get(L, in, call, d, dt);
    case CJ_DICT_POP:
        return pop(L, in, call, d, dt);
    case CJ_DICT_SETDEFAULT:
        return setdefault(L, call, d, dt);
    case CJ_DICT_POPITEM:
        return popitem(L, in, d, dt);
    case CJ_DICT_DELITEM:
        return del_item(L, call, d, dt);
    case CJ_DICT_KEYS:
    case CJ_DICT_VALUES:
    case CJ_DICT_ITEMS:
        return view(L, in, d, dt);
    case CJ_DICT_NEW:
        return cj_dict_new_empty(L, dt);
    case CJ_DICT_LEN: /* of the dict or of a view */
        return cj_dict_len_value(L, cj_dict_or_view(L, d, call->argtypes[0], &dt));
    case CJ_DICT_HASH: { /* of the value: (x, "a") hashed as Tuple(int64, unicode_type) */
        const cj_type *vt = cj_type_unliteral(dt);
        d = vt != NULL ? cj_cast(L, d, dt, vt) : NULL;
        return d != NULL ? key_hash(L, d, vt) : NULL;
    }
    default: /* clear, copy (d.copy(), dict(d)), update */
        return whole(L, call, d);
    }
}
