/* record_access.c: typing of records' fields, numba's Record getattr, static_getitem and
 * setattr: rec.x and rec['x'] (a literal string) give the field's type (a scalar, a nested
 * record, or a C-contiguous array for an array field); rec.x = v and rec['x'] = v cast v to a
 * scalar field's type. On an array of records, a.x and a['x'] are views of the field (layout
 * 'A', numba's). Resolved instructions get sub = CJ_SUB_FIELD and index = the field, which
 * lowering (lower_record.c) reads. */
#include "typing/infer_internal.h"

#include <string.h>

#include "typing/builtins.h"
#include "typing/cuda_intrinsics.h"

/* The field `name` of record `rec` as the instruction's resolution; -1 with numba's
 * TypingError when there is no such field. */
static int resolve_field(cj_infer_ctx *c, cj_instr *in, const cj_type *rec, const char *name) {
    int i = cj_record_field_index(rec, name);
    if (i < 0) {
        PyObject *names = cj_record_field_names(rec);
        if (names == NULL) {
            return -1;
        }
        cj_typing_error(c, in, "Field '%s' was not found in record with fields %U", name,
                        names);
        Py_DECREF(names);
        return -1;
    }
    in->sub = CJ_SUB_FIELD;
    in->index = i;
    return i;
}

/* The field name a record subscript uses: a constant string (NULL, no exception, if not). */
static const char *literal_name(cj_infer_ctx *c, int var) {
    PyObject *k = cj_const_of(c, var);
    if (k == NULL || !PyUnicode_Check(k)) {
        return NULL;
    }
    const char *s = PyUnicode_AsUTF8(k);
    if (s == NULL) {
        PyErr_Clear();
    }
    return s;
}

int cj_is_record_subject(const cj_type *t) {
    return t != NULL && (t->kind == CJ_RECORD ||
                         (t->kind == CJ_ARRAY && t->dtype->kind == CJ_RECORD));
}

/* Arrays over a record's bytes (an array field, a view a.x) load each element at its
 * natural alignment, and a nested record's fields assume its dtype's alignment, which a
 * packed dtype need not give: CUDA faults on a misaligned load, so there they are refused
 * unless `base` (the record's alignment, or the itemsize for a view) and the field's offset
 * keep it (scalar fields are read with the alignment they have: lower_record.c). */
static int misaligned_on_cuda(cj_infer_ctx *c, cj_instr *in, const cj_type *rec, int i,
                              int64_t base) {
    const cj_field *f = &rec->fields[i];
    const cj_type *elem = f->type->kind == CJ_ARRAY ? f->type->dtype : f->type;
    size_t natural = cj_abi_align(elem); /* a nested record: its dtype's alignment */
    if (c->env->target != CJ_TARGET_CUDA ||
        ((size_t)f->offset % natural == 0 && (size_t)base % natural == 0)) {
        return 0;
    }
    return cj_unsupported_error(c, in, "cujit does not support the misaligned %s '%s' of %s "
                                       "in CUDA code (its items are not on %zu-byte "
                                       "boundaries: make the dtype with align=True)",
                                f->type->kind == CJ_ARRAY    ? "array field"
                                : f->type->kind == CJ_RECORD ? "record field"
                                                             : "field view",
                                f->name, rec->name, natural);
}

static const cj_type *readonly_source(cj_infer_ctx *c, int var);

/* The type of field i of `t` (a record, or an array of records: a view of the field). */
static int field_type(cj_infer_ctx *c, cj_instr *in, const cj_type *t, int i,
                      const cj_type **out) {
    if (t->kind == CJ_RECORD) {
        if (t->fields[i].type->kind != CJ_ARRAY && t->fields[i].type->kind != CJ_RECORD) {
            *out = t->fields[i].type; /* a scalar: read with the alignment it has */
            return 1;
        }
        if (misaligned_on_cuda(c, in, t, i, t->alignment) < 0) {
            return -1;
        }
        const cj_type *ft = t->fields[i].type;
        *out = ft->kind == CJ_ARRAY && readonly_source(c, in->args[0]) != NULL
                   ? cj_type_array(ft->dtype, ft->ndim, 'C', 1) /* of a read-only array */
                   : ft;
        return *out ? 1 : -1;
    }
    const cj_type *ft = t->dtype->fields[i].type;
    if (ft->kind == CJ_ARRAY) {
        return cj_unsupported_error(c, in, "cujit does not support a view of the array field "
                                           "'%s' of every record of %s yet (index a record "
                                           "first: a[i].%s)", t->dtype->fields[i].name,
                                    t->name, t->dtype->fields[i].name);
    }
    if (misaligned_on_cuda(c, in, t->dtype, i, t->dtype->itemsize) < 0) {
        return -1;
    }
    *out = cj_type_array(ft, t->ndim, 'A', t->readonly);
    return *out ? 1 : -1;
}

