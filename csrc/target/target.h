/* target: back ends. cpu.c is the host JIT (ORC LLJIT); nvvm.c (CUDA) turns modules into PTX.
 * Modules for the CPU are made in the JIT's context (cj_cpu_new_module) and handed over with
 * cj_cpu_add_module, which takes ownership. */
#ifndef CJ_TARGET_H
#define CJ_TARGET_H

#include <Python.h>
#include <llvm-c/Core.h>

#include "util/util.h"

/* ---- cpu.c ---- */
LLVMContextRef cj_cpu_context(void);              /* NULL + exception if the JIT can't start */
LLVMModuleRef cj_cpu_new_module(const char *name);
int cj_cpu_optimize(LLVMModuleRef mod, int level); /* default<O0..3> */
PyObject *cj_cpu_assembly(LLVMModuleRef mod);      /* new reference: the module's assembly */
int cj_cpu_add_module(LLVMModuleRef mod);          /* takes the module */
void *cj_cpu_lookup(const char *symbol);           /* NULL + exception when missing */
int cj_verify_module(LLVMModuleRef mod);           /* -1 + LoweringError when invalid */

#endif
