/* build_set.c: set displays and comprehensions (typed by typing/sets.c).
 *     BUILD_SET n:    e1, ... en -> set
 *     SET_ADD i:      set ... value -> set ...: set.add(value)
 *     SET_UPDATE i:   set ... iterable -> set ...: set.update(iterable)
 * A display is a BUILD_TUPLE flagged CJ_F_SET of its elements. CPython folds a display of
 * constants into BUILD_SET 0, LOAD_CONST <frozenset>, SET_UPDATE 1: the frozenset's elements
 * become a display of constants, which the empty set is updated from (and refined by). */
#include "frontend/build_internal.h"

/* The largest display built at once (as lists': build_ops.c's BUILD_LIST). */
#define MAX_ITEMS 256

static int emit_display(cj_builder *b, int n, const int *items) {
    cj_instr *s = cj_fe_emit_push(b, CJ_I_BUILD_TUPLE, n, items);
    if (s == NULL) {
        return -1;
    }
    s->flags |= CJ_F_SET;
    return 0;
}

int cj_fe_op_BUILD_SET(cj_builder *b, const cj_bc *in) {
    int items[MAX_ITEMS];
    if (in->arg > MAX_ITEMS || in->arg > b->sp) {
        return in->arg > MAX_ITEMS
                   ? cj_unsupported_at(b->ir, b->line, "set displays of more than %d items",
                                       MAX_ITEMS)
                   : (PyErr_SetString(PyExc_SystemError, "cujit: BUILD_SET below the stack"),
                      -1);
    }
    for (int i = in->arg - 1; i >= 0; i--) {
        if (cj_fe_pop(b, &items[i]) < 0 || cj_fe_check_value(b, items[i]) < 0) {
            return -1;
        }
    }
    return emit_display(b, in->arg, items);
}

/* The set below `arg` - 1 values on the stack, checked; -1 with an error. */
static int target_set(cj_builder *b, const cj_bc *in, int *set) {
    if (in->arg < 1 || in->arg > b->sp || cj_fe_check_value(b, b->stack[b->sp - in->arg]) < 0) {
        return PyErr_Occurred() ? -1 : cj_unsupported_at(b->ir, b->line, "malformed %s",
                                                         in->name);
    }
    *set = b->stack[b->sp - in->arg];
    return 0;
}

int cj_fe_op_SET_ADD(cj_builder *b, const cj_bc *in) {
    int v, set = -1;
    if (cj_fe_pop(b, &v) < 0 || cj_fe_check_value(b, v) < 0 || target_set(b, in, &set) < 0) {
        return -1;
    }
    return cj_fe_method_call(b, set, "add", v);
}

/* The frozenset the instruction before `in` loaded into variable `v` (borrowed), or NULL;
 * that load then loads None (unread: the frozenset is never a value). */
static PyObject *folded_constants(cj_builder *b, const cj_bc *in, int v) {
    cj_block *block = CJ_BLOCK(b->ir, b->cur);
    cj_instr *load = block->instrs.len > 0 ? CJ_INSTR(block, block->instrs.len - 1) : NULL;
    if (in == b->bc.ins || in[-1].op != CJ_OP_LOAD_CONST || load == NULL ||
        load->op != CJ_I_CONST || load->dst != v || load->obj == NULL ||
        !PyFrozenSet_CheckExact(load->obj)) {
        return NULL;
    }
    PyObject *fs = load->obj;
    load->obj = Py_None;
    return fs;
}

/* A display of the constants of frozenset `fs` (as LOAD_CONSTs would load them). */
static int display_of_constants(cj_builder *b, PyObject *fs, int *display) {
    int items[MAX_ITEMS], n = 0;
    PyObject *it = PyObject_GetIter(fs), *item;
    if (it == NULL) {
        return -1;
    }
    if (PySet_GET_SIZE(fs) > MAX_ITEMS) {
        Py_DECREF(it);
        return cj_unsupported_at(b->ir, b->line, "set displays of more than %d items",
                                 MAX_ITEMS);
    }
    while ((item = PyIter_Next(it)) != NULL) {
        cj_instr *load = (items[n] = cj_fe_temp(b)) < 0 ? NULL
                         : cj_fe_emit(b, CJ_I_CONST, items[n], 0, NULL);
        Py_DECREF(item); /* the frozenset, held by co_consts, keeps it */
        if (load == NULL) {
            Py_DECREF(it);
            return -1;
        }
        load->obj = item;
        n++;
    }
    Py_DECREF(it);
    if (PyErr_Occurred() || emit_display(b, n, items) < 0) {
        return -1;
    }
    return cj_fe_pop(b, display);
}

int cj_fe_op_SET_UPDATE(cj_builder *b, const cj_bc *in) {
    int v, set = -1;
    if (cj_fe_pop(b, &v) < 0 || cj_fe_check_value(b, v) < 0 || target_set(b, in, &set) < 0) {
        return -1;
    }
    PyObject *fs = folded_constants(b, in, v);
    if (fs != NULL && display_of_constants(b, fs, &v) < 0) {
        return -1;
    }
    return cj_fe_method_call(b, set, "update", v);
}
