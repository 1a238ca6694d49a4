/* cuda_intrinsics.h: the CUDA intrinsics (cujit.cuda.threadIdx, cuda.grid, cuda.atomic.add...),
 * found by identity of the Python objects pkg/cujit/cuda/intrinsics.py defines and registers
 * (_core.cuda_register_intrinsic(obj, name)). Shared by typing (cuda_typing.c) and lowering
 * (lower_cuda.c). CJ_CUDA_INTRINSIC(ID, "registered name") */
#ifndef CJ_CUDA_INTRINSICS_H
#define CJ_CUDA_INTRINSICS_H

#include "typing/infer_internal.h"

#define CJ_CUDA_INTRINSICS(X)                                                               \
    X(TID, "threadIdx") X(CTAID, "blockIdx") X(NTID, "blockDim") X(NCTAID, "gridDim")       \
    X(LANEID, "laneid") X(WARPSIZE, "warpsize")                                             \
    X(GRID, "grid") X(GRIDSIZE, "gridsize")                                                 \
    X(SYNCTHREADS, "syncthreads") X(SYNCTHREADS_COUNT, "syncthreads_count")                 \
    X(SYNCTHREADS_AND, "syncthreads_and") X(SYNCTHREADS_OR, "syncthreads_or")               \
    X(THREADFENCE, "threadfence") X(THREADFENCE_BLOCK, "threadfence_block")                 \
    X(THREADFENCE_SYSTEM, "threadfence_system")                                             \
    X(SHARED, "shared") X(LOCAL, "local") X(CONST, "const") X(ATOMIC, "atomic")             \
    X(SHARED_ARRAY, "shared.array") X(LOCAL_ARRAY, "local.array")                           \
    X(CONST_ARRAY_LIKE, "const.array_like")                                                 \
    X(ATOMIC_ADD, "atomic.add") X(ATOMIC_SUB, "atomic.sub") X(ATOMIC_AND, "atomic.and_")    \
    X(ATOMIC_OR, "atomic.or_") X(ATOMIC_XOR, "atomic.xor") X(ATOMIC_MAX, "atomic.max")      \
    X(ATOMIC_MIN, "atomic.min") X(ATOMIC_NANMAX, "atomic.nanmax")                           \
    X(ATOMIC_NANMIN, "atomic.nanmin") X(ATOMIC_EXCH, "atomic.exch")                         \
    X(ATOMIC_INC, "atomic.inc") X(ATOMIC_DEC, "atomic.dec") X(ATOMIC_CAS, "atomic.cas")     \
    X(ATOMIC_CAS2, "atomic.compare_and_swap")                                               \
    X(ALL_SYNC, "all_sync") X(ANY_SYNC, "any_sync") X(EQ_SYNC, "eq_sync")                   \
    X(BALLOT_SYNC, "ballot_sync") X(SHFL_SYNC, "shfl_sync") X(SHFL_UP_SYNC, "shfl_up_sync") \
    X(SHFL_DOWN_SYNC, "shfl_down_sync") X(SHFL_XOR_SYNC, "shfl_xor_sync")                   \
    X(MATCH_ANY_SYNC, "match_any_sync") X(MATCH_ALL_SYNC, "match_all_sync")                 \
    X(ACTIVEMASK, "activemask") X(LANEMASK_LT, "lanemask_lt")                               \
    X(POPC, "popc") X(BREV, "brev") X(CLZ, "clz") X(FFS, "ffs") X(FMA, "fma")               \
    X(CBRT, "cbrt") X(SELP, "selp")                                                         \
    X(HADD, "fp16.hadd") X(HSUB, "fp16.hsub") X(HMUL, "fp16.hmul") X(HDIV, "fp16.hdiv")     \
    X(HNEG, "fp16.hneg") X(HABS, "fp16.habs") X(HFMA, "fp16.hfma") X(HMAX, "fp16.hmax")     \
    X(HMIN, "fp16.hmin") X(HEQ, "fp16.heq") X(HNE, "fp16.hne") X(HGT, "fp16.hgt")           \
    X(HGE, "fp16.hge") X(HLT, "fp16.hlt") X(HLE, "fp16.hle") X(HSQRT, "fp16.hsqrt")         \
    X(HEXP, "fp16.hexp") X(HLOG, "fp16.hlog") X(HSIN, "fp16.hsin") X(HCOS, "fp16.hcos")     \
    X(HFLOOR, "fp16.hfloor") X(HCEIL, "fp16.hceil") X(HRSQRT, "fp16.hrsqrt")                \
    X(HEXP2, "fp16.hexp2") X(HEXP10, "fp16.hexp10") X(HLOG2, "fp16.hlog2")                  \
    X(HLOG10, "fp16.hlog10") X(HTRUNC, "fp16.htrunc") X(HRINT, "fp16.hrint")                \
    X(HRCP, "fp16.hrcp") /* HRCP last of the fp16 ids: ranges end at it */                  \
    X(PRINT, "print") X(LIBDEVICE, "libdevice")                                             \
    X(SYNCWARP, "syncwarp") X(NANOSLEEP, "nanosleep")                                       \
    X(CG_THIS_GRID, "cg.this_grid") X(CG_THIS_THREAD_BLOCK, "cg.this_thread_block")         \
    X(CG_GRID_GROUP, "cg.grid_group") X(CG_GRID_SYNC, "cg.grid_group.sync")                 \
    X(CG_THREAD_BLOCK, "cg.thread_block") X(CG_BLOCK_SYNC, "cg.thread_block.sync")

