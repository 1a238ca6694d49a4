/* nvvm_legalize.c: makes a module (a clone we own) readable by NVVM. For sm_90 and older NVVM
 * reads LLVM 7.0.1 IR, so what LLVM 14 may put in a module that LLVM 7 did not know goes:
 *   - attribute kinds outside a small allowlist of kinds LLVM 7 knew (and that were each
 *     checked against libnvvm: tests/nvvm/test_attributes.py) are removed from functions,
 *     parameters, return values and call sites; string attributes stay (any reader accepts them);
 *   - `fneg x` (LLVM 8) becomes `fsub -0.0, x`; `freeze x` (LLVM 10) becomes x; `poison`
 *     (LLVM 12) operands and initializers become `undef`.
 * Also: the NVPTX triple and NVVM's data layout (cj_nvvm_prepare_module, which the CUDA pipeline
 * uses on every fresh module too), and !nvvmir.version when the module has none. */
#include "target/nvvm_internal.h"

#include <llvm-c/DebugInfo.h>
#include <string.h>

#define NVVM_TRIPLE "nvptx64-nvidia-cuda"
#define NVVM_DATA_LAYOUT                                                                   \
    "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-"     \
    "f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"

void cj_nvvm_prepare_module(LLVMModuleRef module) {
    LLVMSetTarget(module, NVVM_TRIPLE);
    LLVMSetDataLayout(module, NVVM_DATA_LAYOUT);
}

/* Attribute kinds kept: known to LLVM 7, plain (not type) attributes, accepted by libnvvm. */
static const char *const allowed_attributes[] = {
    /* functions and call sites */
    "alwaysinline", "noinline", "inlinehint", "nounwind", "readnone", "readonly", "writeonly",
    "argmemonly", "inaccessiblememonly", "inaccessiblemem_or_argmemonly", "norecurse",
    "speculatable", "convergent", "cold", "noreturn", "minsize", "optsize", "optnone",
    "noduplicate",
    /* parameters and return values */
    "noalias", "nocapture", "nonnull", "zeroext", "signext", "inreg", "returned", "align",
    "dereferenceable", "dereferenceable_or_null",
};
#define N_ALLOWED (sizeof(allowed_attributes) / sizeof(allowed_attributes[0]))

/* allowed_kind[k] is 1 when LLVM 14's attribute kind k is kept; filled on first use. */
static unsigned char allowed_kind[256];
static int allowed_ready;

static void init_allowed(void) {
    if (allowed_ready) {
        return;
    }
    for (size_t i = 0; i < N_ALLOWED; i++) {
        unsigned kind = LLVMGetEnumAttributeKindForName(allowed_attributes[i],
                                                        strlen(allowed_attributes[i]));
        if (kind != 0 && kind < sizeof(allowed_kind)) {
            allowed_kind[kind] = 1;
        }
    }
    allowed_ready = 1;
}

static int is_kept(LLVMAttributeRef attr) {
    if (LLVMIsStringAttribute(attr)) {
        return 1;
    }
    unsigned kind = LLVMGetEnumAttributeKind(attr);
    return kind < sizeof(allowed_kind) && allowed_kind[kind];
}

PyObject *cj_nvvm_allowed_attributes(void) {
    PyObject *names = PyTuple_New(N_ALLOWED);
    if (names == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < N_ALLOWED; i++) {
        PyObject *name = PyUnicode_FromString(allowed_attributes[i]);
        if (name == NULL) {
            Py_DECREF(names);
            return NULL;
        }
        PyTuple_SET_ITEM(names, i, name); /* steals */
    }
    return names;
}

/* ---- attributes ---- */

