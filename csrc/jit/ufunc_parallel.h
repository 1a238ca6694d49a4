/* ufunc_parallel.h: what ufunc.c and ufunc_parallel.c share for target='parallel' ufuncs. */
#ifndef CJ_UFUNC_PARALLEL_H
#define CJ_UFUNC_PARALLEL_H

#include "util/npy.h"

#define CJ_UFUNC_MAX_ARGS 32 /* a ufunc's inputs and outputs together (ufunc.c checks) */

/* One parallel loop's data: the serial loop, its argument count and the dimensions NumPy
 * passes it (1, plus a gufunc's core dimensions). */
typedef struct cj_par_loop {
    PyUFuncGenericFunction serial;
    int nargs, ndims;
} cj_par_loop;

/* The loop NumPy calls for a parallel ufunc (data: its cj_par_loop). */
void cj_parallel_ufunc_loop(char **args, npy_intp const *dims, npy_intp const *steps,
                            void *data);
/* The serial loops' raise: a parallel ufunc's records the status for the thread; the other's
 * sets the exception under the GIL. */
void cj_ufunc_record_status(int status);
void cj_ufunc_raise(int status);

#endif
