/* build_inline.c: list, dict and set comprehensions (MAP_ADD: build_dict.c, SET_ADD:
 * build_set.c). CPython 3.12 inlines them (PEP 709): LOAD_FAST_AND_CLEAR
 * / SWAP / BUILD_LIST / FOR_ITER ... LIST_APPEND / END_FOR, built by the ordinary handlers plus
 * LIST_APPEND here. CPython 3.11 makes a nested code object called with the iterator:
 *     LOAD_CLOSURE.. BUILD_TUPLE  LOAD_CONST <code <listcomp>>  MAKE_FUNCTION  <iterable>
 *     GET_ITER  PRECALL 0  CALL 0
 * whose code is built here inline, into the same IR (numba inlines it too): its `.0` is the
 * iterator, its other locals fresh variables, its free variables the enclosing code's cell
 * variables (which are then ordinary locals: LOAD_DEREF/STORE_DEREF of a cell read and write
 * them), and its RETURN_VALUE jumps back to the instruction after the CALL with the list. */
#include "frontend/build_internal.h"

#include <string.h>

/* The index of `name` in the tuple attribute `attr` of b's code, or -1. */
static Py_ssize_t index_in(const cj_builder *b, const char *attr, PyObject *name) {
    PyObject *names = PyObject_GetAttrString((PyObject *)b->code, attr);
    Py_ssize_t found = -1;
    for (Py_ssize_t i = 0; names != NULL && i < PyTuple_GET_SIZE(names); i++) {
        if (PyUnicode_Compare(PyTuple_GET_ITEM(names, i), name) == 0) {
            found = i;
            break;
        }
    }
    Py_XDECREF(names);
    PyErr_Clear();
    return found;
}

int cj_fe_make_cells(cj_builder *b) {
    PyObject *cells = PyObject_GetAttrString((PyObject *)b->code, "co_cellvars");
    if (cells == NULL) {
        return -1;
    }
    b->ncells = (int)PyTuple_GET_SIZE(cells);
    b->cells = cj_arena_alloc(&b->ir->arena, sizeof(int) * (size_t)(b->ncells + 1));
    int rc = b->cells ? 0 : -1;
    for (int i = 0; rc == 0 && i < b->ncells; i++) {
        PyObject *name = PyTuple_GET_ITEM(cells, i);
        Py_ssize_t local = index_in(b, "co_varnames", name); /* a captured parameter */
        const char *text = PyUnicode_AsUTF8(name);
        b->cells[i] = local >= 0 ? b->locals[local]
                      : text     ? cj_ir_new_var(b->ir, text, b->ir->firstline)
                                 : -1;
        rc = b->cells[i] < 0 ? -1 : 0;
    }
    Py_DECREF(cells);
    return rc;
}

int cj_fe_cell_var(const cj_builder *b, PyObject *name) {
    for (; b != NULL; b = b->outer) {
        Py_ssize_t i = index_in(b, "co_cellvars", name);
        if (i >= 0 && i < b->ncells) {
            return b->cells[i];
        }
    }
    return -1;
}

/* MAKE_FUNCTION flags: [closure] code -> function (3.11: a comprehension's, called next) */
int cj_fe_op_MAKE_FUNCTION(cj_builder *b, const cj_bc *in) {
    int code, closure = CJ_CELL_MARK;
    if (cj_fe_pop(b, &code) < 0 || ((in->arg & 8) && cj_fe_pop(b, &closure) < 0)) {
        return -1;
    }
    PyCodeObject *co = (PyCodeObject *)b->made_code;
    const char *name = co != NULL ? PyUnicode_AsUTF8(co->co_name) : NULL;
    if (code == CJ_CODE_MARK && name != NULL && (name[0] != '<' || !strcmp(name, "<lambda>"))) {
        return cj_fe_make_inner_function(b, in, closure); /* build_closure.c */
    }
    if (code == CJ_CODE_MARK && name != NULL && !strcmp(name, "<genexpr>")) {
        return cj_fe_make_genexpr(b, co, closure != CJ_CELL_MARK || in->arg != 0);
    }
    if (code != CJ_CODE_MARK || closure != CJ_CELL_MARK || (in->arg & ~8) != 0 ||
        name == NULL || (strcmp(name, "<listcomp>") != 0 && strcmp(name, "<dictcomp>") != 0 &&
                         strcmp(name, "<setcomp>") != 0)) {
        PyErr_Clear();
        return cj_unsupported_at(b->ir, b->line, "cujit does not support %s (opcode "
                                 "MAKE_FUNCTION)", name != NULL && name[0] == '<' &&
                                 strcmp(name, "<lambda>") != 0 ? "generator expressions"
                                                               : "inner functions or lambdas");
    }
    if (b->comps == NULL &&
        (b->comps = cj_arena_alloc(&b->ir->arena, sizeof(PyObject *) * (size_t)b->bc.n)) ==
            NULL) {
        return -1;
    }
    if (b->ncomps >= b->bc.n) { /* one MAKE_FUNCTION each: never met, a SystemError if so */
        PyErr_SetString(PyExc_SystemError, "cujit: more comprehensions than instructions");
        return -1;
    }
    b->comps[b->ncomps] = b->made_code;
    b->made_code = NULL;
    return cj_fe_push(b, CJ_COMP_BASE - b->ncomps++);
}

