/* nvvm_python.c: the back end's private hooks on _core, for the Python layer, tests and
 * inspection tools:
 *   nvvm_info() -> {version, ir_version, library, libdevice}
 *   nvvm_compile_ir(llvm_ir, cc=(9, 0), opt=3, fastmath=False, lineinfo=False, debug=False)
 *   nvvm_prepare_ir(llvm_ir, cc=(9, 0)): what nvvm_compile_ir hands to libnvvm (str or bytes)
 *   nvvm_library_candidates(), nvvm_allowed_attributes()
 * llvm_ir is LLVM 14 text IR, parsed into a fresh context that is freed on every path. */
#include "target/nvvm_internal.h"

#include <llvm-c/IRReader.h>
#include <limits.h>

/* cc must be a tuple of two ints; ValueError otherwise. */
static int parse_cc(PyObject *cc, cj_nvvm_options *opts) {
    if (!PyTuple_Check(cc) || PyTuple_GET_SIZE(cc) != 2 ||
        !PyLong_Check(PyTuple_GET_ITEM(cc, 0)) || !PyLong_Check(PyTuple_GET_ITEM(cc, 1))) {
        PyErr_Format(PyExc_ValueError,
                     "cc must be a (major, minor) tuple of ints such as (9, 0), not %R", cc);
        return -1;
    }
    int overflow0, overflow1;
    long major = PyLong_AsLongAndOverflow(PyTuple_GET_ITEM(cc, 0), &overflow0);
    long minor = PyLong_AsLongAndOverflow(PyTuple_GET_ITEM(cc, 1), &overflow1);
    if (overflow0 || overflow1 || major < INT_MIN || major > INT_MAX || minor < INT_MIN ||
        minor > INT_MAX) {
        PyErr_Format(PyExc_ValueError, "compute capability %R is not valid for CUDA", cc);
        return -1;
    }
    opts->cc_major = (int)major;
    opts->cc_minor = (int)minor;
    return 0;
}

/* Parses LLVM text IR into a new module of a new context (both the caller's to dispose);
 * -1 with ValueError naming LLVM's message when the text is not valid IR. */
static int parse_ir(PyObject *text, LLVMContextRef *ctx, LLVMModuleRef *module) {
    Py_ssize_t len;
    const char *ir = PyUnicode_AsUTF8AndSize(text, &len);
    if (ir == NULL) {
        return -1;
    }
    *ctx = LLVMContextCreate();
    LLVMMemoryBufferRef buf =
        LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, (size_t)len, "llvm_ir");
    char *message = NULL;
    /* the buffer is consumed by the parser, whatever the outcome */
    if (LLVMParseIRInContext(*ctx, buf, module, &message)) {
        PyErr_Format(PyExc_ValueError, "invalid LLVM IR: %s", message ? message : "?");
        if (message != NULL) {
            LLVMDisposeMessage(message);
        }
        LLVMContextDispose(*ctx);
        return -1;
    }
    return 0;
}

typedef PyObject *(*module_fn)(LLVMModuleRef, const cj_nvvm_options *);

/* Parses the arguments, the IR, and runs `fn` on the module. */
static PyObject *with_module(PyObject *args, PyObject *kwargs, module_fn fn) {
    static char *kwlist[] = {"llvm_ir", "cc", "opt", "fastmath", "lineinfo", "debug", "lto",
                             NULL};
    PyObject *text, *cc = NULL;
    cj_nvvm_options opts = {.cc_major = 9, .cc_minor = 0, .opt = 3};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "U|Oipppp:nvvm_compile_ir", kwlist, &text, &cc,
                                     &opts.opt, &opts.fastmath, &opts.lineinfo, &opts.debug,
                                     &opts.lto)) {
        return NULL;
    }
    if ((cc != NULL && parse_cc(cc, &opts) < 0) || cj_nvvm_check_options(&opts) < 0) {
        return NULL;
    }
    LLVMContextRef ctx;
    LLVMModuleRef module;
    if (parse_ir(text, &ctx, &module) < 0) {
        return NULL;
    }
    PyObject *result = fn(module, &opts);
    LLVMDisposeModule(module);
    LLVMContextDispose(ctx);
    return result;
}

static PyObject *nvvm_compile_ir(PyObject *self, PyObject *args, PyObject *kwargs) {
    return with_module(args, kwargs, cj_nvvm_compile);
}

static PyObject *nvvm_prepare_ir(PyObject *self, PyObject *args, PyObject *kwargs) {
    return with_module(args, kwargs, cj_nvvm_payload);
}

