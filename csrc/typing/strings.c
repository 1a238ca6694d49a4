/* strings.c: typing of strings (numba's unicode_type; a literal is a CJ_CONST_OBJ of a str,
 * numba's Literal[str], which every operation reads as unicode_type). requires: the operands'
 * types; produces: for each string instruction the CJ_F_STR flag and a CJ_CALL_STR record
 * (builtin: cj_str_op, args: the operand variables, -1 for an omitted optional one) that
 * lower/lower_str.c lowers. Operators (+, * by an int, comparisons, `in`), s[i], s[a:b:c],
 * iteration, len/str/bool/ord/chr/hash, and the methods of `methods` below. CPU only: in CUDA code
 * a string stays a constant message (print, exceptions). */
#include "typing/infer_internal.h"

#include <string.h>

typedef struct str_method {
    const char *name;
    int op;
    int nparams, required;
    const char *kinds;  /* per parameter: s str, S str or None, i int, b bool or int,
                         * L list of str */
    char result;        /* b bool, i int64, s str, l list of str, t a 3-tuple of str */
    const char *names[3];
} str_method;

static const str_method methods[] = {
    {"startswith", CJ_STR_STARTSWITH, 1, 1, "s", 'b', {"prefix"}},
    {"endswith", CJ_STR_ENDSWITH, 1, 1, "s", 'b', {"suffix"}},
    {"find", CJ_STR_FIND, 3, 1, "sii", 'i', {"sub", "start", "end"}},
    {"rfind", CJ_STR_RFIND, 3, 1, "sii", 'i', {"sub", "start", "end"}},
    {"index", CJ_STR_INDEX, 3, 1, "sii", 'i', {"sub", "start", "end"}},
    {"rindex", CJ_STR_RINDEX, 3, 1, "sii", 'i', {"sub", "start", "end"}},
    {"count", CJ_STR_COUNT, 3, 1, "sii", 'i', {"sub", "start", "end"}},
    {"split", CJ_STR_SPLIT, 2, 0, "Si", 'l', {"sep", "maxsplit"}},
    {"rsplit", CJ_STR_RSPLIT, 2, 0, "Si", 'l', {"sep", "maxsplit"}},
    {"splitlines", CJ_STR_SPLITLINES, 1, 0, "b", 'l', {"keepends"}},
    {"partition", CJ_STR_PARTITION, 1, 1, "s", 't', {"sep"}},
    {"rpartition", CJ_STR_RPARTITION, 1, 1, "s", 't', {"sep"}},
    {"join", CJ_STR_JOIN, 1, 1, "L", 's', {"iterable"}},
    {"strip", CJ_STR_STRIP, 1, 0, "S", 's', {"chars"}},
    {"lstrip", CJ_STR_LSTRIP, 1, 0, "S", 's', {"chars"}},
    {"rstrip", CJ_STR_RSTRIP, 1, 0, "S", 's', {"chars"}},
    {"lower", CJ_STR_LOWER, 0, 0, "", 's', {NULL}},
    {"upper", CJ_STR_UPPER, 0, 0, "", 's', {NULL}},
    {"casefold", CJ_STR_CASEFOLD, 0, 0, "", 's', {NULL}},
    {"swapcase", CJ_STR_SWAPCASE, 0, 0, "", 's', {NULL}},
    {"title", CJ_STR_TITLE, 0, 0, "", 's', {NULL}},
    {"capitalize", CJ_STR_CAPITALIZE, 0, 0, "", 's', {NULL}},
    {"center", CJ_STR_CENTER, 2, 1, "is", 's', {"width", "fillchar"}},
    {"ljust", CJ_STR_LJUST, 2, 1, "is", 's', {"width", "fillchar"}},
    {"rjust", CJ_STR_RJUST, 2, 1, "is", 's', {"width", "fillchar"}},
    {"zfill", CJ_STR_ZFILL, 1, 1, "i", 's', {"width"}},
    {"expandtabs", CJ_STR_EXPANDTABS, 1, 0, "i", 's', {"tabsize"}},
    {"replace", CJ_STR_REPLACE, 3, 2, "ssi", 's', {"old", "new", "count"}},
    {"isdigit", CJ_STR_ISDIGIT_M, 0, 0, "", 'b', {NULL}},
    {"isalpha", CJ_STR_ISALPHA_M, 0, 0, "", 'b', {NULL}},
    {"isspace", CJ_STR_ISSPACE_M, 0, 0, "", 'b', {NULL}},
    {"isupper", CJ_STR_ISUPPER_M, 0, 0, "", 'b', {NULL}},
    {"islower", CJ_STR_ISLOWER_M, 0, 0, "", 'b', {NULL}},
    {"isalnum", CJ_STR_ISALNUM_M, 0, 0, "", 'b', {NULL}},
    {"isdecimal", CJ_STR_ISDECIMAL_M, 0, 0, "", 'b', {NULL}},
    {"isnumeric", CJ_STR_ISNUMERIC_M, 0, 0, "", 'b', {NULL}},
    {"istitle", CJ_STR_ISTITLE_M, 0, 0, "", 'b', {NULL}},
    {"isascii", CJ_STR_ISASCII_M, 0, 0, "", 'b', {NULL}},
    {"isprintable", CJ_STR_ISPRINTABLE_M, 0, 0, "", 'b', {NULL}},
};
#define NMETHODS ((int)(sizeof(methods) / sizeof(methods[0])))

