/* build_ops.c: one handler per opcode, `op_<OPNAME>`, its stack effect in the comment above it,
 * dispatched by a table built from CJ_HANDLED_OPS (frontend.h), so a handled opcode without a
 * handler does not compile. Handlers see version-neutral instructions (decode.c); one that ends
 * the block (branch, jump, return, raise) sets b->ended. Names are resolved here: globals and
 * closure variables that are numbers, tuples, strings or arrays become constants (frozen, as
 * numba does). */
#include "frontend/build_internal.h"

#include <string.h>

typedef int (*op_handler)(cj_builder *b, const cj_bc *in);

/* An opcode whose handling is another's (3.11's jump spellings, the bookkeeping no-ops). */
#define SAME_AS(name, other)                                                                  \
    static int op_##name(cj_builder *b, const cj_bc *in) { return op_##other(b, in); }

/* ---- names ---- */

static int is_frozen_constant(PyObject *v) {
    return v == Py_None || PyBool_Check(v) || PyLong_Check(v) || PyFloat_Check(v) ||
           PyComplex_Check(v) || PyUnicode_Check(v) || PyTuple_Check(v);
}

/* Pushes a compile-time value: numbers/tuples/strings/None as constants, arrays as read-only
 * constants, anything else as a global object for typing to resolve. */
int cj_fe_push_value(cj_builder *b, PyObject *v, PyObject *name) {
    if (cj_ir_keep(b->ir, v) == NULL) {
        return -1;
    }
    int frozen = is_frozen_constant(v);
    if (!frozen) {
        /* NumPy arrays and scalars are frozen too (duck-typed to avoid a NumPy dependency) */
        PyObject *mod = PyObject_GetAttrString((PyObject *)Py_TYPE(v), "__module__");
        if (mod == NULL) {
            PyErr_Clear();
        } else {
            frozen = PyUnicode_Check(mod) && PyUnicode_CompareWithASCIIString(mod, "numpy") == 0 &&
                     !PyType_Check(v) && !PyCallable_Check(v);
            Py_DECREF(mod);
        }
    }
    cj_instr *in = cj_fe_emit_push(b, frozen ? CJ_I_CONST : CJ_I_GLOBAL, 0, NULL);
    if (in == NULL) {
        return -1;
    }
    in->obj = v;
    in->name = name;
    return 0;
}

/* A global or builtin by name, frozen (push_value). */
static int load_global(cj_builder *b, PyObject *name) {
    PyObject *v = PyDict_GetItemWithError(b->globals, name); /* borrowed */
    if (v == NULL && !PyErr_Occurred() && b->builtins != NULL) {
        v = PyDict_Check(b->builtins) ? PyDict_GetItemWithError(b->builtins, name)
                                      : PyObject_GetAttr(b->builtins, name);
        if (v != NULL && !PyDict_Check(b->builtins)) {
            Py_DECREF(v); /* module attribute: the module keeps it alive */
        } else if (v == NULL && PyErr_ExceptionMatches(PyExc_AttributeError)) {
            PyErr_Clear();
        }
    }
    if (v == NULL) {
        if (!PyErr_Occurred()) {
            cj_ir_error(b->ir, cj_TypingError, b->line, "NameError: name '%U' is not defined",
                        name);
        }
        return -1;
    }
    return cj_fe_push_value(b, v, name);
}

/* ---- stack bookkeeping ---- */

/* NOP, and the bookkeeping opcodes that build nothing: -> */
static int op_NOP(cj_builder *b, const cj_bc *in) { return 0; }
SAME_AS(RESUME, NOP)
SAME_AS(CACHE, NOP)
SAME_AS(EXTENDED_ARG, NOP)
SAME_AS(PRECALL, NOP)
SAME_AS(MAKE_CELL, NOP)
SAME_AS(COPY_FREE_VARS, NOP)

/* POP_TOP: v -> */
static int op_POP_TOP(cj_builder *b, const cj_bc *in) {
    int v;
    return cj_fe_pop(b, &v);
}
SAME_AS(END_FOR, POP_TOP) /* 3.12; FOR_ITER's exhausted edge skips it */

/* PUSH_NULL: -> NULL */
static int op_PUSH_NULL(cj_builder *b, const cj_bc *in) { return cj_fe_push(b, CJ_NULL); }