static PyObject *print_module(LLVMModuleRef module) {
    char *text = LLVMPrintModuleToString(module);
    PyObject *str = PyUnicode_FromString(text);
    LLVMDisposeMessage(text);
    return str;
}

/* (ir before, ptx, ptx, ir after) of compiling one module twice: the module must not change. */
static PyObject *compile_twice(LLVMModuleRef module, const cj_nvvm_options *opts) {
    PyObject *before = print_module(module);
    PyObject *first = before ? cj_nvvm_compile(module, opts) : NULL;
    PyObject *second = first ? cj_nvvm_compile(module, opts) : NULL;
    PyObject *after = second ? print_module(module) : NULL;
    PyObject *result = after ? PyTuple_Pack(4, before, first, second, after) : NULL;
    Py_XDECREF(before);
    Py_XDECREF(first);
    Py_XDECREF(second);
    Py_XDECREF(after);
    return result;
}

static PyObject *nvvm_check_clone(PyObject *self, PyObject *args, PyObject *kwargs) {
    return with_module(args, kwargs, compile_twice);
}

static PyObject *nvvm_info(PyObject *self, PyObject *unused) {
    int major, minor, ir[4];
    if (cj_nvvm_version(&major, &minor) < 0 ||
        cj_nvvm_ir_version(&ir[0], &ir[1], &ir[2], &ir[3]) < 0) {
        return NULL;
    }
    const char *library = cj_nvvm_library_path();
    const char *libdevice = cj_nvvm_libdevice_path();
    if (libdevice == NULL) {
        if (!PyErr_ExceptionMatches(cj_NvvmError)) {
            return NULL;
        }
        PyErr_Clear(); /* reported as None: only math functions need it */
    }
    PyObject *library_str = PyUnicode_DecodeFSDefault(library);
    PyObject *libdevice_str = libdevice ? PyUnicode_DecodeFSDefault(libdevice) : Py_NewRef(Py_None);
    PyObject *info = NULL;
    if (library_str != NULL && libdevice_str != NULL) {
        info = Py_BuildValue("{s:(ii),s:(iiii),s:O,s:O}", "version", major, minor, "ir_version",
                             ir[0], ir[1], ir[2], ir[3], "library", library_str, "libdevice",
                             libdevice_str);
    }
    Py_XDECREF(library_str);
    Py_XDECREF(libdevice_str);
    return info;
}

static PyObject *nvvm_library_candidates(PyObject *self, PyObject *unused) {
    return cj_nvvm_library_candidates();
}

static PyObject *nvvm_allowed_attributes(PyObject *self, PyObject *unused) {
    return cj_nvvm_allowed_attributes();
}

static PyMethodDef nvvm_functions[] = {
    {"nvvm_info", nvvm_info, METH_NOARGS,
     "nvvm_info() -> dict(version, ir_version, library, libdevice); loads libnvvm."},
    {"nvvm_compile_ir", (PyCFunction)(void (*)(void))nvvm_compile_ir,
     METH_VARARGS | METH_KEYWORDS,
     "nvvm_compile_ir(llvm_ir, cc=(9, 0), opt=3, fastmath=False, lineinfo=False, debug=False,"
     " lto=False)"
     " -> PTX str (LTO-IR bytes with lto).\nCompiles LLVM 14 text IR through the NVVM back end."},
    {"nvvm_prepare_ir", (PyCFunction)(void (*)(void))nvvm_prepare_ir,
     METH_VARARGS | METH_KEYWORDS,
     "nvvm_prepare_ir(llvm_ir, cc=(9, 0), ...) -> what the back end hands to libnvvm: LLVM 7 "
     "text (str) for cc < 10, bitcode (bytes) otherwise."},
    {"nvvm_check_clone", (PyCFunction)(void (*)(void))nvvm_check_clone,
     METH_VARARGS | METH_KEYWORDS,
     "nvvm_check_clone(llvm_ir, ...) -> (ir_before, ptx1, ptx2, ir_after): compiles one module "
     "twice (a test hook: the back end must leave the module as it was)."},
    {"nvvm_library_candidates", nvvm_library_candidates, METH_NOARGS,
     "The libnvvm files the search would try, in order."},
    {"nvvm_allowed_attributes", nvvm_allowed_attributes, METH_NOARGS,
     "The LLVM attribute kinds the NVVM back end keeps; all others are stripped."},
    {NULL, NULL, 0, NULL},
};

int cj_nvvm_init(PyObject *module) {
    return PyModule_AddFunctions(module, nvvm_functions);
}