static const str_method *method_by_name(PyObject *name) {
    for (int i = 0; i < NMETHODS; i++) {
        if (PyUnicode_CompareWithASCIIString(name, methods[i].name) == 0) {
            return &methods[i];
        }
    }
    return NULL;
}

/* Marks `in` a string instruction of `op` over vars[0..n); its result type `t`. */
static int resolve(cj_infer_ctx *c, cj_instr *in, int op, const int *vars, int n,
                   const cj_type *t, const cj_type **out) {
    cj_call *call = cj_call_record(c, in, CJ_CALL_STR, n);
    if (call == NULL) {
        return -1;
    }
    call->builtin = op;
    for (int i = 0; i < n; i++) {
        call->args[i] = vars[i];
        call->defaults[i] = NULL;
        call->argtypes[i] = vars[i] >= 0 ? cj_vt(c, vars[i]) : NULL;
    }
    in->flags |= CJ_F_STR;
    *out = t;
    return t != NULL ? 1 : -1;
}

static int is_builtin(PyObject *obj, const char *name) {
    PyObject *builtins = PyImport_AddModule("builtins"); /* borrowed */
    PyObject *f = builtins ? PyObject_GetAttrString(builtins, name) : NULL;
    Py_XDECREF(f); /* the module keeps it */
    PyErr_Clear();
    return f != NULL && f == obj;
}

static int type_binop(cj_infer_ctx *c, cj_instr *in, const cj_type *a, const cj_type *b,
                      const cj_type **out) {
    if (in->sub == CJ_ADD && cj_type_is_str(a) && cj_type_is_str(b)) {
        return resolve(c, in, CJ_STR_CONCAT, in->args, 2, cj_t_unicode, out);
    }
    if (in->sub == CJ_MUL && cj_type_is_integer(b) && cj_type_is_str(a)) {
        return resolve(c, in, CJ_STR_REPEAT, in->args, 2, cj_t_unicode, out);
    }
    if (in->sub == CJ_MUL && cj_type_is_integer(a) && cj_type_is_str(b)) {
        int vars[2] = {in->args[1], in->args[0]};
        return resolve(c, in, CJ_STR_REPEAT, vars, 2, cj_t_unicode, out);
    }
    return 2; /* infer.c's numba "No implementation of function" error */
}

/* A tuple of strings, or a list of them. */
static int is_str_sequence(const cj_type *t) {
    if (t->kind == CJ_LIST) {
        return t->dtype == cj_t_unicode;
    }
    for (int i = 0; t->kind == CJ_TUPLE && i < t->n; i++) {
        if (!cj_type_is_str(t->items[i])) {
            return 0;
        }
    }
    return t->kind == CJ_TUPLE;
}

