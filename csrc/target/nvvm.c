/* nvvm.c: an LLVM 14 module -> PTX through libnvvm. The caller's module is never changed: a
 * clone is legalized (nvvm_legalize.c), verified, and handed to libnvvm in the form its reader
 * for the target takes:
 *   - compute capability < 10 (NVVM's LLVM 7 dialect): LLVM 7 text IR (nvvm_text.c), because
 *     LLVM 7's bitcode reader rejects LLVM 14's atomicrmw/cmpxchg/debug-info records;
 *   - compute capability >= 10 (CUDA 13's LLVM 20 dialect): LLVM 14 bitcode.
 * libdevice is added lazily (only what is used is linked) when the module calls __nv_*.
 * nvvmCompileProgram runs on a thread of its own (util/background.c), so Ctrl-C stops the wait. */
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
    if (cj_nvvm_legalize(clone, api) < 0 || (opts->lto && cj_nvvm_keep_kernels(clone) < 0)) {
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
    if (opts->lto) {
        argv[n++] = "-gen-lto";
    }
    return n;
}

/* One nvvmCompileProgram, on a thread of its own (util/background.c): the program, the
 * options and the module's bytes belong to it, so an interrupted compile finishes alone. */
typedef struct nvvm_job {
    const cj_nvvm_api *api;
    cj_nvvm_program prog;
    char *module;            /* the payload's bytes: NVVM may read them until it compiled */
    char args[10][48];
    const char *argv[10];
    int argc;
    cj_nvvm_result rc;
} nvvm_job;

static void nvvm_job_run(void *arg) {
    nvvm_job *j = arg;
    j->rc = j->api->CompileProgram(j->prog, j->argc, j->argv);
}

static void nvvm_job_drop(void *arg) {
    nvvm_job *j = arg;
    j->api->DestroyProgram(&j->prog);
    PyMem_RawFree(j->module);
    PyMem_RawFree(j);
}

/* A job owning a new program with `payload` (and libdevice) added; NULL + exception. */
static nvvm_job *nvvm_job_new(const cj_nvvm_api *api, PyObject *payload, int needs_libdevice,
                              const cj_nvvm_options *opts) {
    const char *data;
    Py_ssize_t size;
    if (PyBytes_Check(payload)) {
        data = PyBytes_AS_STRING(payload);
        size = PyBytes_GET_SIZE(payload);
    } else if ((data = PyUnicode_AsUTF8AndSize(payload, &size)) == NULL) {
        return NULL;
    }
    nvvm_job *j = PyMem_RawCalloc(1, sizeof(nvvm_job));
    char *copy = j ? PyMem_RawMalloc((size_t)size + 1) : NULL;
    if (copy == NULL) {
        PyMem_RawFree(j);
        return (nvvm_job *)PyErr_NoMemory();
    }
    memcpy(copy, data, (size_t)size);
    j->api = api;
    j->module = copy;
    if (cj_nvvm_check(api, api->CreateProgram(&j->prog), "nvvmCreateProgram", NULL) < 0) {
        PyMem_RawFree(copy);
        PyMem_RawFree(j);
        return NULL;
    }
    const char *argv[10];
    char arch[32], level[16];
    j->argc = build_argv(opts, argv, arch, level);
    for (int i = 0; i < j->argc; i++) {
        PyOS_snprintf(j->args[i], sizeof(j->args[i]), "%s", argv[i]);
        j->argv[i] = j->args[i];
    }
    size_t lib_size;
    const char *lib = NULL;
    if (cj_nvvm_check(api, api->AddModuleToProgram(j->prog, copy, (size_t)size, "cujit"),
                      "nvvmAddModuleToProgram", j->prog) < 0 ||
        (needs_libdevice &&
         ((lib = cj_nvvm_libdevice_bitcode(&lib_size)) == NULL ||
          cj_nvvm_check(api, api->LazyAddModuleToProgram(j->prog, lib, lib_size, "libdevice"),
                        "nvvmLazyAddModuleToProgram(libdevice)", j->prog) < 0))) {
        nvvm_job_drop(j);
        return NULL;
    }
    return j;
}

/* The compiled program's PTX (new str), or its LTO-IR (new bytes) when `binary`. */
static PyObject *compiled_ptx(const cj_nvvm_api *api, cj_nvvm_program prog, int binary) {
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
        result = binary ? PyBytes_FromStringAndSize(ptx, (Py_ssize_t)ptx_size)
                        : PyUnicode_DecodeUTF8(ptx, (Py_ssize_t)strlen(ptx), "replace");
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
    nvvm_job *job = nvvm_job_new(api, payload, needs_libdevice, opts);
    Py_DECREF(payload); /* the job has its own copy */
    if (job == NULL) {
        return NULL;
    }
    int rc = cj_run_in_background(nvvm_job_run, nvvm_job_drop, job); /* Ctrl-C can stop it */
    if (rc < 0) {
        if (rc == -1) {
            nvvm_job_drop(job);
        }
        return NULL;
    }
    PyObject *ptx = cj_nvvm_check(api, job->rc, "nvvmCompileProgram", job->prog) == 0
                        ? compiled_ptx(api, job->prog, opts->lto)
                        : NULL;
    nvvm_job_drop(job);
    return ptx;
}

