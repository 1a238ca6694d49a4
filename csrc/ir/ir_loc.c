/* ir_loc.c: source locations in messages, in numba's layout. */
#include "ir/ir.h"

#include <stdarg.h>

PyObject *cj_ir_source_line(const cj_func_ir *ir, int line, const char *strip) {
    PyObject *linecache = PyImport_ImportModule("linecache");
    if (linecache == NULL) {
        return NULL;
    }
    PyObject *src = PyObject_CallMethod(linecache, "getline", "si", ir->filename, line);
    Py_DECREF(linecache);
    if (src == NULL) {
        return NULL;
    }
    PyObject *stripped = PyObject_CallMethod(src, strip, NULL);
    Py_DECREF(src);
    return stripped;
}

PyObject *cj_ir_loc_text(const cj_func_ir *ir, int line) {
    PyObject *stripped = cj_ir_source_line(ir, line, "strip");
    if (stripped == NULL) {
        return NULL;
    }
    PyObject *text = PyUnicode_FromFormat("File \"%s\", line %d, in %s:\n    %U\n    ^",
                                          ir->filename, line, ir->name, stripped);
    Py_DECREF(stripped);
    return text;
}

int cj_ir_errorv(const cj_func_ir *ir, PyObject *exc, int line, const char *prefix,
                 const char *fmt, va_list ap) {
    PyObject *msg = PyUnicode_FromFormatV(fmt, ap);
    if (msg == NULL) {
        return -1;
    }
    PyObject *loc = cj_ir_loc_text(ir, line);
    if (loc == NULL) {
        Py_DECREF(msg);
        return -1;
    }
    PyErr_Format(exc, "%s%U\n\n%U", prefix, msg, loc);
    Py_DECREF(msg);
    Py_DECREF(loc);
    return -1;
}

int cj_ir_error(const cj_func_ir *ir, PyObject *exc, int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    cj_ir_errorv(ir, exc, line, "", fmt, ap);
    va_end(ap);
    return -1;
}
