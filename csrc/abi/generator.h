/* generator.h: the contract between a compiled generator and who runs it (compiled code
 * iterating it, jit/generator_object.c for Python). A generator's call makes its frame, an
 * NRT allocation (the generator value is its cj_meminfo *) whose data starts with this header,
 * then the arguments and every variable of the function at offsets only the generated code
 * knows (lower/lower_generator.c). `next` resumes it:
 *   status = frame->next(out, frame)
 * 0: it yielded, the value (with a reference for the caller) at `out`; CJ_GEN_EXHAUSTED: it
 * returned, now or before; else the id of the exception it raised (abi.h), after which it is
 * exhausted too. The last reference to the frame closes it (cj_gen_dtor): a frame not yet
 * exhausted runs once more with resume CJ_GEN_CLOSE, which drops what its variables hold. */
#ifndef CJ_ABI_GENERATOR_H
#define CJ_ABI_GENERATOR_H

#include "abi/abi.h"

typedef struct cj_gen_frame {
    int32_t (*next)(void *out, struct cj_gen_frame *frame);
    int64_t resume; /* 0 before the first next, k after the k-th yield point, or below */
} cj_gen_frame;

enum { CJ_GEN_DONE = -1, CJ_GEN_CLOSE = -2 };
#define CJ_GEN_EXHAUSTED (-1) /* the status of a next that did not yield */

/* A zeroed frame of `nbytes` (the header included) whose next is `next`, closed by
 * cj_gen_dtor; NULL when memory runs out (no exception: compiled code raises MemoryError). */
cj_meminfo *cj_gen_new(int64_t nbytes, void *next);
void cj_gen_dtor(cj_meminfo *mi);

#endif
