/* cpu.c: the host CPU target. One ORC LLJIT per process (made on first use, never torn down:
 * compiled code lives as long as the process), the host's target machine for optimisation and
 * assembly listings, and the process's symbols (libm) visible to compiled code. Machine code is
 * made under one lock (cpu_background.c finishes big modules on threads of their own). */
#include "target/cpu_internal.h"

#include "abi/abi.h"
#include "abi/dict.h"
#include "abi/set.h"
#include "abi/generator.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static LLVMOrcLLJITRef jit;
static LLVMOrcThreadSafeContextRef ts_context;
static LLVMTargetMachineRef host_machine;

/* Sets a LoweringError from an LLVMErrorRef (consumed); returns -1. */
static int llvm_error(LLVMErrorRef err, const char *what) {
    char *msg = LLVMGetErrorMessage(err);
    PyErr_Format(cj_LoweringError, "%s: %s", what, msg);
    LLVMDisposeErrorMessage(msg);
    return -1;
}

/* A target machine for this host (CPU name and features), or NULL; needs no GIL. x86-64: a
 * 64-bit division whose operands fit in 32 bits takes the 32-bit divide (a tuning LLVM 14
 * leaves off for AMD cores and later LLVMs turn on: numba's `i % n` loop speed); it changes
 * no instruction set, so cache keys (host_cpu()) need not see it. */
LLVMTargetMachineRef cj_cpu_new_machine(void) {
    char *triple = LLVMGetDefaultTargetTriple();
    char *error = NULL;
    LLVMTargetRef target;
    LLVMTargetMachineRef machine = NULL;
    if (LLVMGetTargetFromTriple(triple, &target, &error) == 0) {
        char *cpu = LLVMGetHostCPUName(), *features = LLVMGetHostCPUFeatures();
        const char *extra = strncmp(triple, "x86_64", 6) == 0 ? ",+idivq-to-divl" : "";
        size_t len = strlen(features) + strlen(extra) + 1;
        char *tuned = malloc(len);
        if (tuned != NULL) {
            snprintf(tuned, len, "%s%s", features, extra);
            machine = LLVMCreateTargetMachine(target, triple, cpu, tuned,
                                              LLVMCodeGenLevelAggressive, LLVMRelocPIC,
                                              LLVMCodeModelJITDefault);
            free(tuned);
        }
        LLVMDisposeMessage(cpu);
        LLVMDisposeMessage(features);
    }
    LLVMDisposeMessage(error);
    LLVMDisposeMessage(triple);
    return machine;
}

static LLVMTargetMachineRef new_host_machine(void) {
    LLVMTargetMachineRef machine = cj_cpu_new_machine();
    if (machine == NULL) {
        PyErr_SetString(cj_LoweringError, "cannot create the host target machine");
    }
    return machine;
}

/* The run-time functions compiled code calls by name (abi.h), defined in the JIT: cached code
 * finds them in any process (the extension's own symbols are not global). */