static int type_compare(cj_infer_ctx *c, cj_instr *in, const cj_type *a, const cj_type *b,
                        const cj_type **out) {
    if ((in->sub == CJ_IN || in->sub == CJ_NOTIN) && cj_type_is_str(a) && is_str_sequence(b)) {
        int vars[2] = {in->args[1], in->args[0]}; /* s in ('a', 'b'), s in list_of_str */
        return resolve(c, in, CJ_STR_IN_SEQ, vars, 2, cj_t_bool, out);
    }
    if (!cj_type_is_str(a) || !cj_type_is_str(b) || in->sub == CJ_IS || in->sub == CJ_ISNOT) {
        return 2;
    }
    if (in->sub == CJ_IN || in->sub == CJ_NOTIN) { /* needle in haystack */
        int vars[2] = {in->args[1], in->args[0]};
        return resolve(c, in, CJ_STR_CONTAINS, vars, 2, cj_t_bool, out);
    }
    return resolve(c, in, CJ_STR_COMPARE, in->args, 2, cj_t_bool, out);
}

static int type_getitem(cj_infer_ctx *c, cj_instr *in, const cj_type *idx, const cj_type **out) {
    if (cj_type_is_integer(idx)) {
        return resolve(c, in, CJ_STR_GETITEM, in->args, 2, cj_t_unicode, out);
    }
    if (idx->kind == CJ_SLICE) {
        return resolve(c, in, CJ_STR_SLICE, in->args, 2, cj_t_unicode, out);
    }
    return cj_invalid_use(c, in, "getitem");
}

/* One argument of kind `k` (methods' kinds). */
static int arg_fits(char k, const cj_type *t) {
    switch (k) {
    case 's':
        return cj_type_is_str(t);
    case 'S':
        return cj_type_is_str(t) || t->kind == CJ_NONE;
    case 'i':
        return cj_type_is_integer(t);
    case 'b':
        return cj_type_is_integer(t) || t->kind == CJ_BOOL;
    default: /* 'L' */
        return t->kind == CJ_LIST && t->dtype == cj_t_unicode;
    }
}

static const cj_type *result_type(char r) {
    switch (r) {
    case 'b':
        return cj_t_bool;
    case 'i':
        return cj_t_int64;
    case 'l':
        return cj_type_list(cj_t_unicode, 0);
    case 't': {
        const cj_type *three[3] = {cj_t_unicode, cj_t_unicode, cj_t_unicode};
        return cj_type_tuple(3, three);
    }
    default:
        return cj_t_unicode;
    }
}

static int type_method(cj_infer_ctx *c, cj_instr *in, const cj_type *bound,
                       const cj_type **out) {
    const str_method *m = method_by_name(bound->obj);
    int vars[4] = {-1, -1, -1, -1};
    if (m == NULL) {
        return cj_typing_error(c, in, "Unknown attribute '%U' of type unicode_type", bound->obj);
    }
    if (cj_fold_args(c, in, 1, m->names, m->nparams, vars + 1) < 0) {
        return -1;
    }
    for (int p = 0; p < m->nparams; p++) {
        const cj_type *t = vars[p + 1] >= 0 ? cj_vt(c, vars[p + 1]) : NULL;
        if (t != NULL && t->kind == CJ_LIST && t->dtype == NULL) {
            return 0; /* a list its appends have not refined yet: typed again then */
        }
        if ((t == NULL && p < m->required) || (t != NULL && !arg_fits(m->kinds[p], t))) {
            char fname[64];
            PyOS_snprintf(fname, sizeof(fname), "<method '%s' of 'str' objects>", m->name);
            return cj_no_match(c, in, fname);
        }
        if (t != NULL && t->kind == CJ_NONE) {
            vars[p + 1] = -1; /* s.split(None): as if not given */
        }
    }
    vars[0] = cj_method_receiver(c, in); /* lists.c */
    if (vars[0] < 0) {
        return cj_unsupported_error(c, in, "a string method called through a variable");
    }
    const cj_type *rt = result_type(m->result);
    return resolve(c, in, m->op, vars, m->nparams + 1, rt, out);
}

