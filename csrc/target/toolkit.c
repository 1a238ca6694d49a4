/* toolkit.c: finding the toolkit's libraries beside libnvvm (see toolkit.h). */
#include "target/toolkit.h"

#include <dlfcn.h>
#include <stdlib.h>

#include "target/nvvm.h"
#include "target/nvvm_internal.h"

void *cj_toolkit_dlopen(const char *env_var, const char *soname, char *root, size_t size) {
    const char *env = getenv(env_var);
    root[0] = '\0';
    if (env != NULL && env[0] != '\0') {
        return dlopen(env, RTLD_NOW | RTLD_LOCAL);
    }
    const char *nvvm = cj_nvvm_library_path(); /* its root holds the others too */
    if (nvvm == NULL) {
        PyErr_Clear(); /* no libnvvm: the loader's search alone */
    } else {
        cj_nvvm_library_root(nvvm, root, size);
    }
    static const char *const subdirs[] = {"lib64", "lib"};
    void *handle = NULL;
    for (int i = 0; handle == NULL && root[0] && i < 2; i++) {
        char path[4300];
        PyOS_snprintf(path, sizeof(path), "%s/%s/%s", root, subdirs[i], soname);
        handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    }
    return handle != NULL ? handle : dlopen(soname, RTLD_NOW | RTLD_LOCAL);
}
