/* generators.c: typing generator functions (numba's generators). requires: IR with
 * CJ_I_YIELD (frontend/build_generator.c); produces: the unified type of the yields, and the
 * call's result, numba's Generator type (types/generator_type.c). As in numba, a generator
 * returns nothing (a `return` only stops it), the value of a `yield` expression is None
 * (send() is not supported) and CUDA code has no generators. */
#include "typing/infer_internal.h"

int cj_type_yield(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    if (c->env->target == CJ_TARGET_CUDA) {
        return cj_unsupported_error(c, in, "generators (yield) are not supported in CUDA "
                                           "code");
    }
    const cj_type *t = cj_vt(c, in->args[0]);
    if (t == NULL) {
        return 0;
    }
    if ((t = cj_type_unliteral(t)) == NULL) { /* 'abc' yields a unicode_type */
        return -1;
    }
    if (t->kind == CJ_CONST_OBJ || t->kind == CJ_ITER || t->kind == CJ_OMITTED ||
        t->kind == CJ_BOUND || t->kind == CJ_GENERATOR || t->kind == CJ_RECORD ||
        (t->kind == CJ_LIST && t->reflected == 1)) {
        return cj_unsupported_error(c, in, "cujit cannot yield a value of type %s from a "
                                           "generator", t->name);
    }
    const cj_type *u = c->yield == NULL ? t : cj_unify(c->yield, t);
    if (u == NULL) {
        return PyErr_Occurred() ? -1 : cj_typing_error(c, in,
            "Can't unify yield type from the following types: %s, %s", c->yield->name,
            t->name);
    }
    if (u != c->yield) {
        c->yield = u;
        c->changed = 1;
    }
    *out = cj_t_none;
    return 1;
}

int cj_type_generator_return(cj_infer_ctx *c, cj_instr *in) {
    const cj_type *t = cj_vt(c, in->args[0]);
    if (t == NULL) {
        return 0;
    }
    if (t->kind != CJ_NONE) {
        return cj_unsupported_error(c, in, "a generator that returns a value (%s): cujit's "
                                           "generators, as numba's, only stop at a return",
                                    t->name);
    }
    return 1;
}

/* Whether the items of a reflected list can live on in a generator's frame: numbers and
 * strings (the compiled list owns them); arrays are borrowed from the Python list, which a
 * generator may outlive, and nested Python lists are reflected at the call's return. */
static int owned_items(const cj_type *t) {
    for (int i = 0; t->kind == CJ_TUPLE && i < t->n; i++) {
        if (!owned_items(t->items[i])) {
            return 0;
        }
    }
    return t->kind == CJ_TUPLE || cj_type_is_number(t) || t->kind == CJ_UNICODE;
}

/* Whether an argument of type t can live in a generator's frame. A reflected list's frame
 * holds a reference to the compiled list (numba's generators too): changes the generator
 * makes are reflected when the outermost compiled call returns. */
static int frame_can_hold(const cj_type *t) {
    if (t->kind == CJ_LIST && t->reflected == 1) {
        return owned_items(t->dtype);
    }
    for (int i = 0; t->kind == CJ_TUPLE && i < t->n; i++) {
        if (!frame_can_hold(t->items[i])) {
            return 0;
        }
    }
    return t->kind != CJ_EXT && t->kind != CJ_RECORD;
}

int cj_generator_result(cj_infer_ctx *c, const cj_type **ret) {
    for (int i = 0; i < c->nargs; i++) {
        if (!frame_can_hold(c->argtypes[i])) {
            PyErr_Format(cj_UnsupportedError, "generator %s: an argument of type %s is not "
                         "supported (generators take scalars, tuples, arrays, strings, typed "
                         "lists and dicts, and lists of numbers or strings)", c->ir->name,
                         c->argtypes[i]->name);
            return -1;
        }
    }
    const cj_type *y = c->yield != NULL ? c->yield : cj_t_none;
    *ret = cj_type_generator(c->ir->pyfunc, y, c->nargs, c->argtypes);
    return *ret != NULL ? 0 : -1;
}

/* numba's sum(): int64 for integers and booleans, float64, complex128. */
static const cj_type *sum_type(const cj_type *t) {
    return t->kind == CJ_FLOAT ? cj_t_float64 : t->kind == CJ_COMPLEX ? cj_t_complex128
                                                                      : cj_t_int64;
}

int cj_type_generator_call(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    if (id != CJ_B_NEXT && id != CJ_B_SUM && id != CJ_B_MIN && id != CJ_B_MAX) {
        return 2; /* list(g), sorted(g): any iterable (lists.c) */
    }
    const cj_type *g = in->nargs >= 2 ? cj_vt(c, in->args[1]) : NULL;
    if (g == NULL || g->kind != CJ_GENERATOR) {
        return in->nargs >= 2 && g == NULL ? 0 : 2;
    }
    const char *name = cj_builtin_table[id].attr;
    if (in->index > 0 || in->nargs != 2) {
        return cj_unsupported_error(c, in, "%s() of a generator with more arguments than the "
                                           "generator is not supported yet", name);
    }
    const cj_type *y = g->yield;
    if (id != CJ_B_NEXT && (!cj_type_is_number(y) ||
                            (id != CJ_B_SUM && y->kind == CJ_COMPLEX))) {
        return cj_unsupported_error(c, in, "%s() of a generator of %s is not supported yet "
                                           "(numbers)", name, y->name);
    }
    if (cj_plain_call(c, in, CJ_CALL_GENERATOR, id) == NULL) {
        return -1;
    }
    *out = id == CJ_B_SUM ? sum_type(y) : y;
    return 1;
}

/* Whether a value of type t holds a generator taking an iterator (a generator expression's:
 * its frame points at the iterator state of the function that made it). */
static int borrows_iterator(const cj_type *t) {
    if (t == NULL) {
        return 0;
    }
    if (t->kind == CJ_GENERATOR) {
        for (int i = 0; i < t->n; i++) {
            if (t->items[i]->kind == CJ_ITER || borrows_iterator(t->items[i])) {
                return 1;
            }
        }
        return 0;
    }
    int found = t->kind == CJ_LIST && borrows_iterator(t->dtype);
    for (int i = 0; !found && (t->kind == CJ_TUPLE || t->kind == CJ_DICT) && i < t->n; i++) {
        found = borrows_iterator(t->items[i]);
    }
    return found;
}

int cj_generator_return_check(cj_infer_ctx *c, cj_instr *in, const cj_type *t) {
    if (borrows_iterator(t)) {
        return cj_unsupported_error(c, in, "returning a generator expression (or a generator "
                                           "fed by one) is not supported: consume it in the "
                                           "function, or write a generator function");
    }
    return 0;
}
