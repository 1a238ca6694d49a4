/* cuda_sync.c: typing of cuda.syncwarp(mask=0xffffffff) and cuda.nanosleep(ns) (None), and of
 * numba-cuda's cooperative groups: cuda.cg.this_grid() and cuda.cg.this_thread_block() are
 * compile-time group objects (the call becomes the object registered as cg.grid_group or
 * cg.thread_block, as cuda.atomic is one), whose .sync() is an intrinsic of its own: int32 (0)
 * for a grid, as numba-cuda's, None for a block. lower_cuda_sync.c lowers them. */
#include "typing/cuda_intrinsics.h"

static int takes_one_integer(cj_infer_ctx *c, cj_instr *in, int optional, const char *what) {
    int n = in->nargs - 1;
    const cj_type *a = n == 1 ? cj_vt(c, in->args[1]) : NULL;
    if (in->index > 0 || n > 1 || (n == 0 && !optional) || (n == 1 && !cj_type_is_integer(a))) {
        return cj_typing_error(c, in, "%s", what);
    }
    return 0;
}

/* The call of cuda.cg.<what>() becomes the group object registered as intrinsic `group`. */
static int group_object(cj_infer_ctx *c, cj_instr *in, int group, const char *what,
                        const cj_type **out) {
    if (in->nargs != 1 || in->index > 0) {
        return cj_typing_error(c, in, "cuda.cg.%s() takes no arguments", what);
    }
    PyObject *obj = cj_cuda_intrinsic_object(group);
    PyObject *name = obj ? PyUnicode_FromString(what) : NULL;
    if (name == NULL || cj_ir_keep(c->ir, name) == NULL) {
        Py_XDECREF(name);
        return obj ? -1 : cj_typing_error(c, in, "cuda.cg is not loaded (import cujit.cuda)");
    }
    Py_DECREF(name); /* the IR keeps it */
    in->name = name;
    in->obj = obj; /* registered for the process's life */
    in->nargs = 0;
    in->op = CJ_I_GLOBAL;
    *out = cj_type_const_obj(obj);
    return *out ? 1 : -1;
}

int cj_cuda_type_sync(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    int n = in->nargs - 1;
    switch (id) {
    case CJ_CU_SYNCWARP:
        if (takes_one_integer(c, in, 1, "cuda.syncwarp() takes an optional integer mask") < 0) {
            return -1;
        }
        *out = cj_t_none;
        break;
    case CJ_CU_NANOSLEEP:
        if (takes_one_integer(c, in, 0, "cuda.nanosleep() takes the nanoseconds as one "
                                        "integer") < 0) {
            return -1;
        }
        *out = cj_t_none;
        break;
    case CJ_CU_CG_THIS_GRID:
        return group_object(c, in, CJ_CU_CG_GRID_GROUP, "this_grid", out);
    case CJ_CU_CG_THIS_THREAD_BLOCK:
        return group_object(c, in, CJ_CU_CG_THREAD_BLOCK, "this_thread_block", out);
    case CJ_CU_CG_GRID_SYNC:
    case CJ_CU_CG_BLOCK_SYNC:
        if (n != 0 || in->index > 0) {
            return cj_typing_error(c, in, "%s.sync() takes no arguments",
                                   id == CJ_CU_CG_GRID_SYNC ? "GridGroup" : "ThreadBlock");
        }
        *out = id == CJ_CU_CG_GRID_SYNC ? cj_t_int32 : cj_t_none;
        break;
    default:
        return cj_typing_error(c, in, "cuda.%s is not callable", cj_cuda_intrinsic_names[id]);
    }
    return cj_cuda_record(c, in, id, n, in->args + 1) ? 1 : -1;
}
