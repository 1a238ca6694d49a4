/* build.c: decoded bytecode -> IR.
 * requires: a plain Python function; produces: cj_func_ir with blocks, variables and lines.
 * Blocks start at jump targets and after branches. The operand stack is simulated per block:
 * a stack slot live across a block boundary becomes an entry variable of the successor, written
 * by copies on each incoming edge. Names are resolved here: globals and closure variables that
 * are numbers, tuples, strings or arrays become constants (frozen, as numba does). */
#include "frontend/frontend.h"

#include <stdarg.h>
#include <string.h>

#define CJ_NULL (-1) /* a NULL pushed for the call protocol */

typedef struct entry_state {
    int started;   /* an IR block exists and its entry stack is fixed */
    int block;     /* IR block */
    int depth;
    int *slots;    /* entry variable per stack slot, or CJ_NULL */
} entry_state;

typedef struct builder {
    cj_func_ir *ir;
    cj_bytecode bc;
    int *leader;          /* per bc index: 1 if a block starts there */
    entry_state *entry;   /* per bc index (only leaders used) */
    int *worklist;
    int nwork;
    int *stack;
    int sp;
    int max_stack;
    int cur;              /* current IR block */
    int line;
    PyObject *kwnames;    /* borrowed from co_consts: names for the next CALL */
    int *locals;          /* co_varnames index -> variable */
    PyObject *globals;    /* borrowed */
    PyObject *builtins;   /* borrowed */
    PyCodeObject *code;
} builder;

