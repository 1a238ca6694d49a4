/* ufunc_parallel.c: vectorize/guvectorize(target='parallel'). NumPy calls a loop with n
 * elements (or core-dimension blocks) at a time; the parallel loop splits those n over the
 * prange pool (abi/workqueue.c), each thread running the ufunc's serial loop (ufunc.c) on a
 * contiguous slice, its arguments moved by the slice's start times their outer steps.
 *
 * The serial loops of a parallel ufunc are built with cj_ufunc_record_status as their raise:
 * a failing element records its status on its thread and ends that slice's loop; after the
 * pool is done, the first status recorded raises (cj_ufunc_raise, under the GIL). */
#include "jit/ufunc_parallel.h"

#include "abi/abi.h"

static _Thread_local int recorded; /* the status the running slice's loop reported */

void cj_ufunc_record_status(int status) {
    if (recorded == 0) {
        recorded = status;
    }
}

typedef struct slice_call {
    const cj_par_loop *loop;
    char **args;
    const npy_intp *dims, *steps;
} slice_call;

static int32_t run_slice(void *ctx, int64_t start, int64_t stop, void *unused) {
    const slice_call *c = ctx;
    char *args[CJ_UFUNC_MAX_ARGS];
    npy_intp dims[CJ_UFUNC_MAX_ARGS + 1];
    for (int k = 0; k < c->loop->nargs; k++) {
        args[k] = c->args[k] + (npy_intp)start * c->steps[k];
    }
    dims[0] = (npy_intp)(stop - start);
    for (int d = 1; d < c->loop->ndims; d++) {
        dims[d] = c->dims[d]; /* a gufunc's core dimensions */
    }
    recorded = 0;
    c->loop->serial(args, dims, c->steps, NULL);
    return recorded;
}

void cj_parallel_ufunc_loop(char **args, npy_intp const *dims, npy_intp const *steps,
                            void *data) {
    slice_call c = {data, args, dims, steps};
    int32_t status = 0;
    (void)cj_parallel_run(run_slice, &c, (int64_t)dims[0], NULL, 0, cj_get_num_threads(),
                          &status);
    if (status != 0) {
        cj_ufunc_raise(status);
    }
}