/* COPY i: ... v -> ... v v */
static int op_COPY(cj_builder *b, const cj_bc *in) {
    if (in->arg < 1 || in->arg > b->sp) {
        return cj_unsupported_at(b->ir, b->line, "malformed COPY");
    }
    return cj_fe_push(b, b->stack[b->sp - in->arg]);
}

/* SWAP i: a ... b -> b ... a */
static int op_SWAP(cj_builder *b, const cj_bc *in) {
    if (in->arg < 2 || in->arg > b->sp) {
        return cj_unsupported_at(b->ir, b->line, "malformed SWAP");
    }
    int v = b->stack[b->sp - 1];
    b->stack[b->sp - 1] = b->stack[b->sp - in->arg];
    b->stack[b->sp - in->arg] = v;
    return 0;
}

/* ---- loads and stores ---- */

/* LOAD_FAST: -> value (a snapshot, so later stores do not change what was loaded) */
static int op_LOAD_FAST(cj_builder *b, const cj_bc *in) {
    if (b->fn_binding[in->arg] != 0) { /* an inner function's local (build_closure.c) */
        return cj_fe_load_function_local(b, in->arg);
    }
    int local = b->locals[in->arg];
    return cj_fe_emit_push(b, CJ_I_COPY, 1, &local) ? 0 : -1;
}
SAME_AS(LOAD_FAST_CHECK, LOAD_FAST) /* 3.12: -> value */

/* LOAD_FAST_AND_CLEAR (3.12, an inlined comprehension saves its variable): -> NULL, which
 * its STORE_FAST at the end stores nowhere (the variable keeps its last value) */
static int op_LOAD_FAST_AND_CLEAR(cj_builder *b, const cj_bc *in) {
    return cj_fe_push(b, CJ_NULL);
}

/* STORE_FAST: value -> */
static int op_STORE_FAST(cj_builder *b, const cj_bc *in) {
    int v;
    if (cj_fe_pop(b, &v) < 0 ||
        (v != CJ_NULL && !cj_fe_is_made(v) && cj_fe_check_value(b, v) < 0)) {
        return -1;
    }
    if (v == CJ_NULL) {
        return 0; /* LOAD_FAST_AND_CLEAR's saved value */
    }
    if (b->fn_binding[in->arg] != 0 || cj_fe_is_made(v)) { /* build_closure.c */
        return cj_fe_store_function_local(b, in->arg, v);
    }
    if (cj_fe_check_not_caught(b, v, b->locals[in->arg]) < 0) { /* except E as e */
        return -1;
    }
    return cj_fe_emit(b, CJ_I_COPY, b->locals[in->arg], 1, &v) ? 0 : -1;
}

/* LOAD_CONST: -> constant */
static int op_LOAD_CONST(cj_builder *b, const cj_bc *in) {
    PyObject *c = PyTuple_GetItem(b->code->co_consts, in->arg); /* borrowed */
    if (c == NULL) {
        return -1;
    }
    if (PyCode_Check(c)) { /* for MAKE_FUNCTION (build_inline.c) */
        b->made_code = c;
        return cj_fe_push(b, CJ_CODE_MARK);
    }
    cj_instr *i = cj_fe_emit_push(b, CJ_I_CONST, 0, NULL);
    if (i == NULL) {
        return -1;
    }
    i->obj = c;
    return 0;
}

/* LOAD_GLOBAL (name index << 1) | null: -> [NULL] global */
static int op_LOAD_GLOBAL(cj_builder *b, const cj_bc *in) {
    PyObject *name = PyTuple_GetItem(b->code->co_names, in->arg >> 1);
    if (name == NULL || ((in->arg & 1) && cj_fe_push(b, CJ_NULL) < 0)) {
        return -1;
    }
    return load_global(b, name);
}

/* obj -> [NULL] obj.name; `method` pushes the NULL of the call protocol */
static int load_attr(cj_builder *b, int method, int name_index) {
    PyObject *name = PyTuple_GetItem(b->code->co_names, name_index);
    int obj;
    if (name == NULL || cj_fe_pop(b, &obj) < 0 || cj_fe_check_value(b, obj) < 0) {
        return -1;
    }
    if (method && cj_fe_push(b, CJ_NULL) < 0) {
        return -1;
    }
    cj_instr *i = cj_fe_emit_push(b, CJ_I_GETATTR, 1, &obj);
    if (i == NULL) {
        return -1;
    }
    i->obj = name;
    return 0;
}

/* LOAD_ATTR (name index << 1) | method (decode.c's neutral form): obj -> [NULL] attr */
static int op_LOAD_ATTR(cj_builder *b, const cj_bc *in) {
    return load_attr(b, in->arg & 1, in->arg >> 1);
}

