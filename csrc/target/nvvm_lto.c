/* nvvm_lto.c: what a module needs before NVVM compiles it to LTO-IR (-gen-lto) for
 * nvJitLink. nvJitLink's link-time optimisation drops every symbol nothing references, and
 * NVVM's LTO-IR does not count a kernel's !nvvm.annotations entry as a reference (checked
 * with NVVM and nvJitLink 13: a kernel alone in a module comes out of the link with no
 * code), so each kernel is listed in @llvm.used, which LTO keeps. */
#include "target/nvvm_internal.h"

#include <string.h>

/* 1 when annotation `node` is !{fn, !"kernel", i32 1}; its function in *fn. */
static int kernel_annotation(LLVMValueRef node, LLVMValueRef *fn) {
    if (LLVMGetMDNodeNumOperands(node) != 3) {
        return 0;
    }
    LLVMValueRef ops[3];
    LLVMGetMDNodeOperands(node, ops);
    unsigned len = 0;
    const char *key = ops[1] ? LLVMGetMDString(ops[1], &len) : NULL;
    if (ops[0] == NULL || LLVMIsAFunction(ops[0]) == NULL || key == NULL || len != 6 ||
        memcmp(key, "kernel", 6) != 0) {
        return 0;
    }
    *fn = ops[0];
    return 1;
}

int cj_nvvm_keep_kernels(LLVMModuleRef module) {
    unsigned n = LLVMGetNamedMetadataNumOperands(module, "nvvm.annotations");
    if (n == 0 || LLVMGetNamedGlobal(module, "llvm.used") != NULL) {
        return 0; /* no kernels, or a module that lists its own */
    }
    LLVMValueRef *nodes = PyMem_Calloc(2 * (size_t)n, sizeof(LLVMValueRef));
    if (nodes == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    LLVMValueRef *kept = nodes + n;
    LLVMGetNamedMetadataOperands(module, "nvvm.annotations", nodes);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(LLVMGetModuleContext(module)), 0);
    unsigned count = 0;
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef fn;
        if (kernel_annotation(nodes[i], &fn)) {
            kept[count++] = LLVMConstBitCast(fn, i8p);
        }
    }
    if (count > 0) {
        LLVMTypeRef array = LLVMArrayType(i8p, count);
        LLVMValueRef used = LLVMAddGlobal(module, array, "llvm.used");
        LLVMSetLinkage(used, LLVMAppendingLinkage);
        LLVMSetSection(used, "llvm.metadata");
        LLVMSetInitializer(used, LLVMConstArray(i8p, kept, count));
    }
    PyMem_Free(nodes);
    return 0;
}
