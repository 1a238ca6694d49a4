/* dicts.c: typing of dicts (numba's typed dict semantics; lowered by lower/lower_dict*.c).
 * A display `{k: v, ...}` is a DictType of its keys unified and its values unified; `{}` and
 * dict() are DictType[undefined,undefined] until the first d[k] = v refines them (as lists'
 * first append does, lists.c). Keys: bool, integers, floats, complex and tuples of them (abi/hash.c
 * hashes them); arrays and lists are forbidden keys, as numba's. A key or value given to a dict
 * must cast safely to its type (numba's _sentry_safe_cast). Methods: get (with a default),
 * pop, setdefault, popitem, clear, copy, update, keys, values, items and del d[k]; builtins
 * dict(), dict(d), len(d), hash(x); `k in d`, d[k], d[k] = v and iteration over the keys. */
#include "typing/infer_internal.h"

#include <string.h>

int cj_type_is_hashable(const cj_type *t) {
    if (t->kind == CJ_TUPLE) {
        for (int i = 0; i < t->n; i++) {
            if (!cj_type_is_hashable(t->items[i])) {
                return 0;
            }
        }
        return 1;
    }
    return t->kind == CJ_BOOL || t->kind == CJ_INT || t->kind == CJ_FLOAT ||
           t->kind == CJ_COMPLEX || t->kind == CJ_UNICODE;
}

/* numba's _sentry_safe_cast: a safe conversion, or one between integers, from an integer to
 * a float, or between floats; tuples item by item. */
int cj_casts_safely(const cj_type *from, const cj_type *to) {
    if (from == to || (to->kind == CJ_UNICODE && cj_type_is_str(from))) {
        return 1; /* a literal string is a unicode_type value */
    }
    if (from->kind == CJ_TUPLE || to->kind == CJ_TUPLE) {
        int same = from->kind == to->kind && from->n == to->n;
        for (int i = 0; same && i < from->n; i++) {
            same = cj_casts_safely(from->items[i], to->items[i]);
        }
        return same;
    }
    if (from->kind == CJ_ARRAY && to->kind == CJ_ARRAY) { /* C or F into A: a view */
        return from->dtype == to->dtype && cj_can_convert(from, to);
    }
    if (cj_type_is_integer(from)) {
        return to->kind == CJ_INT || to->kind == CJ_FLOAT || to->kind == CJ_COMPLEX;
    }
    return (from->kind == CJ_FLOAT && (to->kind == CJ_FLOAT || to->kind == CJ_COMPLEX)) ||
           (from->kind == CJ_COMPLEX && to->kind == CJ_COMPLEX);
}

static int check_cast(cj_infer_ctx *c, cj_instr *in, const cj_type *from, const cj_type *to) {
    if (cj_casts_safely(from, to)) {
        return 0;
    }
    return cj_typing_error(c, in, "cannot safely cast %s to %s. Please cast explicitly.",
                           from->name, to->name);
}

/* numba's _sentry_forbidden_types, and cujit's own limit to the keys hash.c hashes. */
static int check_key(cj_infer_ctx *c, cj_instr *in, const cj_type *key) {
    if (key->kind == CJ_ARRAY || key->kind == CJ_LIST || key->kind == CJ_DICT) {
        return cj_typing_error(c, in, "%s as key is forbidden", key->name);
    }
    if (!cj_type_is_hashable(key)) {
        return cj_unsupported_error(c, in, "dict keys of type %s are not supported yet (bool, "
                                           "integers, floats, complex, strings and tuples of "
                                           "them)",
                                    key->name);
    }
    return 0;
}

static int check_value(cj_infer_ctx *c, cj_instr *in, const cj_type *value) {
    if (value->kind == CJ_NONE || value->kind == CJ_CONST_OBJ || value->kind == CJ_ITER ||
        value->kind == CJ_BOUND || value->kind == CJ_OMITTED || value->kind == CJ_RECORD) {
        return cj_unsupported_error(c, in, "dict values of type %s are not supported",
                                    value->name);
    }
    return 0;
}

/* The DictType of key and value types, checked; NULL with an error. */
static const cj_type *dict_of(cj_infer_ctx *c, cj_instr *in, const cj_type *k,
                              const cj_type *v) {
    if ((k = cj_type_unliteral(k)) == NULL || (v = cj_type_unliteral(v)) == NULL ||
        check_key(c, in, k) < 0 || check_value(c, in, v) < 0) {
        return NULL;
    }
    return cj_type_dict(k, v);
}