/* LOAD_METHOD name index (3.11 only): obj -> NULL attr */
static int op_LOAD_METHOD(cj_builder *b, const cj_bc *in) { return load_attr(b, 1, in->arg); }

/* LOAD_ASSERTION_ERROR: -> AssertionError */
static int op_LOAD_ASSERTION_ERROR(cj_builder *b, const cj_bc *in) {
    return cj_fe_push_value(b, PyExc_AssertionError, NULL);
}

/* ---- calls ---- */

/* KW_NAMES consti: -> ; names the keyword arguments of the next CALL */
static int op_KW_NAMES(cj_builder *b, const cj_bc *in) {
    b->kwnames = PyTuple_GetItem(b->code->co_consts, in->arg);
    return b->kwnames ? 0 : -1;
}

/* CALL argc: callable_or_NULL, self_or_callable, args... -> result */
static int op_CALL(cj_builder *b, const cj_bc *in) {
    int argc = in->arg;
    if (argc + 2 > b->sp || argc > CJ_MAX_ARGS - 4) {
        return cj_unsupported_at(b->ir, b->line, "call with %d arguments", argc);
    }
    int args[CJ_MAX_ARGS];
    int first = b->stack[b->sp - argc - 2], second = b->stack[b->sp - argc - 1];
    if (cj_fe_is_comprehension(first) && argc == 0) { /* 3.11: a comprehension's function */
        b->sp -= 2;
        return cj_fe_inline_comprehension(b, first, second, in->next);
    }
    if (first == CJ_NULL && cj_fe_is_made(second)) { /* an inner function (build_closure.c) */
        b->sp -= argc + 2;
        return cj_fe_inline_call(b, second, &b->stack[b->sp + 2], argc, in->next);
    }
    int n = 0;
    args[n++] = first == CJ_NULL ? second : first;
    if (first != CJ_NULL) {
        args[n++] = second; /* bound form: `second` is the first argument */
    }
    for (int i = 0; i < argc; i++) {
        args[n++] = b->stack[b->sp - argc + i];
    }
    int frees = n == 2 ? cj_fe_genexpr_frees(b, args[0]) : -1; /* build_generator.c */
    if (frees >= 0) {
        args[n++] = frees;
    }
    b->sp -= argc + 2;
    if (cj_fe_made_arguments_as_values(b, args + 1, n - 1) < 0) { /* build_funcvalue.c */
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (cj_fe_check_value(b, args[i]) < 0) {
            return -1;
        }
    }
    cj_instr *call = cj_fe_emit_push(b, CJ_I_CALL, n, args);
    if (call == NULL) {
        return -1;
    }
    call->obj = b->kwnames;
    call->index = b->kwnames ? (int)PyTuple_GET_SIZE(b->kwnames) : 0;
    b->kwnames = NULL;
    return 0;
}

/* ---- operators ---- */

static const int nb_to_binop[13] = {CJ_ADD, CJ_AND, CJ_FLOORDIV, CJ_LSHIFT, CJ_MATMUL,
                                    CJ_MUL, CJ_MOD, CJ_OR, CJ_POW, CJ_RSHIFT, CJ_SUB,
                                    CJ_TRUEDIV, CJ_XOR};

/* BINARY_OP op: a, b -> a op b */
static int op_BINARY_OP(cj_builder *b, const cj_bc *in) {
    int ab[2];
    if (in->arg < 0 || in->arg > 25) {
        return cj_unsupported_at(b->ir, b->line, "binary operator #%d", in->arg);
    }
    if (cj_fe_pop(b, &ab[1]) < 0 || cj_fe_pop(b, &ab[0]) < 0 || cj_fe_check_value(b, ab[0]) < 0 ||
        cj_fe_check_value(b, ab[1]) < 0) {
        return -1;
    }
    cj_instr *i = cj_fe_emit_push(b, CJ_I_BINOP, 2, ab);
    if (i == NULL) {
        return -1;
    }
    i->sub = nb_to_binop[in->arg % 13];
    i->flags = in->arg >= 13 ? CJ_F_INPLACE : 0;
    return 0;
}

