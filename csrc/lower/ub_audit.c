/* ub_audit.c: the undefined-behaviour audit of lowered code (CUJIT_UB_CHECK=1, issue 15).
 * Every LLVM instruction that can make poison or undefined behaviour from a value the user
 * controls must say why it cannot here: a `cujit.proof` tag (cj_ub_proof, set where the
 * lowering emits it, with the reason) or operands that are constants in range. The audit walks
 * freshly lowered module (every function with a body), before any optimisation, and refuses (LoweringError naming the
 * instruction) one that does neither:
 *   add/sub/mul/shl with nsw or nuw; udiv/sdiv/lshr/ashr with exact; getelementptr inbounds
 *   with a variable index; fptosi/fptoui; shifts by a variable count; divisions by a variable
 *   divisor; llvm.ctlz/cttz/abs with their poison flag set; undef anywhere but the aggregate
 *   an insertvalue/insertelement starts from.
 * Off (the default) the tags are not written and the audit does not run: production IR is the
 * same either way. The differential corpus and the fuzzer run with it on, at opt 0 and 3
 * (tests/test_ub_check.py), which is where poison would show as a divergence from CPython. */
#include "lower/lower.h"

#include <llvm-c/IRReader.h>

#include <stdlib.h>
#include <string.h>

#define PROOF_KIND "cujit.proof"

int cj_ub_audit_enabled(void) {
    const char *env = getenv("CUJIT_UB_CHECK");
    return env != NULL && env[0] != '\0' && strcmp(env, "0") != 0;
}

void cj_ub_proof(LLVMValueRef inst, const char *why) {
    if (inst == NULL || LLVMIsAInstruction(inst) == NULL || !cj_ub_audit_enabled()) {
        return; /* folded to a constant: nothing can be poison */
    }
    LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(inst));
    LLVMValueRef reason = LLVMMDStringInContext(ctx, why, (unsigned)strlen(why));
    LLVMSetMetadata(inst, LLVMGetMDKindIDInContext(ctx, PROOF_KIND, sizeof(PROOF_KIND) - 1),
                    LLVMMDNodeInContext(ctx, &reason, 1));
}

static int has_proof(LLVMValueRef inst) {
    LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(inst));
    return LLVMGetMetadata(inst, LLVMGetMDKindIDInContext(ctx, PROOF_KIND,
                                                          sizeof(PROOF_KIND) - 1)) != NULL;
}

/* Whether the instruction's text (its opcode part, before the operands) names `flag`: the
 * LLVM 14 C API has no getter for nsw/nuw/exact/inbounds. */
static int has_flag(const char *text, const char *flag) {
    const char *eq = strstr(text, " = ");
    const char *start = eq ? eq + 3 : text;
    size_t flen = strlen(flag);
    for (const char *p = strstr(start, flag); p != NULL; p = strstr(p + 1, flag)) {
        if (p[-1] == ' ' && (p[flen] == ' ' || p[flen] == '\0')) {
            return 1;
        }
    }
    return 0;
}

static int const_int_below(LLVMValueRef v, unsigned long long bound) {
    return LLVMIsAConstantInt(v) != NULL && LLVMConstIntGetZExtValue(v) < bound;
}

static int is_shift_or_div(LLVMOpcode op) {
    return op == LLVMShl || op == LLVMLShr || op == LLVMAShr || op == LLVMUDiv ||
           op == LLVMSDiv || op == LLVMURem || op == LLVMSRem;
}

/* A shift by a constant below the width, a division by a constant neither 0 nor (signed) -1. */
static int safe_constant_operand(LLVMOpcode op, LLVMValueRef inst) {
    LLVMValueRef rhs = LLVMGetOperand(inst, 1);
    if (LLVMIsAConstantInt(rhs) == NULL) {
        return 0;
    }
    if (op == LLVMShl || op == LLVMLShr || op == LLVMAShr) {
        return const_int_below(rhs, LLVMGetIntTypeWidth(LLVMTypeOf(rhs)));
    }
    long long d = LLVMConstIntGetSExtValue(rhs);
    return d != 0 && !((op == LLVMSDiv || op == LLVMSRem) && d == -1);
}

static int all_indices_constant(LLVMValueRef gep) {
    for (int i = 1; i < LLVMGetNumOperands(gep); i++) {
        if (LLVMIsAConstant(LLVMGetOperand(gep, i)) == NULL) {
            return 0;
        }
    }
    return 1;
}

/* llvm.ctlz/cttz(x, i1 true) and llvm.abs(x, i1 true) are poison for 0 / INT_MIN. */
static int poison_flag_intrinsic(LLVMValueRef call) {
    LLVMValueRef callee = LLVMGetCalledValue(call);
    if (callee == NULL || LLVMIsAFunction(callee) == NULL) {
        return 0;
    }
    size_t len;
    const char *name = LLVMGetValueName2(callee, &len);
    int flagged = strncmp(name, "llvm.ctlz.", 10) == 0 || strncmp(name, "llvm.cttz.", 10) == 0 ||
                  strncmp(name, "llvm.abs.", 9) == 0;
    if (!flagged || LLVMGetNumArgOperands(call) < 2) {
        return 0;
    }
    LLVMValueRef flag = LLVMGetOperand(call, 1);
    return LLVMIsAConstantInt(flag) == NULL || LLVMConstIntGetZExtValue(flag) != 0;
}

