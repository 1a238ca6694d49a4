/* lower_str_methods.c: the string methods beyond lower_str_ops.c's, one CJ_CALL_STR record
 * each (typing/strings.c): case mappings (casefold swapcase title capitalize), padding
 * (center ljust rjust zfill expandtabs), index/rindex, partition/rpartition, rsplit,
 * splitlines, and list(s), over abi/unicode_case.c and abi/unicode_layout.c. Each returns a
 * new value (or an i64 for index); the errors CPython raises are raised here. */
#include "lower/lower_internal.h"

static LLVMTypeRef i8p_t(cj_lower *L) { return LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0); }
static LLVMTypeRef i32_t(cj_lower *L) { return LLVMInt32TypeInContext(L->ctx); }
static LLVMValueRef i32c(cj_lower *L, int v) { return LLVMConstInt(i32_t(L), (unsigned)v, 0); }

/* ValueError('empty separator') when `sep` (given) is empty, as CPython's. */
static int check_separator(cj_lower *L, const cj_call *call, int i) {
    if (call->args[i] < 0) {
        return 0;
    }
    LLVMValueRef len = cj_str_len(L, cj_str_arg(L, call, i));
    LLVMValueRef empty = LLVMBuildICmp(L->b, LLVMIntEQ, len, cj_i64(L, 0), "");
    return cj_emit_raise_text_if(L, empty, PyExc_ValueError, "empty separator");
}

/* s.center/ljust/rjust(width, fillchar): the fill character must be one character. */
static LLVMValueRef pad(cj_lower *L, const cj_call *call, LLVMValueRef s, int which) {
    LLVMValueRef fill = cj_str_arg(L, call, 2);
    if (call->args[2] >= 0) {
        LLVMValueRef len = cj_str_len(L, fill);
        LLVMValueRef bad = LLVMBuildICmp(L->b, LLVMIntNE, len, cj_i64(L, 1), "");
        if (cj_emit_raise_text_if(L, bad, PyExc_TypeError,
                                  "The fill character must be exactly one character long") < 0) {
            return NULL;
        }
    }
    LLVMValueRef args[4] = {s, cj_str_arg_int(L, call, 1, 0), fill, i32c(L, which)};
    return cj_str_call_new(L, "cj_str_pad", args, 4);
}

/* s.index / s.rindex: find, and ValueError('substring not found') when it is not there. */
static LLVMValueRef index_of(cj_lower *L, const cj_call *call, LLVMValueRef s, int reverse) {
    LLVMValueRef args[5] = {s, cj_str_arg(L, call, 1), cj_str_arg_int(L, call, 2, 0),
                            cj_str_arg_int(L, call, 3, INT64_MAX), i32c(L, reverse)};
    LLVMValueRef at = cj_str_call(L, "cj_str_find", LLVMInt64TypeInContext(L->ctx), args, 5);
    LLVMValueRef missing = LLVMBuildICmp(L->b, LLVMIntSLT, at, cj_i64(L, 0), "");
    if (cj_emit_raise_text_if(L, missing, PyExc_ValueError, "substring not found") < 0) {
        return NULL;
    }
    return at;
}

/* s.partition(sep) / s.rpartition(sep): a tuple of three new strings. */
static LLVMValueRef partition(cj_lower *L, const cj_call *call, LLVMValueRef s, int reverse) {
    if (check_separator(L, call, 1) < 0) {
        return NULL;
    }
    LLVMValueRef parts = cj_entry_alloca(L, LLVMArrayType(i8p_t(L), 3), "parts");
    LLVMValueRef out = LLVMBuildBitCast(L->b, parts, LLVMPointerType(i8p_t(L), 0), "");
    LLVMValueRef args[4] = {s, cj_str_arg(L, call, 1), i32c(L, reverse), out};
    LLVMValueRef rc = cj_str_call(L, "cj_str_partition", i32_t(L), args, 4);
    LLVMValueRef failed = LLVMBuildICmp(L->b, LLVMIntNE, rc, i32c(L, 0), "");
    if (cj_emit_raise_text_if(L, failed, PyExc_MemoryError,
                              "cannot allocate memory for a string") < 0) {
        return NULL;
    }
    const cj_type *three[3] = {cj_t_unicode, cj_t_unicode, cj_t_unicode};
    LLVMValueRef tuple = LLVMGetUndef(cj_llvm_type(L->ctx, cj_type_tuple(3, three)));
    for (unsigned i = 0; i < 3; i++) {
        LLVMValueRef at = LLVMBuildGEP2(L->b, i8p_t(L), out, (LLVMValueRef[]){cj_i64(L, i)},
                                        1, "");
        LLVMValueRef part = LLVMBuildLoad2(L->b, i8p_t(L), at, "");
        tuple = LLVMBuildInsertValue(L->b, tuple, part, i, "");
    }
    return tuple;
}