static int unify_all(cj_infer_ctx *c, cj_instr *in, int first, const cj_type **u) {
    *u = cj_vt(c, in->args[first]);
    for (int i = first + 2; i < in->nargs; i += 2) {
        const cj_type *t = cj_vt(c, in->args[i]), *both = cj_unify(*u, t);
        if (both == NULL) {
            return PyErr_Occurred() ? -1
                   : cj_typing_error(c, in, "Cannot unify %s and %s in a dict display (cujit's "
                                            "dicts hold %s of one type)", (*u)->name, t->name,
                                     first == 0 ? "keys" : "values");
        }
        *u = both;
    }
    return 0;
}

int cj_type_dict_display(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    if (c->env->target == CJ_TARGET_CUDA) { /* numba-cuda: NRT required but not enabled */
        return cj_unsupported_error(c, in, "dicts are not supported in CUDA code (they are "
                                           "allocated at run time)");
    }
    for (int i = 0; i < in->nargs; i++) {
        const cj_type *t = cj_vt(c, in->args[i]);
        if (t == NULL || cj_type_is_unrefined(t)) {
            return 0; /* a value's refinement widens it: typed again then */
        }
    }
    if (in->nargs == 0) {
        *out = cj_type_dict(NULL, NULL);
        return *out ? 1 : -1;
    }
    const cj_type *k, *v;
    if (unify_all(c, in, 0, &k) < 0 || unify_all(c, in, 1, &v) < 0) {
        return -1;
    }
    *out = dict_of(c, in, k, v);
    return *out ? 1 : -1;
}

int cj_type_dict_getitem(cj_infer_ctx *c, cj_instr *in, const cj_type *t, const cj_type *key,
                         const cj_type **out) {
    if (t->n == 0) {
        return 0;
    }
    if (check_cast(c, in, key, t->items[0]) < 0) {
        return -1;
    }
    *out = t->items[1];
    return 1;
}

int cj_type_dict_setitem(cj_infer_ctx *c, cj_instr *in, const cj_type *t, const cj_type *key,
                         const cj_type *val) {
    if (t->n == 0) { /* the first d[k] = v refines an empty dict, once v is refined */
        if (cj_type_is_unrefined(key) || cj_type_is_unrefined(val)) {
            return 0; /* v's refinement widens it: this is typed again */
        }
        const cj_type *refined = dict_of(c, in, key, val);
        return refined == NULL || cj_refine_var(c, in, in->args[0], refined, 0) < 0 ? -1 : 0;
    }
    if (check_cast(c, in, key, t->items[0]) < 0 || check_cast(c, in, val, t->items[1]) < 0) {
        return -1;
    }
    return 1;
}

int cj_type_dict_contains(cj_infer_ctx *c, cj_instr *in, const cj_type *key, const cj_type *t,
                          const cj_type **out) {
    if (t->n == 0) { /* a bool all the same: `if k in d: ... else: d[k] = v` refines d */
        *out = cj_t_bool;
        return 1; /* typed again, and the key checked, once d is refined */
    }
    if (check_cast(c, in, key, t->items[0]) < 0) {
        return -1;
    }
    *out = cj_t_bool; /* lowered by lower_dict.c as the compare's operands say */
    return 1;
}

static const struct {
    const char *name;
    int op, min, max; /* positional arguments */
} methods[] = {
    {"get", CJ_DICT_GET, 1, 2},       {"pop", CJ_DICT_POP, 1, 2},
    {"setdefault", CJ_DICT_SETDEFAULT, 2, 2}, {"popitem", CJ_DICT_POPITEM, 0, 0},
    {"clear", CJ_DICT_CLEAR, 0, 0},   {"copy", CJ_DICT_COPY, 0, 0},
    {"update", CJ_DICT_UPDATE, 1, 1}, {"keys", CJ_DICT_KEYS, 0, 0},
    {"values", CJ_DICT_VALUES, 0, 0}, {"items", CJ_DICT_ITEMS, 0, 0},
    {"__delitem__", CJ_DICT_DELITEM, 1, 1},
};

/* The result of get/pop with a default: the value and default unified (numba's; a default
 * of None makes it OptionalType(V)). */
static int with_default(cj_infer_ctx *c, cj_instr *in, const cj_type *dt, const char *name,
                        const cj_type **out) {
    const cj_type *v = dt->items[1], *d = cj_vt(c, in->args[2]);
    *out = cj_unify(v, d);
    if (*out == NULL) {
        return PyErr_Occurred() ? -1
               : cj_typing_error(c, in, "Cannot unify %s and %s in dict.%s(key, default)",
                                 v->name, d->name, name);
    }
    return 0;
}