/* a, b -> a cmp b */
static int compare(cj_builder *b, int cmp) {
    int ab[2];
    if (cj_fe_pop(b, &ab[1]) < 0 || cj_fe_pop(b, &ab[0]) < 0 || cj_fe_check_value(b, ab[0]) < 0 ||
        cj_fe_check_value(b, ab[1]) < 0) {
        return -1;
    }
    cj_instr *i = cj_fe_emit_push(b, CJ_I_COMPARE, 2, ab);
    if (i == NULL) {
        return -1;
    }
    i->sub = cmp;
    return 0;
}

/* a -> op a */
static int unary(cj_builder *b, int unop) {
    int a;
    if (cj_fe_pop(b, &a) < 0 || cj_fe_check_value(b, a) < 0) {
        return -1;
    }
    cj_instr *i = cj_fe_emit_push(b, CJ_I_UNARY, 1, &a);
    if (i == NULL) {
        return -1;
    }
    i->sub = unop;
    return 0;
}

/* COMPARE_OP cmp (decode.c's neutral form, cmp_op order = CJ_LT..CJ_GE): a, b -> a cmp b */
static int op_COMPARE_OP(cj_builder *b, const cj_bc *in) {
    int w = in->arg;
    if (w < 0 || w > 5) {
        return cj_unsupported_at(b->ir, b->line, "comparison #%d", w);
    }
    return compare(b, w);
}

/* IS_OP invert: a, b -> a is [not] b */
static int op_IS_OP(cj_builder *b, const cj_bc *in) {
    return compare(b, in->arg ? CJ_ISNOT : CJ_IS);
}

/* CONTAINS_OP invert: a, b -> a [not] in b */
static int op_CONTAINS_OP(cj_builder *b, const cj_bc *in) {
    return compare(b, in->arg ? CJ_NOTIN : CJ_IN);
}

/* UNARY_NEGATIVE: a -> -a */
static int op_UNARY_NEGATIVE(cj_builder *b, const cj_bc *in) { return unary(b, CJ_NEG); }

/* UNARY_POSITIVE (3.11): a -> +a */
static int op_UNARY_POSITIVE(cj_builder *b, const cj_bc *in) { return unary(b, CJ_POS); }

/* UNARY_NOT: a -> not a */
static int op_UNARY_NOT(cj_builder *b, const cj_bc *in) { return unary(b, CJ_NOT); }

/* UNARY_INVERT: a -> ~a */
static int op_UNARY_INVERT(cj_builder *b, const cj_bc *in) { return unary(b, CJ_INVERT); }

/* CALL_INTRINSIC_1 5 (3.12's unary +): a -> +a; the other intrinsics are unsupported */
static int op_CALL_INTRINSIC_1(cj_builder *b, const cj_bc *in) {
    if (in->arg == 5) { /* INTRINSIC_UNARY_POSITIVE */
        return unary(b, CJ_POS);
    }
    if (in->arg == 6) { /* INTRINSIC_LIST_TO_TUPLE: g(a, *t) (build_starcall.c) */
        return cj_fe_list_to_tuple(b);
    }
    return cj_unsupported_at(b->ir, b->line, "cujit does not support intrinsic #%d", in->arg);
}

/* ---- containers ---- */

/* pops n values into vals[0..n-1] in stack order */
static int pop_n(cj_builder *b, int n, int *vals) {
    if (n > b->sp) {
        PyErr_SetString(PyExc_SystemError, "cujit: bytecode stack underflow");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        vals[i] = b->stack[b->sp - n + i];
        if (cj_fe_check_value(b, vals[i]) < 0) {
            return -1;
        }
    }
    b->sp -= n;
    return 0;
}

/* items... -> tuple/slice */
static int build(cj_builder *b, cj_iop op, int n) {
    int vals[256];
    if (n > 256) {
        return cj_unsupported_at(b->ir, b->line, "tuples of more than 256 items");
    }
    if (pop_n(b, n, vals) < 0) {
        return -1;
    }
    return cj_fe_emit_push(b, op, n, vals) ? 0 : -1;
}

/* BUILD_TUPLE n: items... -> tuple */
static int op_BUILD_TUPLE(cj_builder *b, const cj_bc *in) {
    int cells = in->arg > 0 && in->arg <= b->sp;
    for (int i = 1; cells && i <= in->arg; i++) {
        cells = b->stack[b->sp - i] == CJ_CELL_MARK;
    }
    if (cells) { /* a comprehension's closure (build_inline.c) */
        b->sp -= in->arg;
        return cj_fe_push(b, CJ_CELL_MARK);
    }
    return build(b, CJ_I_BUILD_TUPLE, in->arg);
}

