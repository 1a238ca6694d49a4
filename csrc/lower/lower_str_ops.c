/* lower_str_ops.c: the instructions typing/strings.c marked CJ_F_STR, one CJ_CALL_STR record
 * each: operators, s[i], s[a:b:c], len/str/repr/ord/chr/hash, iter(s) and the methods, over
 * lower_str.c's helpers and abi/unicode.c's functions. A new string or list is handed over
 * to the instruction's variable. */
#include "lower/lower_internal.h"

static LLVMTypeRef i8p_t(cj_lower *L) { return LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0); }
static LLVMTypeRef i32_t(cj_lower *L) { return LLVMInt32TypeInContext(L->ctx); }

LLVMValueRef cj_str_arg(cj_lower *L, const cj_call *call, int i) {
    int var = call->args[i];
    if (var < 0) {
        return LLVMConstNull(i8p_t(L)); /* an omitted optional string: NULL (abi/unicode.c) */
    }
    return cj_cast(L, cj_load_var(L, var), CJ_VAR(L->ir, var)->type, cj_t_unicode);
}

LLVMValueRef cj_str_arg_int(cj_lower *L, const cj_call *call, int i, long long absent) {
    int var = call->args[i];
    if (var < 0 || i >= call->nargs) {
        return cj_i64(L, absent);
    }
    return cj_cast(L, cj_load_var(L, var), CJ_VAR(L->ir, var)->type, cj_t_int64);
}

static LLVMValueRef truth32(cj_lower *L, LLVMValueRef v) {
    return LLVMBuildICmp(L->b, LLVMIntNE, v, LLVMConstInt(LLVMTypeOf(v), 0, 0), "");
}

static LLVMValueRef i32c(cj_lower *L, int v) { return LLVMConstInt(i32_t(L), (unsigned)v, 0); }

/* s.split(sep): ValueError('empty separator') for an empty sep, as CPython. */
static LLVMValueRef split(cj_lower *L, const cj_call *call, LLVMValueRef s) {
    LLVMValueRef sep = cj_str_arg(L, call, 1);
    if (call->args[1] >= 0) {
        LLVMValueRef empty = LLVMBuildICmp(L->b, LLVMIntEQ, cj_str_len(L, sep), cj_i64(L, 0), "");
        if (cj_emit_raise_text_if(L, empty, PyExc_ValueError, "empty separator") < 0) {
            return NULL;
        }
    }
    LLVMValueRef args[3] = {s, sep, cj_str_arg_int(L, call, 2, -1)};
    return cj_str_call_new(L, "cj_str_split", args, 3);
}

/* A method (receiver call->args[0]); *fresh when the result is a new string or list. */
static LLVMValueRef method(cj_lower *L, const cj_call *call, int *fresh) {
    int op = call->builtin;
    LLVMValueRef s = cj_str_arg(L, call, 0), args[4] = {s, NULL, NULL, NULL};
    *fresh = 0;
    switch (op) {
    case CJ_STR_STARTSWITH:
    case CJ_STR_ENDSWITH:
        args[1] = cj_str_arg(L, call, 1);
        args[2] = i32c(L, op == CJ_STR_ENDSWITH);
        return truth32(L, cj_str_call(L, "cj_str_startswith", i32_t(L), args, 3));
    case CJ_STR_FIND:
    case CJ_STR_RFIND:
        args[1] = cj_str_arg(L, call, 1);
        args[2] = cj_str_arg_int(L, call, 2, 0);
        args[3] = cj_str_arg_int(L, call, 3, INT64_MAX);
        LLVMValueRef a5[5] = {s, args[1], args[2], args[3], i32c(L, op == CJ_STR_RFIND)};
        return cj_str_call(L, "cj_str_find", LLVMInt64TypeInContext(L->ctx), a5, 5);
    case CJ_STR_COUNT:
        args[1] = cj_str_arg(L, call, 1);
        args[2] = cj_str_arg_int(L, call, 2, 0);
        args[3] = cj_str_arg_int(L, call, 3, INT64_MAX);
        return cj_str_call(L, "cj_str_count_range", LLVMInt64TypeInContext(L->ctx), args, 4);
    default:
        break;
    }
    if (op >= CJ_STR_ISDIGIT_M && op <= CJ_STR_ISPRINTABLE_M) {
        args[1] = i32c(L, CJ_STR_ISDIGIT + (op - CJ_STR_ISDIGIT_M));
        return truth32(L, cj_str_call(L, "cj_str_is", i32_t(L), args, 2));
    }
    *fresh = 1;
    switch (op) {
    case CJ_STR_SPLIT:
        return split(L, call, s);
    case CJ_STR_JOIN:
        args[1] = cj_load_var(L, call->args[1]);
        return cj_str_call_new(L, "cj_str_join", args, 2);
    case CJ_STR_STRIP:
    case CJ_STR_LSTRIP:
    case CJ_STR_RSTRIP:
        args[1] = cj_str_arg(L, call, 1);
        args[2] = i32c(L, op == CJ_STR_STRIP ? 3 : op == CJ_STR_LSTRIP ? 1 : 2);
        return cj_str_call_new(L, "cj_str_strip", args, 3);
    case CJ_STR_LOWER:
    case CJ_STR_UPPER:
        args[1] = i32c(L, op == CJ_STR_UPPER ? CJ_CASE_UPPER : CJ_CASE_LOWER);
        return cj_str_call_new(L, "cj_str_case", args, 2);
    case CJ_STR_REPLACE:
        args[1] = cj_str_arg(L, call, 1);
        args[2] = cj_str_arg(L, call, 2);
        args[3] = cj_str_arg_int(L, call, 3, -1);
        return cj_str_call_new(L, "cj_str_replace", args, 4);
    default:
        return cj_str_method_more(L, call, fresh);
    }
}

