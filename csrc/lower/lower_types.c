/* lower_types.c: cujit types as LLVM types (their C-side layout, which these match, is
 * types/layout.c's), and casts between types.
 * Arrays are {T* data, i8* parent, [n x i64] shape, [n x i64] strides} (strides in bytes;
 * parent is the Python object owning the memory, borrowed for the call). Types without data
 * (None, compile-time objects, omitted arguments) are the empty struct. Iterators are pointers
 * to their state. Records are pointers to their bytes (in an array, or a record argument's).
 * An OptionalType(T) is {T, i1 valid} (casts in lower_optional.c). */
#include "lower/lower_internal.h"

#include <math.h>

LLVMValueRef cj_i64(cj_lower *L, long long v) {
    return LLVMConstInt(LLVMInt64TypeInContext(L->ctx), (unsigned long long)v, 1);
}

LLVMValueRef cj_empty(cj_lower *L) {
    return LLVMConstNull(LLVMStructTypeInContext(L->ctx, NULL, 0, 0));
}

static LLVMTypeRef float_type(LLVMContextRef ctx, int bits) {
    return bits == 16 ? LLVMHalfTypeInContext(ctx)
           : bits == 32 ? LLVMFloatTypeInContext(ctx) : LLVMDoubleTypeInContext(ctx);
}

LLVMTypeRef cj_elem_type(LLVMContextRef ctx, const cj_type *dtype) {
    if (dtype->kind == CJ_BOOL) {
        return LLVMInt8TypeInContext(ctx);
    }
    if (dtype->kind == CJ_RECORD) { /* its bytes: the array's pointer steps by the itemsize */
        return LLVMArrayType(LLVMInt8TypeInContext(ctx), (unsigned)dtype->itemsize);
    }
    return cj_llvm_type(ctx, dtype);
}

static LLVMTypeRef i64x3(LLVMContextRef ctx) {
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
    LLVMTypeRef f[3] = {i64, i64, i64};
    return LLVMStructTypeInContext(ctx, f, 3, 0);
}

LLVMTypeRef cj_iter_state_type(LLVMContextRef ctx, const cj_type *it) {
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
    switch (it->iter_kind) {
    case CJ_ITER_RANGE:
        return i64x3(ctx); /* cur, stop, step */
    case CJ_ITER_DICT_KEYS: /* dict, position, length at the start (lower_dict.c) */
    case CJ_ITER_DICT_VALUES:
    case CJ_ITER_DICT_ITEMS:
    case CJ_ITER_SET: {
        LLVMTypeRef f[3] = {LLVMPointerType(LLVMInt8TypeInContext(ctx), 0), i64, i64};
        return LLVMStructTypeInContext(ctx, f, 3, 0);
    }
    case CJ_ITER_ARRAY:
    case CJ_ITER_TUPLE:
    case CJ_ITER_LIST:
    case CJ_ITER_UNICODE:
    case CJ_ITER_GENERATOR: { /* a generator: its frame (index unused) */
        LLVMTypeRef f[2] = {cj_llvm_type(ctx, it->source), i64}; /* container, index */
        return LLVMStructTypeInContext(ctx, f, 2, 0);
    }
    case CJ_ITER_FLAT:
    case CJ_ITER_NDENUMERATE:
    case CJ_ITER_NDINDEX: { /* array or shape, flat index, coordinates, byte offset */
        int ndim = it->iter_kind == CJ_ITER_NDINDEX ? it->source->n : it->source->ndim;
        LLVMTypeRef f[4] = {cj_llvm_type(ctx, it->source), i64,
                            LLVMArrayType(i64, (unsigned)ndim), i64}; /* lower_iter.c */
        return LLVMStructTypeInContext(ctx, f, 4, 0);
    }
    case CJ_ITER_ENUMERATE:
    case CJ_ITER_ZIP: {
        LLVMTypeRef f[64];
        for (int i = 0; i < it->n; i++) {
            f[i] = cj_iter_state_type(ctx, it->items[i]);
        }
        return LLVMStructTypeInContext(ctx, f, (unsigned)it->n, 0);
    }
    }
    return i64x3(ctx);
}

