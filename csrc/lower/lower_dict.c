/* lower_dict.c: dicts (abi/dict.h's cj_dict; typed by typing/dicts.c), CPU only. A dict value
 * is the cj_meminfo * of its allocation, counted like a list's (lower_refs.c). Every operation
 * calls abi/dict.c with pointers to the key's and value's bytes (their C layout, cj_abi_size);
 * hashing and key equality are hash.c's, through the key code this file emits per key type.
 * The dict holds one reference to what each value holds: an insert gives it one, a replaced
 * or deleted value's is dropped by dict.c, pop/popitem hand theirs to the result. */
#include "abi/dict.h"
#include "lower/lower_internal.h"

/* A private constant int32 array (or a null pointer for none). */
static LLVMValueRef const_i32s(cj_lower *L, const int32_t *vals, int n, const char *name) {
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    if (n == 0) {
        return LLVMConstNull(LLVMPointerType(i32, 0));
    }
    LLVMValueRef c[CJ_KEY_MAX_CODE + CJ_LIST_MAX_REFS];
    for (int k = 0; k < n; k++) {
        c[k] = LLVMConstInt(i32, (unsigned long long)(uint32_t)vals[k], 0);
    }
    LLVMValueRef g = LLVMAddGlobal(L->mod, LLVMArrayType(i32, (unsigned)n), name);
    LLVMSetInitializer(g, LLVMConstArray(i32, c, (unsigned)n));
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    return LLVMConstBitCast(g, LLVMPointerType(i32, 0));
}

LLVMValueRef cj_dict_call_rt(cj_lower *L, const char *name, LLVMTypeRef ret,
                             LLVMTypeRef *params, LLVMValueRef *args, unsigned n) {
    LLVMValueRef fn = cj_runtime_fn(L, name, ret, params, n);
    return LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(fn)), fn, args, n, "");
}

static LLVMTypeRef i8p_type(cj_lower *L) {
    return LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
}

LLVMValueRef cj_key_code_const(cj_lower *L, const cj_type *key) {
    int32_t code[CJ_KEY_MAX_CODE];
    int n = 0;
    if (cj_abi_key_code(key, 0, code, &n) < 0) {
        PyErr_Format(cj_UnsupportedError, "keys of type %s are not hashed", key->name);
        return NULL;
    }
    return const_i32s(L, code, n, "key_code");
}

LLVMValueRef cj_dict_new_empty(cj_lower *L, const cj_type *dt) {
    cj_dict_layout lay;
    if ((dt->kind == CJ_SET ? cj_abi_set_layout(dt, &lay) : cj_abi_dict_layout(dt, &lay)) < 0) {
        PyErr_Format(cj_UnsupportedError, "%s: keys or values too large", dt->name);
        return NULL;
    }
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx), i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMTypeRef i32p = LLVMPointerType(i32, 0);
    LLVMTypeRef params[7] = {i64, i64, i32p, i32, i32p, i32, i32};
    LLVMValueRef args[7] = {cj_i64(L, lay.key_size), cj_i64(L, lay.val_size),
                            const_i32s(L, lay.code, lay.ncode, "dict_key_code"),
                            LLVMConstInt(i32, (unsigned)lay.ncode, 0),
                            const_i32s(L, lay.refs, lay.nkeyrefs + lay.nvalrefs, "dict_refs"),
                            LLVMConstInt(i32, (unsigned)lay.nkeyrefs, 0),
                            LLVMConstInt(i32, (unsigned)lay.nvalrefs, 0)};
    LLVMValueRef d = cj_dict_call_rt(L, "cj_dict_new", i8p_type(L), params, args, 7);
    cj_emit_raise_if(L, LLVMBuildIsNull(L->b, d, ""), CJ_EXC_MEMORY);
    return d;
}

/* `v` in memory (an entry alloca), as an i8 *. */
static LLVMValueRef spill(cj_lower *L, LLVMValueRef v, const cj_type *t) {
    LLVMValueRef slot = cj_entry_alloca(L, cj_llvm_type(L->ctx, t), "dict_arg");
    LLVMBuildStore(L->b, v, slot);
    return LLVMBuildBitCast(L->b, slot, i8p_type(L), "");
}

LLVMValueRef cj_dict_load(cj_lower *L, LLVMValueRef p, const cj_type *t) {
    LLVMTypeRef lt = cj_llvm_type(L->ctx, t);
    return LLVMBuildLoad2(L->b, lt, LLVMBuildBitCast(L->b, p, LLVMPointerType(lt, 0), ""), "");
}

/* The key `k` (of type `kt`) cast to the dict's key type, in memory. */
static LLVMValueRef key_arg(cj_lower *L, const cj_type *dt, LLVMValueRef k, const cj_type *kt) {
    return spill(L, cj_cast(L, k, kt, dt->items[0]), dt->items[0]);
}