/* The result type of method `op` on dict type `dt` (arguments counted and typed). */
static int method_result(cj_infer_ctx *c, cj_instr *in, int op, const char *name,
                         const cj_type *dt, const cj_type **out) {
    int n = in->nargs - 1;
    const cj_type *a = n >= 1 ? cj_vt(c, in->args[1]) : NULL;
    switch (op) {
    case CJ_DICT_GET: /* d.get(k): OptionalType(V), None when k is missing (numba's) */
    case CJ_DICT_POP:
        if (check_cast(c, in, a, dt->items[0]) < 0) {
            return -1;
        }
        *out = op == CJ_DICT_GET && n == 1 ? cj_type_optional(dt->items[1]) : dt->items[1];
        return *out == NULL ? -1 : n == 2 ? with_default(c, in, dt, name, out) : 0;
    case CJ_DICT_SETDEFAULT:
        *out = dt->items[1];
        return check_cast(c, in, a, dt->items[0]) < 0 ||
               check_cast(c, in, cj_vt(c, in->args[2]), dt->items[1]) < 0 ? -1 : 0;
    case CJ_DICT_DELITEM:
        *out = cj_t_none;
        return check_cast(c, in, a, dt->items[0]);
    case CJ_DICT_POPITEM:
        *out = cj_type_tuple(2, dt->items);
        return *out ? 0 : -1;
    case CJ_DICT_COPY:
        *out = dt;
        return 0;
    case CJ_DICT_UPDATE:
        *out = cj_t_none;
        return a == dt ? 0 : cj_unsupported_error(c, in, "dict.update() of %s with %s (cujit "
                                                         "updates from a dict of the same "
                                                         "type)", dt->name, a->name);
    case CJ_DICT_KEYS:
    case CJ_DICT_VALUES:
    case CJ_DICT_ITEMS:
        *out = cj_type_dict_iter(dt, op == CJ_DICT_KEYS     ? CJ_ITER_DICT_KEYS
                                     : op == CJ_DICT_VALUES ? CJ_ITER_DICT_VALUES
                                                            : CJ_ITER_DICT_ITEMS);
        return *out ? 0 : -1;
    default: /* clear */
        *out = cj_t_none;
        return 0;
    }
}

int cj_type_dict_method(cj_infer_ctx *c, cj_instr *in, const cj_type *bound,
                        const cj_type **out) {
    const char *name = PyUnicode_AsUTF8(bound->obj);
    const cj_type *dt = bound->source;
    int n = in->nargs - 1 - in->index, m = -1;
    for (size_t i = 0; name != NULL && i < sizeof(methods) / sizeof(methods[0]); i++) {
        m = strcmp(name, methods[i].name) == 0 ? (int)i : m;
    }
    if (name == NULL || m < 0) {
        return name == NULL ? -1 : cj_unsupported_error(c, in, "dict.%s() is not supported yet",
                                                        name);
    }
    if (dt->n == 0) {
        return 0; /* refined by a d[k] = v first */
    }
    if (in->index > 0 || n < methods[m].min || n > methods[m].max) {
        char what[64];
        PyOS_snprintf(what, sizeof(what), "BoundFunction(%s.%s)", dt->name, name);
        return cj_invalid_use(c, in, what);
    }
    if (method_result(c, in, methods[m].op, name, dt, out) < 0) {
        return -1;
    }
    return cj_plain_call(c, in, CJ_CALL_DICT, methods[m].op) ? 1 : -1;
}

/* dict(iterable) of (key, value) pairs: compiled from Python (cujit.cpython.dictobj), as
 * numba builds it; numba's no-match error for other items. */
static int type_dict_from_pairs(cj_infer_ctx *c, cj_instr *in, const cj_type *a,
                                const cj_type **out) {
    const cj_type *iter = cj_type_iter_of(a);
    const cj_type *item = iter != NULL ? iter->yield : NULL;
    if (item == NULL || item->kind != CJ_TUPLE || item->n != 2) {
        return cj_no_match(c, in, "<class 'dict'>");
    }
    if (c->env->target == CJ_TARGET_CUDA) {
        return cj_unsupported_error(c, in, "dicts are not supported in CUDA code");
    }
    int vars[1] = {in->args[1]};
    PyObject *consts[1] = {NULL};
    return cj_type_library_helper_call(c, in, "cujit.cpython.dictobj:dict_from_pairs", 1, vars,
                                       consts, out);
}

