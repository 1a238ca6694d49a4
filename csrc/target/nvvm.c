/* nvvm.c: an LLVM 14 module -> PTX through libnvvm. The caller's module is never changed: a
 * clone is legalized (nvvm_legalize.c), verified, and handed to libnvvm in the form its reader
 * for the target takes:
 *   - compute capability < 10 (NVVM's LLVM 7 dialect): LLVM 7 text IR (nvvm_text.c), because
 *     LLVM 7's bitcode reader rejects LLVM 14's atomicrmw/cmpxchg/debug-info records;
 *   - compute capability >= 10 (CUDA 13's LLVM 20 dialect): LLVM 14 bitcode.
 * libdevice is added lazily (only what is used is linked) when the module calls __nv_*. */
#include "target/nvvm_internal.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/BitWriter.h>
#include <stdio.h>
#include <string.h>

int cj_nvvm_check_options(const cj_nvvm_options *opts) {
    if (opts->cc_major < 5 || opts->cc_major > 15 || opts->cc_minor < 0 ||
        opts->cc_minor > 9) {
        PyErr_Format(PyExc_ValueError,
                     "compute capability %d.%d is not valid for CUDA (need 5.0 or higher)",
                     opts->cc_major, opts->cc_minor);
        return -1;
    }
    if (opts->opt < 0 || opts->opt > 3) {
        PyErr_Format(PyExc_ValueError, "opt must be 0..3, not %d", opts->opt);
        return -1;
    }
    return 0;
}

static int uses_llvm7_dialect(const cj_nvvm_options *opts) {
    return opts->cc_major < 10;
}

/* 1 when `module` declares a libdevice function (__nv_*). */
static int calls_libdevice(LLVMModuleRef module) {
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
        size_t len;
        const char *name = LLVMGetValueName2(fn, &len);
        if (LLVMIsDeclaration(fn) && len > 5 && memcmp(name, "__nv_", 5) == 0) {
            return 1;
        }
    }
    return 0;
}

/* The legalized clone as libnvvm input: a new str (text IR) or bytes (bitcode); NULL with an
 * exception. *needs_libdevice tells whether libdevice must be linked. */
static PyObject *make_payload(LLVMModuleRef module, const cj_nvvm_options *opts,
                              const cj_nvvm_api *api, int *needs_libdevice) {
    LLVMModuleRef clone = LLVMCloneModule(module); /* owned: disposed on every path below */
    if (clone == NULL) {
        PyErr_SetString(cj_LoweringError, "LLVMCloneModule failed");
        return NULL;
    }
    PyObject *payload = NULL;
    char *message = NULL;
    if (cj_nvvm_legalize(clone, api) < 0) {
        goto done;
    }
    if (LLVMVerifyModule(clone, LLVMReturnStatusAction, &message)) {
        PyErr_Format(cj_LoweringError, "the LLVM module for NVVM is invalid:\n%s",
                     message ? message : "(no message)");
        goto done;
    }
    *needs_libdevice = calls_libdevice(clone);
    if (uses_llvm7_dialect(opts)) {
        if (cj_nvvm_check_intrinsics(clone) < 0) {
            goto done;
        }
        char *ir = LLVMPrintModuleToString(clone);
        payload = cj_nvvm_text_for_llvm7(ir, strlen(ir));
        LLVMDisposeMessage(ir);
    } else {
        LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(clone);
        if (buf == NULL) {
            PyErr_SetString(cj_LoweringError, "LLVMWriteBitcodeToMemoryBuffer failed");
            goto done;
        }
        payload = PyBytes_FromStringAndSize(LLVMGetBufferStart(buf),
                                            (Py_ssize_t)LLVMGetBufferSize(buf));
        LLVMDisposeMemoryBuffer(buf);
    }
done:
    if (message != NULL) {
        LLVMDisposeMessage(message);
    }
    LLVMDisposeModule(clone);
    return payload;
}

PyObject *cj_nvvm_payload(LLVMModuleRef module, const cj_nvvm_options *opts) {
    if (cj_nvvm_check_options(opts) < 0) {
        return NULL;
    }
    const cj_nvvm_api *api = cj_nvvm_api_get();
    int needs_libdevice = 0;
    return api ? make_payload(module, opts, api, &needs_libdevice) : NULL;
}

