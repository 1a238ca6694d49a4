/* cpu_background.c: a big module finishes (optimisation, machine code) on a thread of its own
 * (util/background.c) while the compiling thread waits looking at signals: Ctrl-C interrupts a
 * long compile within a fraction of a second, although an LLVM pass cannot be stopped. The
 * module moves to a context of its own (through bitcode), so an interrupted compile finishes
 * alone without touching the JIT's shared context, which the interpreter may use again at
 * once; its code is added to the JIT and never used. Machine code is made under cpu.c's code
 * generation lock (the JIT has one target machine). */
#include "target/cpu_internal.h"

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct job {
    /* in */
    char *bitcode;
    size_t bitcode_size;
    int level, want_bitcode;
    char *symbol;
    /* out */
    void *entry;
    char *text, *opt_bitcode, *error;
    size_t opt_bitcode_size;
} job;

static char *copy_bytes(const char *s, size_t n) {
    char *c = malloc(n + 1);
    if (c != NULL) {
        memcpy(c, s, n);
        c[n] = '\0';
    }
    return c;
}

static void job_free(job *j) {
    free(j->bitcode);
    free(j->symbol);
    free(j->text);
    free(j->opt_bitcode);
    free(j->error);
    free(j);
}

/* Sets j->error from an LLVMErrorRef (consumed) or a message; returns -1. */
static int fail(job *j, LLVMErrorRef err, const char *what) {
    char *msg = err ? LLVMGetErrorMessage(err) : NULL;
    size_t n = strlen(what) + (msg ? strlen(msg) : 0) + 3;
    free(j->error);
    j->error = malloc(n);
    if (j->error != NULL) {
        snprintf(j->error, n, "%s%s%s", what, msg ? ": " : "", msg ? msg : "");
    }
    if (msg != NULL) {
        LLVMDisposeErrorMessage(msg);
    }
    return -1;
}

static int optimize(job *j, LLVMModuleRef mod) {
    LLVMTargetMachineRef machine = cj_cpu_new_machine();
    if (machine == NULL) {
        return fail(j, NULL, "no LLVM target machine for the host");
    }
    char passes[32];
    snprintf(passes, sizeof(passes), "default<O%d>", j->level);
    LLVMPassBuilderOptionsRef options = LLVMCreatePassBuilderOptions();
    LLVMPassBuilderOptionsSetLoopVectorization(options, j->level >= 2);
    LLVMPassBuilderOptionsSetSLPVectorization(options, j->level >= 2);
    LLVMErrorRef err = LLVMRunPasses(mod, passes, machine, options);
    LLVMDisposePassBuilderOptions(options);
    LLVMDisposeTargetMachine(machine);
    return err ? fail(j, err, "LLVM optimisation failed") : 0;
}

/* The optimised module's text, and its bitcode when the cache wants it. */
static int describe(job *j, LLVMModuleRef mod) {
    char *text = LLVMPrintModuleToString(mod);
    j->text = copy_bytes(text, strlen(text));
    LLVMDisposeMessage(text);
    if (j->want_bitcode) {
        LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(mod);
        j->opt_bitcode_size = LLVMGetBufferSize(buf);
        j->opt_bitcode = copy_bytes(LLVMGetBufferStart(buf), j->opt_bitcode_size);
        LLVMDisposeMemoryBuffer(buf);
    }
    return j->text && (!j->want_bitcode || j->opt_bitcode) ? 0 : fail(j, NULL, "out of memory");
}

static void run(job *j) {
    LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(j->bitcode, j->bitcode_size,
                                                                   "cujit.background", 0);
    LLVMModuleRef mod = NULL;
    if (LLVMParseBitcodeInContext2(LLVMOrcThreadSafeContextGetContext(tsc), buf, &mod)) {
        mod = NULL;
        fail(j, NULL, "cannot read the module back");
    }
    LLVMDisposeMemoryBuffer(buf);
    if (mod != NULL && (optimize(j, mod) < 0 || describe(j, mod) < 0)) {
        LLVMDisposeModule(mod);
        mod = NULL;
    }
    if (mod != NULL) {
        LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(mod, tsc);
        pthread_mutex_lock(cj_cpu_codegen_mutex());
        LLVMErrorRef err = cj_cpu_add_tsm(tsm);
        LLVMOrcExecutorAddress addr = 0;
        if (err == NULL) {
            err = LLVMOrcLLJITLookup(cj_cpu_jit(), &addr, j->symbol);
        }
        pthread_mutex_unlock(cj_cpu_codegen_mutex());
        if (err != NULL) {
            fail(j, err, "cannot compile the module");
        }
        j->entry = (void *)(uintptr_t)addr;
    }
    LLVMOrcDisposeThreadSafeContext(tsc); /* the module holds its own reference */
}

static job *job_new(LLVMModuleRef mod, int level, const char *symbol, int want_bitcode) {
    job *j = calloc(1, sizeof(job));
    LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(mod);
    if (j == NULL || buf == NULL) {
        free(j);
        if (buf != NULL) {
            LLVMDisposeMemoryBuffer(buf);
        }
        return (job *)PyErr_NoMemory();
    }
    j->bitcode_size = LLVMGetBufferSize(buf);
    j->bitcode = copy_bytes(LLVMGetBufferStart(buf), j->bitcode_size);
    LLVMDisposeMemoryBuffer(buf);
    j->symbol = copy_bytes(symbol, strlen(symbol));
    j->level = level < 0 ? 0 : level > 3 ? 3 : level;
    j->want_bitcode = want_bitcode;
    if (j->bitcode == NULL || j->symbol == NULL) {
        job_free(j);
        return (job *)PyErr_NoMemory();
    }
    return j;
}

static void run_job(void *arg) { run(arg); }

static void drop_job(void *arg) { job_free(arg); }

int cj_cpu_finish_in_background(LLVMModuleRef mod, int level, const char *symbol,
                                int want_bitcode, cj_cpu_code *out) {
    job *j = job_new(mod, level, symbol, want_bitcode);
    LLVMDisposeModule(mod);
    if (j == NULL) {
        return -1;
    }
    int rc = cj_run_in_background(run_job, drop_job, j);
    if (rc < 0) {
        if (rc == -1) {
            job_free(j);
        }
        return -1;
    }
    rc = -1;
    if (j->error != NULL || j->entry == NULL) {
        PyErr_Format(cj_LoweringError, "%s", j->error ? j->error : "compiled code is missing");
    } else if ((out->llvm_ir = PyUnicode_FromString(j->text)) != NULL &&
               (!want_bitcode || (out->bitcode = PyBytes_FromStringAndSize(
                                      j->opt_bitcode, (Py_ssize_t)j->opt_bitcode_size)))) {
        out->entry = j->entry;
        rc = 0;
    }
    job_free(j);
    return rc;
}

size_t cj_module_instruction_count(LLVMModuleRef mod) {
    size_t n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
        for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b)) {
            for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
                n++;
            }
        }
    }
    return n;
}