int cj_unsupported_at(const cj_func_ir *ir, int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    cj_ir_errorv(ir, cj_UnsupportedError, line, "", fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- stack ---- */

static int push(builder *b, int v) {
    if (b->sp >= b->max_stack) {
        PyErr_SetString(PyExc_SystemError, "cujit: bytecode stack overflow");
        return -1;
    }
    b->stack[b->sp++] = v;
    return 0;
}

static int pop(builder *b, int *v) {
    if (b->sp <= 0) {
        PyErr_SetString(PyExc_SystemError, "cujit: bytecode stack underflow");
        return -1;
    }
    *v = b->stack[--b->sp];
    return 0;
}

static int temp(builder *b) { return cj_ir_new_temp(b->ir, b->line); }

static cj_instr *emit(builder *b, cj_iop op, int dst, int nargs, const int *args) {
    return cj_ir_emit(b->ir, b->cur, op, dst, nargs, args, b->line);
}

/* Pushes the result of a fresh instruction with `nargs` args; returns the instruction. */
static cj_instr *emit_push(builder *b, cj_iop op, int nargs, const int *args) {
    int dst = temp(b);
    if (dst < 0) {
        return NULL;
    }
    cj_instr *in = emit(b, op, dst, nargs, args);
    if (in == NULL || push(b, dst) < 0) {
        return NULL;
    }
    return in;
}

static int check_value(builder *b, int v) {
    if (v == CJ_NULL) {
        return cj_unsupported_at(b->ir, b->line, "cujit cannot compile this construct "
                                                 "(a NULL reached a value position)");
    }
    return 0;
}

/* ---- blocks and edges ---- */

static int bc_index_at(const builder *b, int offset) {
    int lo = 0, hi = b->bc.n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (b->bc.ins[mid].start == offset || b->bc.ins[mid].offset == offset) {
            return mid;
        }
        if (b->bc.ins[mid].offset < offset) {
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    PyErr_Format(PyExc_SystemError, "cujit: jump to offset %d is not an instruction", offset);
    return -1;
}

/* The entry state of the block at bc index `k`, given the stack arriving there (the first
 * `depth` slots of b->stack); creates the block and queues it on first arrival. */
static entry_state *arrive(builder *b, int k, int depth) {
    entry_state *e = &b->entry[k];
    if (e->started) {
        if (e->depth != depth) {
            PyErr_Format(PyExc_SystemError, "cujit: inconsistent stack depth at offset %d",
                         b->bc.ins[k].offset);
            return NULL;
        }
        return e;
    }
    e->started = 1;
    e->depth = depth;
    e->block = cj_ir_new_block(b->ir, b->bc.ins[k].offset);
    e->slots = cj_arena_alloc(&b->ir->arena, sizeof(int) * (size_t)(depth + 1));
    if (e->block < 0 || e->slots == NULL) {
        return NULL;
    }
    for (int i = 0; i < depth; i++) {
        if (b->stack[i] == CJ_NULL) {
            e->slots[i] = CJ_NULL;
            continue;
        }
        char name[48];
        PyOS_snprintf(name, sizeof(name), "$phi%d.%d", b->bc.ins[k].offset, i);
        e->slots[i] = cj_ir_new_var(b->ir, name, b->line);
        if (e->slots[i] < 0) {
            return NULL;
        }
        CJ_VAR(b->ir, e->slots[i])->is_temp = 1;
    }
    b->worklist[b->nwork++] = k;
    return e;
}

/* Emits, in the current block, the copies that carry `depth` stack slots into `e`. */
static int emit_edge_copies(builder *b, const entry_state *e) {
    for (int i = 0; i < e->depth; i++) {
        if (e->slots[i] == CJ_NULL) {
            continue;
        }
        if (b->stack[i] == CJ_NULL) {
            PyErr_SetString(PyExc_SystemError, "cujit: NULL meets a value at a block entry");
            return -1;
        }
        if (emit(b, CJ_I_COPY, e->slots[i], 1, &b->stack[i]) == NULL) {
            return -1;
        }
    }
    return 0;
}

static int has_copies(const entry_state *e) {
    for (int i = 0; i < e->depth; i++) {
        if (e->slots[i] != CJ_NULL) {
            return 1;
        }
    }
    return 0;
}

/* Ends the current block with a jump to the block at `offset`, with `depth` slots live. */
static int jump_to(builder *b, int offset, int depth) {
    int k = bc_index_at(b, offset);
    if (k < 0) {
        return -1;
    }
    entry_state *e = arrive(b, k, depth);
    if (e == NULL || emit_edge_copies(b, e) < 0) {
        return -1;
    }
    cj_instr *in = emit(b, CJ_I_JUMP, -1, 0, NULL);
    if (in == NULL) {
        return -1;
    }
    in->target = e->block;
    return 0;
}

/* The IR block to branch to for an edge into bc `offset` with `depth` live slots: the block
 * itself, or a new edge block holding the copies. */
static int edge_block(builder *b, int offset, int depth) {
    int k = bc_index_at(b, offset);
    if (k < 0) {
        return -1;
    }
    entry_state *e = arrive(b, k, depth);
    if (e == NULL) {
        return -1;
    }
    if (!has_copies(e)) {
        return e->block;
    }
    int saved = b->cur;
    int edge = cj_ir_new_block(b->ir, b->bc.ins[k].offset);
    if (edge < 0) {
        return -1;
    }
    b->cur = edge;
    int rc = emit_edge_copies(b, e);
    cj_instr *in = rc < 0 ? NULL : emit(b, CJ_I_JUMP, -1, 0, NULL);
    b->cur = saved;
    if (in == NULL) {
        return -1;
    }
    in->target = e->block;
    return edge;
}

/* Ends the block with `if cond: goto true_off else goto false_off`, each edge carrying its own
 * number of stack slots (the stack array holds the union). */
static int branch(builder *b, int cond, int true_off, int true_depth, int false_off,
                  int false_depth) {
    int t = edge_block(b, true_off, true_depth);
    int f = t < 0 ? -1 : edge_block(b, false_off, false_depth);
    if (f < 0) {
        return -1;
    }
    cj_instr *in = emit(b, CJ_I_BRANCH, -1, 1, &cond);
    if (in == NULL) {
        return -1;
    }
    in->target = t;
    in->target2 = f;
    return 0;
}

/* ---- names ---- */

static int is_frozen_constant(PyObject *v) {
    return v == Py_None || PyBool_Check(v) || PyLong_Check(v) || PyFloat_Check(v) ||
           PyComplex_Check(v) || PyUnicode_Check(v) || PyTuple_Check(v);
}

/* Pushes a compile-time value: numbers/tuples/strings/None as constants, arrays as read-only
 * constants, anything else as a global object for typing to resolve. */
static int push_value(builder *b, PyObject *v, PyObject *name) {
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
    cj_instr *in = emit_push(b, frozen ? CJ_I_CONST : CJ_I_GLOBAL, 0, NULL);
    if (in == NULL) {
        return -1;
    }
    in->obj = v;
    in->name = name;
    return 0;
}

static int op_LOAD_GLOBAL_name(builder *b, PyObject *name) {
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
    return push_value(b, v, name);
}

/* LOAD_DEREF: a free variable's current cell contents, frozen like a global. */
static int op_LOAD_DEREF(builder *b, const cj_bc *in) {
    PyObject *name = PyObject_CallMethod((PyObject *)b->code, "_varname_from_oparg", "i",
                                         in->arg);
    if (name == NULL) {
        return -1;
    }
    PyObject *freevars = PyObject_GetAttrString((PyObject *)b->code, "co_freevars");
    Py_ssize_t idx = -1;
    if (freevars != NULL) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(freevars); i++) {
            if (PyUnicode_Compare(PyTuple_GET_ITEM(freevars, i), name) == 0) {
                idx = i;
            }
        }
        Py_DECREF(freevars);
    }
    PyObject *closure = PyFunction_GetClosure(b->ir->pyfunc); /* borrowed */
    if (idx < 0 || closure == NULL || idx >= PyTuple_GET_SIZE(closure)) {
        int rc = cj_unsupported_at(b->ir, b->line,
                                   "cujit does not support variables captured by inner "
                                   "functions ('%U')", name);
        Py_DECREF(name);
        return rc;
    }
    PyObject *v = PyCell_GET(PyTuple_GET_ITEM(closure, idx));
    if (v == NULL) {
        cj_ir_error(b->ir, cj_TypingError, b->line,
                    "NameError: free variable '%U' referenced before assignment", name);
        Py_DECREF(name);
        return -1;
    }
    int rc = cj_ir_keep(b->ir, name) ? push_value(b, v, name) : -1;
    Py_DECREF(name);
    return rc;
}

/* ---- opcode handlers (stack effect in the comment) ---- */

/* LOAD_FAST: -> value (a snapshot, so later stores do not change what was loaded) */
static int op_LOAD_FAST(builder *b, const cj_bc *in) {
    int local = b->locals[in->arg];
    return emit_push(b, CJ_I_COPY, 1, &local) ? 0 : -1;
}

/* STORE_FAST: value -> */
static int op_STORE_FAST(builder *b, const cj_bc *in) {
    int v;
    if (pop(b, &v) < 0 || check_value(b, v) < 0) {
        return -1;
    }
    return emit(b, CJ_I_COPY, b->locals[in->arg], 1, &v) ? 0 : -1;
}

/* LOAD_CONST: -> constant */
static int op_LOAD_CONST(builder *b, const cj_bc *in) {
    PyObject *c = PyTuple_GetItem(b->code->co_consts, in->arg); /* borrowed */
    if (c == NULL) {
        return -1;
    }
    cj_instr *i = emit_push(b, CJ_I_CONST, 0, NULL);
    if (i == NULL) {
        return -1;
    }
    i->obj = c;
    return 0;
}

/* LOAD_ATTR (3.12: low bit = method form), LOAD_METHOD (3.11): obj -> [NULL] attr */
static int op_LOAD_ATTR(builder *b, const cj_bc *in, int method, int name_index) {
    PyObject *name = PyTuple_GetItem(b->code->co_names, name_index);
    int obj;
    if (name == NULL || pop(b, &obj) < 0 || check_value(b, obj) < 0) {
        return -1;
    }
    if (method && push(b, CJ_NULL) < 0) {
        return -1;
    }
    cj_instr *i = emit_push(b, CJ_I_GETATTR, 1, &obj);
    if (i == NULL) {
        return -1;
    }
    i->obj = name;
    return 0;
}

/* CALL argc: callable_or_NULL, self_or_callable, args... -> result */
static int op_CALL(builder *b, const cj_bc *in) {
    int argc = in->arg;
    if (argc + 2 > b->sp || argc > CJ_MAX_ARGS - 4) {
        return cj_unsupported_at(b->ir, b->line, "call with %d arguments", argc);
    }
    int args[CJ_MAX_ARGS];
    int first = b->stack[b->sp - argc - 2], second = b->stack[b->sp - argc - 1];
    int n = 0;
    args[n++] = first == CJ_NULL ? second : first;
    if (first != CJ_NULL) {
        args[n++] = second; /* bound form: `second` is the first argument */
    }
    for (int i = 0; i < argc; i++) {
        args[n++] = b->stack[b->sp - argc + i];
    }
    b->sp -= argc + 2;
    for (int i = 0; i < n; i++) {
        if (check_value(b, args[i]) < 0) {
            return -1;
        }
    }
    cj_instr *call = emit_push(b, CJ_I_CALL, n, args);
    if (call == NULL) {
        return -1;
    }
    call->obj = b->kwnames;
    call->index = b->kwnames ? (int)PyTuple_GET_SIZE(b->kwnames) : 0;
    b->kwnames = NULL;
    return 0;
}

static const int nb_to_binop[13] = {CJ_ADD, CJ_AND, CJ_FLOORDIV, CJ_LSHIFT, CJ_MATMUL,
                                    CJ_MUL, CJ_MOD, CJ_OR, CJ_POW, CJ_RSHIFT, CJ_SUB,
                                    CJ_TRUEDIV, CJ_XOR};

/* BINARY_OP op: a, b -> a op b */
static int op_BINARY_OP(builder *b, const cj_bc *in) {
    int ab[2];
    if (in->arg < 0 || in->arg > 25) {
        return cj_unsupported_at(b->ir, b->line, "binary operator #%d", in->arg);
    }
    if (pop(b, &ab[1]) < 0 || pop(b, &ab[0]) < 0 || check_value(b, ab[0]) < 0 ||
        check_value(b, ab[1]) < 0) {
        return -1;
    }
    cj_instr *i = emit_push(b, CJ_I_BINOP, 2, ab);
    if (i == NULL) {
        return -1;
    }
    i->sub = nb_to_binop[in->arg % 13];
    i->flags = in->arg >= 13 ? CJ_F_INPLACE : 0;
    return 0;
}

/* COMPARE_OP / IS_OP / CONTAINS_OP: a, b -> a cmp b */
static int op_compare(builder *b, int cmp) {
    int ab[2];
    if (pop(b, &ab[1]) < 0 || pop(b, &ab[0]) < 0 || check_value(b, ab[0]) < 0 ||
        check_value(b, ab[1]) < 0) {
        return -1;
    }
    cj_instr *i = emit_push(b, CJ_I_COMPARE, 2, ab);
    if (i == NULL) {
        return -1;
    }
    i->sub = cmp;
    return 0;
}

/* UNARY_*: a -> op a */
static int op_unary(builder *b, int unop) {
    int a;
    if (pop(b, &a) < 0 || check_value(b, a) < 0) {
        return -1;
    }
    cj_instr *i = emit_push(b, CJ_I_UNARY, 1, &a);
    if (i == NULL) {
        return -1;
    }
    i->sub = unop;
    return 0;
}

/* pops n values into vals[0..n-1] in stack order */
static int pop_n(builder *b, int n, int *vals) {
    if (n > b->sp) {
        PyErr_SetString(PyExc_SystemError, "cujit: bytecode stack underflow");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        vals[i] = b->stack[b->sp - n + i];
        if (check_value(b, vals[i]) < 0) {
            return -1;
        }
    }
    b->sp -= n;
    return 0;
}

/* BUILD_TUPLE n / BUILD_SLICE n: items... -> tuple/slice */
static int op_build(builder *b, cj_iop op, int n) {
    int vals[256];
    if (n > 256) {
        return cj_unsupported_at(b->ir, b->line, "tuples of more than 256 items");
    }
    if (pop_n(b, n, vals) < 0) {
        return -1;
    }
    return emit_push(b, op, n, vals) ? 0 : -1;
}

/* BINARY_SUBSCR: container, key -> container[key] */
static int op_BINARY_SUBSCR(builder *b) {
    int ck[2];
    if (pop_n(b, 2, ck) < 0) {
        return -1;
    }
    return emit_push(b, CJ_I_GETITEM, 2, ck) ? 0 : -1;
}

/* STORE_SUBSCR: value, container, key -> ; container[key] = value */
static int op_STORE_SUBSCR(builder *b) {
    int vck[3];
    if (pop_n(b, 3, vck) < 0) {
        return -1;
    }
    int args[3] = {vck[1], vck[2], vck[0]};
    return emit(b, CJ_I_SETITEM, -1, 3, args) ? 0 : -1;
}

/* BINARY_SLICE (3.12): container, start, stop -> container[start:stop] */
static int op_BINARY_SLICE(builder *b) {
    int css[3];
    if (pop_n(b, 3, css) < 0) {
        return -1;
    }
    int slice = temp(b);
    if (slice < 0 || emit(b, CJ_I_BUILD_SLICE, slice, 2, &css[1]) == NULL) {
        return -1;
    }
    int args[2] = {css[0], slice};
    return emit_push(b, CJ_I_GETITEM, 2, args) ? 0 : -1;
}

/* STORE_SLICE (3.12): value, container, start, stop -> ; container[start:stop] = value */
static int op_STORE_SLICE(builder *b) {
    int vcss[4];
    if (pop_n(b, 4, vcss) < 0) {
        return -1;
    }
    int slice = temp(b);
    if (slice < 0 || emit(b, CJ_I_BUILD_SLICE, slice, 2, &vcss[2]) == NULL) {
        return -1;
    }
    int args[3] = {vcss[1], slice, vcss[0]};
    return emit(b, CJ_I_SETITEM, -1, 3, args) ? 0 : -1;
}

/* UNPACK_SEQUENCE n: seq -> seq[n-1] ... seq[0] (seq[0] on top) */
static int op_UNPACK_SEQUENCE(builder *b, const cj_bc *in) {
    int seq;
    if (pop(b, &seq) < 0 || check_value(b, seq) < 0) {
        return -1;
    }
    for (int i = in->arg - 1; i >= 0; i--) {
        cj_instr *item = emit_push(b, CJ_I_STATIC_ITEM, 1, &seq);
        if (item == NULL) {
            return -1;
        }
        item->index = i;
        item->sub = in->arg; /* the count the sequence must have */
    }
    return 0;
}

/* FOR_ITER: iter -> iter, value  (or, exhausted: -> and jump past the loop) */
static int op_FOR_ITER(builder *b, const cj_bc *in, int next_offset) {
    int it = b->stack[b->sp - 1];
    int value = temp(b), ok = temp(b);
    if (value < 0 || ok < 0) {
        return -1;
    }
    cj_instr *step = emit(b, CJ_I_ITERNEXT, value, 1, &it);
    if (step == NULL) {
        return -1;
    }
    step->dst2 = ok;
    int exit = in->jump;
    int k = bc_index_at(b, exit);
    if (k < 0) {
        return -1;
    }
    if (b->bc.ins[k].op == CJ_OP_END_FOR) { /* 3.12: the exhausted path skips END_FOR */
        exit = b->bc.ins[k].next;
    }
    if (push(b, value) < 0) {
        return -1;
    }
    return branch(b, ok, next_offset, b->sp, exit, b->sp - 2);
}

/* POP_JUMP_IF_*: cond -> ; the NONE forms test `cond is None` */
static int op_pop_jump(builder *b, const cj_bc *in, int jump_if, int none_test, int next) {
    int v;
    if (pop(b, &v) < 0 || check_value(b, v) < 0) {
        return -1;
    }
    int cond = v;
    if (none_test) { /* cond = (v is None) */
        int none = temp(b);
        cond = temp(b);
        cj_instr *c = (none < 0 || cond < 0) ? NULL : emit(b, CJ_I_CONST, none, 0, NULL);
        if (c == NULL) {
            return -1;
        }
        c->obj = Py_None;
        int args[2] = {v, none};
        cj_instr *cmp = emit(b, CJ_I_COMPARE, cond, 2, args);
        if (cmp == NULL) {
            return -1;
        }
        cmp->sub = CJ_IS;
    }
    if (jump_if) {
        return branch(b, cond, in->jump, b->sp, next, b->sp);
    }
    return branch(b, cond, next, b->sp, in->jump, b->sp);
}

/* JUMP_IF_FALSE_OR_POP / JUMP_IF_TRUE_OR_POP (3.11): cond -> cond (jumped) | - (fell through) */
static int op_jump_or_pop(builder *b, const cj_bc *in, int jump_if, int next) {
    int cond = b->stack[b->sp - 1];
    if (check_value(b, cond) < 0) {
        return -1;
    }
    if (jump_if) {
        return branch(b, cond, in->jump, b->sp, next, b->sp - 1);
    }
    return branch(b, cond, next, b->sp - 1, in->jump, b->sp);
}

/* RETURN_VALUE: value -> (ends the block) */
static int op_RETURN_VALUE(builder *b) {
    int v;
    if (pop(b, &v) < 0 || check_value(b, v) < 0) {
        return -1;
    }
    return emit(b, CJ_I_RETURN, -1, 1, &v) ? 0 : -1;
}

/* RAISE_VARARGS 1: exc -> (ends the block) */
static int op_RAISE_VARARGS(builder *b, const cj_bc *in) {
    if (in->arg != 1) {
        return cj_unsupported_at(b->ir, b->line, in->arg == 0 ? "cujit does not support a "
                                                                "bare 'raise' (re-raise)"
                                                              : "cujit does not support "
                                                                "'raise ... from ...'");
    }
    int v;
    if (pop(b, &v) < 0 || check_value(b, v) < 0) {
        return -1;
    }
    return emit(b, CJ_I_RAISE, -1, 1, &v) ? 0 : -1;
}

static const struct {
    const char *opcode;
    const char *construct;
} unsupported_names[] = {
    {"BUILD_LIST", "lists"}, {"LIST_APPEND", "lists"}, {"LIST_EXTEND", "lists"},
    {"BUILD_SET", "sets"}, {"SET_ADD", "sets"}, {"BUILD_MAP", "dicts"},
    {"BUILD_CONST_KEY_MAP", "dicts"}, {"MAP_ADD", "dicts"}, {"DICT_UPDATE", "dicts"},
    {"MAKE_FUNCTION", "inner functions, lambdas and comprehensions"},
    {"LOAD_CLOSURE", "inner functions, lambdas and comprehensions"},
    {"BEFORE_WITH", "with statements"}, {"PUSH_EXC_INFO", "try/except"},
    {"CHECK_EXC_MATCH", "try/except"}, {"RERAISE", "try/except"},
    {"YIELD_VALUE", "generators (yield)"}, {"RETURN_GENERATOR", "generators (yield)"},
    {"GET_YIELD_FROM_ITER", "generators (yield)"}, {"LOAD_BUILD_CLASS", "class definitions"},
    {"FORMAT_VALUE", "f-strings and string formatting"},
    {"BUILD_STRING", "f-strings and string formatting"},
    {"IMPORT_NAME", "import statements"}, {"STORE_GLOBAL", "assignment to globals"},
    {"STORE_ATTR", "attribute assignment"}, {"DELETE_FAST", "del statements"},
    {"DELETE_SUBSCR", "del statements"}, {"CALL_FUNCTION_EX", "calls with *args or **kwargs"},
    {"STORE_DEREF", "assignment to closure variables"},
    {"LOAD_FAST_AND_CLEAR", "comprehensions"}, {"UNPACK_EX", "starred assignment"},
};

static int op_unsupported(builder *b, const cj_bc *in) {
    for (size_t i = 0; i < sizeof(unsupported_names) / sizeof(unsupported_names[0]); i++) {
        if (strcmp(in->name, unsupported_names[i].opcode) == 0) {
            return cj_unsupported_at(b->ir, b->line, "cujit does not support %s (opcode %s)",
                                     unsupported_names[i].construct, in->name);
        }
    }
    return cj_unsupported_at(b->ir, b->line, "cujit does not support the bytecode %s",
                             in->name);
}

static int ends_block(cj_opcode op) {
    switch (op) {
    case CJ_OP_RETURN_VALUE:
    case CJ_OP_RETURN_CONST:
    case CJ_OP_RAISE_VARARGS:
    case CJ_OP_JUMP_FORWARD:
    case CJ_OP_JUMP_BACKWARD:
    case CJ_OP_JUMP_BACKWARD_NO_INTERRUPT:
        return 1;
    default:
        return 0;
    }
}

/* One instruction; sets *ended when it ended the block (branch, jump, return, raise). */
static int build_one(builder *b, const cj_bc *in, int *ended) {
    int v, w, next = in->next;
    int is311 = PY_VERSION_HEX < 0x030C0000;
    b->line = in->line;
    *ended = 0;
    switch (in->op) {
    case CJ_OP_NOP: /* -> */
    case CJ_OP_RESUME:
    case CJ_OP_CACHE:
    case CJ_OP_PRECALL:
    case CJ_OP_MAKE_CELL:
    case CJ_OP_COPY_FREE_VARS:
    case CJ_OP_EXTENDED_ARG:
        return 0;
    case CJ_OP_POP_TOP: /* v -> */
    case CJ_OP_END_FOR:
        return pop(b, &v);
    case CJ_OP_PUSH_NULL: /* -> NULL */
        return push(b, CJ_NULL);
    case CJ_OP_COPY: /* ... v -> ... v v */
        if (in->arg < 1 || in->arg > b->sp) {
            return cj_unsupported_at(b->ir, b->line, "malformed COPY");
        }
        return push(b, b->stack[b->sp - in->arg]);
    case CJ_OP_SWAP: /* a ... b -> b ... a */
        if (in->arg < 2 || in->arg > b->sp) {
            return cj_unsupported_at(b->ir, b->line, "malformed SWAP");
        }
        v = b->stack[b->sp - 1];
        b->stack[b->sp - 1] = b->stack[b->sp - in->arg];
        b->stack[b->sp - in->arg] = v;
        return 0;
    case CJ_OP_LOAD_CONST:
        return op_LOAD_CONST(b, in);
    case CJ_OP_RETURN_CONST: /* -> (ends the block) */
        *ended = 1;
        return op_LOAD_CONST(b, in) < 0 ? -1 : op_RETURN_VALUE(b);
    case CJ_OP_LOAD_FAST:
    case CJ_OP_LOAD_FAST_CHECK:
        return op_LOAD_FAST(b, in);
    case CJ_OP_STORE_FAST:
        return op_STORE_FAST(b, in);
    case CJ_OP_LOAD_GLOBAL: { /* -> [NULL] global */
        PyObject *name = PyTuple_GetItem(b->code->co_names, in->arg >> 1);
        if (name == NULL || ((in->arg & 1) && push(b, CJ_NULL) < 0)) {
            return -1;
        }
        return op_LOAD_GLOBAL_name(b, name);
    }
    case CJ_OP_LOAD_DEREF:
        return op_LOAD_DEREF(b, in);
    case CJ_OP_LOAD_ATTR:
        return is311 ? op_LOAD_ATTR(b, in, 0, in->arg) : op_LOAD_ATTR(b, in, in->arg & 1,
                                                                      in->arg >> 1);
    case CJ_OP_LOAD_METHOD:
        return op_LOAD_ATTR(b, in, 1, in->arg);
    case CJ_OP_KW_NAMES:
        b->kwnames = PyTuple_GetItem(b->code->co_consts, in->arg);
        return b->kwnames ? 0 : -1;
    case CJ_OP_CALL:
        return op_CALL(b, in);
    case CJ_OP_BINARY_OP:
        return op_BINARY_OP(b, in);
    case CJ_OP_COMPARE_OP:
        w = is311 ? in->arg : in->arg >> 4;
        if (w < 0 || w > 5) {
            return cj_unsupported_at(b->ir, b->line, "comparison #%d", w);
        }
        return op_compare(b, w); /* cmp_op order is CJ_LT..CJ_GE */
    case CJ_OP_IS_OP:
        return op_compare(b, in->arg ? CJ_ISNOT : CJ_IS);
    case CJ_OP_CONTAINS_OP:
        return op_compare(b, in->arg ? CJ_NOTIN : CJ_IN);
    case CJ_OP_UNARY_NEGATIVE:
        return op_unary(b, CJ_NEG);
    case CJ_OP_UNARY_POSITIVE:
        return op_unary(b, CJ_POS);
    case CJ_OP_UNARY_NOT:
        return op_unary(b, CJ_NOT);
    case CJ_OP_UNARY_INVERT:
        return op_unary(b, CJ_INVERT);
    case CJ_OP_CALL_INTRINSIC_1:
        if (in->arg == 5) { /* INTRINSIC_UNARY_POSITIVE */
            return op_unary(b, CJ_POS);
        }
        return cj_unsupported_at(b->ir, b->line, "cujit does not support intrinsic #%d",
                                 in->arg);
    case CJ_OP_BINARY_SUBSCR:
        return op_BINARY_SUBSCR(b);
    case CJ_OP_STORE_SUBSCR:
        return op_STORE_SUBSCR(b);
    case CJ_OP_BINARY_SLICE:
        return op_BINARY_SLICE(b);
    case CJ_OP_STORE_SLICE:
        return op_STORE_SLICE(b);
    case CJ_OP_BUILD_TUPLE:
        return op_build(b, CJ_I_BUILD_TUPLE, in->arg);
    case CJ_OP_BUILD_SLICE:
        return op_build(b, CJ_I_BUILD_SLICE, in->arg);
    case CJ_OP_UNPACK_SEQUENCE:
        return op_UNPACK_SEQUENCE(b, in);
    case CJ_OP_GET_ITER: { /* iterable -> iterator */
        if (pop(b, &v) < 0 || check_value(b, v) < 0) {
            return -1;
        }
        return emit_push(b, CJ_I_GETITER, 1, &v) ? 0 : -1;
    }
    case CJ_OP_FOR_ITER:
        *ended = 1;
        return op_FOR_ITER(b, in, next);
    case CJ_OP_JUMP_FORWARD:
    case CJ_OP_JUMP_BACKWARD:
    case CJ_OP_JUMP_BACKWARD_NO_INTERRUPT:
        *ended = 1;
        return jump_to(b, in->jump, b->sp);
    case CJ_OP_POP_JUMP_IF_FALSE:
    case CJ_OP_POP_JUMP_FORWARD_IF_FALSE:
    case CJ_OP_POP_JUMP_BACKWARD_IF_FALSE:
        *ended = 1;
        return op_pop_jump(b, in, 0, 0, next);
    case CJ_OP_POP_JUMP_IF_TRUE:
    case CJ_OP_POP_JUMP_FORWARD_IF_TRUE:
    case CJ_OP_POP_JUMP_BACKWARD_IF_TRUE:
        *ended = 1;
        return op_pop_jump(b, in, 1, 0, next);
    case CJ_OP_POP_JUMP_IF_NONE:
    case CJ_OP_POP_JUMP_FORWARD_IF_NONE:
    case CJ_OP_POP_JUMP_BACKWARD_IF_NONE:
        *ended = 1;
        return op_pop_jump(b, in, 1, 1, next);
    case CJ_OP_POP_JUMP_IF_NOT_NONE:
    case CJ_OP_POP_JUMP_FORWARD_IF_NOT_NONE:
    case CJ_OP_POP_JUMP_BACKWARD_IF_NOT_NONE:
        *ended = 1;
        return op_pop_jump(b, in, 0, 1, next);
    case CJ_OP_JUMP_IF_FALSE_OR_POP:
        *ended = 1;
        return op_jump_or_pop(b, in, 0, next);
    case CJ_OP_JUMP_IF_TRUE_OR_POP:
        *ended = 1;
        return op_jump_or_pop(b, in, 1, next);
    case CJ_OP_RETURN_VALUE:
        *ended = 1;
        return op_RETURN_VALUE(b);
    case CJ_OP_RAISE_VARARGS:
        *ended = 1;
        return op_RAISE_VARARGS(b, in);
    case CJ_OP_LOAD_ASSERTION_ERROR: /* -> AssertionError */
        return push_value(b, PyExc_AssertionError, NULL);
    case CJ_OP_UNKNOWN:
        break;
    }
    return op_unsupported(b, in);
}

/* Builds the block whose first instruction is bc index `k`. */
static int build_block(builder *b, int k) {
    entry_state *e = &b->entry[k];
    b->cur = e->block;
    b->sp = e->depth;
    memcpy(b->stack, e->slots, sizeof(int) * (size_t)e->depth);
    for (int i = k; i < b->bc.n; i++) {
        const cj_bc *in = &b->bc.ins[i];
        if (i > k && b->leader[i]) { /* fall through into the next block */
            return jump_to(b, in->start, b->sp);
        }
        int ended;
        if (build_one(b, in, &ended) < 0) {
            return -1;
        }
        if (ended) {
            return 0;
        }
    }
    return cj_unsupported_at(b->ir, b->line, "bytecode runs off its end");
}

/* Marks block leaders: jump targets and what follows a branch or block end. */
static int find_leaders(builder *b) {
    b->leader[0] = 1;
    for (int i = 0; i < b->bc.n; i++) {
        const cj_bc *in = &b->bc.ins[i];
        if (in->jump >= 0) {
            int k = bc_index_at(b, in->jump);
            if (k < 0) {
                return -1;
            }
            b->leader[k] = 1;
            if (in->op == CJ_OP_FOR_ITER && b->bc.ins[k].op == CJ_OP_END_FOR && k + 1 < b->bc.n) {
                b->leader[k + 1] = 1;
            }
        }
        if ((in->jump >= 0 || ends_block(in->op)) && i + 1 < b->bc.n) {
            b->leader[i + 1] = 1;
        }
    }
    return 0;
}

static int reject_unsupported_function(cj_func_ir *ir, PyCodeObject *code) {
    if (code->co_flags & (CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR)) {
        return cj_unsupported_at(ir, ir->firstline, "cujit does not support generators "
                                                    "(yield) or coroutines");
    }
    if (code->co_flags & (CO_VARARGS | CO_VARKEYWORDS)) {
        return cj_unsupported_at(ir, ir->firstline,
                                 "cujit does not support *args or **kwargs parameters");
    }
    if (PyBytes_GET_SIZE(code->co_exceptiontable) > 0) {
        return cj_unsupported_at(ir, ir->firstline,
                                 "cujit does not support try/except, with statements or "
                                 "comprehensions");
    }
    if (code->co_argcount + code->co_kwonlyargcount > CJ_MAX_ARGS) {
        return cj_unsupported_at(ir, ir->firstline, "functions of more than %d parameters",
                                 CJ_MAX_ARGS);
    }
    return 0;
}

/* Variables for co_varnames and the ARG instructions that set the parameters. */
static int make_locals(builder *b) {
    PyCodeObject *code = b->code;
    PyObject *names = PyObject_GetAttrString((PyObject *)code, "co_varnames");
    if (names == NULL) {
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    b->locals = cj_arena_alloc(&b->ir->arena, sizeof(int) * (size_t)(n + 1));
    int rc = b->locals ? 0 : -1;
    for (Py_ssize_t i = 0; rc == 0 && i < n; i++) {
        const char *name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, i));
        b->locals[i] = name ? cj_ir_new_var(b->ir, name, b->ir->firstline) : -1;
        rc = b->locals[i] < 0 ? -1 : 0;
    }
    Py_DECREF(names);
    if (rc < 0) {
        return -1;
    }
    b->ir->nargs = code->co_argcount + code->co_kwonlyargcount;
    b->line = b->ir->firstline;
    for (int i = 0; i < b->ir->nargs; i++) {
        cj_instr *in = cj_ir_emit(b->ir, 0, CJ_I_ARG, b->locals[i], 0, NULL, b->line);
        if (in == NULL) {
            return -1;
        }
        in->index = i;
        b->ir->arg_vars[i] = b->locals[i];
    }
    return 0;
}

