/* nvjitlink.h: linking device code with nvJitLink (for cuda.jit(link=[...]) of .cubin, .fatbin,
 * .o, .a and .ltoir files). libnvJitLink is opened with dlopen on first use: $CUJIT_LIBNVJITLINK,
 * else beside libnvvm, else the loader's search (target/toolkit.h). */
#ifndef CJ_NVJITLINK_H
#define CJ_NVJITLINK_H

#include "util/util.h"

/* One input of a link: its kind is the file extension ("ptx", "cubin", "fatbin", "o", "a",
 * "ltoir"); PTX is text without its NUL, the others are bytes. */
typedef struct cj_link_input {
    const char *kind;
    const char *name;
    const char *data;
    size_t size;
} cj_link_input;

/* The cubin (new bytes) of `inputs` linked for sm_<major><minor> (with -lto when an input is
 * LTO-IR). NULL with cujit.cuda.linking.LinkerError (nvJitLink's error log), ValueError (an
 * unknown kind) or RuntimeError naming the library when libnvJitLink cannot be loaded. */
PyObject *cj_nvjitlink(const cj_link_input *inputs, int n, int cc_major, int cc_minor);

#endif
