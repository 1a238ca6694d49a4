/* build_closure.c: inner functions and lambdas called in the body. numba inlines a closure at
 * its calls (inline_closurecall); so does cujit: MAKE_FUNCTION pushes a marker naming the code
 * (kept by the outermost builder), a local it is stored in stands for it, and a CALL of the
 * marker builds the function's code inline, into the same IR, as 3.11's comprehensions are
 * (build_inline.c): its parameters fresh variables given the arguments (or its defaults), its
 * free variables the enclosing code's cell variables, read and written where they live (Python's
 * closures see later assignments, and so do these), its returns jumps back after the CALL with
 * the value. A local that holds a function must get it from one MAKE_FUNCTION only (checked
 * before building: the function is known wherever the local is read). Passed as an argument,
 * it becomes a jitted function (build_funcvalue.c). What is not done says so: functions as
 * other values (returned, stored), recursion, keyword-only parameters,
 * *args, generators. */
#include "frontend/build_internal.h"

#include <string.h>

#define MAX_MADE 64     /* functions made in one compiled function */
#define MAX_INLINE 8    /* nesting of inlined calls (a deeper one is recursion) */

typedef struct made_fn {
    PyCodeObject *code; /* borrowed from co_consts */
    int defaults;       /* the defaults tuple's variable, or -1 */
    int ndefaults;      /* its length */
    PyObject *constant_defaults; /* that tuple when a constant (borrowed from co_consts) */
    int cell;           /* the cell variable holding it (3.11: a comprehension calls it), or -1 */
} made_fn;

static cj_builder *root_of(cj_builder *b) {
    while (b->outer != NULL) {
        b = b->outer;
    }
    return b;
}

int cj_fe_is_made(int v) { return v <= CJ_MADE_BASE && v > CJ_MADE_BASE - MAX_MADE; }

int cj_fe_refuse_made(cj_builder *b) {
    return cj_unsupported_at(b->ir, b->line, "cujit does not support inner functions or "
                                             "lambdas as values (returned or stored): they can "
                                             "be called or passed as arguments");
}

/* How many items the tuple variable `v` just made in the current block has, or -1; `*obj`
 * the tuple itself when a constant. */
static int tuple_length(cj_builder *b, int v, PyObject **obj) {
    cj_block *blk = CJ_BLOCK(b->ir, b->cur);
    for (int i = blk->instrs.len - 1; i >= 0; i--) {
        const cj_instr *in = CJ_INSTR(blk, i);
        if (in->dst == v) {
            *obj = in->op == CJ_I_CONST ? in->obj : NULL;
            return in->op == CJ_I_BUILD_TUPLE                        ? in->nargs
                   : in->op == CJ_I_CONST && PyTuple_Check(in->obj) ? (int)PyTuple_GET_SIZE(in->obj)
                                                                     : -1;
        }
    }
    return -1;
}

/* The marker for a new function of `code` with defaults `defaults` (-1 none). */
static int make(cj_builder *b, PyCodeObject *code, int defaults) {
    cj_builder *root = root_of(b);
    if (root->made == NULL &&
        (root->made = cj_arena_alloc(&b->ir->arena, sizeof(made_fn) * MAX_MADE)) == NULL) {
        return -1;
    }
    if (root->nmade >= MAX_MADE) {
        return cj_unsupported_at(b->ir, b->line, "more than %d inner functions", MAX_MADE);
    }
    made_fn *m = &((made_fn *)root->made)[root->nmade];
    m->code = code;
    m->defaults = defaults;
    m->constant_defaults = NULL;
    m->cell = -1;
    m->ndefaults = defaults >= 0 ? tuple_length(b, defaults, &m->constant_defaults) : 0;
    if (m->ndefaults < 0) {
        return cj_unsupported_at(b->ir, b->line, "inner function defaults that are not a "
                                                 "tuple built in place");
    }
    return cj_fe_push(b, CJ_MADE_BASE - root->nmade++);
}