/* dict(), dict(d) (a copy), dict(pairs), len(d), hash(x). */
int cj_type_dict_builtin(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    int n = in->nargs - 1 - in->index;
    const cj_type *a = n == 1 ? cj_vt(c, in->args[1]) : NULL;
    if (id == CJ_B_LEN && a != NULL && cj_type_is_dict_view(a)) {
        a = a->source; /* len(d.keys()): the dict's */
    }
    const char *fname = id == CJ_B_HASH ? "<built-in function hash>"
                        : id == CJ_B_LEN ? "<built-in function len>" : "<class 'dict'>";
    if (n == 1 && a == NULL) {
        return 0;
    }
    if (id == CJ_B_DICT && n == 1 && in->index == 0 && a->kind != CJ_DICT) {
        return type_dict_from_pairs(c, in, a, out);
    }
    if (in->index > 0 || n > 1 || (id != CJ_B_DICT && n != 1) ||
        (id == CJ_B_LEN && a->kind != CJ_DICT) || (id == CJ_B_DICT && a && a->kind != CJ_DICT)) {
        return id == CJ_B_LEN ? 2 : cj_no_match(c, in, fname);
    }
    if (a != NULL && a->kind == CJ_DICT && a->n == 0) {
        return 0;
    }
    if (id == CJ_B_HASH && !cj_type_is_hashable(cj_type_unliteral(a))) {
        return cj_unsupported_error(c, in, "hash() of %s is not supported yet (bool, integers, "
                                           "floats, complex and tuples of them)", a->name);
    }
    if (c->env->target == CJ_TARGET_CUDA) { /* hash.c is CPU code */
        return cj_unsupported_error(c, in, id == CJ_B_HASH ? "hash() is not supported in CUDA "
                                           "code yet" : "dicts are not supported in CUDA code");
    }
    int op = id == CJ_B_HASH ? CJ_DICT_HASH : id == CJ_B_LEN ? CJ_DICT_LEN
             : n == 1 ? CJ_DICT_COPY : CJ_DICT_NEW;
    cj_call *call = cj_plain_call(c, in, CJ_CALL_DICT, op);
    if (call == NULL) {
        return -1;
    }
    *out = op == CJ_DICT_NEW ? cj_type_dict(NULL, NULL) : op == CJ_DICT_COPY ? a : cj_t_int64;
    return *out ? 1 : -1;
}

/* Dict.empty (a classmethod of cujit.typed.Dict's C base, bound to the class). */
static int is_dict_empty(PyObject *obj) {
    if (cj_TypedDictType == NULL || !PyCFunction_Check(obj)) {
        return 0;
    }
    PyObject *self = PyCFunction_GET_SELF(obj);
    return self != NULL && PyType_Check(self) &&
           PyType_IsSubtype((PyTypeObject *)self, cj_TypedDictType) &&
           strcmp(((PyCFunctionObject *)obj)->m_ml->ml_name, "empty") == 0;
}

/* A type argument: a cujit type (arrays too), a NumPy dtype or int/float/bool; or NULL. */
static const cj_type *type_argument(cj_infer_ctx *c, int var) {
    PyObject *obj = var >= 0 ? cj_const_of(c, var) : NULL;
    if (obj == NULL && var >= 0 && cj_vt(c, var) != NULL && cj_vt(c, var)->kind == CJ_CONST_OBJ) {
        obj = cj_vt(c, var)->obj; /* a global: types.int64, a type made outside */
    }
    const cj_type *t = obj != NULL ? cj_type_from_py(obj) : NULL;
    PyErr_Clear();
    return t != NULL ? t : var >= 0 ? cj_dtype_of_var(c, var) : NULL;
}

/* Dict(): DictType[undefined,undefined] until its first d[k] = v, as `{}` (numba's). */
static int type_dict_class_call(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    if (in->nargs != 1) {
        return cj_no_match(c, in, "Dict");
    }
    *out = cj_type_dict(NULL, NULL);
    cj_call *call = *out ? cj_call_record(c, in, CJ_CALL_DICT, 0) : NULL;
    if (call == NULL) {
        return -1;
    }
    call->builtin = CJ_DICT_NEW;
    return 1;
}

int cj_type_typed_dict_call(cj_infer_ctx *c, cj_instr *in, PyObject *obj, const cj_type **out) {
    static const char *const names[3] = {"key_type", "value_type", "n_keys"};
    int vars[3];
    int is_class = cj_TypedDictType != NULL && PyType_Check(obj) &&
                   PyType_IsSubtype((PyTypeObject *)obj, cj_TypedDictType);
    if (!is_class && !is_dict_empty(obj)) {
        return 2;
    }
    if (c->env->target == CJ_TARGET_CUDA) {
        return cj_unsupported_error(c, in, "dicts are not supported in CUDA code");
    }
    if (is_class) {
        return type_dict_class_call(c, in, out);
    }
    if (cj_fold_args(c, in, 1, names, 3, vars) < 0) {
        return -1;
    }
    const cj_type *k = type_argument(c, vars[0]), *v = k ? type_argument(c, vars[1]) : NULL;
    if (k == NULL || v == NULL) {
        return PyErr_Occurred() ? -1 : cj_no_match(c, in, "Dict.empty");
    }
    *out = dict_of(c, in, k, v);
    cj_call *call = *out ? cj_call_record(c, in, CJ_CALL_DICT, 0) : NULL;
    if (call == NULL) {
        return -1;
    }
    call->builtin = CJ_DICT_NEW;
    return 1;
}