int cj_type_record_getattr(cj_infer_ctx *c, cj_instr *in, const cj_type *t, const char *name,
                           const cj_type **out) {
    const cj_type *rec = t->kind == CJ_RECORD ? t : t->dtype;
    int i = resolve_field(c, in, rec, name);
    return i < 0 ? -1 : field_type(c, in, t, i, out);
}

int cj_type_record_getitem(cj_infer_ctx *c, cj_instr *in, const cj_type *t,
                           const cj_type **out) {
    const char *name = literal_name(c, in->args[1]);
    if (name == NULL) {
        if (t->kind == CJ_ARRAY) {
            return 2; /* an ordinary index of an array of records */
        }
        return PyErr_Occurred() ? -1 : cj_typing_error(c, in, "a record is indexed by a "
                                                              "constant field name, not %s",
                                                       cj_vt(c, in->args[1])->name);
    }
    return cj_type_record_getattr(c, in, t, name, out);
}

/* The read-only array a record variable is an item (or field) of, followed through views, or
 * NULL: a record carries no read-only flag of its own. */
static const cj_type *readonly_source(cj_infer_ctx *c, int var) {
    for (int hops = 0; hops < 256; hops++) {
        const cj_type *t = cj_vt(c, var);
        cj_instr *d = c->def[var];
        if (t != NULL && t->kind == CJ_ARRAY && t->readonly) {
            return t;
        }
        if (d == NULL || !(d->op == CJ_I_COPY || d->op == CJ_I_GETITEM ||
                           d->op == CJ_I_GETATTR) || !cj_is_record_subject(cj_vt(c, d->args[0]))) {
            return NULL;
        }
        var = d->args[0];
    }
    return NULL;
}

int cj_type_record_setitem(cj_infer_ctx *c, cj_instr *in, const cj_type *t,
                           const cj_type *val) {
    const char *name = literal_name(c, in->args[1]);
    if (t->kind != CJ_RECORD) {
        if (name != NULL && cj_record_field_index(t->dtype, name) >= 0) {
            return cj_unsupported_error(c, in, "cujit does not support assigning to a field "
                                               "of every record of %s (assign a[i].%s)",
                                        t->name, name);
        }
        if (in->flags & CJ_F_ATTR) {
            return cj_unsupported_error(c, in, "cujit does not support attribute assignment "
                                               "(to %s): only a record's fields take one",
                                        t->name);
        }
        return 2; /* a[i] = ... of an array of records */
    }
    if (name == NULL) {
        return PyErr_Occurred() ? -1 : cj_typing_error(c, in, "a record is indexed by a "
                                                              "constant field name, not %s",
                                                       cj_vt(c, in->args[1])->name);
    }
    int i = resolve_field(c, in, t, name);
    if (i < 0) {
        return -1;
    }
    const cj_type *source = readonly_source(c, in->args[0]);
    if (source != NULL) { /* numba writes anyway; a frozen global's bytes are constants */
        return cj_typing_error(c, in, "Cannot modify readonly array of type: %s (field '%s' "
                                      "of its record)", source->name, name);
    }
    const cj_type *ft = t->fields[i].type;
    if (!cj_type_is_number(ft)) {
        return cj_unsupported_error(c, in, "cujit does not support assigning to the %s field "
                                           "'%s' as a whole (assign its items)",
                                    ft->kind == CJ_RECORD ? "record" : "array", name);
    }
    if (!cj_type_is_number(val) || (val->kind == CJ_COMPLEX && ft->kind != CJ_COMPLEX)) {
        return cj_typing_error(c, in, "cannot assign %s to field '%s' of type %s", val->name,
                               name, ft->name);
    }
    return 1;
}

/* ---- what else records take part in ---- */

/* The attributes an array of records has besides its fields: the layout ones, which do not
 * read the elements as numbers. */