/* LOAD_CLOSURE i: -> the cell, for a comprehension's MAKE_FUNCTION (3.11) */
static int op_LOAD_CLOSURE(cj_builder *b, const cj_bc *in) {
    return cj_fe_push(b, CJ_CELL_MARK);
}

static int op_MAKE_FUNCTION(cj_builder *b, const cj_bc *in) {
    return cj_fe_op_MAKE_FUNCTION(b, in); /* build_inline.c */
}

static int op_FORMAT_VALUE(cj_builder *b, const cj_bc *in) {
    return cj_fe_op_FORMAT_VALUE(b, in); /* build_format.c */
}

static int op_BUILD_STRING(cj_builder *b, const cj_bc *in) {
    return cj_fe_op_BUILD_STRING(b, in); /* build_format.c */
}

static int op_LIST_APPEND(cj_builder *b, const cj_bc *in) {
    return cj_fe_op_LIST_APPEND(b, in); /* build_inline.c */
}

static int op_DELETE_SUBSCR(cj_builder *b, const cj_bc *in) {
    return cj_fe_op_DELETE_SUBSCR(b, in); /* build_inline.c: del l[i] */
}

/* BUILD_LIST n: items... -> a list literal: a BUILD_TUPLE flagged CJ_F_LIST, typed as a list
 * (typing/lists.c), or as the tuple np.array() or a join reads */
static int op_BUILD_LIST(cj_builder *b, const cj_bc *in) {
    int vals[256];
    if (in->arg > 256) {
        return cj_unsupported_at(b->ir, b->line, "lists of more than 256 items");
    }
    if (pop_n(b, in->arg, vals) < 0) {
        return -1;
    }
    cj_instr *list = cj_fe_emit_push(b, CJ_I_BUILD_TUPLE, in->arg, vals);
    if (list == NULL) {
        return -1;
    }
    list->flags |= CJ_F_LIST;
    return 0;
}

/* LIST_EXTEND i: the list literal CPython folds (BUILD_LIST 0, a constant tuple, LIST_EXTEND
 * 1) -> a COPY of the tuple flagged CJ_F_LIST that reads the list too (typing checks that it is
 * an empty list literal) */
static int op_LIST_EXTEND(cj_builder *b, const cj_bc *in) {
    int v;
    if (cj_fe_pop(b, &v) < 0) {
        return -1;
    }
    if (in->arg < 1 || in->arg > b->sp) {
        PyErr_SetString(PyExc_SystemError, "cujit: LIST_EXTEND below the stack");
        return -1;
    }
    int args[2] = {v, b->stack[b->sp - in->arg]};
    int dst = cj_fe_temp(b);
    cj_instr *copy = dst < 0 ? NULL : cj_fe_emit(b, CJ_I_COPY, dst, 2, args);
    if (copy == NULL) {
        return -1;
    }
    copy->flags |= CJ_F_LIST;
    b->stack[b->sp - in->arg] = dst;
    return 0;
}

/* BUILD_SLICE n: start, stop[, step] -> slice */
static int op_BUILD_SLICE(cj_builder *b, const cj_bc *in) {
    return build(b, CJ_I_BUILD_SLICE, in->arg);
}

/* BINARY_SUBSCR: container, key -> container[key] */
static int op_BINARY_SUBSCR(cj_builder *b, const cj_bc *in) {
    int ck[2];
    if (pop_n(b, 2, ck) < 0) {
        return -1;
    }
    return cj_fe_emit_push(b, CJ_I_GETITEM, 2, ck) ? 0 : -1;
}

/* STORE_SUBSCR: value, container, key -> ; container[key] = value */
static int op_STORE_SUBSCR(cj_builder *b, const cj_bc *in) {
    int vck[3];
    if (pop_n(b, 3, vck) < 0) {
        return -1;
    }
    int args[3] = {vck[1], vck[2], vck[0]};
    return cj_fe_emit(b, CJ_I_SETITEM, -1, 3, args) ? 0 : -1;
}

/* STORE_ATTR namei: value, obj -> ; obj.name = value, as obj['name'] = value (only a record's
 * fields take assignment: typing/record_access.c; CJ_F_ATTR words the other errors) */
