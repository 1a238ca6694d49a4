/* build_try.c: try/except/finally. CPython 3.11+ compiles them to zero-cost handlers: the
 * exception table maps ranges of bytecode to a handler, with the stack depth to keep and
 * whether the handler gets the instruction offset (lasti). cujit splits blocks at the ranges'
 * edges and gives each block its handler (cj_block.handler): compiled code raises by returning
 * a status, and inside a try the lowering branches to the handler block instead. A handler
 * block starts with the kept stack slots (copied at the start of every block of its range, as
 * they cannot change there), the lasti, and the caught exception (CJ_I_CATCH: its status).
 * The handler's own bytecode then runs as it is: PUSH_EXC_INFO, CHECK_EXC_MATCH (a run-time
 * class test), POP_EXCEPT, RERAISE; `finally` falls out of the same rules. A caught exception
 * cannot be bound to a name (`except E as e`), as in numba. 3.12 inlines comprehensions with
 * a handler that restores the iteration variable and re-raises: cujit's comprehensions need no
 * restoring, so such a range takes the handler that covers that re-raise instead. */
#include "frontend/build_internal.h"

#include <string.h>

/* One varint of the table (6 bits a byte, 0x40: more follow); -1 at the end of the bytes. */
static int read_varint(const unsigned char *p, Py_ssize_t n, Py_ssize_t *i, int *out) {
    int v = 0;
    unsigned char byte;
    do {
        if (*i >= n || v > (1 << 24)) {
            return -1;
        }
        byte = p[(*i)++];
        v = (v << 6) | (byte & 63);
    } while (byte & 64);
    *out = v;
    return 0;
}

int cj_fe_read_exception_table(cj_builder *b) {
    PyObject *table = b->code->co_exceptiontable;
    const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(table);
    Py_ssize_t n = PyBytes_GET_SIZE(table), i = 0;
    b->ranges = cj_arena_alloc(&b->ir->arena, sizeof(cj_try_range) * (size_t)(n / 4 + 1));
    if (b->ranges == NULL) {
        return -1;
    }
    while (i < n) {
        int start, size, target, depth_lasti;
        if (read_varint(p, n, &i, &start) < 0 || read_varint(p, n, &i, &size) < 0 ||
            read_varint(p, n, &i, &target) < 0 || read_varint(p, n, &i, &depth_lasti) < 0 ||
            b->nranges >= n / 4 + 1) {
            PyErr_SetString(PyExc_SystemError, "cujit: malformed exception table");
            return -1;
        }
        cj_try_range *r = &b->ranges[b->nranges++];
        r->start = start * 2; /* code units -> bytes */
        r->end = (start + size) * 2;
        r->target = target * 2;
        r->depth = depth_lasti >> 1;
        r->lasti = depth_lasti & 1;
    }
    cj_fe_drop_generator_wrapper(b); /* build_generator.c */
    return 0;
}

static const cj_try_range *range_at(const cj_builder *b, int offset) {
    for (int i = 0; i < b->nranges; i++) {
        if (b->ranges[i].start <= offset && offset < b->ranges[i].end) {
            return &b->ranges[i];
        }
    }
    return NULL;
}

/* Whether range r is a 3.12 comprehension's (its handler begins SWAP, not PUSH_EXC_INFO or
 * a handler's cleanup COPY). */
static int restores_comprehension(const cj_builder *b, const cj_try_range *r) {
    int k = cj_fe_bc_index_at(b, r->target);
    return k >= 0 && b->bc.ins[k].op == CJ_OP_SWAP;
}

/* The range whose handler an exception at `offset` reaches, or NULL; -1 via *err. */
static const cj_try_range *handler_range(const cj_builder *b, int offset) {
    const cj_try_range *r = range_at(b, offset);
    for (int hops = 0; r != NULL && restores_comprehension(b, r) && hops < 64; hops++) {
        r = range_at(b, r->target); /* the range covering its re-raise */
    }
    return r;
}

static int mark_leader(cj_builder *b, int offset) {
    if (offset >= b->bc.code_len) {
        return 0;
    }
    int k = cj_fe_bc_index_at(b, offset);
    if (k < 0) {
        return -1;
    }
    b->leader[k] = 1;
    return 0;
}

int cj_fe_try_leaders(cj_builder *b) {
    for (int i = 0; i < b->nranges; i++) {
        const cj_try_range *r = &b->ranges[i];
        if (restores_comprehension(b, r)) {
            continue; /* its blocks take the covering range's handler: no split needed */
        }
        if (mark_leader(b, r->start) < 0 || mark_leader(b, r->end) < 0 ||
            mark_leader(b, r->target) < 0) {
            return -1;
        }
    }
    return PyErr_Occurred() ? -1 : 0;
}

