/* build_generator.c: the bytecode of generator functions (numba's generators: yield in a
 * compiled function). requires: the builder (build.c); produces: CJ_I_YIELD instructions.
 * RETURN_GENERATOR and the POP_TOP after it make the generator object in CPython: here the
 * generator's call makes its frame (lower/lower_generator.c), so they build nothing. A yield
 * gives back None: send() is not supported (numba's neither), so nothing else arrives. */
#include "frontend/build_internal.h"

/* YIELD_VALUE (3.12: its arg the stack depth, unused): value -> None */
int cj_fe_op_YIELD_VALUE(cj_builder *b, const cj_bc *in) {
    int v;
    if (cj_fe_pop(b, &v) < 0 || cj_fe_check_value(b, v) < 0) {
        return -1;
    }
    if (!b->ir->is_generator || b->outer != NULL) {
        return cj_unsupported_at(b->ir, b->line, "cujit does not support 'yield' here (a "
                                                 "generator expression or inlined code)");
    }
    return cj_fe_emit_push(b, CJ_I_YIELD, 1, &v) ? 0 : -1;
}

/* RETURN_GENERATOR: -> (a stand-in for the generator, popped right after) */
int cj_fe_op_RETURN_GENERATOR(cj_builder *b, const cj_bc *in) {
    return cj_fe_push(b, CJ_NULL);
}

static int is_wrapper_handler(const cj_builder *b, const cj_try_range *r) {
    int k = cj_fe_bc_index_at(b, r->target);
    if (k < 0) {
        PyErr_Clear(); /* not an instruction's start: not the wrapper (reported later) */
        return 0;
    }
    const cj_bc *in = &b->bc.ins[k];
    return in->op == CJ_OP_CALL_INTRINSIC_1 && in->arg == 3; /* INTRINSIC_STOPITERATION_ERROR */
}

void cj_fe_drop_generator_wrapper(cj_builder *b) {
    if (!b->ir->is_generator) {
        return;
    }
    int kept = 0;
    for (int i = 0; i < b->nranges; i++) {
        if (!is_wrapper_handler(b, &b->ranges[i])) {
            b->ranges[kept++] = b->ranges[i];
        }
    }
    b->nranges = kept;
}

/* Generator expressions: `(f(x) for x in it)` is CPython's call of a nested generator
 * function with iter(it); here that function is compiled as a generator of its own (numba
 * turns it into a generator function too), taking the iterator by reference, so the
 * expression must not outlive the function making it (typing/generators.c refuses a return
 * of it). One reading the enclosing function's variables (`sum(i * m for i in r)`) takes
 * their values, read where the expression is made, as a second parameter, a tuple: its code
 * is given co_argcount 2 (it is never run by CPython, only compiled), its function the
 * attribute FREE_PACK, which makes its parameter 1 that tuple and its LOAD_DEREFs items of
 * it; the CALL that follows passes the tuple (cj_fe_genexpr_frees). */
#define FREE_PACK "__cujit_free_pack__"

/* A closure's own free variable `name`: its cell's value, frozen as LOAD_DEREF freezes it
 * (pushed: 1), 0 when it is none, -1 on error. */
static int push_frozen_free(cj_builder *b, PyObject *name) {
    cj_builder *root = b;
    while (root->outer != NULL) {
        root = root->outer;
    }
    PyObject *names = PyObject_GetAttrString((PyObject *)root->code, "co_freevars");
    PyObject *closure = PyFunction_GetClosure(b->ir->pyfunc); /* borrowed */
    Py_ssize_t idx = -1;
    for (Py_ssize_t i = 0; names != NULL && i < PyTuple_GET_SIZE(names); i++) {
        idx = PyUnicode_Compare(PyTuple_GET_ITEM(names, i), name) == 0 ? i : idx;
    }
    Py_XDECREF(names);
    if (names == NULL || idx < 0 || closure == NULL || idx >= PyTuple_GET_SIZE(closure) ||
        PyCell_GET(PyTuple_GET_ITEM(closure, idx)) == NULL) {
        return names == NULL ? -1 : 0;
    }
    PyObject *kept = cj_ir_keep(b->ir, name);
    return kept && cj_fe_push_value(b, PyCell_GET(PyTuple_GET_ITEM(closure, idx)), kept) == 0
               ? 1 : -1;
}

/* The value of the enclosing variable `name` now: a cell's local, an item of this genexpr's
 * own tuple (a genexpr made in a genexpr), a closure's frozen value; -1 when none (no
 * exception) or on error. */
static int free_value(cj_builder *b, PyObject *name) {
    int cell = cj_fe_cell_var(b, name), v = -1;
    if (cell >= 0) {
        v = cj_fe_temp(b);
        return v >= 0 && cj_fe_emit(b, CJ_I_COPY, v, 1, &cell) ? v : -1;
    }
    int pushed = cj_fe_genexpr_free_var(b, name);
    if (pushed == 0) {
        pushed = push_frozen_free(b, name);
    }
    return pushed == 1 && cj_fe_pop(b, &v) == 0 ? v : -1;
}

