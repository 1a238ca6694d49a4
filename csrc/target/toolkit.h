/* toolkit.h: the CUDA toolkit's own libraries beside libnvvm (NVRTC, nvJitLink), opened with
 * dlopen on first use (toolkit.c). */
#ifndef CJ_TOOLKIT_H
#define CJ_TOOLKIT_H

#include <stddef.h>

/* dlopen of $<env_var> when set (nothing else is tried), else of <root>/lib64/<soname> and
 * <root>/lib/<soname> for the CUDA root libnvvm came from, else of <soname> by the loader's
 * search. The handle, or NULL (no exception set). `root` gets the root ("" when unknown). */
void *cj_toolkit_dlopen(const char *env_var, const char *soname, char *root, size_t size);

#endif
