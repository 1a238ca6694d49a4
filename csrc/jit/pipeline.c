/* pipeline.c: the front half of the compile pipeline, one function for both targets:
 *   build_ir -> [dump IR] -> infer -> [dump types] -> annotation -> symbol -> module -> lower
 * What differs per target is in its cj_target (made here: the typing ids live in typing/).
 * The IR (and its arena) lives for one call and is freed on every path; the module, the
 * annotation and the debug-info builder go to the caller in a cj_front. Also the helpers
 * both drivers share: CUJIT_DUMP, module text and bitcode (both ways), symbol names. */
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>

#include <stdlib.h>
#include <string.h>

#include "frontend/frontend.h"
#include "jit/jit.h"
#include "target/nvvm.h"

const cj_target cj_target_cpu = {
    .name = "cpu", .id = CJ_TARGET_CPU, .context = cj_cpu_context,
    .prepare_module = cj_cpu_prepare_module, .c_symbols = 0,
    .ir_title = "IR", .types_title = "typed IR",
};

/* No context of its own: each compilation makes one and disposes it with the module. */
const cj_target cj_target_cuda = {
    .name = "cuda", .id = CJ_TARGET_CUDA, .context = NULL,
    .prepare_module = cj_nvvm_prepare_module, .c_symbols = 1,
    .ir_title = NULL, .types_title = "typed IR (CUDA)",
};

/* ---- shared helpers ---- */

int cj_dump_enabled(const char *stage) {
    const char *env = getenv("CUJIT_DUMP");
    return env != NULL && (strstr(env, stage) != NULL || strcmp(env, "all") == 0);
}

void cj_dump(const char *title, PyObject *text) {
    if (text != NULL) {
        PySys_FormatStderr("---- %s ----\n%U\n", title, text);
    }
}

PyObject *cj_module_bitcode(LLVMModuleRef mod) {
    LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(mod);
    PyObject *bytes = PyBytes_FromStringAndSize(LLVMGetBufferStart(buf),
                                                (Py_ssize_t)LLVMGetBufferSize(buf));
    LLVMDisposeMemoryBuffer(buf);
    return bytes;
}

/* Keeps the first error a bitcode read reports: without a handler LLVM prints it and calls
 * exit(1), so a malformed cache entry would kill the process. */
static void keep_diagnostic(LLVMDiagnosticInfoRef info, void *opaque) {
    char **kept = opaque;
    if (*kept == NULL && LLVMGetDiagInfoSeverity(info) == LLVMDSError) {
        *kept = LLVMGetDiagInfoDescription(info);
    }
}

LLVMModuleRef cj_module_parse(LLVMContextRef ctx, PyObject *bitcode, const char *name,
                              const char *error) {
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
        PyBytes_AS_STRING(bitcode), (size_t)PyBytes_GET_SIZE(bitcode), name);
    LLVMDiagnosticHandler old = LLVMContextGetDiagnosticHandler(ctx);
    void *old_opaque = LLVMContextGetDiagnosticContext(ctx);
    char *diag = NULL;
    LLVMContextSetDiagnosticHandler(ctx, keep_diagnostic, &diag);
    LLVMModuleRef mod;
    int failed = LLVMParseBitcodeInContext2(ctx, buf, &mod);
    LLVMContextSetDiagnosticHandler(ctx, old, old_opaque);
    LLVMDisposeMemoryBuffer(buf);
    if (failed) {
        PyErr_Format(cj_LoweringError, "%s: %s", error, diag ? diag : "malformed bitcode");
    }
    if (diag != NULL) {
        LLVMDisposeMessage(diag);
    }
    return failed ? NULL : mod;
}

PyObject *cj_module_text(LLVMModuleRef mod) {
    char *s = LLVMPrintModuleToString(mod);
    PyObject *text = PyUnicode_FromString(s);
    LLVMDisposeMessage(s);
    return text;
}

void cj_c_identifier(const char *name, char *out, size_t cap) {
    size_t k = 0;
    for (const char *p = name; *p && k + 1 < cap; p++) {
        char ch = *p;
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                 (ch >= '0' && ch <= '9') || ch == '_';
        out[k++] = ok ? ch : '_';
    }
    out[k] = 0;
}

/* One counter per naming scheme, so each target's names stay as they were. */
static unsigned long symbol_counters[2];

/* A fresh symbol for `qualname`: cj_<identifier>_<n> (c_ident) or cj.<qualname>.<n> with
 * `<>` made `_`; the name is cut at 199 characters so the counter always fits. */
static void make_symbol(int c_ident, const char *qualname, char *out, size_t cap) {
    if (c_ident) {
        char base[200];
        cj_c_identifier(qualname, base, sizeof(base));
        PyOS_snprintf(out, cap, "cj_%s_%lu", base, ++symbol_counters[1]);
        return;
    }
    PyOS_snprintf(out, cap, "cj.%.199s.%lu", qualname, ++symbol_counters[0]);
    for (char *p = out; *p; p++) {
        if (*p == '<' || *p == '>') {
            *p = '_';
        }
    }
}

