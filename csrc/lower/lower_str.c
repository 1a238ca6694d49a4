/* lower_str.c: strings (typing/strings.c's CJ_F_STR instructions), CPU only. A string is the
 * cj_meminfo * of its allocation (abi.h's cj_str); the work is abi/unicode.c's, called by
 * name; results that are new strings or lists are handed over to their variable. A literal
 * is a module global laid out as an allocation with a count that never reaches zero, so using
 * one costs no allocation and it is never freed. requires: the CJ_CALL_STR records. */
#include "lower/lower_internal.h"

#include <string.h>

#define IMMORTAL (1LL << 60)

static LLVMTypeRef i8p_t(cj_lower *L) { return LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0); }
static LLVMTypeRef i64_t(cj_lower *L) { return LLVMInt64TypeInContext(L->ctx); }
static LLVMTypeRef i32_t(cj_lower *L) { return LLVMInt32TypeInContext(L->ctx); }

/* The literal `s` (a str): {cj_meminfo, cj_str, code points} in a global (abi.h's layouts). */
LLVMValueRef cj_str_literal(cj_lower *L, PyObject *s) {
    LLVMTypeRef i8p = i8p_t(L), i64 = i64_t(L), i32 = i32_t(L);
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    int kind = PyUnicode_KIND(s);
    LLVMTypeRef bytes_t = LLVMArrayType(LLVMInt8TypeInContext(L->ctx), (unsigned)((n + 1) * kind));
    LLVMTypeRef mi_t[5] = {i64, i8p, i64, i8p, i8p};
    LLVMTypeRef str_t[6] = {i64, i32, i32, i64, i8p, i8p};
    LLVMTypeRef f[3] = {LLVMStructTypeInContext(L->ctx, mi_t, 5, 0),
                        LLVMStructTypeInContext(L->ctx, str_t, 6, 0), bytes_t};
    LLVMTypeRef gt = LLVMStructTypeInContext(L->ctx, f, 3, 0);
    LLVMValueRef g = LLVMAddGlobal(L->mod, gt, "cj.const.str");
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMValueRef zero = LLVMConstInt(i32, 0, 0);
    LLVMValueRef at_str[2] = {zero, LLVMConstInt(i32, 1, 0)};
    LLVMValueRef at_bytes[3] = {zero, LLVMConstInt(i32, 2, 0), zero};
    LLVMValueRef str_p = LLVMConstBitCast(LLVMConstInBoundsGEP2(gt, g, at_str, 2), i8p);
    LLVMValueRef data_p = LLVMConstInBoundsGEP2(gt, g, at_bytes, 3);
    LLVMValueRef mi[5] = {LLVMConstInt(i64, (unsigned long long)IMMORTAL, 0), str_p,
                          LLVMConstInt(i64, 40, 0), LLVMConstNull(i8p), LLVMConstNull(i8p)};
    LLVMValueRef st[6] = {LLVMConstInt(i64, (unsigned long long)n, 0),
                          LLVMConstInt(i32, (unsigned long long)kind, 0),
                          LLVMConstInt(i32, PyUnicode_IS_ASCII(s) ? 1 : 0, 0),
                          LLVMConstInt(i64, (unsigned long long)-1LL, 1), data_p,
                          LLVMConstNull(i8p)};
    LLVMValueRef parts[3] = {LLVMConstStructInContext(L->ctx, mi, 5, 0),
                             LLVMConstStructInContext(L->ctx, st, 6, 0),
                             LLVMConstStringInContext(L->ctx, PyUnicode_DATA(s),
                                                      (unsigned)((n + 1) * kind), 1)};
    LLVMSetInitializer(g, LLVMConstStructInContext(L->ctx, parts, 3, 0));
    LLVMSetAlignment(g, 64);
    return LLVMConstBitCast(g, i8p);
}

LLVMValueRef cj_str_len(cj_lower *L, LLVMValueRef s) {
    LLVMTypeRef i8p = i8p_t(L);
    LLVMValueRef field = LLVMBuildBitCast(L->b, s, LLVMPointerType(i8p, 0), "");
    LLVMValueRef one = cj_i64(L, 1);
    LLVMValueRef data = LLVMBuildLoad2(L->b, i8p, LLVMBuildGEP2(L->b, i8p, field, &one, 1, ""),
                                       "str.header"); /* abi.h: cj_meminfo's data */
    LLVMValueRef len_p = LLVMBuildBitCast(L->b, data, LLVMPointerType(i64_t(L), 0), "");
    return LLVMBuildLoad2(L->b, i64_t(L), len_p, "str.len");
}