/* The compile options for `opts` in argv (string storage in `arch`/`level`): the count. */
static int build_argv(const cj_nvvm_options *opts, const char **argv, char *arch, char *level) {
    int n = 0;
    snprintf(arch, 32, "-arch=compute_%d%d", opts->cc_major, opts->cc_minor);
    snprintf(level, 16, "-opt=%d", opts->opt);
    argv[n++] = arch;
    argv[n++] = level;
    if (opts->fastmath) { /* numba-cuda's fastmath set */
        argv[n++] = "-ftz=1";
        argv[n++] = "-prec-div=0";
        argv[n++] = "-prec-sqrt=0";
        argv[n++] = "-fma=1";
    }
    if (opts->debug) {
        argv[n++] = "-g";
    } else if (opts->lineinfo) {
        argv[n++] = "-generate-line-info";
    }
    return n;
}

/* Runs the program: adds `payload` and libdevice, compiles, returns the PTX (new str). */
static PyObject *run_program(const cj_nvvm_api *api, cj_nvvm_program prog, PyObject *payload,
                             int needs_libdevice, const cj_nvvm_options *opts) {
    const char *data;
    Py_ssize_t size;
    if (PyBytes_Check(payload)) {
        data = PyBytes_AS_STRING(payload);
        size = PyBytes_GET_SIZE(payload);
    } else if ((data = PyUnicode_AsUTF8AndSize(payload, &size)) == NULL) {
        return NULL;
    }
    if (cj_nvvm_check(api, api->AddModuleToProgram(prog, data, (size_t)size, "cujit"),
                      "nvvmAddModuleToProgram", prog) < 0) {
        return NULL;
    }
    if (needs_libdevice) {
        size_t lib_size;
        const char *lib = cj_nvvm_libdevice_bitcode(&lib_size);
        if (lib == NULL ||
            cj_nvvm_check(api, api->LazyAddModuleToProgram(prog, lib, lib_size, "libdevice"),
                          "nvvmLazyAddModuleToProgram(libdevice)", prog) < 0) {
            return NULL;
        }
    }
    const char *argv[10];
    char arch[32], level[16];
    int argc = build_argv(opts, argv, arch, level);
    cj_nvvm_result rc;
    Py_BEGIN_ALLOW_THREADS /* the program is ours alone; NVVM holds no Python state */
    rc = api->CompileProgram(prog, argc, argv);
    Py_END_ALLOW_THREADS
    if (cj_nvvm_check(api, rc, "nvvmCompileProgram", prog) < 0) {
        return NULL;
    }
    size_t ptx_size = 0;
    if (cj_nvvm_check(api, api->GetCompiledResultSize(prog, &ptx_size),
                      "nvvmGetCompiledResultSize", prog) < 0) {
        return NULL;
    }
    char *ptx = PyMem_Malloc(ptx_size + 1);
    if (ptx == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *result = NULL;
    if (cj_nvvm_check(api, api->GetCompiledResult(prog, ptx), "nvvmGetCompiledResult", prog) ==
        0) {
        ptx[ptx_size] = '\0'; /* the size counts NVVM's own terminator; be sure of one */
        result = PyUnicode_DecodeUTF8(ptx, (Py_ssize_t)strlen(ptx), "replace");
    }
    PyMem_Free(ptx);
    return result;
}

PyObject *cj_nvvm_compile(LLVMModuleRef module, const cj_nvvm_options *opts) {
    if (cj_nvvm_check_options(opts) < 0) {
        return NULL;
    }
    const cj_nvvm_api *api = cj_nvvm_api_get();
    if (api == NULL) {
        return NULL;
    }
    int needs_libdevice = 0;
    PyObject *payload = make_payload(module, opts, api, &needs_libdevice);
    if (payload == NULL) {
        return NULL;
    }
    cj_nvvm_program prog = NULL;
    PyObject *ptx = NULL;
    if (cj_nvvm_check(api, api->CreateProgram(&prog), "nvvmCreateProgram", NULL) == 0) {
        ptx = run_program(api, prog, payload, needs_libdevice, opts);
        api->DestroyProgram(&prog);
    }
    Py_DECREF(payload); /* kept until here: NVVM may read the buffer until it has compiled */
    return ptx;
}