static const struct runtime_fn {
    const char *name;
    void (*fn)(void);
} runtime[] = {
    {"cj_nrt_allocate", (void (*)(void))cj_nrt_allocate},
    {"cj_nrt_allocate_zeroed", (void (*)(void))cj_nrt_allocate_zeroed},
    {"cj_nrt_free", (void (*)(void))cj_nrt_free},
    {"cj_nrt_incref", (void (*)(void))cj_nrt_incref},
    {"cj_nrt_decref", (void (*)(void))cj_nrt_decref},
    {"cj_list_new", (void (*)(void))cj_list_new},
    {"cj_gen_new", (void (*)(void))cj_gen_new},
    {"cj_list_reserve", (void (*)(void))cj_list_reserve},
    {"cj_list_sort", (void (*)(void))cj_list_sort},
    {"cj_list_assign_slice", (void (*)(void))cj_list_assign_slice},
    {"cj_list_delete_slice", (void (*)(void))cj_list_delete_slice},
    {"cj_str_from_data", (void (*)(void))cj_str_from_data},
    {"cj_str_concat", (void (*)(void))cj_str_concat},
    {"cj_str_repeat", (void (*)(void))cj_str_repeat},
    {"cj_str_slice", (void (*)(void))cj_str_slice},
    {"cj_str_getitem", (void (*)(void))cj_str_getitem},
    {"cj_str_chr", (void (*)(void))cj_str_chr},
    {"cj_str_ord", (void (*)(void))cj_str_ord},
    {"cj_str_equal", (void (*)(void))cj_str_equal},
    {"cj_str_in_list", (void (*)(void))cj_str_in_list},
    {"cj_str_hash", (void (*)(void))cj_str_hash},
    {"cj_str_compare", (void (*)(void))cj_str_compare},
    {"cj_str_find", (void (*)(void))cj_str_find},
    {"cj_str_count", (void (*)(void))cj_str_count},
    {"cj_str_count_range", (void (*)(void))cj_str_count_range},
    {"cj_str_startswith", (void (*)(void))cj_str_startswith},
    {"cj_str_split", (void (*)(void))cj_str_split},
    {"cj_str_join", (void (*)(void))cj_str_join},
    {"cj_str_strip", (void (*)(void))cj_str_strip},
    {"cj_str_case", (void (*)(void))cj_str_case},
    {"cj_str_replace", (void (*)(void))cj_str_replace},
    {"cj_str_is", (void (*)(void))cj_str_is},
    {"cj_str_pad", (void (*)(void))cj_str_pad},
    {"cj_str_zfill", (void (*)(void))cj_str_zfill},
    {"cj_str_expandtabs", (void (*)(void))cj_str_expandtabs},
    {"cj_str_partition", (void (*)(void))cj_str_partition},
    {"cj_str_rsplit", (void (*)(void))cj_str_rsplit},
    {"cj_str_splitlines", (void (*)(void))cj_str_splitlines},
    {"cj_str_chars", (void (*)(void))cj_str_chars},
    {"cj_str_to_int", (void (*)(void))cj_str_to_int},
    {"cj_str_to_float", (void (*)(void))cj_str_to_float},
    {"cj_str_from_int", (void (*)(void))cj_str_from_int},
    {"cj_str_from_double", (void (*)(void))cj_str_from_double},
    {"cj_str_from_bool", (void (*)(void))cj_str_from_bool},
    {"cj_str_repr", (void (*)(void))cj_str_repr},
    {"cj_dict_new", (void (*)(void))cj_dict_new}, /* abi/dict.h */
    {"cj_dict_len", (void (*)(void))cj_dict_len},
    {"cj_dict_lookup", (void (*)(void))cj_dict_lookup},
    {"cj_dict_insert", (void (*)(void))cj_dict_insert},
    {"cj_dict_pop", (void (*)(void))cj_dict_pop},
    {"cj_dict_popitem", (void (*)(void))cj_dict_popitem},
    {"cj_dict_clear", (void (*)(void))cj_dict_clear},
    {"cj_dict_copy", (void (*)(void))cj_dict_copy},
    {"cj_dict_update", (void (*)(void))cj_dict_update},
    {"cj_dict_next", (void (*)(void))cj_dict_next},
    {"cj_set_add", (void (*)(void))cj_set_add}, /* abi/set.h */
    {"cj_set_contains", (void (*)(void))cj_set_contains},
    {"cj_set_discard", (void (*)(void))cj_set_discard},
    {"cj_set_pop", (void (*)(void))cj_set_pop},
    {"cj_set_binop", (void (*)(void))cj_set_binop},
    {"cj_set_inplace", (void (*)(void))cj_set_inplace},
    {"cj_set_compare", (void (*)(void))cj_set_compare},
    {"cj_key_hash", (void (*)(void))cj_key_hash},
    {"cj_blas_gemm", (void (*)(void))cj_blas_gemm},
    {"cj_blas_dot", (void (*)(void))cj_blas_dot},
    {"cj_sort", (void (*)(void))cj_sort},
    {"cj_argsort", (void (*)(void))cj_argsort},
    {"cj_median_f64", (void (*)(void))cj_median_f64},
    {"cj_random_seed", (void (*)(void))cj_random_seed},
    {"cj_random_doubles", (void (*)(void))cj_random_doubles},
    {"cj_random_ints", (void (*)(void))cj_random_ints},
    {"cj_random_shuffle", (void (*)(void))cj_random_shuffle},
    {"cj_random_choice_unique", (void (*)(void))cj_random_choice_unique},
    {"cj_parallel_for", (void (*)(void))cj_parallel_for},
    {"cj_get_thread_id", (void (*)(void))cj_get_thread_id},
    {"cj_get_num_threads", (void (*)(void))cj_get_num_threads},
    {"cj_py_random_twist", (void (*)(void))cj_py_random_twist},
    {"cj_py_random_state", (void (*)(void))cj_py_random_state},
    {"cj_py_random_seed", (void (*)(void))cj_py_random_seed},
    {"cj_py_random_gauss", (void (*)(void))cj_py_random_gauss},
    {"cj_py_random_swap", (void (*)(void))cj_py_random_swap},
    {"cj_exc_catch", (void (*)(void))cj_exc_catch},
    {"cj_exc_match", (void (*)(void))cj_exc_match},
};

