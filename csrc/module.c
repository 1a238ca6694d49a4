/* module.c: PyInit__core. Each subsystem registers its types and functions through one init
 * function listed in `subsystem_inits`; the order is the layering (errors first). */
#define CJ_NUMPY_MAIN
#include "util/npy.h"
#include "util/util.h"
#include "module_inits.h"

typedef int (*cj_init_fn)(PyObject *module);

static const cj_init_fn subsystem_inits[] = {
    cj_errors_init,
#define CJ_SUBSYSTEM(fn) fn,
#include "module_inits.h"
#undef CJ_SUBSYSTEM
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "cujit._core",
    .m_doc = "cujit's C core: compiler, CPU and CUDA targets, CUDA runtime.",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__core(void) {
    import_array();
    import_umath();
    PyObject *module = PyModule_Create(&core_module);
    if (module == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < sizeof(subsystem_inits) / sizeof(subsystem_inits[0]); i++) {
        if (subsystem_inits[i](module) < 0) {
            Py_DECREF(module);
            return NULL;
        }
    }
    return module;
}