/* The handler's entry: the kept slots, the lasti and the exception, as fresh entry variables. */
static cj_entry_state *arrive_at_handler(cj_builder *b, const cj_try_range *r) {
    int k = cj_fe_bc_index_at(b, r->target);
    int depth = r->depth + r->lasti + 1;
    if (k < 0 || r->depth > b->sp) {
        return k < 0 ? NULL : (PyErr_SetString(PyExc_SystemError, "cujit: a handler keeps "
                                                                   "more than the stack"),
                               NULL);
    }
    int *stack = cj_arena_alloc(&b->ir->arena, sizeof(int) * (size_t)(depth + 1));
    if (stack == NULL) {
        return NULL;
    }
    memcpy(stack, b->stack, sizeof(int) * (size_t)r->depth);
    for (int i = r->depth; i < depth; i++) {
        if ((stack[i] = cj_fe_temp(b)) < 0) { /* a stand-in: cj_fe_arrive makes fresh ones */
            return NULL;
        }
    }
    cj_entry_state *e = cj_fe_arrive(b, k, depth, stack);
    if (e == NULL) {
        return NULL;
    }
    e->catching = 1;
    e->lasti = r->lasti;
    CJ_VAR(b->ir, e->slots[depth - 1])->caught = 1;
    return e;
}

/* A handler block's first instructions: its lasti slot (never read but by RERAISE's oparg,
 * which cujit ignores) and the caught exception. */
static int start_handler(cj_builder *b, const cj_entry_state *e) {
    if (e->lasti) {
        cj_instr *zero = cj_fe_emit(b, CJ_I_CONST, e->slots[e->depth - 2], 0, NULL);
        if (zero == NULL || (zero->obj = PyLong_FromLong(0)) == NULL ||
            cj_ir_keep(b->ir, zero->obj) == NULL) {
            return -1;
        }
        Py_DECREF(zero->obj); /* the IR keeps it */
    }
    return cj_fe_emit(b, CJ_I_CATCH, e->slots[e->depth - 1], 0, NULL) ? 0 : -1;
}

int cj_fe_enter_try(cj_builder *b, int k, const cj_entry_state *e) {
    if (e->catching && start_handler(b, e) < 0) {
        return -1;
    }
    const cj_try_range *r = b->nranges > 0 ? handler_range(b, b->bc.ins[k].start) : NULL;
    if (r == NULL) { /* outside every range: inlined code takes its call site's handler */
        b->try_handler = b->outer_handler;
        CJ_BLOCK(b->ir, b->cur)->handler = b->try_handler;
        return PyErr_Occurred() ? -1 : 0;
    }
    cj_entry_state *h = arrive_at_handler(b, r);
    if (h == NULL) {
        return -1;
    }
    for (int i = 0; i < r->depth; i++) { /* kept slots: unchanged through the range */
        if (h->slots[i] >= 0 &&
            cj_fe_emit(b, CJ_I_COPY, h->slots[i], 1, &b->stack[i]) == NULL) {
            return -1;
        }
    }
    b->try_handler = h->block;
    CJ_BLOCK(b->ir, b->cur)->handler = h->block;
    return 0;
}

/* PUSH_EXC_INFO: exc -> prev exc; the previous exception is modelled as the caught one (what
 * POP_EXCEPT pops is then dropped) */
int cj_fe_op_PUSH_EXC_INFO(cj_builder *b, const cj_bc *in) {
    int exc;
    if (cj_fe_pop(b, &exc) < 0 || cj_fe_push(b, exc) < 0) {
        return -1;
    }
    return cj_fe_push(b, exc);
}

/* CHECK_EXC_MATCH: exc cls -> exc matched */
int cj_fe_op_CHECK_EXC_MATCH(cj_builder *b, const cj_bc *in) {
    int cls, exc;
    if (cj_fe_pop(b, &cls) < 0 || cj_fe_pop(b, &exc) < 0 || cj_fe_check_value(b, cls) < 0 ||
        cj_fe_push(b, exc) < 0) {
        return -1;
    }
    int args[2] = {exc, cls};
    return cj_fe_emit_push(b, CJ_I_EXC_MATCH, 2, args) ? 0 : -1;
}

/* POP_EXCEPT: prev -> */
int cj_fe_op_POP_EXCEPT(cj_builder *b, const cj_bc *in) {
    int prev;
    return cj_fe_pop(b, &prev);
}

/* RERAISE n: [lasti] exc -> (raises exc again) */
int cj_fe_op_RERAISE(cj_builder *b, const cj_bc *in) {
    int exc;
    b->ended = 1;
    if (cj_fe_pop(b, &exc) < 0) {
        return -1;
    }
    return cj_fe_emit(b, CJ_I_RAISE, -1, 1, &exc) ? 0 : -1;
}

int cj_fe_reraise_current(cj_builder *b) {
    b->ended = 1;
    for (int i = b->sp - 1; i >= 0; i--) { /* the innermost handler's exception */
        if (b->stack[i] >= 0 && CJ_VAR(b->ir, b->stack[i])->caught) {
            return cj_fe_emit(b, CJ_I_RAISE, -1, 1, &b->stack[i]) ? 0 : -1;
        }
    }
    return cj_unsupported_at(b->ir, b->line, "a bare 'raise' outside an except block (no "
                                             "exception to re-raise)");
}

int cj_fe_check_not_caught(cj_builder *b, int v, int local) {
    if (v < 0 || !CJ_VAR(b->ir, v)->caught) {
        return 0;
    }
    return cj_unsupported_at(b->ir, b->line, "Exception object cannot be stored into variable "
                                             "(%s).", CJ_VAR(b->ir, local)->name);
}