static int op_STORE_ATTR(cj_builder *b, const cj_bc *in) {
    PyObject *name = PyTuple_GetItem(b->code->co_names, in->arg); /* borrowed */
    int vo[3];
    if (name == NULL || pop_n(b, 2, vo) < 0 || cj_fe_push_value(b, name, NULL) < 0 ||
        cj_fe_pop(b, &vo[2]) < 0) {
        return -1;
    }
    int args[3] = {vo[1], vo[2], vo[0]};
    cj_instr *i = cj_fe_emit(b, CJ_I_SETITEM, -1, 3, args);
    if (i == NULL) {
        return -1;
    }
    i->flags |= CJ_F_ATTR;
    return 0;
}

/* BINARY_SLICE (3.12): container, start, stop -> container[start:stop] */
static int op_BINARY_SLICE(cj_builder *b, const cj_bc *in) {
    int css[3];
    if (pop_n(b, 3, css) < 0) {
        return -1;
    }
    int slice = cj_fe_temp(b);
    if (slice < 0 || cj_fe_emit(b, CJ_I_BUILD_SLICE, slice, 2, &css[1]) == NULL) {
        return -1;
    }
    int args[2] = {css[0], slice};
    return cj_fe_emit_push(b, CJ_I_GETITEM, 2, args) ? 0 : -1;
}

/* STORE_SLICE (3.12): value, container, start, stop -> ; container[start:stop] = value */
static int op_STORE_SLICE(cj_builder *b, const cj_bc *in) {
    int vcss[4];
    if (pop_n(b, 4, vcss) < 0) {
        return -1;
    }
    int slice = cj_fe_temp(b);
    if (slice < 0 || cj_fe_emit(b, CJ_I_BUILD_SLICE, slice, 2, &vcss[2]) == NULL) {
        return -1;
    }
    int args[3] = {vcss[1], slice, vcss[0]};
    return cj_fe_emit(b, CJ_I_SETITEM, -1, 3, args) ? 0 : -1;
}

/* UNPACK_SEQUENCE n: seq -> seq[n-1] ... seq[0] (seq[0] on top) */
static int op_UNPACK_SEQUENCE(cj_builder *b, const cj_bc *in) {
    int seq;
    if (cj_fe_pop(b, &seq) < 0 || cj_fe_check_value(b, seq) < 0) {
        return -1;
    }
    for (int i = in->arg - 1; i >= 0; i--) {
        cj_instr *item = cj_fe_emit_push(b, CJ_I_STATIC_ITEM, 1, &seq);
        if (item == NULL) {
            return -1;
        }
        item->index = i;
        item->sub = in->arg; /* the count the sequence must have */
    }
    return 0;
}

/* ---- iteration ---- */

/* GET_ITER: iterable -> iterator */
static int op_GET_ITER(cj_builder *b, const cj_bc *in) {
    int v;
    if (cj_fe_pop(b, &v) < 0 || cj_fe_check_value(b, v) < 0) {
        return -1;
    }
    return cj_fe_emit_push(b, CJ_I_GETITER, 1, &v) ? 0 : -1;
}

/* FOR_ITER: iter -> iter, value  (or, exhausted: -> and jump past the loop) */
static int op_FOR_ITER(cj_builder *b, const cj_bc *in) {
    b->ended = 1;
    int it = b->stack[b->sp - 1];
    int value = cj_fe_temp(b), ok = cj_fe_temp(b);
    if (value < 0 || ok < 0) {
        return -1;
    }
    cj_instr *step = cj_fe_emit(b, CJ_I_ITERNEXT, value, 1, &it);
    if (step == NULL) {
        return -1;
    }
    step->dst2 = ok;
    int exit = in->jump;
    int k = cj_fe_bc_index_at(b, exit);
    if (k < 0) {
        return -1;
    }
    if (b->bc.ins[k].op == CJ_OP_END_FOR) { /* 3.12: the exhausted path skips END_FOR */
        exit = b->bc.ins[k].next;
    }
    if (cj_fe_push(b, value) < 0) {
        return -1;
    }
    return cj_fe_branch(b, ok, in->next, b->sp, exit, b->sp - 2);
}

/* ---- jumps (all end the block) ---- */

/* JUMP_FORWARD, JUMP_BACKWARD[_NO_INTERRUPT]: -> (decode.c made the target absolute) */
static int op_JUMP_FORWARD(cj_builder *b, const cj_bc *in) {
    b->ended = 1;
    return cj_fe_jump_to(b, in->jump, b->sp);
}
SAME_AS(JUMP_BACKWARD, JUMP_FORWARD)
SAME_AS(JUMP_BACKWARD_NO_INTERRUPT, JUMP_FORWARD)