/* The tuple of the enclosing variables `co` reads, or -1. */
static int free_values(cj_builder *b, PyCodeObject *co) {
    PyObject *names = PyObject_GetAttrString((PyObject *)co, "co_freevars");
    int vals[CJ_MAX_ARGS], n = names ? (int)PyTuple_GET_SIZE(names) : -1;
    for (int i = 0; i < n && i < CJ_MAX_ARGS; i++) {
        if ((vals[i] = free_value(b, PyTuple_GET_ITEM(names, i))) < 0) {
            n = -1;
        }
    }
    Py_XDECREF(names);
    int tuple = n > 0 && n <= CJ_MAX_ARGS && !PyErr_Occurred() ? cj_fe_temp(b) : -1;
    if (tuple >= 0 && cj_fe_emit(b, CJ_I_BUILD_TUPLE, tuple, n, vals) == NULL) {
        return -1;
    }
    return tuple;
}

/* The genexpr's function: its code with two parameters, marked (new reference). */
static PyObject *function_taking_frees(cj_builder *b, PyCodeObject *co) {
    PyObject *replace = PyObject_GetAttrString((PyObject *)co, "replace");
    PyObject *noargs = replace ? PyTuple_New(0) : NULL;
    PyObject *kw = noargs ? Py_BuildValue("{s:i}", "co_argcount", 2) : NULL;
    PyObject *two = kw ? PyObject_Call(replace, noargs, kw) : NULL;
    Py_XDECREF(replace);
    Py_XDECREF(noargs);
    Py_XDECREF(kw);
    PyObject *fn = two ? PyFunction_New(two, b->globals) : NULL;
    Py_XDECREF(two);
    if (fn != NULL && PyObject_SetAttrString(fn, FREE_PACK, Py_True) < 0) {
        Py_CLEAR(fn);
    }
    return fn;
}

int cj_fe_make_genexpr(cj_builder *b, PyCodeObject *co, int has_closure) {
    int frees = -1;
    if (has_closure || co->co_nfreevars > 0) {
        /* a loop variable (co_varnames[1]) gives parameter 1 its slot */
        frees = co->co_nlocals >= 2 && b->ngenexprs < 8 ? free_values(b, co) : -1;
        if (frees < 0) {
            return PyErr_Occurred() ? -1 : cj_unsupported_at(b->ir, b->line,
                "cujit does not support this generator expression reading the enclosing "
                "function's variables (write a generator function taking them as arguments)");
        }
    }
    PyObject *fn = frees >= 0 ? function_taking_frees(b, co)
                              : PyFunction_New((PyObject *)co, b->globals);
    PyObject *cujit = fn ? PyImport_ImportModule("cujit") : NULL;
    PyObject *jitted = cujit ? PyObject_CallMethod(cujit, "njit", "O", fn) : NULL;
    Py_XDECREF(cujit);
    Py_XDECREF(fn);
    if (jitted == NULL) {
        return -1;
    }
    int rc = cj_fe_push_value(b, jitted, co->co_qualname); /* the IR keeps it */
    Py_DECREF(jitted);
    if (rc == 0 && frees >= 0) {
        b->genexpr_fn[b->ngenexprs] = b->stack[b->sp - 1];
        b->genexpr_frees[b->ngenexprs++] = frees;
    }
    return rc;
}

int cj_fe_genexpr_frees(cj_builder *b, int callee) {
    for (int i = 0; i < b->ngenexprs; i++) {
        if (b->genexpr_fn[i] == callee) { /* called: its slot is free again */
            int frees = b->genexpr_frees[i];
            b->ngenexprs--;
            b->genexpr_fn[i] = b->genexpr_fn[b->ngenexprs];
            b->genexpr_frees[i] = b->genexpr_frees[b->ngenexprs];
            return frees;
        }
    }
    return -1;
}

int cj_fe_genexpr_pack_param(cj_builder *b) {
    PyObject *marked = PyObject_GetAttrString(b->ir->pyfunc, FREE_PACK);
    if (marked == NULL) {
        PyErr_Clear(); /* not such a genexpr */
        return 0;
    }
    Py_DECREF(marked);
    b->free_pack = b->ir->nargs == 2 ? cj_fe_temp(b) : -1;
    return b->free_pack >= 0 ? 0 : -1;
}

int cj_fe_genexpr_free_var(cj_builder *b, PyObject *name) {
    cj_builder *root = b;
    while (root->outer != NULL) { /* a comprehension inlined in the genexpr */
        root = root->outer;
    }
    if (root->free_pack < 0) {
        return 0;
    }
    PyObject *names = PyObject_GetAttrString((PyObject *)root->code, "co_freevars");
    if (names == NULL) {
        return -1;
    }
    int idx = -1, n = (int)PyTuple_GET_SIZE(names);
    for (int i = 0; i < n; i++) {
        idx = PyUnicode_Compare(PyTuple_GET_ITEM(names, i), name) == 0 ? i : idx;
    }
    Py_DECREF(names);
    if (idx < 0) {
        return 0;
    }
    cj_instr *item = cj_fe_emit_push(b, CJ_I_STATIC_ITEM, 1, &root->free_pack);
    if (item == NULL) {
        return -1;
    }
    item->index = idx;
    item->sub = n; /* the count the tuple has */
    return 1;
}