LLVMTypeRef cj_llvm_type(LLVMContextRef ctx, const cj_type *t) {
    switch (t->kind) {
    case CJ_BOOL:
        return LLVMInt1TypeInContext(ctx);
    case CJ_INT:
        return LLVMIntTypeInContext(ctx, (unsigned)t->bits);
    case CJ_FLOAT:
        return float_type(ctx, t->bits);
    case CJ_COMPLEX: {
        LLVMTypeRef f = float_type(ctx, t->bits / 2);
        LLVMTypeRef parts[2] = {f, f};
        return LLVMStructTypeInContext(ctx, parts, 2, 0);
    }
    case CJ_OPTIONAL: /* {value, i1 valid} (types/optional.c) */
    case CJ_TUPLE: {
        LLVMTypeRef items[256];
        for (int i = 0; i < t->n && i < 256; i++) {
            items[i] = cj_llvm_type(ctx, t->items[i]);
        }
        return LLVMStructTypeInContext(ctx, items, (unsigned)t->n, 0);
    }
    case CJ_ARRAY: {
        LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
        LLVMTypeRef dims = LLVMArrayType(i64, (unsigned)t->ndim);
        LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
        LLVMTypeRef f[5] = {LLVMPointerType(cj_elem_type(ctx, t->dtype), 0), i8p, dims, dims,
                            i8p}; /* abi.h: data, parent, shape, strides, meminfo */
        return LLVMStructTypeInContext(ctx, f, 5, 0);
    }
    case CJ_RANGE:
    case CJ_SLICE:
        return i64x3(ctx);
    case CJ_ITER:
        return LLVMPointerType(cj_iter_state_type(ctx, t), 0);
    case CJ_EXT: /* a StructModel: its members; a PrimitiveModel: its one; an OpaqueModel: i8* */
        if (t->bits == CJ_EXT_PRIMITIVE) {
            return cj_llvm_type(ctx, t->items[0]);
        }
        if (t->n > 0) {
            LLVMTypeRef members[64];
            for (int i = 0; i < t->n && i < 64; i++) {
                members[i] = cj_llvm_type(ctx, t->items[i]);
            }
            return LLVMStructTypeInContext(ctx, members, (unsigned)t->n, 0);
        }
        return LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
    case CJ_CPOINTER: /* the element's address in its memory type (voidptr: i8*) */
        return LLVMPointerType(t->dtype != NULL ? cj_elem_type(ctx, t->dtype)
                                                : LLVMInt8TypeInContext(ctx), 0);
    case CJ_RECORD: /* by reference: a pointer to its bytes (lower_record.c) */
    case CJ_LIST: /* abi.h: the cj_meminfo of its allocation */
    case CJ_UNICODE: /* the same (lower_str.c) */
    case CJ_DICT: /* abi/dict.h: likewise */
    case CJ_SET:  /* abi/set.h: likewise */
    case CJ_GENERATOR: /* abi/generator.h: its frame's meminfo */
        return LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
    default: /* none, void, omitted, compile-time objects, bound methods */
        return LLVMStructTypeInContext(ctx, NULL, 0, 0);
    }
}

/* ---- casts ---- */

LLVMValueRef cj_truth(cj_lower *L, LLVMValueRef v, const cj_type *t) {
    LLVMBuilderRef b = L->b;
    switch (t->kind) {
    case CJ_BOOL:
        return v;
    case CJ_INT:
        return LLVMBuildICmp(b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "truth");
    case CJ_FLOAT: /* bool(nan) is True */
        return LLVMBuildFCmp(b, LLVMRealUNE, v, LLVMConstNull(LLVMTypeOf(v)), "truth");
    case CJ_COMPLEX: {
        LLVMValueRef im;
        LLVMValueRef re = cj_complex_parts(L, v, &im);
        LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(re));
        return LLVMBuildOr(b, LLVMBuildFCmp(b, LLVMRealUNE, re, zero, ""),
                           LLVMBuildFCmp(b, LLVMRealUNE, im, zero, ""), "truth");
    }
    case CJ_TUPLE:
        return LLVMConstInt(LLVMInt1TypeInContext(L->ctx), t->n > 0, 0);
    case CJ_UNICODE:
        return LLVMBuildICmp(b, LLVMIntNE, cj_str_len(L, v), cj_i64(L, 0), "truth");
    case CJ_LIST:
        return LLVMBuildICmp(b, LLVMIntNE, cj_list_len(L, v), cj_i64(L, 0), "truth");
    case CJ_DICT:
    case CJ_SET: /* lower_dict.c: a set is a dict (abi/set.h) */
        return LLVMBuildICmp(b, LLVMIntNE, cj_dict_len_value(L, v), cj_i64(L, 0), "truth");
    case CJ_CONST_OBJ: /* a literal string's truth is its own */
        return LLVMConstInt(LLVMInt1TypeInContext(L->ctx),
                            PyUnicode_Check(t->obj) && PyUnicode_GET_LENGTH(t->obj) > 0, 0);
    default:
        return LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0);
    }
}

