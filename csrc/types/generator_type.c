/* generator_type.c: numba's Generator type, of a call of a generator function. A value of it
 * is the meminfo of the generator's frame (abi/generator.h), so the code that iterates it is
 * the same for every generator yielding one type; the type still names its function and
 * argument types, as numba's does (two generators never unify). */
#include "types/types.h"

#include <string.h>

/* Appends to key[*len] what fmt makes; 0, or -1 (UnsupportedError) when it would not fit. */
static int append(char *key, size_t size, int *len, const char *fmt, const char *a,
                  const char *b) {
    int n = PyOS_snprintf(key + *len, size - (size_t)*len, fmt, a, b);
    if (n < 0 || (size_t)*len + (size_t)n >= size) {
        PyErr_SetString(cj_UnsupportedError, "a generator's type name is too long");
        return -1;
    }
    *len += n;
    return 0;
}

const cj_type *cj_type_generator(PyObject *pyfunc, const cj_type *yield, int nargs,
                                 const cj_type *const *argtypes) {
    PyObject *qualname = ((PyFunctionObject *)pyfunc)->func_qualname;
    const char *fname = PyUnicode_Check(qualname) ? PyUnicode_AsUTF8(qualname) : NULL;
    if (fname == NULL) {
        PyErr_Clear();
        fname = "?";
    }
    char key[2048]; /* a type name is at most 2048 (types.c): lists of it never cut it */
    int len = 0;
    if (append(key, sizeof(key), &len, "%s generator(func=%s, args=(", yield->name, fname) < 0) {
        return NULL;
    }
    for (int i = 0; i < nargs; i++) {
        if (append(key, sizeof(key), &len, "%s%s", i ? ", " : "", argtypes[i]->name) < 0) {
            return NULL;
        }
    }
    if (append(key, sizeof(key), &len, "%s%s", "), has_finalizer=True)", "") < 0) {
        return NULL;
    }
    char name[2048];
    memcpy(name, key, (size_t)len + 1); /* numba's words; the key adds the identity */
    char id[32];
    PyOS_snprintf(id, sizeof(id), "@%p", (void *)pyfunc);
    if (append(key, sizeof(key), &len, "%s%s", id, "") < 0) {
        return NULL;
    }
    cj_type t = {.kind = CJ_GENERATOR, .yield = yield, .obj = pyfunc, .n = nargs,
                 .items = (const cj_type **)argtypes, .name = name};
    return cj_type_intern(&t, key);
}