char *cj_make_symbol(const char *qualname) {
    char buf[CJ_SYMBOL_MAX];
    make_symbol(0, qualname, buf, sizeof(buf));
    char *s = PyMem_Malloc(strlen(buf) + 1);
    if (s == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    return strcpy(s, buf);
}

/* ---- the front half ---- */

/* literal_unroll loops over heterogeneous tuples unrolled in one function, at most. */
#define CJ_MAX_UNROLLED_LOOPS 32

static void dump_ir(const char *stage, const char *title, cj_func_ir *ir, int typed) {
    if (title != NULL && cj_dump_enabled(stage)) {
        PyObject *t = cj_ir_dump(ir, typed);
        cj_dump(title, t);
        Py_XDECREF(t);
    }
}

/* numba's inspect_types header, "name (argtypes,)", then the typed IR per source line. */
static int annotate(cj_func_ir *ir, const cj_request *rq, cj_front *out) {
    PyObject *args = cj_types_tuple(rq->argtypes, rq->nargs);
    PyObject *sig = args ? PyUnicode_FromFormat("%U %R", ir->code->co_name, args) : NULL;
    Py_XDECREF(args);
    const char *sig_s = sig ? PyUnicode_AsUTF8(sig) : NULL;
    out->annotation = sig_s ? cj_ir_annotate(ir, sig_s) : NULL;
    Py_XDECREF(sig);
    return out->annotation ? 0 : -1;
}

static void at_line(cj_lower_env *env, LLVMBuilderRef b, LLVMValueRef fn, int line) {
    cj_front *f = env->opaque;
    cj_debuginfo_at_line(f->di, f->file, b, fn, line > 0 ? line : f->firstline);
}

/* The symbol, the module (with the target's triple and data layout before lowering, so loads
 * and stores get their natural alignment) and, with lineinfo, its line tables. */
static int new_module(cj_func_ir *ir, const cj_request *rq, cj_front *out) {
    const cj_target *t = rq->target;
    make_symbol(t->c_symbols, ir->name, out->symbol, sizeof(out->symbol));
    LLVMContextRef ctx = rq->ctx != NULL ? rq->ctx : t->context();
    if (ctx == NULL) {
        return -1;
    }
    out->mod = LLVMModuleCreateWithNameInContext(out->symbol, ctx);
    t->prepare_module(out->mod);
    out->firstline = ir->firstline;
    if (rq->lineinfo) {
        out->di = cj_debuginfo_start(out->mod, ir->filename, 0, &out->file, &out->cu);
        rq->lenv->at_line = at_line;
        rq->lenv->opaque = out;
    }
    return 0;
}

/* The IR built and typed. Typing that meets a literal_unroll of a heterogeneous tuple fails
 * asking for its loop unrolled (ir/unroll.c); the IR is built again with that loop (and those
 * asked before) unrolled, and typed again. */
static cj_func_ir *typed_ir(const cj_request *rq, const cj_type **ret) {
    cj_unroll_site sites[CJ_MAX_UNROLLED_LOOPS];
    for (int nsites = 0; ; nsites++) {
        cj_func_ir *ir = cj_build_ir(rq->pyfunc);
        if (ir == NULL || cj_unroll_loops(ir, sites, nsites) < 0) {
            cj_ir_free(ir);
            return NULL;
        }
        dump_ir("ir", rq->target->ir_title, ir, 0);
        if (cj_infer(ir, rq->argtypes, rq->nargs, rq->tenv, ret) == 0) {
            return ir;
        }
        int again = ir->unroll_wanted && nsites < CJ_MAX_UNROLLED_LOOPS;
        if (again) {
            PyErr_Clear(); /* typing's "unroll this loop": done by the next build */
            sites[nsites] = ir->unroll_request;
        }
        cj_ir_free(ir);
        if (!again) {
            return NULL;
        }
    }
}

int cj_pipeline_front(const cj_request *rq, cj_front *out) {
    *out = (cj_front){0};
    rq->tenv->target = rq->target->id;
    rq->lenv->target = rq->target->id;
    cj_func_ir *ir = typed_ir(rq, &out->ret);
    if (ir == NULL) {
        return -1;
    }
    if (rq->declared_ret != NULL) {
        out->ret = rq->declared_ret;
    }
    dump_ir("types", rq->target->types_title, ir, 1);
    if (annotate(ir, rq, out) < 0 || new_module(ir, rq, out) < 0) {
        goto fail;
    }
    out->inner = cj_lower_function(ir, rq->argtypes, rq->nargs, out->ret, out->mod, out->symbol,
                                   rq->lenv);
    if (out->inner == NULL || (cj_ub_audit_enabled() && cj_ub_audit(out->mod) < 0)) {
        goto fail;
    }
    cj_ir_free(ir);
    return 0;
fail:
    cj_ir_free(ir);
    cj_front_clear(out);
    return -1;
}

void cj_front_finish_debug(cj_front *f) {
    if (f->di != NULL) {
        cj_debuginfo_finish(f->di, f->file, f->mod, f->firstline);
        f->di = NULL;
    }
}

void cj_front_clear(cj_front *f) {
    Py_CLEAR(f->annotation);
    if (f->di != NULL) {
        LLVMDisposeDIBuilder(f->di);
        f->di = NULL;
    }
    if (f->mod != NULL) {
        LLVMDisposeModule(f->mod);
        f->mod = NULL;
    }
}
