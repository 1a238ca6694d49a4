/* nvvm: the CUDA back end. An LLVM 14 module (typed pointers) -> libnvvm (+ libdevice) -> PTX.
 * libnvvm is opened with dlopen on first use, never at import (see docs/nvvm.md).
 * Sections: nvvm_lib.c (finding and loading libnvvm and libdevice), nvvm_legalize.c (making a
 * module readable by NVVM's LLVM 7 reader), nvvm_text.c (LLVM 14 -> LLVM 7 text syntax),
 * nvvm.c (compilation), nvvm_python.c (the private _core hooks). */
#ifndef CJ_NVVM_H
#define CJ_NVVM_H

#include "util/util.h"
#include <llvm-c/Core.h>

typedef struct cj_nvvm_options {
    int cc_major;  /* compute capability, e.g. 9 and 0 for sm_90; major >= 5, minor 0..9 */
    int cc_minor;
    int opt;       /* NVVM optimisation level 0..3 */
    int fastmath;  /* -ftz=1 -prec-div=0 -prec-sqrt=0 -fma=1 */
    int lineinfo;  /* -generate-line-info (needs debug metadata in the module) */
    int debug;     /* -g (needs debug metadata in the module) */
    int lto;       /* -gen-lto: LTO-IR (bytes) for nvJitLink instead of PTX; kernels kept */
} cj_nvvm_options;

/* ---- nvvm.c: compilation ---- */

/* 0, or -1 with ValueError when an option is out of range. */
int cj_nvvm_check_options(const cj_nvvm_options *opts);
/* Compiles `module` (borrowed; left untouched: the work is done on a clone) to PTX.
 * Returns a new reference to a str (bytes of LTO-IR with opts->lto), or NULL with ValueError (options), cj_LoweringError (the
 * module fails LLVM's verifier), cj_UnsupportedError (an llvm.* intrinsic NVVM's LLVM 7 reader
 * cannot take, for cc < 10) or cj_NvvmError (libnvvm missing or compilation failed, with
 * NVVM's message and program log). Functions named __nv_* are resolved from libdevice.
 * The module needs its kernels in !nvvm.annotations; the triple, data layout and
 * !nvvmir.version are set by the back end. The GIL is released while NVVM compiles. */
PyObject *cj_nvvm_compile(LLVMModuleRef module, const cj_nvvm_options *opts);
/* What cj_nvvm_compile hands to libnvvm for `module` (text IR for the LLVM 7 dialect, a bytes
 * object of bitcode for the modern one): a new reference, or NULL with an exception. */
PyObject *cj_nvvm_payload(LLVMModuleRef module, const cj_nvvm_options *opts);

/* ---- nvvm_legalize.c ---- */

/* Gives `module` the NVPTX triple and NVVM's data layout: set on a fresh module before
 * lowering, so loads and stores get their natural alignment. */
void cj_nvvm_prepare_module(LLVMModuleRef module);

/* ---- nvvm_lib.c: the library, its versions and libdevice ---- */

/* 0, or -1 with cj_NvvmError (libnvvm missing). */
int cj_nvvm_version(int *major, int *minor);
int cj_nvvm_ir_version(int *major, int *minor, int *dbg_major, int *dbg_minor);
/* The loaded libnvvm's path (loading it if needed): borrowed, process lifetime; NULL with
 * cj_NvvmError when it cannot be found. */
const char *cj_nvvm_library_path(void);
/* libdevice.10.bc's path: borrowed, process lifetime; NULL with cj_NvvmError when not found. */
const char *cj_nvvm_libdevice_path(void);

#endif