/* MAKE_FUNCTION flags of an inner function or lambda: [defaults] [closure] code -> marker */
int cj_fe_make_inner_function(cj_builder *b, const cj_bc *in, int closure) {
    PyCodeObject *co = (PyCodeObject *)b->made_code;
    b->made_code = NULL;
    int defaults = -1;
    if ((in->arg & ~9) != 0) {
        return cj_unsupported_at(b->ir, b->line, "inner functions with keyword-only defaults "
                                                 "or annotations");
    }
    if ((in->arg & 1) && (cj_fe_pop(b, &defaults) < 0 || cj_fe_check_value(b, defaults) < 0)) {
        return -1;
    }
    if (co->co_flags & (CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR | CO_VARARGS |
                        CO_VARKEYWORDS) ||
        co->co_kwonlyargcount > 0) {
        return cj_unsupported_at(b->ir, b->line, "inner functions that are generators or take "
                                                 "*args, **kwargs or keyword-only parameters");
    }
    (void)closure; /* its free variables are found by name where the call is built */
    return make(b, co, defaults);
}
/* The marker of the function cell variable `cell` holds, or 0. */
static int cell_function(cj_builder *b, int cell) {
    cj_builder *root = root_of(b);
    for (int k = 0; k < root->nmade; k++) {
        if (((made_fn *)root->made)[k].cell == cell) {
            return CJ_MADE_BASE - k;
        }
    }
    return 0;
}

/* Whether every STORE_DEREF of b's cell `arg` stores a function just made (3.11: the cell of
 * an inner function a comprehension calls): the cell then stands for that function. */
static int cell_holds_functions_only(const cj_builder *b, int arg) {
    for (int i = 0; i < b->bc.n; i++) {
        const cj_bc *in = &b->bc.ins[i];
        if (in->op == CJ_OP_STORE_DEREF && in->arg == arg &&
            (i == 0 || b->bc.ins[i - 1].op != CJ_OP_MAKE_FUNCTION)) {
            return 0;
        }
    }
    return 1;
}

/* STORE_DEREF of inner function `v` into cell variable `cell`: the cell stands for it. */
static int store_function_cell(cj_builder *b, const cj_bc *in, int cell, int v) {
    int bound = cell_function(b, cell);
    if (cell < 0 || !cell_holds_functions_only(b, in->arg)) {
        return cj_unsupported_at(b->ir, b->line, "cujit does not support a closure variable "
                                                 "that holds an inner function and other "
                                                 "values");
    }
    if (bound != 0 && bound != v) {
        return cj_unsupported_at(b->ir, b->line, "cujit does not support a closure variable "
                                                 "assigned two different inner functions");
    }
    ((made_fn *)root_of(b)->made)[CJ_MADE_BASE - v].cell = cell;
    return 0;
}

/* LOAD_DEREF: -> value (a cell variable that comprehensions read, a local here; a free
 * variable's current cell contents, frozen like a global) */