/* The string in variable `var` (a literal or unicode_type): borrowed. */
static LLVMValueRef operand(cj_lower *L, int var) {
    const cj_type *t = CJ_VAR(L->ir, var)->type;
    return cj_cast(L, cj_load_var(L, var), t, cj_t_unicode);
}

static LLVMValueRef int_operand(cj_lower *L, int var, long long absent) {
    if (var < 0) {
        return cj_i64(L, absent);
    }
    return cj_cast(L, cj_load_var(L, var), CJ_VAR(L->ir, var)->type, cj_t_int64);
}

/* abi/unicode.c's `name`(args) returning `ret` (params: i8* for strings, else their types). */
LLVMValueRef cj_str_call(cj_lower *L, const char *name, LLVMTypeRef ret, LLVMValueRef *args,
                            unsigned n) {
    LLVMTypeRef params[8];
    if (n > 8) {
        CJ_UNREACHABLE("a string run-time function takes at most 8 arguments");
    }
    for (unsigned i = 0; i < n; i++) {
        params[i] = LLVMTypeOf(args[i]);
    }
    LLVMValueRef fn = cj_runtime_fn(L, name, ret, params, n);
    return LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(fn)), fn, args, n, "");
}

/* A call returning a new string (or list): MemoryError when it gave NULL. */
LLVMValueRef cj_str_call_new(cj_lower *L, const char *name, LLVMValueRef *args, unsigned n) {
    LLVMValueRef r = cj_str_call(L, name, i8p_t(L), args, n);
    if (cj_emit_raise_text_if(L, LLVMBuildIsNull(L->b, r, ""), PyExc_MemoryError,
                              "cannot allocate memory for a string") < 0) {
        return NULL;
    }
    return r;
}

