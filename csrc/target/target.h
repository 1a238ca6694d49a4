/* target: back ends. cpu.c is the host JIT (ORC LLJIT); nvvm.c (CUDA) turns modules into PTX.
 * Modules for the CPU are made in the JIT's context (cj_cpu_new_module) and handed over with
 * cj_cpu_add_module, which takes ownership. A cj_target describes what the one compile
 * pipeline (jit/pipeline.c) does differently per target; the descriptors are made there. */
#ifndef CJ_TARGET_H
#define CJ_TARGET_H

#include <Python.h>
#include <llvm-c/Core.h>

#include "util/util.h"

/* What differs between the CPU and CUDA front halves of the pipeline. */
typedef struct cj_target {
    const char *name;           /* "cpu", "cuda" */
    int id;                     /* the typing and lowering envs' target (CJ_TARGET_*) */
    /* The context a compilation's module is made in (NULL + exception); NULL when every
     * compilation brings its own (CUDA: a fresh context, disposed with the module). */
    LLVMContextRef (*context)(void);
    /* Sets the triple and data layout on a fresh module, before lowering. */
    void (*prepare_module)(LLVMModuleRef mod);
    /* Symbols: 1 makes a C identifier of the qualified name (cj_<name>_<n>), 0 keeps the
     * dots (cj.<name>.<n>). */
    int c_symbols;
    const char *ir_title;       /* CUJIT_DUMP=ir title, or NULL: not dumped */
    const char *types_title;    /* CUJIT_DUMP=types title */
} cj_target;

/* ---- cpu.c ---- */
LLVMContextRef cj_cpu_context(void);              /* NULL + exception if the JIT can't start */
LLVMModuleRef cj_cpu_new_module(const char *name);
void cj_cpu_prepare_module(LLVMModuleRef mod);    /* the JIT's triple and data layout */
int cj_cpu_optimize(LLVMModuleRef mod, int level); /* default<O0..3> */
PyObject *cj_cpu_assembly(LLVMModuleRef mod);      /* new reference: the module's assembly */
int cj_cpu_add_module(LLVMModuleRef mod);          /* takes the module */
void *cj_cpu_lookup(const char *symbol);           /* NULL + exception when missing */

/* ---- cpu_background.c: big modules finish on a thread of their own (Ctrl-C) ---- */
/* Modules of more instructions than this finish in the background. */
#define CJ_CPU_BACKGROUND_INSTRUCTIONS 10000
size_t cj_module_instruction_count(LLVMModuleRef mod);
typedef struct cj_cpu_code {
    void *entry;          /* the address of `symbol` */
    PyObject *llvm_ir;    /* str: the optimised module */
    PyObject *bitcode;    /* bytes: the optimised module, when asked for; else NULL */
} cj_cpu_code;
/* Optimises `mod` (taken) at `level`, adds it to the JIT and finds `symbol`, on a new thread
 * while this one waits with the GIL, looking at signals: -1 with an exception, the signal's
 * (KeyboardInterrupt) included; the interrupted compile then finishes alone. */
int cj_cpu_finish_in_background(LLVMModuleRef mod, int level, const char *symbol,
                                int want_bitcode, cj_cpu_code *out);
int cj_verify_module(LLVMModuleRef mod);           /* -1 + LoweringError when invalid */

#endif