/* cond -> ; jumps when cond is `jump_if`; the `none_test` forms test `cond is None` */
static int pop_jump(cj_builder *b, const cj_bc *in, int jump_if, int none_test) {
    b->ended = 1;
    int v;
    if (cj_fe_pop(b, &v) < 0 || cj_fe_check_value(b, v) < 0) {
        return -1;
    }
    int cond = v;
    if (none_test) { /* cond = (v is None) */
        int none = cj_fe_temp(b);
        cond = cj_fe_temp(b);
        cj_instr *c = (none < 0 || cond < 0) ? NULL : cj_fe_emit(b, CJ_I_CONST, none, 0, NULL);
        if (c == NULL) {
            return -1;
        }
        c->obj = Py_None;
        int args[2] = {v, none};
        cj_instr *cmp = cj_fe_emit(b, CJ_I_COMPARE, cond, 2, args);
        if (cmp == NULL) {
            return -1;
        }
        cmp->sub = CJ_IS;
    }
    if (jump_if) {
        return cj_fe_branch(b, cond, in->jump, b->sp, in->next, b->sp);
    }
    return cj_fe_branch(b, cond, in->next, b->sp, in->jump, b->sp);
}

/* POP_JUMP_IF_FALSE: cond -> */
static int op_POP_JUMP_IF_FALSE(cj_builder *b, const cj_bc *in) { return pop_jump(b, in, 0, 0); }

/* POP_JUMP_IF_TRUE: cond -> */
static int op_POP_JUMP_IF_TRUE(cj_builder *b, const cj_bc *in) { return pop_jump(b, in, 1, 0); }

/* POP_JUMP_IF_NONE: v -> */
static int op_POP_JUMP_IF_NONE(cj_builder *b, const cj_bc *in) { return pop_jump(b, in, 1, 1); }

/* POP_JUMP_IF_NOT_NONE: v -> */
static int op_POP_JUMP_IF_NOT_NONE(cj_builder *b, const cj_bc *in) {
    return pop_jump(b, in, 0, 1);
}

/* 3.11 spells the direction in the name; decode.c has made the target absolute */
SAME_AS(POP_JUMP_FORWARD_IF_FALSE, POP_JUMP_IF_FALSE)
SAME_AS(POP_JUMP_BACKWARD_IF_FALSE, POP_JUMP_IF_FALSE)
SAME_AS(POP_JUMP_FORWARD_IF_TRUE, POP_JUMP_IF_TRUE)
SAME_AS(POP_JUMP_BACKWARD_IF_TRUE, POP_JUMP_IF_TRUE)
SAME_AS(POP_JUMP_FORWARD_IF_NONE, POP_JUMP_IF_NONE)
SAME_AS(POP_JUMP_BACKWARD_IF_NONE, POP_JUMP_IF_NONE)
SAME_AS(POP_JUMP_FORWARD_IF_NOT_NONE, POP_JUMP_IF_NOT_NONE)
SAME_AS(POP_JUMP_BACKWARD_IF_NOT_NONE, POP_JUMP_IF_NOT_NONE)

/* cond -> cond (jumped) | - (fell through); jumps when cond is `jump_if` */
static int jump_or_pop(cj_builder *b, const cj_bc *in, int jump_if) {
    b->ended = 1;
    int cond = b->stack[b->sp - 1];
    if (cj_fe_check_value(b, cond) < 0) {
        return -1;
    }
    if (jump_if) {
        return cj_fe_branch(b, cond, in->jump, b->sp, in->next, b->sp - 1);
    }
    return cj_fe_branch(b, cond, in->next, b->sp - 1, in->jump, b->sp);
}

/* JUMP_IF_FALSE_OR_POP (3.11): cond -> cond (jumped) | - (fell through) */
static int op_JUMP_IF_FALSE_OR_POP(cj_builder *b, const cj_bc *in) {
    return jump_or_pop(b, in, 0);
}

/* JUMP_IF_TRUE_OR_POP (3.11): cond -> cond (jumped) | - (fell through) */
static int op_JUMP_IF_TRUE_OR_POP(cj_builder *b, const cj_bc *in) {
    return jump_or_pop(b, in, 1);
}

/* ---- return and raise (end the block) ---- */

