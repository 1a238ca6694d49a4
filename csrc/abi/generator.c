/* generator.c: a generator's frame (generator.h): made zeroed by the generator's call, closed
 * when its last reference goes. */
#include "abi/generator.h"

cj_meminfo *cj_gen_new(int64_t nbytes, void *next) {
    if (nbytes < (int64_t)sizeof(cj_gen_frame)) {
        return NULL;
    }
    cj_meminfo *mi = cj_nrt_allocate_zeroed(nbytes);
    if (mi == NULL) {
        return NULL;
    }
    cj_gen_frame *frame = mi->data;
    frame->next = (int32_t(*)(void *, cj_gen_frame *))next;
    frame->resume = 0;
    mi->dtor = cj_gen_dtor;
    return mi;
}

void cj_gen_dtor(cj_meminfo *mi) {
    cj_gen_frame *frame = mi->data;
    if (frame->resume >= 0) { /* started or not, it holds references: drop them */
        frame->resume = CJ_GEN_CLOSE;
        (void)frame->next(NULL, frame);
    }
}
