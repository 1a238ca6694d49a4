/* generator_type.c: numba's Generator type, of a call of a generator function. A value of it
 * is the meminfo of the generator's frame (abi/generator.h), so the code that iterates it is
 * the same for every generator yielding one type; the type still names its function and
 * argument types, as numba's does (two generators never unify). */
#include "types/types.h"

#include <string.h>

const cj_type *cj_type_generator(PyObject *pyfunc, const cj_type *yield, int nargs,
                                 const cj_type *const *argtypes) {
    char key[4096];
    int len = PyOS_snprintf(key, sizeof(key), "%s generator(func=%s, args=(",
                            yield->name, PyUnicode_Check(((PyFunctionObject *)pyfunc)->
                                                         func_qualname)
                                ? PyUnicode_AsUTF8(((PyFunctionObject *)pyfunc)->func_qualname)
                                : "?");
    for (int i = 0; i < nargs && len < (int)sizeof(key) - 64; i++) {
        len += PyOS_snprintf(key + len, sizeof(key) - (size_t)len, "%s%s", i ? ", " : "",
                             argtypes[i]->name);
    }
    /* the function's identity ends the key: two functions of one name stay apart */
    PyOS_snprintf(key + len, sizeof(key) - (size_t)len, "))@%p", (void *)pyfunc);
    if (len >= (int)sizeof(key) - 64) {
        PyErr_SetString(cj_UnsupportedError, "a generator's type name is too long");
        return NULL;
    }
    cj_type t = {.kind = CJ_GENERATOR, .yield = yield, .obj = pyfunc, .n = nargs,
                 .items = (const cj_type **)argtypes};
    char name[4096];
    memcpy(name, key, sizeof(name));
    *strrchr(name, '@') = '\0'; /* the name is numba's words, without the identity */
    t.name = name;
    return cj_type_intern(&t, key);
}
