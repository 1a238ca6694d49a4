/* frontend_py.c: private test hook `_core.dump_ir(func)`: the untyped IR as text. */
#include "frontend/frontend.h"

static PyObject *dump_ir(PyObject *module, PyObject *func) {
    cj_func_ir *ir = cj_build_ir(func);
    if (ir == NULL) {
        return NULL;
    }
    PyObject *text = cj_ir_dump(ir, 0);
    cj_ir_free(ir);
    return text;
}

static PyMethodDef frontend_functions[] = {
    {"dump_ir", dump_ir, METH_O, "dump_ir(func) -> the function's untyped IR as text"},
    {NULL},
};

int cj_frontend_init(PyObject *module) { return PyModule_AddFunctions(module, frontend_functions); }
