/* lower_slice.c: the members of a slice object, s.start, s.stop and s.step, as numba gives
 * them: a slice value is {start, stop, step} of int64 (lower.c's BUILD_SLICE) with INT64_MIN
 * for a start or stop given as None, and a None member reads as numba's default for the
 * step's sign (start 0 or INT64_MAX, stop INT64_MAX or INT64_MIN; step None is 1 already). */
#include "lower/lower_internal.h"

#include <stdint.h>
#include <string.h>

LLVMValueRef cj_lower_slice_attr(cj_lower *L, LLVMValueRef slice, const char *name) {
    unsigned field = strcmp(name, "start") == 0 ? 0 : strcmp(name, "stop") == 0 ? 1 : 2;
    LLVMValueRef v = LLVMBuildExtractValue(L->b, slice, field, "");
    if (field == 2) {
        return v;
    }
    LLVMValueRef step = LLVMBuildExtractValue(L->b, slice, 2, "");
    LLVMValueRef up = LLVMBuildICmp(L->b, LLVMIntSGT, step, cj_i64(L, 0), "");
    LLVMValueRef dflt = field == 0 ? LLVMBuildSelect(L->b, up, cj_i64(L, 0),
                                                     cj_i64(L, INT64_MAX), "")
                                   : LLVMBuildSelect(L->b, up, cj_i64(L, INT64_MAX),
                                                     cj_i64(L, INT64_MIN), "");
    LLVMValueRef none = LLVMBuildICmp(L->b, LLVMIntEQ, v, cj_i64(L, INT64_MIN), "");
    return LLVMBuildSelect(L->b, none, dflt, v, "");
}