static LLVMErrorRef define_runtime(LLVMOrcLLJITRef made) {
    enum { N = sizeof(runtime) / sizeof(runtime[0]) };
    LLVMJITCSymbolMapPair pairs[N];
    for (int i = 0; i < N; i++) {
        pairs[i].Name = LLVMOrcLLJITMangleAndIntern(made, runtime[i].name);
        pairs[i].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)runtime[i].fn;
        pairs[i].Sym.Flags.GenericFlags =
            LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
        pairs[i].Sym.Flags.TargetFlags = 0;
    }
    return LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(made),
                                 LLVMOrcAbsoluteSymbols(pairs, N));
}

/* The JIT, made once: host CPU and features, process symbols searchable. */
static int ensure_jit(void) {
    if (jit != NULL) {
        return 0;
    }
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
    LLVMInitializeNativeAsmParser();
    /* one machine optimises and prints assembly, an identical one generates the JIT's code */
    LLVMTargetMachineRef for_jit = NULL;
    if ((host_machine == NULL && (host_machine = new_host_machine()) == NULL) ||
        (for_jit = new_host_machine()) == NULL) {
        return -1;
    }
    LLVMOrcJITTargetMachineBuilderRef jtmb =
        LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(for_jit); /* takes for_jit */
    LLVMErrorRef err;
    LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(builder, jtmb); /* takes jtmb */
    LLVMOrcLLJITRef made;
    if ((err = LLVMOrcCreateLLJIT(&made, builder))) { /* takes builder */
        return llvm_error(err, "cannot create the JIT");
    }
    LLVMOrcDefinitionGeneratorRef process_symbols;
    err = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
        &process_symbols, LLVMOrcLLJITGetGlobalPrefix(made), NULL, NULL);
    if (err) {
        LLVMOrcDisposeLLJIT(made);
        return llvm_error(err, "cannot expose process symbols to the JIT");
    }
    LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(made), process_symbols);
    if ((err = define_runtime(made))) {
        LLVMOrcDisposeLLJIT(made);
        return llvm_error(err, "cannot give compiled code cujit's run time");
    }
    ts_context = LLVMOrcCreateNewThreadSafeContext();
    jit = made;
    return 0;
}

LLVMContextRef cj_cpu_context(void) {
    if (ensure_jit() < 0) {
        return NULL;
    }
    return LLVMOrcThreadSafeContextGetContext(ts_context);
}

LLVMModuleRef cj_cpu_new_module(const char *name) {
    LLVMContextRef ctx = cj_cpu_context();
    if (ctx == NULL) {
        return NULL;
    }
    LLVMModuleRef mod = LLVMModuleCreateWithNameInContext(name, ctx);
    cj_cpu_prepare_module(mod);
    return mod;
}

void cj_cpu_prepare_module(LLVMModuleRef mod) {
    LLVMSetTarget(mod, LLVMOrcLLJITGetTripleString(jit));
    LLVMSetDataLayout(mod, LLVMOrcLLJITGetDataLayoutStr(jit));
}

int cj_cpu_optimize(LLVMModuleRef mod, int level) {
    char passes[32];
    PyOS_snprintf(passes, sizeof(passes), "default<O%d>", level < 0 ? 0 : level > 3 ? 3 : level);
    LLVMPassBuilderOptionsRef options = LLVMCreatePassBuilderOptions();
    LLVMPassBuilderOptionsSetLoopVectorization(options, level >= 2);
    LLVMPassBuilderOptionsSetSLPVectorization(options, level >= 2);
    LLVMErrorRef err = LLVMRunPasses(mod, passes, host_machine, options);
    LLVMDisposePassBuilderOptions(options);
    return err ? llvm_error(err, "LLVM optimisation failed") : 0;
}

