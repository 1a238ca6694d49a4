/* nvvm_internal.h: what the nvvm_*.c files share and nobody else needs. */
#ifndef CJ_NVVM_INTERNAL_H
#define CJ_NVVM_INTERNAL_H

#include "target/nvvm.h"

/* libnvvm's ABI (nvvm.h), declared here so that building needs no CUDA headers. */
typedef int cj_nvvm_result; /* nvvmResult: 0 is NVVM_SUCCESS */
typedef struct cj_nvvm_program_s *cj_nvvm_program;

typedef struct cj_nvvm_api {
    const char *(*GetErrorString)(cj_nvvm_result);
    cj_nvvm_result (*Version)(int *, int *);
    cj_nvvm_result (*IRVersion)(int *, int *, int *, int *);
    cj_nvvm_result (*CreateProgram)(cj_nvvm_program *);
    cj_nvvm_result (*DestroyProgram)(cj_nvvm_program *);
    cj_nvvm_result (*AddModuleToProgram)(cj_nvvm_program, const char *, size_t, const char *);
    cj_nvvm_result (*LazyAddModuleToProgram)(cj_nvvm_program, const char *, size_t,
                                             const char *);
    cj_nvvm_result (*CompileProgram)(cj_nvvm_program, int, const char **);
    cj_nvvm_result (*GetCompiledResultSize)(cj_nvvm_program, size_t *);
    cj_nvvm_result (*GetCompiledResult)(cj_nvvm_program, char *);
    cj_nvvm_result (*GetProgramLogSize)(cj_nvvm_program, size_t *);
    cj_nvvm_result (*GetProgramLog)(cj_nvvm_program, char *);
} cj_nvvm_api;

/* ---- nvvm_lib.c ---- */

/* The function table, loading libnvvm on the first call: borrowed, process lifetime; NULL with
 * cj_NvvmError naming every place searched when libnvvm cannot be loaded. */
const cj_nvvm_api *cj_nvvm_api_get(void);
/* 0 when `rc` is success; else -1 with cj_NvvmError "<what>: <nvvmGetErrorString>" followed by
 * the program log when `prog` is not NULL. */
int cj_nvvm_check(const cj_nvvm_api *api, cj_nvvm_result rc, const char *what,
                  cj_nvvm_program prog);
/* libdevice's bitcode, read once: borrowed, process lifetime; NULL with cj_NvvmError. */
const char *cj_nvvm_libdevice_bitcode(size_t *size);
/* The CUDA root holding `lib` (".../nvvm/lib64/libnvvm.so" -> "..."), written into `root`;
 * NVRTC (nvrtc.c) is looked for under the root libnvvm came from. */
void cj_nvvm_library_root(const char *lib, char *root, size_t size);
/* The libnvvm files the search would try, in order: a new list of str. */
PyObject *cj_nvvm_library_candidates(void);

/* ---- nvvm_legalize.c ---- */

/* Rewrites `module` (a clone we own) for NVVM: target triple and data layout, attribute kinds
 * outside the allowlist removed, fneg/freeze/poison (unknown to LLVM 7) rewritten, and
 * !nvvmir.version added when missing. 0, or -1 with an exception. */
int cj_nvvm_legalize(LLVMModuleRef module, const cj_nvvm_api *api);
/* 0, or -1 with cj_UnsupportedError naming an llvm.* intrinsic LLVM 7 did not have. */
int cj_nvvm_check_intrinsics(LLVMModuleRef module);
/* The attribute kinds kept: a new tuple of str. */
PyObject *cj_nvvm_allowed_attributes(void);

/* ---- nvvm_lto.c ---- */

/* Lists every kernel of !nvvm.annotations in @llvm.used, so nvJitLink's link-time optimisation
 * keeps it (see the file). 0, or -1 with an exception. */
int cj_nvvm_keep_kernels(LLVMModuleRef module);

/* ---- nvvm_text.c ---- */

/* LLVM 14's printed IR rewritten into the LLVM 7 syntax of NVVM's text reader: a new str, or
 * NULL with an exception. */
PyObject *cj_nvvm_text_for_llvm7(const char *ir, size_t len);

#endif