/* An undef operand outside the aggregate an insertvalue/insertelement fills. */
static int stray_undef(LLVMOpcode op, LLVMValueRef inst) {
    int n = LLVMGetNumOperands(inst);
    for (int i = 0; i < n; i++) {
        LLVMValueRef v = LLVMGetOperand(inst, i);
        if (v == NULL || LLVMIsUndef(v) == 0 || LLVMIsAConstant(v) == NULL) {
            continue;
        }
        if (i == 0 && (op == LLVMInsertValue || op == LLVMInsertElement)) {
            continue;
        }
        if (op == LLVMPHI || op == LLVMShuffleVector) {
            continue; /* a phi of a path that never reaches it; a shuffle's unused half */
        }
        return 1;
    }
    return 0;
}

/* What is wrong with `inst`, or NULL. */
static const char *audit_instr(LLVMValueRef inst) {
    LLVMOpcode op = LLVMGetInstructionOpcode(inst);
    if (stray_undef(op, inst)) {
        return "an undef operand";
    }
    if (has_proof(inst)) {
        return NULL;
    }
    if (op == LLVMFPToSI || op == LLVMFPToUI) {
        return "a float to int conversion (poison for NaN, inf, out of range)";
    }
    if (op == LLVMCall) {
        return poison_flag_intrinsic(inst) ? "an intrinsic with its poison flag set" : NULL;
    }
    if (is_shift_or_div(op) && !safe_constant_operand(op, inst)) {
        return op == LLVMShl || op == LLVMLShr || op == LLVMAShr
                   ? "a shift by a variable count (poison at or past the width)"
                   : "a division by a variable divisor (undefined for 0, INT_MIN / -1)";
    }
    if (op != LLVMAdd && op != LLVMSub && op != LLVMMul && op != LLVMShl && op != LLVMUDiv &&
        op != LLVMSDiv && op != LLVMLShr && op != LLVMAShr && op != LLVMGetElementPtr) {
        return NULL;
    }
    char *text = LLVMPrintValueToString(inst);
    const char *why = NULL;
    if (has_flag(text, "nsw") || has_flag(text, "nuw")) {
        why = "a no-wrap flag (poison on overflow)";
    } else if (has_flag(text, "exact")) {
        why = "an exact flag (poison when bits are lost)";
    } else if (op == LLVMGetElementPtr && has_flag(text, "inbounds") &&
               !all_indices_constant(inst)) {
        why = "an inbounds address with a variable index (poison out of bounds)";
    }
    LLVMDisposeMessage(text);
    return why;
}

static int refuse(LLVMValueRef fn, LLVMValueRef inst, const char *why) {
    char *text = LLVMPrintValueToString(inst);
    size_t len;
    PyErr_Format(cj_LoweringError,
                 "UB audit (CUJIT_UB_CHECK): %s without a proof (cj_ub_proof) in %s:\n  %s",
                 why, LLVMGetValueName2(fn, &len), text);
    LLVMDisposeMessage(text);
    return -1;
}

static int audit_function(LLVMValueRef fn) {
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            const char *why = audit_instr(in);
            if (why != NULL) {
                return refuse(fn, in, why);
            }
        }
    }
    return 0;
}

int cj_ub_audit(LLVMModuleRef mod) {
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn)) {
        if (audit_function(fn) < 0) {
            return -1;
        }
    }
    return 0;
}

/* _core.ub_audit_ir(llvm_ir): the audit of LLVM text IR, for its tests; None, LoweringError
 * from the audit, ValueError for text that is not IR. Proof tags are `!cujit.proof !{!"why"}`. */
static PyObject *ub_audit_ir(PyObject *self, PyObject *text) {
    Py_ssize_t len;
    const char *ir = PyUnicode_Check(text) ? PyUnicode_AsUTF8AndSize(text, &len) : NULL;
    if (ir == NULL) {
        return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_TypeError, "llvm_ir must be a str");
    }
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, (size_t)len, "ir");
    LLVMModuleRef mod = NULL;
    char *message = NULL;
    PyObject *result = NULL;
    if (LLVMParseIRInContext(ctx, buf, &mod, &message)) { /* takes buf */
        PyErr_Format(PyExc_ValueError, "invalid LLVM IR: %s", message ? message : "?");
        LLVMDisposeMessage(message);
    } else {
        result = cj_ub_audit(mod) < 0 ? NULL : Py_NewRef(Py_None);
        LLVMDisposeModule(mod);
    }
    LLVMContextDispose(ctx);
    return result;
}

static PyMethodDef ub_audit_methods[] = {
    {"ub_audit_ir", ub_audit_ir, METH_O, "ub_audit_ir(llvm_ir): the UB audit of text IR"},
    {NULL},
};

int cj_ub_audit_init(PyObject *module) { return PyModule_AddFunctions(module, ub_audit_methods); }
