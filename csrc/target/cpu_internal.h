/* cpu_internal.h: what cpu.c shares with cpu_background.c. */
#ifndef CJ_CPU_INTERNAL_H
#define CJ_CPU_INTERNAL_H

#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/TargetMachine.h>

#include <pthread.h>

#include "target/target.h"

LLVMOrcLLJITRef cj_cpu_jit(void);                 /* made (cj_cpu_context() succeeded) */
/* A new target machine for the host (the caller disposes it), or NULL. */
LLVMTargetMachineRef cj_cpu_new_machine(void);
/* Adds a module to the JIT's main library (takes it); an error to consume, or NULL. */
LLVMErrorRef cj_cpu_add_tsm(LLVMOrcThreadSafeModuleRef tsm);
/* Held while machine code is made (a lookup of a symbol not compiled yet). */
pthread_mutex_t *cj_cpu_codegen_mutex(void);

#endif