/* len(s), str(x), repr(x), ord(s), chr(i), hash(s): 2 when the call is none of them. */
static int type_builtin_call(cj_infer_ctx *c, cj_instr *in, PyObject *f, const cj_type **out) {
    const cj_type *a = in->nargs == 2 && in->index == 0 ? cj_vt(c, in->args[1]) : NULL;
    if (a == NULL) {
        return 2;
    }
    int str_arg = cj_type_is_str(a);
    if (str_arg && cj_builtin_lookup(f) == CJ_B_LEN) {
        return resolve(c, in, CJ_STR_LEN, in->args + 1, 1, cj_t_int64, out);
    }
    int scalar = a->kind == CJ_INT || a->kind == CJ_FLOAT || a->kind == CJ_BOOL;
    int to_repr = is_builtin(f, "repr");
    if ((f == (PyObject *)&PyUnicode_Type && (str_arg || scalar)) || (to_repr && scalar)) {
        return resolve(c, in, CJ_STR_FROM, in->args + 1, 1, cj_t_unicode, out);
    }
    if (to_repr) { /* repr of what has no text form here: numba's words */
        return str_arg ? resolve(c, in, CJ_STR_REPR, in->args + 1, 1, cj_t_unicode, out)
                       : cj_no_match(c, in, "<built-in function repr>");
    }
    if (str_arg && (f == (PyObject *)&PyLong_Type || f == (PyObject *)&PyFloat_Type)) {
        int to_int = f == (PyObject *)&PyLong_Type;
        return resolve(c, in, to_int ? CJ_STR_TO_INT : CJ_STR_TO_FLOAT, in->args + 1, 1,
                       to_int ? cj_t_int64 : cj_t_float64, out);
    }
    if (str_arg && f == (PyObject *)&PyList_Type) {
        return resolve(c, in, CJ_STR_CHARS, in->args + 1, 1, cj_type_list(cj_t_unicode, 0), out);
    }
    if (str_arg && f == (PyObject *)&PyBool_Type) {
        return resolve(c, in, CJ_STR_BOOL, in->args + 1, 1, cj_t_bool, out);
    }
    if (str_arg && is_builtin(f, "ord")) {
        return resolve(c, in, CJ_STR_ORD, in->args + 1, 1, cj_t_int64, out);
    }
    if (str_arg && is_builtin(f, "hash")) {
        return resolve(c, in, CJ_STR_HASH, in->args + 1, 1, cj_t_int64, out);
    }
    if (cj_type_is_integer(a) && is_builtin(f, "chr")) {
        return resolve(c, in, CJ_STR_CHR, in->args + 1, 1, cj_t_unicode, out);
    }
    return 2;
}

static int type_call(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    for (int i = 0; i < in->nargs; i++) {
        if (cj_vt(c, in->args[i]) == NULL) {
            return 2; /* infer.c waits for it */
        }
    }
    const cj_type *callee = cj_vt(c, in->args[0]);
    if (callee->kind == CJ_BOUND && callee->source == cj_t_unicode) {
        return type_method(c, in, callee, out);
    }
    return callee->kind == CJ_CONST_OBJ ? type_builtin_call(c, in, callee->obj, out) : 2;
}

static int type_str_use(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    const cj_type *a = in->nargs > 0 ? cj_vt(c, in->args[0]) : NULL;
    const cj_type *b = in->nargs > 1 ? cj_vt(c, in->args[1]) : NULL;
    switch (in->op) {
    case CJ_I_BINOP:
        return a && b && (cj_type_is_str(a) || cj_type_is_str(b)) ? type_binop(c, in, a, b, out)
                                                                  : 2;
    case CJ_I_COMPARE:
        return a && b ? type_compare(c, in, a, b, out) : 2;
    case CJ_I_GETITEM:
        return a && b && cj_type_is_str(a) ? type_getitem(c, in, b, out) : 2;
    case CJ_I_GETATTR:
        if (a == NULL || !cj_type_is_str(a)) {
            return 2;
        }
        if (method_by_name(in->obj) == NULL) {
            return cj_typing_error(c, in, "Unknown attribute '%U' of type unicode_type",
                                   in->obj);
        }
        *out = cj_type_bound(cj_t_unicode, in->obj);
        in->flags |= CJ_F_STR;
        return *out ? 1 : -1;
    case CJ_I_GETITER:
        return a && cj_type_is_str(a)
                   ? resolve(c, in, CJ_STR_GETITER, in->args, 1, cj_type_iter_of(cj_t_unicode),
                             out)
                   : 2;
    case CJ_I_CALL:
        return type_call(c, in, out);
    default:
        return 2;
    }
}

int cj_type_str_instr(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    int rc = type_str_use(c, in, out);
    if (rc != 2 && rc >= 0 && (in->flags & CJ_F_STR) && c->env->target == CJ_TARGET_CUDA) {
        return cj_unsupported_error(c, in, "strings are not supported in CUDA code (only as "
                                           "constant print() arguments and exception "
                                           "messages)");
    }
    return rc;
}