/* The float bounds [lo, hi) of an integer type, exact in any float type (or inf). */
static void int_bounds(cj_lower *L, LLVMTypeRef ft, const cj_type *to, LLVMValueRef *lo,
                       LLVMValueRef *hi) {
    *lo = LLVMConstReal(ft, to->is_signed ? -ldexp(1.0, to->bits - 1) : 0.0);
    *hi = LLVMConstReal(ft, ldexp(1.0, to->is_signed ? to->bits - 1 : to->bits));
    (void)L;
}

/* A float to an integer type, defined for every input (fptosi/fptoui alone give LLVM poison
 * for NaN, inf and values out of range): it saturates, and NaN is 0, as LLVM's
 * fptosi.sat and PTX's cvt.rzi (written with selects: NVVM's reader has no fptosi.sat). */
static LLVMValueRef float_to_int(cj_lower *L, LLVMValueRef v, const cj_type *to) {
    LLVMBuilderRef b = L->b;
    LLVMTypeRef tt = cj_llvm_type(L->ctx, to), ft = LLVMTypeOf(v);
    LLVMValueRef lo, hi;
    int_bounds(L, ft, to, &lo, &hi);
    LLVMValueRef above = LLVMBuildFCmp(b, LLVMRealOGE, v, hi, "");
    LLVMValueRef below = LLVMBuildFCmp(b, LLVMRealOLT, v, lo, "");
    LLVMValueRef in = LLVMBuildFCmp(b, LLVMRealOGE, v, lo, ""); /* false for NaN */
    in = LLVMBuildAnd(b, in, LLVMBuildNot(b, above, ""), "");
    LLVMValueRef safe = LLVMBuildSelect(b, in, v, LLVMConstReal(ft, 0.0), "");
    LLVMValueRef r = to->is_signed ? LLVMBuildFPToSI(b, safe, tt, "") : LLVMBuildFPToUI(b, safe, tt, "");
    cj_ub_proof(r, "operand: the value when in range, else 0");
    unsigned long long max = to->is_signed ? (1ULL << (to->bits - 1)) - 1
                                           : (to->bits == 64 ? ~0ULL : (1ULL << to->bits) - 1);
    unsigned long long min = to->is_signed ? 1ULL << (to->bits - 1) : 0; /* as bits */
    r = LLVMBuildSelect(b, above, LLVMConstInt(tt, max, 0), r, "");
    return LLVMBuildSelect(b, below, LLVMConstInt(tt, min, 0), r, "fp2int");
}

LLVMValueRef cj_float_to_int_checked(cj_lower *L, LLVMValueRef v, const cj_type *to) {
    if (L->env->error_model == CJ_ERRORS_PYTHON) {
        LLVMBuilderRef b = L->b;
        LLVMTypeRef ft = LLVMTypeOf(v);
        LLVMValueRef lo, hi, inf = LLVMConstReal(ft, INFINITY);
        int_bounds(L, ft, to, &lo, &hi);
        cj_emit_raise_if(L, LLVMBuildFCmp(b, LLVMRealUNO, v, v, ""), CJ_EXC_FLOAT_NAN);
        LLVMValueRef neg_inf = LLVMBuildFNeg(b, inf, "");
        cj_emit_raise_if(L, LLVMBuildOr(b, LLVMBuildFCmp(b, LLVMRealOEQ, v, inf, ""),
                                        LLVMBuildFCmp(b, LLVMRealOEQ, v, neg_inf, ""), ""),
                         CJ_EXC_FLOAT_INF);
        cj_emit_raise_if(L, LLVMBuildOr(b, LLVMBuildFCmp(b, LLVMRealOGE, v, hi, ""),
                                        LLVMBuildFCmp(b, LLVMRealOLT, v, lo, ""), ""),
                         CJ_EXC_FLOAT_RANGE);
    }
    return float_to_int(L, v, to);
}

/* A scalar (bool/int/float) to a real scalar type. */
static LLVMValueRef cast_real(cj_lower *L, LLVMValueRef v, const cj_type *from,
                              const cj_type *to) {
    LLVMBuilderRef b = L->b;
    LLVMTypeRef tt = cj_llvm_type(L->ctx, to);
    if (to->kind == CJ_BOOL) {
        return cj_truth(L, v, from);
    }
    int from_int = from->kind == CJ_INT || from->kind == CJ_BOOL;
    int from_signed = from->kind == CJ_INT && from->is_signed;
    if (to->kind == CJ_INT) {
        if (from_int) {
            int fb = from->kind == CJ_BOOL ? 1 : from->bits;
            if (fb == to->bits) {
                return v;
            }
            if (fb > to->bits) {
                return LLVMBuildTrunc(b, v, tt, "");
            }
            return from_signed ? LLVMBuildSExt(b, v, tt, "") : LLVMBuildZExt(b, v, tt, "");
        }
        return float_to_int(L, v, to);
    }
    /* to float */
    if (from_int) {
        return from_signed ? LLVMBuildSIToFP(b, v, tt, "") : LLVMBuildUIToFP(b, v, tt, "");
    }
    if (from->bits == to->bits) {
        return v;
    }
    return from->bits < to->bits ? LLVMBuildFPExt(b, v, tt, "") : LLVMBuildFPTrunc(b, v, tt, "");
}