typedef enum cj_cuda_intrinsic {
#define CJ_CUDA_ENUM(id, name) CJ_CU_##id,
    CJ_CUDA_INTRINSICS(CJ_CUDA_ENUM)
#undef CJ_CUDA_ENUM
    CJ_CU_COUNT
} cj_cuda_intrinsic;

extern const char *const cj_cuda_intrinsic_names[CJ_CU_COUNT];

/* The intrinsic id of a Python object, or -1 (no exception) when it is none. */
int cj_cuda_intrinsic_lookup(PyObject *obj);
/* The Python object registered as intrinsic `id` (borrowed), or NULL when none is. */
PyObject *cj_cuda_intrinsic_object(int id);

/* Typing of syncwarp, nanosleep and the cooperative groups (cuda_sync.c): ids from
 * CJ_CU_SYNCWARP on; 1 / -1 as the other typing hooks. */
int cj_cuda_type_sync(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out);

/* What a GETATTR on an intrinsic resolved to (instr->resolved points at one of these). */
typedef struct cj_cuda_attr {
    int intrinsic;  /* CJ_CU_TID.. CJ_CU_NCTAID, LANEID, WARPSIZE */
    int axis;       /* 0, 1, 2 for .x .y .z */
} cj_cuda_attr;

/* A libdevice function (cujit.cuda.libdevice, cuda_libdevice.c): calls of one resolve to a
 * CJ_CALL_CUDA record with builtin CJ_CU_LIBDEVICE and callee pointing at this, registered
 * for the process's life. sig: the return type's code, then each parameter's (f float32,
 * d float64, i int32, l int64, h int16, v void; upper case: a pointer out-parameter, whose
 * value the call returns after the C return value, as a tuple when there are several). */
#define CJ_LIBDEVICE_MAX_PARAMS 6
typedef struct cj_libdevice_fn {
    char cname[48];                       /* "__nv_sinf" */
    char sig[CJ_LIBDEVICE_MAX_PARAMS + 2]; /* "ff" */
} cj_libdevice_fn;

/* The type of a signature code (either case; 'v' is none), or NULL for an unknown code. */
const cj_type *cj_libdevice_type(char code);

/* Typing of a libdevice call: 2 when `callee` is no libdevice function, else 1 / -1. */
int cj_cuda_type_libdevice(cj_infer_ctx *c, cj_instr *in, PyObject *callee,
                           const cj_type **out);

/* Shared by the typing of intrinsics and libdevice (cuda_typing.c): the call's record
 * (CJ_CALL_CUDA, builtin `id`, the given argument variables) set on `in`; NULL on failure. */
cj_call *cj_cuda_record(cj_infer_ctx *c, cj_instr *in, int id, int nargs, const int *vars);
/* numba-cuda's TypingError for arguments no signature takes: "No implementation of function
 * `qualname` found for signature: >>> name(types)"; -1. */
int cj_cuda_no_implementation(cj_infer_ctx *c, cj_instr *in, const char *qualname,
                              const char *name);

/* Typing hooks (cuda_typing.c): 2 when the instruction is not a CUDA intrinsic (the core
 * types it), else the usual 1 typed / 0 pending / -1 error. */
int cj_cuda_type_call(cj_infer_ctx *c, cj_instr *in, PyObject *callee, const cj_type **out);
int cj_cuda_type_getattr(cj_infer_ctx *c, cj_instr *in, const cj_type **out);

/* A shared/local/const array's shape and dtype, as typing recorded them on its call. */
typedef struct cj_cuda_array_spec {
    int ndim;
    long long shape[8];
    const cj_type *dtype;
    PyObject *data;  /* const.array_like: the NumPy array (kept by the IR) */
} cj_cuda_array_spec;

#endif
