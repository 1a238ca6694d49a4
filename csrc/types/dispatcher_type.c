/* dispatcher_type.c: the type of a jitted function passed as a value (numba's first-class
 * dispatcher type, type(CPUDispatcher(<function f>))): a compile-time object carrying no data,
 * one type per dispatcher, so a function taking it is specialised per function passed, as
 * numba's is. Calls through it are typed and lowered as calls of a global jitted function
 * (typing/jitted_calls.c). Tuples of them are typed item by item (typeof.c). */
#include "types/types.h"

/* The last dispatchers seen, so the call path formats no name for them (types hold their
 * object for the process, so an address is never reused by another dispatcher). */
#define SEEN_DISPATCHERS 8
typedef struct seen_dispatcher {
    PyObject *obj;
    const cj_type *type;
} seen_dispatcher;
static seen_dispatcher seen[SEEN_DISPATCHERS];
static unsigned seen_next;

const cj_type *cj_typeof_dispatcher(PyObject *value) {
    if (cj_DispatcherType == NULL || !PyObject_TypeCheck(value, cj_DispatcherType)) {
        return NULL;
    }
    for (int i = 0; i < SEEN_DISPATCHERS; i++) {
        if (seen[i].obj == value) {
            return seen[i].type;
        }
    }
    const cj_type *t = cj_type_const_obj(value);
    if (t != NULL) {
        seen[seen_next % SEEN_DISPATCHERS] = (seen_dispatcher){value, t};
        seen_next++;
    }
    return t;
}