static LLVMValueRef nonzero(cj_lower *L, LLVMValueRef v) {
    return LLVMBuildICmp(L->b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
}

LLVMValueRef cj_str_hash_value(cj_lower *L, LLVMValueRef s) {
    return cj_str_call(L, "cj_str_hash", i64_t(L), &s, 1);
}

/* s == t ... s >= t, by the one equality and order of abi/unicode.c. */
LLVMValueRef cj_str_compare_lower(cj_lower *L, int op, LLVMValueRef a, LLVMValueRef b) {
    if (op == CJ_EQ || op == CJ_NE) {
        LLVMValueRef args[2] = {a, b};
        LLVMValueRef eq = nonzero(L, cj_str_call(L, "cj_str_equal", i32_t(L), args, 2));
        return op == CJ_EQ ? eq : LLVMBuildNot(L->b, eq, "");
    }
    static const LLVMIntPredicate preds[] = {[CJ_LT] = LLVMIntSLT, [CJ_LE] = LLVMIntSLE,
                                             [CJ_GT] = LLVMIntSGT, [CJ_GE] = LLVMIntSGE};
    LLVMValueRef args[2] = {a, b};
    LLVMValueRef c = cj_str_call(L, "cj_str_compare", i32_t(L), args, 2);
    return LLVMBuildICmp(L->b, preds[op], c, LLVMConstInt(i32_t(L), 0, 0), "");
}

LLVMValueRef cj_str_getitem_lower(cj_lower *L, cj_instr *in, LLVMValueRef s) {
    int iv = in->args[1];
    LLVMValueRef len = cj_str_len(L, s);
    if (CJ_VAR(L->ir, iv)->type->kind == CJ_SLICE) {
        LLVMValueRef start, step, n;
        cj_slice_indices(L, cj_load_var(L, iv), len, &start, &step, &n);
        LLVMValueRef args[4] = {s, start, step, n};
        return cj_str_call_new(L, "cj_str_slice", args, 4);
    }
    LLVMValueRef i = cj_list_checked_index(L, cj_load_var(L, iv), CJ_VAR(L->ir, iv)->type, len,
                                           "string index out of range");
    LLVMValueRef args[2] = {s, i};
    return i ? cj_str_call_new(L, "cj_str_getitem", args, 2) : NULL;
}

/* str(x) of an int or a float (a string is itself: *fresh 0). */
LLVMValueRef cj_str_from_lower(cj_lower *L, int var, int *fresh) {
    const cj_type *t = CJ_VAR(L->ir, var)->type;
    if (cj_type_is_str(t)) {
        *fresh = 0;
        return operand(L, var);
    }
    if (t->kind == CJ_BOOL) {
        LLVMValueRef v = LLVMBuildZExt(L->b, cj_load_var(L, var), i32_t(L), "");
        return cj_str_call_new(L, "cj_str_from_bool", &v, 1);
    }
    if (t->kind == CJ_FLOAT) {
        LLVMValueRef d = cj_cast(L, cj_load_var(L, var), t, cj_t_float64);
        return cj_str_call_new(L, "cj_str_from_double", &d, 1);
    }
    const cj_type *it = t->is_signed ? cj_t_int64 : cj_t_uint64;
    LLVMValueRef args[2] = {cj_cast(L, cj_load_var(L, var), t, it),
                            LLVMConstInt(i32_t(L), t->is_signed ? 0 : 1, 0)};
    return cj_str_call_new(L, "cj_str_from_int", args, 2);
}

LLVMValueRef cj_str_ord_chr(cj_lower *L, int op, int var) {
    if (op == CJ_STR_ORD) {
        LLVMValueRef s = operand(L, var);
        LLVMValueRef c = cj_str_call(L, "cj_str_ord", i64_t(L), &s, 1);
        LLVMValueRef bad = LLVMBuildICmp(L->b, LLVMIntSLT, c, cj_i64(L, 0), "");
        return cj_emit_raise_text_if(L, bad, PyExc_TypeError, "ord() expected a character") < 0
                   ? NULL : c;
    }
    LLVMValueRef code = int_operand(L, var, 0);
    LLVMValueRef bad = LLVMBuildICmp(L->b, LLVMIntUGT, code, cj_i64(L, 0x10FFFF), "");
    if (cj_emit_raise_text_if(L, bad, PyExc_ValueError, "chr() arg not in range(0x110000)") < 0) {
        return NULL;
    }
    return cj_str_call_new(L, "cj_str_chr", &code, 1);
}

/* The iterator's next character (a string the iterator's hold keeps; borrowed by the loop). */
LLVMValueRef cj_str_iter_next(cj_lower *L, LLVMValueRef state, const cj_type *it,
                              LLVMValueRef *ok) {
    LLVMTypeRef st = cj_iter_state_type(L->ctx, it);
    LLVMValueRef s = LLVMBuildLoad2(L->b, i8p_t(L), LLVMBuildStructGEP2(L->b, st, state, 0, ""),
                                    "");
    LLVMValueRef ip = LLVMBuildStructGEP2(L->b, st, state, 1, "");
    LLVMValueRef i = LLVMBuildLoad2(L->b, i64_t(L), ip, "");
    *ok = LLVMBuildICmp(L->b, LLVMIntSLT, i, cj_str_len(L, s), "");
    LLVMBasicBlockRef more = cj_new_bb(L, "str.next"), done = cj_new_bb(L, "str.next.done");
    LLVMBasicBlockRef from = LLVMGetInsertBlock(L->b);
    LLVMBuildCondBr(L->b, *ok, more, done);
    LLVMPositionBuilderAtEnd(L->b, more);
    LLVMValueRef args[2] = {s, i};
    LLVMValueRef c = cj_str_call_new(L, "cj_str_getitem", args, 2);
    if (c == NULL || cj_hold(L, c, cj_t_unicode) < 0) {
        return NULL;
    }
    cj_decref(L, c, cj_t_unicode); /* the hold keeps it until the next step or the exit */
    LLVMBuildStore(L->b, LLVMBuildAdd(L->b, i, cj_i64(L, 1), ""), ip);
    LLVMBasicBlockRef got = LLVMGetInsertBlock(L->b);
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, done);
    LLVMValueRef phi = LLVMBuildPhi(L->b, i8p_t(L), "char");
    LLVMValueRef vals[2] = {LLVMConstNull(i8p_t(L)), c};
    LLVMBasicBlockRef bbs[2] = {from, got};
    LLVMAddIncoming(phi, vals, bbs, 2);
    return phi;
}
