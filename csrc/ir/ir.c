/* ir.c: construction of a function's IR inside its arena. */
#include "ir/ir.h"

#include <string.h>

cj_func_ir *cj_ir_new(PyObject *pyfunc) {
    cj_arena arena;
    cj_arena_init(&arena);
    cj_func_ir *ir = cj_arena_alloc(&arena, sizeof(cj_func_ir));
    if (ir == NULL) {
        return NULL;
    }
    ir->arena = arena;
    ir->keep = PyList_New(0);
    if (ir->keep == NULL) {
        cj_arena_free(&ir->arena);
        return NULL;
    }
    ir->pyfunc = pyfunc;
    return ir;
}

void cj_ir_free(cj_func_ir *ir) {
    if (ir == NULL) {
        return;
    }
    Py_XDECREF(ir->keep);
    cj_arena arena = ir->arena; /* the IR itself lives in its arena */
    cj_arena_free(&arena);
}

PyObject *cj_ir_keep(cj_func_ir *ir, PyObject *obj) {
    if (PyList_Append(ir->keep, obj) < 0) {
        return NULL;
    }
    return obj;
}

int cj_ir_new_var(cj_func_ir *ir, const char *name, int line) {
    cj_var *v = cj_vec_push(&ir->arena, &ir->vars, sizeof(cj_var));
    if (v == NULL) {
        return -1;
    }
    v->name = cj_arena_strdup(&ir->arena, name);
    if (v->name == NULL) {
        return -1;
    }
    v->line = line;
    v->known = -1;
    return ir->vars.len - 1;
}

int cj_ir_new_temp(cj_func_ir *ir, int line) {
    char name[32];
    PyOS_snprintf(name, sizeof(name), "$%d", ir->vars.len);
    int v = cj_ir_new_var(ir, name, line);
    if (v >= 0) {
        CJ_VAR(ir, v)->is_temp = 1;
    }
    return v;
}

int cj_ir_new_block(cj_func_ir *ir, int offset) {
    cj_block *b = cj_vec_push(&ir->arena, &ir->blocks, sizeof(cj_block));
    if (b == NULL) {
        return -1;
    }
    b->offset = offset;
    b->reachable = 1;
    b->handler = -1;
    return ir->blocks.len - 1;
}

cj_instr *cj_ir_emit(cj_func_ir *ir, int b, cj_iop op, int dst, int nargs, const int *args,
                     int line) {
    cj_block *block = CJ_BLOCK(ir, b);
    cj_instr *in = cj_vec_push(&ir->arena, &block->instrs, sizeof(cj_instr));
    if (in == NULL) {
        return NULL;
    }
    in->op = op;
    in->dst = dst;
    in->dst2 = -1;
    in->line = line;
    in->target = in->target2 = -1;
    in->nargs = nargs;
    if (nargs > 0) {
        in->args = cj_arena_alloc(&ir->arena, sizeof(int) * (size_t)nargs);
        if (in->args == NULL) {
            return NULL;
        }
        memcpy(in->args, args, sizeof(int) * (size_t)nargs);
    }
    return in;
}

int cj_instr_is_terminator(const cj_instr *in) {
    return in->op == CJ_I_JUMP || in->op == CJ_I_BRANCH || in->op == CJ_I_RETURN ||
           in->op == CJ_I_RAISE;
}

cj_instr *cj_block_terminator(cj_block *b) {
    if (b->instrs.len == 0) {
        return NULL;
    }
    cj_instr *last = CJ_INSTR(b, b->instrs.len - 1);
    return cj_instr_is_terminator(last) ? last : NULL;
}

cj_instr *cj_ir_first_def(cj_func_ir *ir, int var) {
    for (int b = 0; b < ir->blocks.len; b++) {
        cj_block *blk = CJ_BLOCK(ir, b);
        for (int i = 0; i < blk->instrs.len; i++) {
            if (CJ_INSTR(blk, i)->dst == var) {
                return CJ_INSTR(blk, i);
            }
        }
    }
    return NULL;
}

const char *cj_var_source_name(const cj_var *v, char *buf, size_t size) {
    PyOS_snprintf(buf, size, "%s", v->name);
    for (char *dot = strchr(buf, '.'); dot != NULL; dot = strchr(dot + 1, '.')) {
        if (dot[1] >= '0' && dot[1] <= '9') { /* x.1, and x.1.2 of a versioned copy */
            *dot = 0;
            break;
        }
    }
    return buf;
}