/* RETURN_VALUE: value -> */
static int op_RETURN_VALUE(cj_builder *b, const cj_bc *in) {
    b->ended = 1;
    int v;
    if (cj_fe_pop(b, &v) < 0 || cj_fe_check_value(b, v) < 0) {
        return -1;
    }
    int inlined = cj_fe_inline_return(b, v); /* a comprehension's list, to its caller */
    if (inlined != 0) {
        return inlined < 0 ? -1 : 0;
    }
    return cj_fe_emit(b, CJ_I_RETURN, -1, 1, &v) ? 0 : -1;
}

/* RETURN_CONST consti (3.12): -> */
static int op_RETURN_CONST(cj_builder *b, const cj_bc *in) {
    b->ended = 1;
    return op_LOAD_CONST(b, in) < 0 ? -1 : op_RETURN_VALUE(b, in);
}

/* RAISE_VARARGS 1: exc -> */
static int op_RAISE_VARARGS(cj_builder *b, const cj_bc *in) {
    b->ended = 1;
    if (in->arg != 1) {
        return in->arg == 0 ? cj_fe_reraise_current(b) /* build_try.c */
                            : cj_unsupported_at(b->ir, b->line, "cujit does not support "
                                                                "'raise ... from ...'");
    }
    int v;
    if (cj_fe_pop(b, &v) < 0 || cj_fe_check_value(b, v) < 0) {
        return -1;
    }
    return cj_fe_emit(b, CJ_I_RAISE, -1, 1, &v) ? 0 : -1;
}

/* ---- everything else ---- */

static const struct {
    const char *opcode;
    const char *construct;
} unsupported_names[] = {
    {"DICT_UPDATE", "dict unpacking (**)"},
    {"BEFORE_WITH", "with statements other than `with objmode(...)` blocks in CPU code"},
    {"GET_YIELD_FROM_ITER", "'yield from'"}, {"SEND", "'yield from' or await"},
    {"LOAD_BUILD_CLASS", "class definitions"},
    {"IMPORT_NAME", "import statements"}, {"STORE_GLOBAL", "assignment to globals"},
    {"DELETE_FAST", "del statements"},
    {"UNPACK_EX", "starred assignment"},
};

static int op_unsupported(cj_builder *b, const cj_bc *in) {
    for (size_t i = 0; i < sizeof(unsupported_names) / sizeof(unsupported_names[0]); i++) {
        if (strcmp(in->name, unsupported_names[i].opcode) == 0) {
            return cj_unsupported_at(b->ir, b->line, "cujit does not support %s (opcode %s)",
                                     unsupported_names[i].construct, in->name);
        }
    }
    return cj_unsupported_at(b->ir, b->line, "cujit does not support the bytecode %s",
                             in->name);
}

#define op_LOAD_DEREF cj_fe_op_LOAD_DEREF /* build_closure.c */
#define op_CALL_FUNCTION_EX cj_fe_op_CALL_FUNCTION_EX /* build_starcall.c */
#define op_LIST_TO_TUPLE cj_fe_op_LIST_TO_TUPLE       /* build_starcall.c */
#define op_STORE_DEREF cj_fe_op_STORE_DEREF
#define op_PUSH_EXC_INFO cj_fe_op_PUSH_EXC_INFO /* build_try.c */
#define op_CHECK_EXC_MATCH cj_fe_op_CHECK_EXC_MATCH
#define op_POP_EXCEPT cj_fe_op_POP_EXCEPT
#define op_RERAISE cj_fe_op_RERAISE
#define op_BUILD_MAP cj_fe_op_BUILD_MAP /* build_dict.c */
#define op_BUILD_CONST_KEY_MAP cj_fe_op_BUILD_CONST_KEY_MAP
#define op_MAP_ADD cj_fe_op_MAP_ADD
#define op_BUILD_SET cj_fe_op_BUILD_SET /* build_set.c */
#define op_SET_ADD cj_fe_op_SET_ADD
#define op_SET_UPDATE cj_fe_op_SET_UPDATE
#define op_YIELD_VALUE cj_fe_op_YIELD_VALUE /* build_generator.c */
#define op_RETURN_GENERATOR cj_fe_op_RETURN_GENERATOR

static const op_handler handlers[] = {
    [CJ_OP_UNKNOWN] = op_unsupported,
#define CJ_OP_HANDLER(name) [CJ_OP_##name] = op_##name,
    CJ_HANDLED_OPS(CJ_OP_HANDLER)
#undef CJ_OP_HANDLER
};

int cj_fe_build_instr(cj_builder *b, const cj_bc *in) {
    b->line = in->line;
    b->ended = 0;
    return handlers[in->op](b, in);
}