/* Removes the disallowed attributes at `idx` of the function (call == NULL) or the call site. */
static int strip_at(LLVMValueRef fn, LLVMValueRef call, LLVMAttributeIndex idx) {
    unsigned n = call ? LLVMGetCallSiteAttributeCount(call, idx)
                      : LLVMGetAttributeCountAtIndex(fn, idx);
    if (n == 0) {
        return 0;
    }
    LLVMAttributeRef *attrs = PyMem_Malloc(n * sizeof(*attrs));
    if (attrs == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (call) {
        LLVMGetCallSiteAttributes(call, idx, attrs);
    } else {
        LLVMGetAttributesAtIndex(fn, idx, attrs);
    }
    for (unsigned i = 0; i < n; i++) {
        if (is_kept(attrs[i])) {
            continue;
        }
        unsigned kind = LLVMGetEnumAttributeKind(attrs[i]);
        if (call) {
            LLVMRemoveCallSiteEnumAttribute(call, idx, kind);
        } else {
            LLVMRemoveEnumAttributeAtIndex(fn, idx, kind);
        }
    }
    PyMem_Free(attrs);
    return 0;
}

static int strip_function(LLVMValueRef fn) {
    unsigned n = LLVMCountParams(fn);
    if (strip_at(fn, NULL, LLVMAttributeFunctionIndex) < 0 ||
        strip_at(fn, NULL, LLVMAttributeReturnIndex) < 0) {
        return -1;
    }
    for (unsigned i = 1; i <= n; i++) {
        if (strip_at(fn, NULL, i) < 0) {
            return -1;
        }
    }
    return 0;
}

static int strip_call(LLVMValueRef call) {
    unsigned n = LLVMGetNumArgOperands(call);
    if (strip_at(NULL, call, LLVMAttributeFunctionIndex) < 0 ||
        strip_at(NULL, call, LLVMAttributeReturnIndex) < 0) {
        return -1;
    }
    for (unsigned i = 1; i <= n; i++) {
        if (strip_at(NULL, call, i) < 0) {
            return -1;
        }
    }
    return 0;
}

/* ---- instructions LLVM 7 does not know ---- */

/* `fneg x` -> `fsub -0.0, x` (LLVM 7's spelling of negation), at the same place and line. */
static void lower_fneg(LLVMBuilderRef builder, LLVMValueRef inst) {
    LLVMValueRef x = LLVMGetOperand(inst, 0);
    LLVMValueRef minus_zero = LLVMConstFNeg(LLVMConstNull(LLVMTypeOf(x)));
    LLVMPositionBuilderBefore(builder, inst);
    LLVMValueRef sub = LLVMBuildFSub(builder, minus_zero, x, "");
    LLVMInstructionSetDebugLoc(sub, LLVMInstructionGetDebugLoc(inst));
    LLVMReplaceAllUsesWith(inst, sub);
    LLVMInstructionEraseFromParent(inst);
}

/* `freeze x` -> x: LLVM 7 had no poison to freeze. */
static void lower_freeze(LLVMValueRef inst) {
    LLVMReplaceAllUsesWith(inst, LLVMGetOperand(inst, 0));
    LLVMInstructionEraseFromParent(inst);
}

static void poison_to_undef(LLVMValueRef inst) {
    int n = LLVMGetNumOperands(inst);
    for (int i = 0; i < n; i++) {
        LLVMValueRef op = LLVMGetOperand(inst, i);
        if (op != NULL && LLVMIsPoison(op)) {
            LLVMSetOperand(inst, i, LLVMGetUndef(LLVMTypeOf(op)));
        }
    }
}

static int legalize_body(LLVMBuilderRef builder, LLVMValueRef fn) {
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef next;
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst; inst = next) {
            next = LLVMGetNextInstruction(inst); /* inst may be erased below */
            LLVMOpcode op = LLVMGetInstructionOpcode(inst);
            if (op == LLVMFNeg) {
                lower_fneg(builder, inst);
                continue;
            }
            if (op == LLVMFreeze) {
                lower_freeze(inst);
                continue;
            }
            poison_to_undef(inst);
            if ((op == LLVMCall || op == LLVMInvoke) && strip_call(inst) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

/* ---- intrinsics ---- */

/* Intrinsic families LLVM 7 knew and NVPTX lowers. An intrinsic outside them (llvm.smax,
 * llvm.abs, llvm.*.sat, llvm.powi.f64.i32, ...: added or renamed after LLVM 7) would be read by
 * NVVM as a call to an undefined function: rejected here instead. Left out on purpose, although
 * LLVM 7 had them: llvm.exp/exp2/log/log2/log10 (CUDA 13's libnvvm crashes on them) and
 * llvm.pow/sin/cos/canonicalize ("unsupported operation"): use libdevice's __nv_* instead. Each entry is a name prefix
 * followed by '.' or the end of the name, or a bare prefix when it ends in ".p". */
static const char *const llvm7_intrinsics[] = {
    "llvm.nvvm", "llvm.memcpy.p", "llvm.memmove.p", "llvm.memset.p", "llvm.sqrt", "llvm.fabs",
    "llvm.floor", "llvm.ceil", "llvm.trunc", "llvm.rint", "llvm.nearbyint", "llvm.round",
    "llvm.copysign", "llvm.minnum", "llvm.maxnum", "llvm.fma", "llvm.fmuladd", "llvm.ctpop",
    "llvm.ctlz", "llvm.cttz", "llvm.bswap", "llvm.bitreverse", "llvm.fshl", "llvm.fshr",
    "llvm.sadd.with.overflow", "llvm.uadd.with.overflow", "llvm.ssub.with.overflow",
    "llvm.usub.with.overflow", "llvm.smul.with.overflow", "llvm.umul.with.overflow",
    "llvm.lifetime.start", "llvm.lifetime.end", "llvm.dbg.value", "llvm.dbg.declare",
    "llvm.assume", "llvm.expect", "llvm.trap", "llvm.donothing",
};

static int is_llvm7_intrinsic(const char *name, size_t len) {
    for (size_t i = 0; i < sizeof(llvm7_intrinsics) / sizeof(llvm7_intrinsics[0]); i++) {
        size_t n = strlen(llvm7_intrinsics[i]);
        if (len >= n && memcmp(name, llvm7_intrinsics[i], n) == 0 &&
            (len == n || name[n] == '.' || memcmp(llvm7_intrinsics[i] + n - 2, ".p", 2) == 0)) {
            return 1;
        }
    }
    return 0;
}

int cj_nvvm_check_intrinsics(LLVMModuleRef module) {
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
        size_t len;
        const char *name = LLVMGetValueName2(fn, &len);
        if (len > 5 && memcmp(name, "llvm.", 5) == 0 && !is_llvm7_intrinsic(name, len)) {
            PyErr_Format(cj_UnsupportedError,
                         "the intrinsic %s is not known to NVVM's LLVM 7 reader (compute "
                         "capability < 10): lower it with plain instructions or an llvm.nvvm.* "
                         "intrinsic",
                         name);
            return -1;
        }
    }
    return 0;
}

/* ---- module ---- */

static void add_ir_version(LLVMModuleRef module, const cj_nvvm_api *api) {
    if (LLVMGetNamedMetadataNumOperands(module, "nvvmir.version") > 0) {
        return;
    }
    int v[4] = {2, 0, 3, 2}; /* CUDA 12 and 13's versions, if libnvvm cannot tell */
    if (api->IRVersion(&v[0], &v[1], &v[2], &v[3]) != 0) {
        v[0] = 2, v[1] = 0, v[2] = 3, v[3] = 2;
    }
    LLVMContextRef ctx = LLVMGetModuleContext(module);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMValueRef ops[4];
    for (int i = 0; i < 4; i++) {
        ops[i] = LLVMConstInt(i32, (unsigned long long)v[i], 0);
    }
    /* the debug-info version pair is required exactly when the module carries debug info */
    unsigned n = LLVMGetNamedMetadataNumOperands(module, "llvm.dbg.cu") > 0 ? 4 : 2;
    LLVMAddNamedMetadataOperand(module, "nvvmir.version", LLVMMDNodeInContext(ctx, ops, n));
}

int cj_nvvm_legalize(LLVMModuleRef module, const cj_nvvm_api *api) {
    init_allowed();
    cj_nvvm_prepare_module(module);
    LLVMBuilderRef builder = LLVMCreateBuilderInContext(LLVMGetModuleContext(module));
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
        if (strip_function(fn) < 0 || legalize_body(builder, fn) < 0) {
            LLVMDisposeBuilder(builder);
            return -1;
        }
    }
    LLVMDisposeBuilder(builder);
    for (LLVMValueRef g = LLVMGetFirstGlobal(module); g; g = LLVMGetNextGlobal(g)) {
        LLVMValueRef init = LLVMGetInitializer(g);
        if (init != NULL && LLVMIsPoison(init)) {
            LLVMSetInitializer(g, LLVMGetUndef(LLVMTypeOf(init)));
        }
    }
    add_ir_version(module, api);
    return 0;
}