/* s in seq: a list of strings (abi/unicode.c), or a tuple of them, item by item. */
static LLVMValueRef in_sequence(cj_lower *L, cj_instr *in, const cj_call *call) {
    const cj_type *t = CJ_VAR(L->ir, call->args[0])->type;
    LLVMValueRef seq = cj_load_var(L, call->args[0]), s = cj_str_arg(L, call, 1), found;
    if (t->kind == CJ_LIST) {
        LLVMValueRef args[2] = {seq, s};
        found = truth32(L, cj_str_call(L, "cj_str_in_list", i32_t(L), args, 2));
    } else {
        found = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0);
        for (int i = 0; i < t->n; i++) {
            LLVMValueRef item = cj_cast(L, LLVMBuildExtractValue(L->b, seq, (unsigned)i, ""),
                                        t->items[i], cj_t_unicode);
            LLVMValueRef args[2] = {item, s};
            found = LLVMBuildOr(L->b, found,
                                truth32(L, cj_str_call(L, "cj_str_equal", i32_t(L), args, 2)),
                                "");
        }
    }
    return in->sub == CJ_NOTIN ? LLVMBuildNot(L->b, found, "") : found;
}

/* The operators and builtins (not methods); *fresh as for method(). */
static LLVMValueRef operation(cj_lower *L, cj_instr *in, const cj_call *call, int *fresh) {
    int op = call->builtin;
    LLVMValueRef args[3];
    *fresh = 1;
    switch (op) {
    case CJ_STR_CONCAT:
        args[0] = cj_str_arg(L, call, 0);
        args[1] = cj_str_arg(L, call, 1);
        return cj_str_call_new(L, "cj_str_concat", args, 2);
    case CJ_STR_REPEAT:
        args[0] = cj_str_arg(L, call, 0);
        args[1] = cj_str_arg_int(L, call, 1, 0);
        return cj_str_call_new(L, "cj_str_repeat", args, 2);
    case CJ_STR_GETITEM:
    case CJ_STR_SLICE:
        return cj_str_getitem_lower(L, in, cj_str_arg(L, call, 0));
    case CJ_STR_FROM:
        return cj_str_from_lower(L, call->args[0], fresh);
    case CJ_STR_REPR:
        args[0] = cj_str_arg(L, call, 0);
        return cj_str_call_new(L, "cj_str_repr", args, 1);
    case CJ_STR_CHR:
        return cj_str_ord_chr(L, op, call->args[0]);
    default:
        break;
    }
    *fresh = 0;
    switch (op) {
    case CJ_STR_COMPARE:
        return cj_str_compare_lower(L, in->sub, cj_str_arg(L, call, 0), cj_str_arg(L, call, 1));
    case CJ_STR_CONTAINS: {
        LLVMValueRef a5[5] = {cj_str_arg(L, call, 0), cj_str_arg(L, call, 1), cj_i64(L, 0),
                              cj_i64(L, INT64_MAX), i32c(L, 0)};
        LLVMValueRef at = cj_str_call(L, "cj_str_find", LLVMInt64TypeInContext(L->ctx), a5, 5);
        LLVMValueRef found = LLVMBuildICmp(L->b, LLVMIntSGE, at, cj_i64(L, 0), "");
        return in->sub == CJ_NOTIN ? LLVMBuildNot(L->b, found, "") : found;
    }
    case CJ_STR_LEN:
        return cj_str_len(L, cj_str_arg(L, call, 0));
    case CJ_STR_IN_SEQ:
        return in_sequence(L, in, call);
    case CJ_STR_BOOL:
        return cj_truth(L, cj_str_arg(L, call, 0), cj_t_unicode);
    case CJ_STR_ORD:
        return cj_str_ord_chr(L, op, call->args[0]);
    case CJ_STR_HASH:
        return cj_str_hash_value(L, cj_str_arg(L, call, 0));
    case CJ_STR_GETITER:
        return cj_lower_getiter(L, cj_str_arg(L, call, 0), cj_t_unicode, in->rtype);
    default:
        return method(L, call, fresh);
    }
}

int cj_lower_str_instr(cj_lower *L, cj_instr *in) {
    if (in->op == CJ_I_GETATTR) { /* s.find: the call reads the receiver from the GETATTR */
        return cj_store_var(L, in->dst, cj_empty(L), in->rtype);
    }
    const cj_call *call = in->resolved;
    if (call == NULL || call->kind != CJ_CALL_STR) {
        PyErr_SetString(cj_LoweringError, "cujit internal error: a string operation untyped");
        return -1;
    }
    int fresh = 0;
    LLVMValueRef r = operation(L, in, call, &fresh);
    if (r == NULL) {
        return -1;
    }
    if (in->dst < 0) {
        if (fresh) {
            cj_decref(L, r, in->rtype);
        }
        return 0;
    }
    return fresh ? cj_store_var_taking(L, in->dst, r, in->rtype)
                 : cj_store_var(L, in->dst, r, in->rtype);
}