int cj_fe_is_comprehension(int v) { return v <= CJ_COMP_BASE; }

int cj_fe_method_call(cj_builder *b, int obj, const char *name, int arg) {
    PyObject *attr = PyUnicode_InternFromString(name);
    PyObject *kept = attr ? cj_ir_keep(b->ir, attr) : NULL; /* the IR holds it */
    Py_XDECREF(attr);
    int method = kept ? cj_fe_temp(b) : -1;
    cj_instr *get = method < 0 ? NULL : cj_fe_emit(b, CJ_I_GETATTR, method, 1, &obj);
    if (get == NULL) {
        return -1;
    }
    get->obj = kept;
    int args[2] = {method, arg};
    int dst = cj_fe_temp(b);
    return dst >= 0 && cj_fe_emit(b, CJ_I_CALL, dst, 2, args) ? 0 : -1;
}

/* LIST_APPEND i: list ... value -> list ...: list.append(value) */
int cj_fe_op_LIST_APPEND(cj_builder *b, const cj_bc *in) {
    int v;
    if (cj_fe_pop(b, &v) < 0 || cj_fe_check_value(b, v) < 0) {
        return -1;
    }
    if (in->arg < 1 || in->arg > b->sp || cj_fe_check_value(b, b->stack[b->sp - in->arg]) < 0) {
        return PyErr_Occurred() ? -1 : cj_unsupported_at(b->ir, b->line, "malformed LIST_APPEND");
    }
    int star = cj_fe_star_append(b, b->stack[b->sp - in->arg], v); /* g(*t, a) */
    if (star != 0) {
        return star < 0 ? -1 : 0;
    }
    return cj_fe_method_call(b, b->stack[b->sp - in->arg], "append", v);
}

/* DELETE_SUBSCR: obj, index -> : obj.__delitem__(index) (lists: typing/lists.c) */
int cj_fe_op_DELETE_SUBSCR(cj_builder *b, const cj_bc *in) {
    int obj, idx;
    if (cj_fe_pop(b, &idx) < 0 || cj_fe_pop(b, &obj) < 0 || cj_fe_check_value(b, idx) < 0 ||
        cj_fe_check_value(b, obj) < 0) {
        return -1;
    }
    return cj_fe_method_call(b, obj, "__delitem__", idx);
}

/* The comprehension's locals: `.0` is the iterator, the others fresh variables. */
static int inline_locals(cj_builder *inner, int iter) {
    PyObject *names = PyObject_GetAttrString((PyObject *)inner->code, "co_varnames");
    if (names == NULL) {
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    inner->locals = cj_arena_alloc(&inner->ir->arena, sizeof(int) * (size_t)(n + 1));
    int rc = inner->locals ? 0 : -1;
    for (Py_ssize_t i = 0; rc == 0 && i < n; i++) {
        const char *name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, i));
        inner->locals[i] = name == NULL          ? -1
                           : strcmp(name, ".0") == 0 ? iter
                                                     : cj_ir_new_var(inner->ir, name,
                                                                     inner->line);
        rc = inner->locals[i] < 0 ? -1 : 0;
    }
    Py_DECREF(names);
    return rc;
}

void cj_fe_inner_builder(cj_builder *inner, cj_builder *b, PyCodeObject *code, int cont) {
    memset(inner, 0, sizeof(*inner));
    inner->ir = b->ir;
    inner->code = code;
    inner->globals = b->globals;
    inner->builtins = b->builtins;
    inner->outer = b;
    inner->free_pack = -1; /* its function's, if any, is the outermost builder's */
    inner->cont = cont;
    inner->outer_handler = b->try_handler; /* its blocks outside its own try ranges */
    inner->line = b->line;
}

int cj_fe_inline_comprehension(cj_builder *b, int marker, int iter, int cont) {
    cj_builder inner;
    cj_fe_inner_builder(&inner, b, (PyCodeObject *)b->comps[CJ_COMP_BASE - marker], cont);
    if (cj_fe_setup(&inner) < 0 || cj_fe_find_leaders(&inner) < 0 ||
        inline_locals(&inner, iter) < 0 || cj_fe_make_cells(&inner) < 0) {
        return -1;
    }
    inner.cur = b->cur; /* the outer block goes on into the comprehension */
    if (cj_fe_jump_to(&inner, 0, 0) < 0 || cj_fe_build_queued(&inner) < 0) {
        return -1;
    }
    b->ended = 1;
    return 0;
}

int cj_fe_inline_return(cj_builder *b, int v) {
    cj_builder *outer = b->outer;
    if (outer == NULL) {
        return 0;
    }
    if (outer->sp >= outer->max_stack) {
        PyErr_SetString(PyExc_SystemError, "cujit: stack overflow");
        return -1;
    }
    outer->cur = b->cur;
    outer->line = b->line;
    outer->stack[outer->sp] = v;
    return cj_fe_jump_to(outer, b->cont, outer->sp + 1) < 0 ? -1 : 1;
}