int cj_record_array_attr_ok(const char *name) {
    static const char *const ok[] = {"shape", "strides", "size", "nbytes", "ndim", "itemsize",
                                     "dtype", "T", "flat", "copy", NULL};
    for (int i = 0; ok[i] != NULL; i++) {
        if (strcmp(name, ok[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Calls that may take records or arrays of records: jitted functions, and the builtins that
 * only move them (len, enumerate, zip, np.ndenumerate, cuda.const.array_like). */
static int call_takes_records(cj_infer_ctx *c, const cj_type *callee) {
    if (callee->kind == CJ_BOUND) {
        return PyUnicode_CompareWithASCIIString(callee->obj, "copy") == 0;
    }
    if (callee->kind != CJ_CONST_OBJ) {
        return 0;
    }
    int id = cj_builtin_lookup(callee->obj);
    if (id == CJ_B_LEN || id == CJ_B_ENUMERATE || id == CJ_B_ZIP || id == CJ_B_NP_NDENUMERATE ||
        cj_cuda_intrinsic_lookup(callee->obj) == CJ_CU_CONST_ARRAY_LIKE) {
        return 1;
    }
    return id < 0 && c->env->dispatcher_pyfunc != NULL &&
           c->env->dispatcher_pyfunc(callee->obj) != NULL;
}

/* A record or an array of records, or a tuple holding one. */
static int holds_records(const cj_type *t) {
    if (t != NULL && t->kind == CJ_TUPLE) {
        for (int i = 0; i < t->n; i++) {
            if (holds_records(t->items[i])) {
                return 1;
            }
        }
        return 0;
    }
    return cj_is_record_subject(t);
}

int cj_record_operands_check(cj_infer_ctx *c, cj_instr *in) {
    int first = in->op == CJ_I_CALL ? 1 : 0;
    if (!(in->op == CJ_I_BINOP || in->op == CJ_I_UNARY || in->op == CJ_I_CALL ||
          (in->op == CJ_I_COMPARE && in->sub != CJ_IS && in->sub != CJ_ISNOT))) {
        return 0;
    }
    const cj_type *callee = first ? cj_vt(c, in->args[0]) : NULL;
    int found = callee != NULL && callee->kind == CJ_BOUND &&
                cj_is_record_subject(callee->source);
    for (int i = first; i < in->nargs; i++) {
        found = found || holds_records(cj_vt(c, in->args[i]));
    }
    if (!found || (callee != NULL && call_takes_records(c, callee))) {
        return 0;
    }
    PyObject *types = cj_argtypes_text(c, in, first);
    if (types == NULL) {
        return -1;
    }
    cj_typing_error(c, in, "cujit does not support %s with records or arrays of records "
                           "(argument(s) of type(s): %U): use their fields",
                    in->op == CJ_I_CALL ? (callee && callee->kind == CJ_BOUND ? callee->name
                                                                              : "this call")
                                        : "this operator",
                    types);
    Py_DECREF(types);
    return -1;
}

/* ---- returning records ---- */

/* Whether the bytes of `var` (a record, or an array of records) are surely in the caller's
 * memory: an argument, or a view, item or field of one. A record holds no reference to its
 * array (numba's), so one of an array the function made would outlive it. */
static int in_argument_memory(cj_infer_ctx *c, int var) {
    for (int hops = 0; hops < 256; hops++) {
        cj_instr *d = c->def[var];
        if (d == NULL) {
            return 0; /* assigned in several places: not followed */
        }
        if (d->op == CJ_I_ARG) {
            return 1;
        }
        int view = d->op == CJ_I_COPY ||
                   ((d->op == CJ_I_GETITEM || d->op == CJ_I_GETATTR) &&
                    cj_is_record_subject(cj_vt(c, d->args[0])) &&
                    !(d->op == CJ_I_GETITEM && cj_vt(c, d->args[1]) != NULL &&
                      cj_vt(c, d->args[1])->kind == CJ_ARRAY)); /* a[idx] copies */
        if (!view) {
            return 0;
        }
        var = d->args[0];
    }
    return 0;
}

/* A record, or a tuple holding one (arrays of records hold their allocation: not these). */
static int has_record(const cj_type *t) {
    for (int i = 0; t->kind == CJ_TUPLE && i < t->n; i++) {
        if (has_record(t->items[i])) {
            return 1;
        }
    }
    return t->kind == CJ_RECORD;
}

/* Whether a value of type `t` in `var` holds only records in the caller's memory. */
static int returns_safely(cj_infer_ctx *c, int var, const cj_type *t, int depth) {
    if (!has_record(t)) {
        return 1;
    }
    if (t->kind == CJ_RECORD) {
        return in_argument_memory(c, var);
    }
    if (t->kind != CJ_TUPLE || depth > 32) {
        return t->kind != CJ_TUPLE;
    }
    cj_instr *d = c->def[var];
    for (int i = 0; i < t->n; i++) {
        if (!has_record(t->items[i])) {
            continue;
        }
        if (d == NULL || d->op != CJ_I_BUILD_TUPLE || d->nargs != t->n ||
            !returns_safely(c, d->args[i], t->items[i], depth + 1)) {
            return 0;
        }
    }
    return 1;
}

int cj_record_return_check(cj_infer_ctx *c, cj_instr *in, const cj_type *t) {
    if (returns_safely(c, in->args[0], t, 0)) {
        return 0;
    }
    return cj_unsupported_error(c, in, "cujit cannot return a record unless it is one of the "
                                       "arguments' (an item or field of an argument array or "
                                       "record): one of an array the function made is freed "
                                       "on return. Return the array, or the record's fields");
}