int cj_fe_op_LOAD_DEREF(cj_builder *b, const cj_bc *in) {
    PyObject *name = PyObject_CallMethod((PyObject *)b->code, "_varname_from_oparg", "i",
                                         in->arg);
    if (name == NULL) {
        return -1;
    }
    int cell = cj_fe_cell_var(b, name); /* build_inline.c */
    if (cell >= 0) {
        Py_DECREF(name);
        int fn = cell_function(b, cell); /* an inner function, called where it is read */
        return fn != 0 ? cj_fe_push(b, fn) : cj_fe_emit_push(b, CJ_I_COPY, 1, &cell) ? 0 : -1;
    }
    int packed = cj_fe_genexpr_free_var(b, name); /* build_generator.c */
    if (packed != 0) {
        Py_DECREF(name);
        return packed < 0 ? -1 : 0;
    }
    while (b->outer != NULL) { /* an inlined comprehension's: its function's free variable */
        b = b->outer;
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
    int rc = cj_ir_keep(b->ir, name) ? cj_fe_push_value(b, v, name) : -1;
    Py_DECREF(name);
    return rc;
}

/* STORE_DEREF: value -> (a cell variable, a local that comprehensions read) */
int cj_fe_op_STORE_DEREF(cj_builder *b, const cj_bc *in) {
    PyObject *name = PyObject_CallMethod((PyObject *)b->code, "_varname_from_oparg", "i",
                                         in->arg);
    int v, cell = name ? cj_fe_cell_var(b, name) : -1;
    Py_XDECREF(name);
    if (name == NULL || cj_fe_pop(b, &v) < 0) {
        return -1;
    }
    if (cj_fe_is_made(v)) { /* a comprehension (3.11) or an inner function calls it */
        return store_function_cell(b, in, cell, v);
    }
    if (cell >= 0 && cell_function(b, cell) != 0) {
        return cj_unsupported_at(b->ir, b->line, "cujit does not support a closure variable "
                                                 "that holds an inner function and other "
                                                 "values");
    }
    if (cj_fe_check_value(b, v) < 0) {
        return -1;
    }
    if (cell < 0) {
        return cj_unsupported_at(b->ir, b->line, "cujit does not support assignment to "
                                                 "closure variables");
    }
    return cj_fe_emit(b, CJ_I_COPY, cell, 1, &v) ? 0 : -1;
}

/* ---- locals that hold functions ---- */

enum { PLAIN, HOLDS_FUNCTION, MIXED }; /* fn_binding before the store: then the marker */

int cj_fe_scan_function_locals(cj_builder *b) {
    int n = b->code->co_nlocals; /* co_varnames' length */
    b->fn_binding = cj_arena_alloc(&b->ir->arena, sizeof(int) * (size_t)(n + 1));
    if (b->fn_binding == NULL) {
        return -1;
    }
    memset(b->fn_binding, 0, sizeof(int) * (size_t)(n + 1));
    for (int pass = 0; pass < 2; pass++) { /* the functions' locals, then their other stores */
        for (int i = 0; i < b->bc.n; i++) {
            const cj_bc *in = &b->bc.ins[i];
            if (in->op != CJ_OP_STORE_FAST || in->arg < 0 || in->arg >= n) {
                continue;
            }
            int made = i > 0 && b->bc.ins[i - 1].op == CJ_OP_MAKE_FUNCTION;
            if (pass == 0 && made) {
                b->fn_binding[in->arg] = HOLDS_FUNCTION;
            } else if (pass == 1 && !made && b->fn_binding[in->arg] != PLAIN) {
                b->fn_binding[in->arg] = MIXED;
            }
        }
    }
    return 0;
}

static int name_error(cj_builder *b, int local, const char *what) {
    return cj_unsupported_at(b->ir, b->line, "'%s' %s", CJ_VAR(b->ir, b->locals[local])->name,
                             what);
}

int cj_fe_load_function_local(cj_builder *b, int local) {
    int bound = b->fn_binding[local];
    if (cj_fe_is_made(bound)) {
        return cj_fe_push(b, bound);
    }
    return name_error(b, local, bound == MIXED
                                    ? "holds an inner function and other values: cujit "
                                      "compiles a local that holds one function only"
                                    : "is an inner function used before its definition");
}

int cj_fe_store_function_local(cj_builder *b, int local, int v) {
    int bound = b->fn_binding[local];
    if (bound == PLAIN) {
        return cj_fe_refuse_made(b); /* `g = f`: a function as a value */
    }
    if (bound == MIXED || !cj_fe_is_made(v)) {
        return name_error(b, local, "holds an inner function and other values: cujit "
                                    "compiles a local that holds one function only");
    }
    if (cj_fe_is_made(bound) && bound != v) {
        return name_error(b, local, "is assigned two different inner functions");
    }
    b->fn_binding[local] = v;
    return 0;
}

PyCodeObject *cj_fe_made_code(cj_builder *b, int marker, PyObject **constant_defaults,
                              int *has_defaults) {
    const made_fn *m = &((made_fn *)root_of(b)->made)[CJ_MADE_BASE - marker];
    *constant_defaults = m->constant_defaults;
    *has_defaults = m->defaults >= 0;
    return m->code;
}

/* ---- calls: the function's code inline ---- */

/* Binds the inlined code's parameters (its first locals) to `args` by position then by
 * keyword (`kwnames`, the last of args), the rest to the defaults; copies emitted in b. */
static int bind_parameters(cj_builder *b, cj_builder *inner, const made_fn *m, const int *args,
                           int nargs, PyObject *kwnames) {
    PyCodeObject *co = m->code;
    int nparams = co->co_argcount, nkw = kwnames ? (int)PyTuple_GET_SIZE(kwnames) : 0;
    int npos = nargs - nkw, bound[CJ_MAX_ARGS] = {0};
    if (npos > nparams || nparams > CJ_MAX_ARGS) {
        return cj_unsupported_at(b->ir, b->line, "%U() takes %d positional arguments but %d "
                                 "were given", co->co_name, nparams, npos);
    }
    for (int i = 0; i < nargs; i++) {
        int p = i;
        if (i >= npos) { /* a keyword: its parameter by name */
            PyObject *name = PyTuple_GET_ITEM(kwnames, i - npos);
            for (p = 0; p < nparams; p++) {
                const char *param = CJ_VAR(b->ir, inner->locals[p])->name;
                if (PyUnicode_CompareWithASCIIString(name, param) == 0) {
                    break;
                }
            }
            if (p == nparams || bound[p]) {
                return cj_unsupported_at(b->ir, b->line, "%U() got an unexpected or repeated "
                                         "keyword argument '%U'", co->co_name, name);
            }
        }
        bound[p] = 1;
        if (cj_fe_emit(b, CJ_I_COPY, inner->locals[p], 1, &args[i]) == NULL) {
            return -1;
        }
    }
    for (int p = 0; p < nparams; p++) { /* the rest from the defaults */
        int k = p - (nparams - m->ndefaults);
        if (bound[p]) {
            continue;
        }
        if (k < 0) {
            return cj_unsupported_at(b->ir, b->line, "%U() missing required argument '%s'",
                                     co->co_name, CJ_VAR(b->ir, inner->locals[p])->name);
        }
        cj_instr *item = cj_fe_emit(b, CJ_I_STATIC_ITEM, inner->locals[p], 1, &m->defaults);
        if (item == NULL) {
            return -1;
        }
        item->index = k;
        item->sub = m->ndefaults; /* the tuple's length (typing checks it) */
    }
    return 0;
}

/* Fresh variables for the inlined code's locals. */
static int fresh_locals(cj_builder *inner) {
    PyObject *names = PyCode_GetVarnames(inner->code); /* new */
    Py_ssize_t n = names ? PyTuple_GET_SIZE(names) : 0;
    inner->locals = cj_arena_alloc(&inner->ir->arena, sizeof(int) * (size_t)(n + 1));
    int rc = names && inner->locals ? 0 : -1;
    for (Py_ssize_t i = 0; rc == 0 && i < n; i++) {
        const char *name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, i));
        inner->locals[i] = name ? cj_ir_new_var(inner->ir, name, inner->line) : -1;
        rc = inner->locals[i] < 0 ? -1 : 0;
    }
    Py_XDECREF(names);
    return rc;
}

