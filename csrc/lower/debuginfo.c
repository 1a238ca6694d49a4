/* debuginfo.c: line tables for a module: a DICompileUnit, a DISubprogram per function, a
 * debug location per source line. The caller keeps the builder and the file node (plain
 * values: the compilation's state stays with the pipeline that owns it). */
#include <llvm-c/DebugInfo.h>

#include <string.h>

#include "lower/lower.h"

LLVMDIBuilderRef cj_debuginfo_start(LLVMModuleRef mod, const char *filename, int full,
                                    LLVMMetadataRef *file, LLVMMetadataRef *cu) {
    const char *slash = strrchr(filename, '/');
    const char *base = slash ? slash + 1 : filename;
    size_t dirlen = slash ? (size_t)(slash - filename) : 0;
    LLVMDIBuilderRef di = LLVMCreateDIBuilder(mod);
    *file = LLVMDIBuilderCreateFile(di, base, strlen(base), filename, dirlen);
    *cu = LLVMDIBuilderCreateCompileUnit(
        di, LLVMDWARFSourceLanguagePython, *file, "cujit", 5, 1, "", 0, 0, "", 0,
        full ? LLVMDWARFEmissionFull : LLVMDWARFEmissionLineTablesOnly, 0, 0, 0, "", 0, "", 0);
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMAddModuleFlag(mod, LLVMModuleFlagBehaviorWarning, "Debug Info Version", 18,
                      LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(ctx), 3, 0)));
    return di;
}

static LLVMMetadataRef subprogram_of(LLVMDIBuilderRef di, LLVMMetadataRef file,
                                     LLVMValueRef fn, int line) {
    LLVMMetadataRef sp = LLVMGetSubprogram(fn);
    if (sp != NULL) {
        return sp;
    }
    size_t len;
    const char *name = LLVMGetValueName2(fn, &len);
    LLVMMetadataRef ty = LLVMDIBuilderCreateSubroutineType(di, file, NULL, 0, LLVMDIFlagZero);
    sp = LLVMDIBuilderCreateFunction(di, file, name, len, name, len, file, (unsigned)line, ty,
                                     0, 1, (unsigned)line, LLVMDIFlagZero, 1);
    LLVMSetSubprogram(fn, sp);
    return sp;
}

void cj_debuginfo_at_line(LLVMDIBuilderRef di, LLVMMetadataRef file, LLVMBuilderRef b,
                          LLVMValueRef fn, int line) {
    LLVMMetadataRef sp = subprogram_of(di, file, fn, line);
    LLVMContextRef ctx = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
    LLVMSetCurrentDebugLocation2(b, LLVMDIBuilderCreateDebugLocation(ctx, (unsigned)line, 0, sp,
                                                                     NULL));
}

void cj_debuginfo_finish(LLVMDIBuilderRef di, LLVMMetadataRef file, LLVMModuleRef mod,
                         int firstline) {
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f)) {
            continue;
        }
        LLVMMetadataRef sp = subprogram_of(di, file, f, firstline);
        LLVMMetadataRef loc = LLVMDIBuilderCreateDebugLocation(ctx, (unsigned)firstline, 0,
                                                               sp, NULL);
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                if (LLVMIsACallInst(i) && LLVMInstructionGetDebugLoc(i) == NULL) {
                    LLVMInstructionSetDebugLoc(i, loc);
                }
            }
        }
    }
    LLVMDIBuilderFinalize(di);
    LLVMDisposeDIBuilder(di);
}