LLVMValueRef cj_dict_lookup_ptr(cj_lower *L, LLVMValueRef d, const cj_type *dt, LLVMValueRef k,
                           const cj_type *kt) {
    LLVMTypeRef params[2] = {i8p_type(L), i8p_type(L)};
    LLVMValueRef args[2] = {d, key_arg(L, dt, k, kt)};
    return cj_dict_call_rt(L, "cj_dict_lookup", i8p_type(L), params, args, 2);
}

void cj_emit_dict_insert(cj_lower *L, LLVMValueRef d, const cj_type *dt, LLVMValueRef k,
                    const cj_type *kt, LLVMValueRef v, const cj_type *vt) {
    v = cj_cast(L, v, vt, dt->items[1]);
    k = cj_cast(L, k, kt, dt->items[0]);
    cj_incref(L, v, dt->items[1]); /* the dict's own (dict.c drops a key's it already has) */
    cj_incref(L, k, dt->items[0]);
    LLVMTypeRef i8p = i8p_type(L);
    LLVMTypeRef params[3] = {i8p, i8p, i8p};
    LLVMValueRef args[3] = {d, spill(L, k, dt->items[0]), spill(L, v, dt->items[1])};
    LLVMValueRef rc = cj_dict_call_rt(L, "cj_dict_insert", LLVMInt32TypeInContext(L->ctx),
                                         params, args, 3);
    cj_emit_raise_if(L, LLVMBuildICmp(L->b, LLVMIntNE, rc, LLVMConstNull(LLVMTypeOf(rc)), ""),
                     CJ_EXC_MEMORY);
}

int cj_lower_dict_build(cj_lower *L, cj_instr *in) {
    const cj_type *dt = CJ_VAR(L->ir, in->dst)->type; /* refined by a d[k] = v: not rtype */
    LLVMValueRef d = cj_dict_new_empty(L, dt);
    if (d == NULL) {
        return -1;
    }
    for (int i = 0; i + 1 < in->nargs; i += 2) { /* a later equal key replaces the value */
        cj_emit_dict_insert(L, d, dt, cj_load_var(L, in->args[i]), CJ_VAR(L->ir, in->args[i])->type,
                       cj_load_var(L, in->args[i + 1]), CJ_VAR(L->ir, in->args[i + 1])->type);
    }
    return cj_store_var_taking(L, in->dst, d, dt);
}

int cj_lower_dict_getitem(cj_lower *L, cj_instr *in) {
    const cj_type *dt = CJ_VAR(L->ir, in->args[0])->type;
    LLVMValueRef p = cj_dict_lookup_ptr(L, cj_load_var(L, in->args[0]), dt,
                                        cj_load_var(L, in->args[1]),
                                        CJ_VAR(L->ir, in->args[1])->type);
    if (cj_emit_raise_text_if(L, LLVMBuildIsNull(L->b, p, ""), PyExc_KeyError, NULL) < 0) {
        return -1;
    }
    return cj_store_var(L, in->dst, cj_dict_load(L, p, dt->items[1]), dt->items[1]);
}

int cj_lower_dict_setitem(cj_lower *L, cj_instr *in) {
    cj_emit_dict_insert(L, cj_load_var(L, in->args[0]), CJ_VAR(L->ir, in->args[0])->type,
                   cj_load_var(L, in->args[1]), CJ_VAR(L->ir, in->args[1])->type,
                   cj_load_var(L, in->args[2]), CJ_VAR(L->ir, in->args[2])->type);
    return 0;
}

LLVMValueRef cj_dict_or_view(cj_lower *L, LLVMValueRef v, const cj_type *t,
                             const cj_type **dt) {
    if (t->kind == CJ_DICT) {
        *dt = t;
        return v;
    }
    *dt = t->source; /* a view: its state's dict (state_field 0 below) */
    LLVMTypeRef i8p = i8p_type(L);
    LLVMValueRef at = LLVMBuildBitCast(L->b, v, LLVMPointerType(i8p, 0), "");
    return LLVMBuildLoad2(L->b, i8p, at, "dict");
}

LLVMValueRef cj_lower_dict_contains(cj_lower *L, cj_instr *in) {
    const cj_type *dt;
    LLVMValueRef d = cj_dict_or_view(L, cj_load_var(L, in->args[1]),
                                     CJ_VAR(L->ir, in->args[1])->type, &dt);
    LLVMValueRef p = cj_dict_lookup_ptr(L, d, dt,
                                        cj_load_var(L, in->args[0]),
                                        CJ_VAR(L->ir, in->args[0])->type);
    return in->sub == CJ_IN ? LLVMBuildIsNotNull(L->b, p, "") : LLVMBuildIsNull(L->b, p, "");
}