int cj_fe_inline_call(cj_builder *b, int marker, const int *args, int nargs, int cont) {
    const made_fn *m = &((made_fn *)root_of(b)->made)[CJ_MADE_BASE - marker];
    int depth = 0;
    for (cj_builder *o = b; o != NULL; o = o->outer) {
        depth++;
        if (o->code == m->code) { /* its cell read in its own body */
            return cj_unsupported_at(b->ir, b->line, "cujit does not support inner functions "
                                                     "that call themselves (recursion)");
        }
    }
    if (depth > MAX_INLINE) {
        return cj_unsupported_at(b->ir, b->line, "inner functions nested or recursive more "
                                                 "than %d deep", MAX_INLINE);
    }
    cj_builder inner;
    cj_fe_inner_builder(&inner, b, m->code, cont); /* build_inline.c */
    PyObject *kwnames = b->kwnames;
    b->kwnames = NULL;
    if (cj_fe_setup(&inner) < 0 || cj_fe_read_exception_table(&inner) < 0 ||
        cj_fe_find_leaders(&inner) < 0 || fresh_locals(&inner) < 0 ||
        cj_fe_make_cells(&inner) < 0 || bind_parameters(b, &inner, m, args, nargs, kwnames) < 0) {
        return -1;
    }
    inner.cur = b->cur; /* the calling block goes on into the function */
    if (cj_fe_jump_to(&inner, 0, 0) < 0 || cj_fe_build_queued(&inner) < 0) {
        return -1;
    }
    b->ended = 1;
    return 0;
}