static int builder_init(builder *b, cj_func_ir *ir, PyObject *pyfunc) {
    memset(b, 0, sizeof(*b));
    b->ir = ir;
    b->code = (PyCodeObject *)PyFunction_GetCode(pyfunc);
    b->globals = PyFunction_GetGlobals(pyfunc);
    b->builtins = PyDict_GetItemString(b->globals, "__builtins__");
    if (b->builtins == NULL) {
        b->builtins = PyEval_GetBuiltins();
    }
    ir->code = b->code;
    ir->firstline = b->code->co_firstlineno;
    ir->filename = PyUnicode_AsUTF8(b->code->co_filename);
    ir->name = PyUnicode_AsUTF8(b->code->co_qualname);
    if (ir->filename == NULL || ir->name == NULL) {
        return -1;
    }
    ir->filename = cj_arena_strdup(&ir->arena, ir->filename);
    ir->name = cj_arena_strdup(&ir->arena, ir->name);
    if (ir->filename == NULL || ir->name == NULL ||
        reject_unsupported_function(ir, b->code) < 0 || cj_decode(&ir->arena, b->code,
                                                                   &b->bc) < 0) {
        return -1;
    }
    int n = b->bc.n + 1;
    b->max_stack = b->code->co_stacksize + 4;
    b->leader = cj_arena_alloc(&ir->arena, sizeof(int) * (size_t)n);
    b->entry = cj_arena_alloc(&ir->arena, sizeof(entry_state) * (size_t)n);
    b->worklist = cj_arena_alloc(&ir->arena, sizeof(int) * (size_t)n);
    b->stack = cj_arena_alloc(&ir->arena, sizeof(int) * (size_t)b->max_stack);
    if (!b->leader || !b->entry || !b->worklist || !b->stack) {
        return -1;
    }
    return 0;
}

cj_func_ir *cj_build_ir(PyObject *pyfunc) {
    if (!PyFunction_Check(pyfunc)) {
        PyErr_Format(PyExc_TypeError, "cujit compiles Python functions, not %.200s",
                     Py_TYPE(pyfunc)->tp_name);
        return NULL;
    }
    cj_func_ir *ir = cj_ir_new(pyfunc);
    if (ir == NULL) {
        return NULL;
    }
    builder b;
    if (builder_init(&b, ir, pyfunc) < 0 || find_leaders(&b) < 0) {
        goto fail;
    }
    /* block 0 holds the parameters and falls into the first bytecode block */
    if (cj_ir_new_block(ir, -1) < 0 || make_locals(&b) < 0) {
        goto fail;
    }
    b.cur = 0;
    b.sp = 0;
    if (jump_to(&b, 0, 0) < 0) {
        goto fail;
    }
    for (int w = 0; w < b.nwork; w++) {
        if (build_block(&b, b.worklist[w]) < 0) {
            goto fail;
        }
    }
    if (cj_version_locals(ir) < 0) {
        goto fail;
    }
    return ir;
fail:
    cj_ir_free(ir);
    return NULL;
}
