/* build.c: decoded bytecode -> IR: the driver, block discovery and the stack simulation.
 * requires: a plain Python function; produces: cj_func_ir with blocks, variables and lines.
 * Blocks start at jump targets and after branches. The operand stack is simulated per block:
 * a stack slot live across a block boundary becomes an entry variable of the successor, written
 * by copies on each incoming edge. The opcodes' handlers are in build_ops.c. */
#include "frontend/build_internal.h"

#include <stdarg.h>
#include <string.h>

int cj_unsupported_at(const cj_func_ir *ir, int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    cj_ir_errorv(ir, cj_UnsupportedError, line, "", fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- stack ---- */

int cj_fe_push(cj_builder *b, int v) {
    if (b->sp >= b->max_stack) {
        PyErr_SetString(PyExc_SystemError, "cujit: bytecode stack overflow");
        return -1;
    }
    b->stack[b->sp++] = v;
    return 0;
}

int cj_fe_pop(cj_builder *b, int *v) {
    if (b->sp <= 0) {
        PyErr_SetString(PyExc_SystemError, "cujit: bytecode stack underflow");
        return -1;
    }
    *v = b->stack[--b->sp];
    return 0;
}

int cj_fe_temp(cj_builder *b) { return cj_ir_new_temp(b->ir, b->line); }

cj_instr *cj_fe_emit(cj_builder *b, cj_iop op, int dst, int nargs, const int *args) {
    return cj_ir_emit(b->ir, b->cur, op, dst, nargs, args, b->line);
}

cj_instr *cj_fe_emit_push(cj_builder *b, cj_iop op, int nargs, const int *args) {
    int dst = cj_fe_temp(b);
    if (dst < 0) {
        return NULL;
    }
    cj_instr *in = cj_fe_emit(b, op, dst, nargs, args);
    if (in == NULL || cj_fe_push(b, dst) < 0) {
        return NULL;
    }
    return in;
}

int cj_fe_check_value(cj_builder *b, int v) {
    if (cj_fe_is_made(v)) {
        return cj_fe_refuse_made(b); /* build_closure.c */
    }
    if (v < 0) { /* CJ_NULL, or a comprehension's marker used as a value */
        return cj_unsupported_at(b->ir, b->line, "cujit cannot compile this construct "
                                                 "(a NULL reached a value position)");
    }
    return 0;
}

/* ---- blocks and edges ---- */

int cj_fe_bc_index_at(const cj_builder *b, int offset) {
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
 * `depth` slots of `stack`); creates the block and queues it on first arrival. */
cj_entry_state *cj_fe_arrive(cj_builder *b, int k, int depth, const int *stack) {
    cj_entry_state *e = &b->entry[k];
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
        if (cj_fe_is_comprehension(stack[i]) || cj_fe_is_made(stack[i])) {
            e->slots[i] = stack[i]; /* the marker itself: called after what is built here */
            continue;
        }
        if (stack[i] < CJ_NULL) {
            cj_unsupported_at(b->ir, b->line, "a comprehension whose iterable branches "
                                              "(build the iterable first)");
            return NULL;
        }
        if (stack[i] == CJ_NULL) {
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
        CJ_VAR(b->ir, e->slots[i])->caught = CJ_VAR(b->ir, stack[i])->caught;
    }
    b->worklist[b->nwork++] = k;
    return e;
}

/* Emits, in the current block, the copies that carry `depth` stack slots into `e`. */
static int emit_edge_copies(cj_builder *b, const cj_entry_state *e) {
    for (int i = 0; i < e->depth; i++) {
        if (e->slots[i] < 0 ? b->stack[i] != e->slots[i] : b->stack[i] < 0) {
            if (cj_fe_is_made(e->slots[i]) || cj_fe_is_made(b->stack[i])) {
                return cj_fe_refuse_made(b); /* two functions, or one and a value, meet */
            }
            PyErr_SetString(PyExc_SystemError, "cujit: NULL meets a value at a block entry");
            return -1;
        }
        if (e->slots[i] < 0) {
            continue; /* CJ_NULL, a marker */
        }
        if (cj_fe_emit(b, CJ_I_COPY, e->slots[i], 1, &b->stack[i]) == NULL) {
            return -1;
        }
    }
    return 0;
}

static int has_copies(const cj_entry_state *e) {
    for (int i = 0; i < e->depth; i++) {
        if (e->slots[i] >= 0) {
            return 1;
        }
    }
    return 0;
}

int cj_fe_jump_to(cj_builder *b, int offset, int depth) {
    int k = cj_fe_bc_index_at(b, offset);
    if (k < 0) {
        return -1;
    }
    cj_entry_state *e = cj_fe_arrive(b, k, depth, b->stack);
    if (e == NULL || emit_edge_copies(b, e) < 0) {
        return -1;
    }
    cj_instr *in = cj_fe_emit(b, CJ_I_JUMP, -1, 0, NULL);
    if (in == NULL) {
        return -1;
    }
    in->target = e->block;
    return 0;
}

/* The IR block to branch to for an edge into bc `offset` with `depth` live slots: the block
 * itself, or a new edge block holding the copies. */
static int edge_block(cj_builder *b, int offset, int depth) {
    int k = cj_fe_bc_index_at(b, offset);
    if (k < 0) {
        return -1;
    }
    cj_entry_state *e = cj_fe_arrive(b, k, depth, b->stack);
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
    CJ_BLOCK(b->ir, edge)->handler = b->try_handler; /* its source's (only copies here) */
    b->cur = edge;
    int rc = emit_edge_copies(b, e);
    cj_instr *in = rc < 0 ? NULL : cj_fe_emit(b, CJ_I_JUMP, -1, 0, NULL);
    b->cur = saved;
    if (in == NULL) {
        return -1;
    }
    in->target = e->block;
    return edge;
}

int cj_fe_branch(cj_builder *b, int cond, int true_off, int true_depth, int false_off,
                 int false_depth) {
    int t = edge_block(b, true_off, true_depth);
    int f = t < 0 ? -1 : edge_block(b, false_off, false_depth);
    if (f < 0) {
        return -1;
    }
    cj_instr *in = cj_fe_emit(b, CJ_I_BRANCH, -1, 1, &cond);
    if (in == NULL) {
        return -1;
    }
    in->target = t;
    in->target2 = f;
    return 0;
}

/* The opcodes after which control never falls through (find_leaders). */
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

/* Builds the block whose first instruction is bc index `k`. */
static int build_block(cj_builder *b, int k) {
    cj_entry_state *e = &b->entry[k];
    b->cur = e->block;
    b->sp = e->depth;
    memcpy(b->stack, e->slots, sizeof(int) * (size_t)e->depth);
    if (cj_fe_enter_try(b, k, e) < 0) { /* build_try.c */
        return -1;
    }
    for (int i = k; i < b->bc.n; i++) {
        const cj_bc *in = &b->bc.ins[i];
        if (i > k && b->leader[i]) { /* fall through into the next block */
            return cj_fe_jump_to(b, in->start, b->sp);
        }
        if (cj_fe_build_instr(b, in) < 0) {
            return -1;
        }
        if (b->ended) {
            return 0;
        }
    }
    return cj_unsupported_at(b->ir, b->line, "bytecode runs off its end");
}

/* Marks block leaders: jump targets and what follows a branch or block end. */
int cj_fe_find_leaders(cj_builder *b) {
    b->leader[0] = 1;
    if (cj_fe_try_leaders(b) < 0) { /* build_try.c: where try ranges start and end */
        return -1;
    }
    for (int i = 0; i < b->bc.n; i++) {
        const cj_bc *in = &b->bc.ins[i];
        if (in->jump >= 0) {
            int k = cj_fe_bc_index_at(b, in->jump);
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
    if (code->co_flags & (CO_COROUTINE | CO_ASYNC_GENERATOR)) {
        return cj_unsupported_at(ir, ir->firstline, "cujit does not support coroutines or "
                                                    "asynchronous generators");
    }
    ir->is_generator = (code->co_flags & CO_GENERATOR) != 0; /* build_generator.c */
    if (code->co_flags & CO_VARKEYWORDS) {
        return cj_unsupported_at(ir, ir->firstline, "cujit does not support **kwargs parameters");
    }
    if (code->co_argcount + code->co_kwonlyargcount + 1 > CJ_MAX_ARGS) {
        return cj_unsupported_at(ir, ir->firstline, "functions of more than %d parameters",
                                 CJ_MAX_ARGS);
    }
    return 0;
}

/* Variables for co_varnames and the ARG instructions that set the parameters. */
static int make_locals(cj_builder *b) {
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
    /* a *args parameter (a tuple, numba's StarArgTuple) comes last, as in co_varnames */
    b->ir->nargs = code->co_argcount + code->co_kwonlyargcount +
                   ((code->co_flags & CO_VARARGS) != 0);
    b->line = b->ir->firstline;
    if (cj_fe_genexpr_pack_param(b) < 0) { /* build_generator.c */
        return -1;
    }
    for (int i = 0; i < b->ir->nargs; i++) {
        int var = i == 1 && b->free_pack >= 0 ? b->free_pack : b->locals[i];
        cj_instr *in = cj_ir_emit(b->ir, 0, CJ_I_ARG, var, 0, NULL, b->line);
        if (in == NULL) {
            return -1;
        }
        in->index = i;
        b->ir->arg_vars[i] = var;
    }
    return 0;
}

static int builder_init(cj_builder *b, cj_func_ir *ir, PyObject *pyfunc) {
    memset(b, 0, sizeof(*b));
    b->ir = ir;
    b->try_handler = -1;
    b->outer_handler = -1;
    b->free_pack = -1;
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
        reject_unsupported_function(ir, b->code) < 0) {
        return -1;
    }
    return cj_fe_setup(b) < 0 || cj_fe_read_exception_table(b) < 0 ? -1 : 0; /* build_try.c */
}

int cj_fe_setup(cj_builder *b) {
    cj_func_ir *ir = b->ir;
    if (cj_decode(&ir->arena, b->code, &b->bc) < 0 || cj_fe_scan_function_locals(b) < 0) {
        return -1;
    }
    int n = b->bc.n + 1;
    b->max_stack = b->code->co_stacksize + 4;
    b->leader = cj_arena_alloc(&ir->arena, sizeof(int) * (size_t)n);
    b->entry = cj_arena_alloc(&ir->arena, sizeof(cj_entry_state) * (size_t)n);
    b->worklist = cj_arena_alloc(&ir->arena, sizeof(int) * (size_t)n);
    b->stack = cj_arena_alloc(&ir->arena, sizeof(int) * (size_t)b->max_stack);
    if (!b->leader || !b->entry || !b->worklist || !b->stack) {
        return -1;
    }
    return 0;
}

int cj_fe_build_queued(cj_builder *b) {
    for (int w = 0; w < b->nwork; w++) {
        if (build_block(b, b->worklist[w]) < 0) {
            return -1;
        }
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
    cj_builder b;
    if (builder_init(&b, ir, pyfunc) < 0 || cj_fe_find_leaders(&b) < 0) {
        goto fail;
    }
    /* block 0 holds the parameters and falls into the first bytecode block */
    if (cj_ir_new_block(ir, -1) < 0 || make_locals(&b) < 0 || cj_fe_make_cells(&b) < 0) {
        goto fail;
    }
    b.cur = 0;
    b.sp = 0;
    if (cj_fe_jump_to(&b, 0, 0) < 0 || cj_fe_build_queued(&b) < 0 ||
        cj_version_locals(ir) < 0) {
        goto fail;
    }
    return ir;
fail:
    cj_ir_free(ir);
    return NULL;
}