static LLVMValueRef cast_tuple(cj_lower *L, LLVMValueRef v, const cj_type *from,
                               const cj_type *to) {
    LLVMValueRef r = LLVMGetUndef(cj_llvm_type(L->ctx, to));
    for (int i = 0; i < to->n; i++) {
        LLVMValueRef item = LLVMBuildExtractValue(L->b, v, (unsigned)i, "");
        item = cj_cast(L, item, from->items[i], to->items[i]);
        if (item == NULL) {
            return NULL;
        }
        r = LLVMBuildInsertValue(L->b, r, item, (unsigned)i, "");
    }
    return r;
}

LLVMValueRef cj_cast(cj_lower *L, LLVMValueRef v, const cj_type *from, const cj_type *to) {
    if (from->kind == CJ_LIST && to->kind == CJ_LIST && from->dtype != NULL &&
        to->dtype != NULL && from->dtype != to->dtype) { /* two lists merged (numba's too) */
        PyErr_Format(cj_LoweringError, "cujit cannot convert %s to %s (two lists of different "
                     "item types assigned to one variable)", from->name, to->name);
        return NULL;
    }
    if (from == to || (from->kind == CJ_LIST && to->kind == CJ_LIST)) {
        return v; /* every list is its meminfo (an empty literal's type is refined) */
    }
    if (from->kind == CJ_OPTIONAL || to->kind == CJ_OPTIONAL) {
        return cj_cast_optional(L, v, from, to); /* lower_optional.c */
    }
    if (to->kind == CJ_UNICODE && cj_type_is_str(from)) {
        return cj_str_literal(L, from->obj); /* borrowed: it is never freed */
    }
    if (cj_type_is_number(from) && cj_type_is_number(to)) {
        if (to->kind == CJ_COMPLEX) {
            const cj_type *part = cj_type_float(to->bits / 2);
            LLVMValueRef re, im;
            if (from->kind == CJ_COMPLEX) {
                const cj_type *fpart = cj_type_float(from->bits / 2);
                re = cast_real(L, cj_complex_parts(L, v, &im), fpart, part);
                im = cast_real(L, im, fpart, part);
            } else {
                re = cast_real(L, v, from, part);
                im = LLVMConstNull(cj_llvm_type(L->ctx, part));
            }
            return cj_make_complex(L, to, re, im);
        }
        if (from->kind == CJ_COMPLEX) {
            if (to->kind == CJ_BOOL) {
                return cj_truth(L, v, from);
            }
            LLVMValueRef im;
            return cast_real(L, cj_complex_parts(L, v, &im), cj_type_float(from->bits / 2), to);
        }
        return cast_real(L, v, from, to);
    }
    if (from->kind == CJ_TUPLE && to->kind == CJ_TUPLE && from->n == to->n) {
        return cast_tuple(L, v, from, to);
    }
    if (from->kind == CJ_ARRAY && to->kind == CJ_ARRAY && from->dtype == to->dtype &&
        from->ndim == to->ndim) {
        return v; /* layout and read-only flags do not change the representation */
    }
    if (from->kind == CJ_ARRAY && to->kind == CJ_CPOINTER) { /* ffi.from_buffer: its data */
        return LLVMBuildBitCast(L->b, cj_array_bytes(L, v), cj_llvm_type(L->ctx, to), "ptr");
    }
    if (from->kind == CJ_CPOINTER && to->kind == CJ_CPOINTER) { /* T* -> void* */
        return LLVMBuildBitCast(L->b, v, cj_llvm_type(L->ctx, to), "ptr");
    }
    if (LLVMTypeOf(v) == cj_llvm_type(L->ctx, to)) {
        return v;
    }
    if (from->kind == CJ_EXT || to->kind == CJ_EXT) { /* lower_cast (lower_extension.c) */
        return cj_lower_extension_cast(L, v, from, to);
    }
    PyErr_Format(cj_LoweringError, "cujit cannot convert %s to %s", from->name, to->name);
    return NULL;
}