/* int(s) / float(s): CPython's ValueError (its text without the value: a constant here). */
static LLVMValueRef to_number(cj_lower *L, LLVMValueRef s, int to_int) {
    LLVMTypeRef t = to_int ? LLVMInt64TypeInContext(L->ctx) : LLVMDoubleTypeInContext(L->ctx);
    LLVMValueRef slot = cj_entry_alloca(L, t, "number");
    LLVMValueRef args[2] = {s, slot};
    LLVMValueRef rc = cj_str_call(L, to_int ? "cj_str_to_int" : "cj_str_to_float", i32_t(L),
                                  args, 2);
    LLVMValueRef bad = LLVMBuildICmp(L->b, LLVMIntEQ, rc, i32c(L, -1), "");
    LLVMValueRef big = LLVMBuildICmp(L->b, LLVMIntEQ, rc, i32c(L, -2), "");
    LLVMValueRef oom = LLVMBuildICmp(L->b, LLVMIntEQ, rc, i32c(L, -3), "");
    if (cj_emit_raise_text_if(L, bad, PyExc_ValueError,
                              to_int ? "invalid literal for int() with base 10"
                                     : "could not convert string to float") < 0 ||
        cj_emit_raise_text_if(L, big, PyExc_OverflowError,
                              "int too large to convert to int64") < 0 ||
        cj_emit_raise_text_if(L, oom, PyExc_MemoryError, NULL) < 0) {
        return NULL;
    }
    return LLVMBuildLoad2(L->b, t, slot, "");
}

static LLVMValueRef case_map(cj_lower *L, LLVMValueRef s, int mode) {
    LLVMValueRef args[2] = {s, i32c(L, mode)};
    return cj_str_call_new(L, "cj_str_case", args, 2);
}

LLVMValueRef cj_str_method_more(cj_lower *L, const cj_call *call, int *fresh) {
    LLVMValueRef s = cj_str_arg(L, call, 0);
    LLVMValueRef args[3] = {s, NULL, NULL};
    *fresh = 1;
    switch (call->builtin) {
    case CJ_STR_CASEFOLD:
        return case_map(L, s, CJ_CASE_CASEFOLD);
    case CJ_STR_SWAPCASE:
        return case_map(L, s, CJ_CASE_SWAPCASE);
    case CJ_STR_TITLE:
        return case_map(L, s, CJ_CASE_TITLE);
    case CJ_STR_CAPITALIZE:
        return case_map(L, s, CJ_CASE_CAPITALIZE);
    case CJ_STR_CENTER:
    case CJ_STR_LJUST:
    case CJ_STR_RJUST:
        return pad(L, call, s, call->builtin - CJ_STR_CENTER);
    case CJ_STR_ZFILL:
        args[1] = cj_str_arg_int(L, call, 1, 0);
        return cj_str_call_new(L, "cj_str_zfill", args, 2);
    case CJ_STR_EXPANDTABS:
        args[1] = cj_str_arg_int(L, call, 1, 8);
        return cj_str_call_new(L, "cj_str_expandtabs", args, 2);
    case CJ_STR_INDEX:
    case CJ_STR_RINDEX:
        *fresh = 0;
        return index_of(L, call, s, call->builtin == CJ_STR_RINDEX);
    case CJ_STR_PARTITION:
    case CJ_STR_RPARTITION:
        return partition(L, call, s, call->builtin == CJ_STR_RPARTITION);
    case CJ_STR_RSPLIT:
        if (check_separator(L, call, 1) < 0) {
            return NULL;
        }
        args[1] = cj_str_arg(L, call, 1);
        args[2] = cj_str_arg_int(L, call, 2, -1);
        return cj_str_call_new(L, "cj_str_rsplit", args, 3);
    case CJ_STR_SPLITLINES:
        args[1] = LLVMBuildTrunc(L->b, cj_str_arg_int(L, call, 1, 0), i32_t(L), "");
        args[1] = LLVMBuildZExt(L->b, LLVMBuildICmp(L->b, LLVMIntNE, args[1], i32c(L, 0), ""),
                                i32_t(L), "");
        return cj_str_call_new(L, "cj_str_splitlines", args, 2);
    case CJ_STR_CHARS:
        return cj_str_call_new(L, "cj_str_chars", args, 1);
    case CJ_STR_TO_INT:
    case CJ_STR_TO_FLOAT:
        *fresh = 0;
        return to_number(L, s, call->builtin == CJ_STR_TO_INT);
    default:
        PyErr_SetString(cj_LoweringError, "cujit internal error: unknown string method");
        return NULL;
    }
}
