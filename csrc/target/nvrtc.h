/* nvrtc.h: CUDA C++ -> PTX through NVRTC (for cuda.jit(link=["f.cu"])). libnvrtc is opened with
 * dlopen on first use: $CUJIT_LIBNVRTC, else lib64/ and lib/ of the CUDA root libnvvm came
 * from, else the loader's search ("libnvrtc.so"); see target/toolkit.h. */
#ifndef CJ_NVRTC_H
#define CJ_NVRTC_H

#include "util/util.h"

/* PTX (a new str) of `source` (NUL-terminated CUDA C++) compiled for compute_<major><minor>,
 * or with `lto` its LTO-IR (new bytes, -dlto), with the toolkit's include directory on the
 * path. NULL with NvrtcError (cujit.cuda.linking:
 * the compile failed, with NVRTC's log), or RuntimeError naming what is missing when libnvrtc
 * cannot be loaded. */
PyObject *cj_nvrtc_compile(const char *source, const char *name, int cc_major, int cc_minor,
                           int lto);

#endif
