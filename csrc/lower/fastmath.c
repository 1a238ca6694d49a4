/* fastmath.c: numba's fastmath=True. LLVM 14's C API cannot set fast-math flags on an
 * instruction, so the module goes through its text: every floating-point operation and
 * comparison gets the `fast` flag, then the text is parsed back in the same context. */
#include "lower/lower.h"

#include <llvm-c/IRReader.h>
#include <string.h>

static const char *const fp_ops[] = {" = fadd ", " = fsub ", " = fmul ", " = fdiv ",
                                     " = frem ", " = fcmp ", " = fneg "};

/* Length of `text` with " fast" after every floating-point opcode; writes it when `out`. */
static size_t add_flags(const char *text, char *out) {
    size_t n = 0;
    for (const char *p = text; *p;) {
        int matched = 0;
        for (size_t k = 0; k < sizeof(fp_ops) / sizeof(fp_ops[0]); k++) {
            size_t len = strlen(fp_ops[k]);
            if (strncmp(p, fp_ops[k], len) == 0) {
                if (out) {
                    memcpy(out + n, p, len - 1);
                    memcpy(out + n + len - 1, " fast ", 6);
                }
                n += len - 1 + 6;
                p += len;
                matched = 1;
                break;
            }
        }
        if (!matched) {
            if (out) {
                out[n] = *p;
            }
            n++;
            p++;
        }
    }
    return n;
}

LLVMModuleRef cj_apply_fastmath(LLVMModuleRef mod) {
    char *text = LLVMPrintModuleToString(mod);
    size_t n = add_flags(text, NULL);
    char *flagged = PyMem_Malloc(n + 1);
    if (flagged == NULL) {
        LLVMDisposeMessage(text);
        PyErr_NoMemory();
        return NULL;
    }
    add_flags(text, flagged);
    flagged[n] = 0;
    LLVMDisposeMessage(text);
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(flagged, n, "fastmath");
    PyMem_Free(flagged);
    LLVMModuleRef out = NULL;
    char *error = NULL;
    if (LLVMParseIRInContext(LLVMGetModuleContext(mod), buf, &out, &error)) { /* takes buf */
        PyErr_Format(cj_LoweringError, "fastmath rewrite produced invalid IR: %s", error);
        LLVMDisposeMessage(error);
        return NULL;
    }
    LLVMDisposeModule(mod);
    return out;
}
