/* build_dict.c: dict displays and comprehensions (typed by typing/dicts.c).
 *     BUILD_MAP n:           k1, v1, ... kn, vn -> dict
 *     BUILD_CONST_KEY_MAP n: v1, ... vn, (k1, ... kn) -> dict
 *     MAP_ADD i:             dict ... key, value -> dict ...: dict[key] = value
 * A display is a BUILD_TUPLE flagged CJ_F_DICT of its keys and values interleaved; a constant
 * key tuple is taken apart by STATIC_ITEMs first. */
#include "frontend/build_internal.h"

/* The largest display built at once (CPython builds bigger ones item by item). */
#define MAX_ITEMS 128

static int emit_display(cj_builder *b, int n, const int *kv) {
    cj_instr *d = cj_fe_emit_push(b, CJ_I_BUILD_TUPLE, 2 * n, kv);
    if (d == NULL) {
        return -1;
    }
    d->flags |= CJ_F_DICT;
    return 0;
}

static int pop_value(cj_builder *b, int *v) {
    return cj_fe_pop(b, v) < 0 || cj_fe_check_value(b, *v) < 0 ? -1 : 0;
}

int cj_fe_op_BUILD_MAP(cj_builder *b, const cj_bc *in) {
    int kv[2 * MAX_ITEMS];
    if (in->arg > MAX_ITEMS || 2 * in->arg > b->sp) {
        return in->arg > MAX_ITEMS
                   ? cj_unsupported_at(b->ir, b->line, "dict displays of more than %d items",
                                       MAX_ITEMS)
                   : (PyErr_SetString(PyExc_SystemError, "cujit: BUILD_MAP below the stack"),
                      -1);
    }
    for (int i = 2 * in->arg - 1; i >= 0; i--) {
        if (pop_value(b, &kv[i]) < 0) {
            return -1;
        }
    }
    return emit_display(b, in->arg, kv);
}

int cj_fe_op_BUILD_CONST_KEY_MAP(cj_builder *b, const cj_bc *in) {
    int kv[2 * MAX_ITEMS], keys;
    if (in->arg > MAX_ITEMS || in->arg + 1 > b->sp) {
        return in->arg > MAX_ITEMS
                   ? cj_unsupported_at(b->ir, b->line, "dict displays of more than %d items",
                                       MAX_ITEMS)
                   : (PyErr_SetString(PyExc_SystemError, "cujit: BUILD_CONST_KEY_MAP below "
                                                         "the stack"), -1);
    }
    if (pop_value(b, &keys) < 0) {
        return -1;
    }
    for (int i = in->arg - 1; i >= 0; i--) {
        if (pop_value(b, &kv[2 * i + 1]) < 0) {
            return -1;
        }
    }
    for (int i = 0; i < in->arg; i++) {
        int dst = cj_fe_temp(b);
        cj_instr *item = dst < 0 ? NULL : cj_fe_emit(b, CJ_I_STATIC_ITEM, dst, 1, &keys);
        if (item == NULL) {
            return -1;
        }
        item->index = i;
        item->sub = in->arg; /* the count the key tuple has */
        kv[2 * i] = dst;
    }
    return emit_display(b, in->arg, kv);
}

int cj_fe_op_MAP_ADD(cj_builder *b, const cj_bc *in) {
    int key, value;
    if (pop_value(b, &value) < 0 || pop_value(b, &key) < 0) {
        return -1;
    }
    if (in->arg < 1 || in->arg > b->sp || cj_fe_check_value(b, b->stack[b->sp - in->arg]) < 0) {
        return PyErr_Occurred() ? -1 : cj_unsupported_at(b->ir, b->line, "malformed MAP_ADD");
    }
    int args[3] = {b->stack[b->sp - in->arg], key, value};
    return cj_fe_emit(b, CJ_I_SETITEM, -1, 3, args) ? 0 : -1;
}