/* ---- iteration: a state {dict, position, length at the start} (lower_types.c) ---- */

static LLVMValueRef state_field(cj_lower *L, LLVMValueRef state, int i) {
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMTypeRef f[3] = {i8p_type(L), i64, i64};
    return LLVMBuildStructGEP2(L->b, LLVMStructTypeInContext(L->ctx, f, 3, 0), state,
                               (unsigned)i, "");
}

LLVMValueRef cj_dict_len_value(cj_lower *L, LLVMValueRef d) {
    LLVMTypeRef p = i8p_type(L);
    return cj_dict_call_rt(L, "cj_dict_len", LLVMInt64TypeInContext(L->ctx), &p, &d, 1);
}

int cj_dict_iter_init(cj_lower *L, LLVMValueRef state, LLVMValueRef d, const cj_type *dt) {
    if (cj_hold(L, d, dt) < 0) { /* the loop may drop the dict from its variable */
        return -1;
    }
    LLVMBuildStore(L->b, d, state_field(L, state, 0));
    LLVMBuildStore(L->b, cj_i64(L, 0), state_field(L, state, 1));
    LLVMBuildStore(L->b, cj_dict_len_value(L, d), state_field(L, state, 2));
    return 0;
}

/* What an entry at `e` yields: its key, its value or both (a tuple); a set's element. */
static LLVMValueRef entry_yield(cj_lower *L, LLVMValueRef e, const cj_type *it) {
    const cj_type *dt = it->source;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
    if (it->iter_kind == CJ_ITER_SET) { /* abi/set.h: the key of a dict of no values */
        LLVMValueRef at = cj_i64(L, 8);
        return cj_dict_load(L, LLVMBuildInBoundsGEP2(L->b, i8, e, &at, 1, ""), it->yield);
    }
    LLVMValueRef off[2] = {cj_i64(L, 8),
                           cj_i64(L, (long long)CJ_DICT_VAL_OFFSET(cj_abi_size(dt->items[0])))};
    LLVMValueRef k = cj_dict_load(L, LLVMBuildInBoundsGEP2(L->b, i8, e, &off[0], 1, ""),
                                  dt->items[0]);
    LLVMValueRef v = cj_dict_load(L, LLVMBuildInBoundsGEP2(L->b, i8, e, &off[1], 1, ""),
                                  dt->items[1]);
    if (it->iter_kind != CJ_ITER_DICT_ITEMS) {
        return it->iter_kind == CJ_ITER_DICT_KEYS ? k : v;
    }
    LLVMValueRef t = LLVMGetUndef(cj_llvm_type(L->ctx, it->yield));
    t = LLVMBuildInsertValue(L->b, t, k, 0, "");
    return LLVMBuildInsertValue(L->b, t, v, 1, "");
}

LLVMValueRef cj_dict_iter_next(cj_lower *L, LLVMValueRef state, const cj_type *it,
                               LLVMValueRef *ok) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMValueRef d = LLVMBuildLoad2(B, i8p_type(L), state_field(L, state, 0), "dict");
    LLVMValueRef start = LLVMBuildLoad2(B, i64, state_field(L, state, 2), "");
    LLVMValueRef changed = LLVMBuildICmp(B, LLVMIntNE, cj_dict_len_value(L, d), start, "");
    if (cj_emit_raise_text_if(L, changed, PyExc_RuntimeError,
                              it->iter_kind == CJ_ITER_SET ? "Set changed size during iteration"
                              : "dictionary changed size during iteration") < 0) {
        return NULL;
    }
    LLVMTypeRef params[2] = {i8p_type(L), LLVMPointerType(i64, 0)};
    LLVMValueRef args[2] = {d, state_field(L, state, 1)};
    LLVMValueRef e = cj_dict_call_rt(L, "cj_dict_next", i8p_type(L), params, args, 2);
    *ok = LLVMBuildIsNotNull(B, e, "more");
    LLVMTypeRef yt = cj_llvm_type(L->ctx, it->yield);
    LLVMValueRef slot = cj_entry_alloca(L, yt, "next");
    LLVMBuildStore(B, LLVMConstNull(yt), slot); /* exhausted: none, not junk */
    LLVMBasicBlockRef load = cj_new_bb(L, "dict_iter_load"), done = cj_new_bb(L, "dict_iter");
    LLVMBuildCondBr(B, *ok, load, done);
    LLVMPositionBuilderAtEnd(B, load);
    LLVMBuildStore(B, entry_yield(L, e, it), slot);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    return LLVMBuildLoad2(B, yt, slot, "");
}