PyObject *cj_cpu_assembly(LLVMModuleRef mod) {
    LLVMModuleRef copy = LLVMCloneModule(mod);
    char *error = NULL;
    LLVMMemoryBufferRef buf;
    if (LLVMTargetMachineEmitToMemoryBuffer(host_machine, copy, LLVMAssemblyFile, &error, &buf)) {
        PyErr_Format(cj_LoweringError, "cannot emit assembly: %s", error);
        LLVMDisposeMessage(error);
        LLVMDisposeModule(copy);
        return NULL;
    }
    PyObject *text = PyUnicode_FromStringAndSize(LLVMGetBufferStart(buf),
                                                 (Py_ssize_t)LLVMGetBufferSize(buf));
    LLVMDisposeMemoryBuffer(buf);
    LLVMDisposeModule(copy);
    return text;
}

LLVMOrcLLJITRef cj_cpu_jit(void) { return jit; }

LLVMErrorRef cj_cpu_add_tsm(LLVMOrcThreadSafeModuleRef tsm) {
    /* the JIT owns the module from here, added or not (LLJIT.h): never disposed here */
    return LLVMOrcLLJITAddLLVMIRModule(jit, LLVMOrcLLJITGetMainJITDylib(jit), tsm);
}

int cj_cpu_add_module(LLVMModuleRef mod) {
    LLVMErrorRef err = cj_cpu_add_tsm(LLVMOrcCreateNewThreadSafeModule(mod, ts_context));
    return err ? llvm_error(err, "cannot add the module to the JIT") : 0;
}

/* Machine code is made when a symbol is first looked up, with the JIT's one target machine:
 * one thread at a time (cpu_background.c's threads too). */
static pthread_mutex_t codegen_lock = PTHREAD_MUTEX_INITIALIZER;

pthread_mutex_t *cj_cpu_codegen_mutex(void) { return &codegen_lock; }

/* Takes the lock with the GIL held, looking at signals while an interrupted compile that
 * finishes alone holds it: -1 with the signal's exception. */
static int codegen_lock_interruptibly(void) {
    for (;;) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 50000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        if (pthread_mutex_timedlock(&codegen_lock, &until) == 0) {
            return 0;
        }
        if (PyErr_CheckSignals() < 0) {
            return -1;
        }
    }
}

static void after_fork_in_child(void) {
    pthread_mutex_init(&codegen_lock, NULL); /* its holder, if any, did not come along */
}

void *cj_cpu_lookup(const char *symbol) {
    LLVMOrcExecutorAddress addr;
    if (codegen_lock_interruptibly() < 0) {
        return NULL;
    }
    LLVMErrorRef err = LLVMOrcLLJITLookup(jit, &addr, symbol);
    pthread_mutex_unlock(&codegen_lock);
    if (err) {
        llvm_error(err, "cannot find compiled code");
        return NULL;
    }
    return (void *)(uintptr_t)addr;
}

/* _core.host_cpu(): (name, features) the code is optimised for, for cache keys. */
static PyObject *host_cpu(PyObject *module, PyObject *unused) {
    char *cpu = LLVMGetHostCPUName(), *features = LLVMGetHostCPUFeatures();
    PyObject *r = Py_BuildValue("(ss)", cpu, features);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    return r;
}

static PyMethodDef cpu_functions[] = {
    {"host_cpu", host_cpu, METH_NOARGS, "host_cpu() -> (cpu name, features)"},
    {NULL},
};

int cj_cpu_init(PyObject *module) {
    if (pthread_atfork(NULL, NULL, after_fork_in_child) != 0) {
        PyErr_SetString(PyExc_RuntimeError, "cujit: pthread_atfork failed");
        return -1;
    }
    return PyModule_AddFunctions(module, cpu_functions);
}

int cj_verify_module(LLVMModuleRef mod) {
    char *msg = NULL;
    if (LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg)) {
        PyErr_Format(cj_LoweringError, "cujit generated invalid LLVM IR (a bug): %s", msg);
        LLVMDisposeMessage(msg);
        return -1;
    }
    LLVMDisposeMessage(msg);
    return 0;
}
