/* ir_print.c: the IR as text, for dumps, golden tests and inspect_types. */
#include "ir/ir.h"

#include <string.h>

static const char *const binop_symbols[] = {"+", "-", "*", "/", "//", "%", "**",
                                            "<<", ">>", "&", "|", "^", "@"};
static const char *const cmpop_symbols[] = {"<", "<=", "==", "!=", ">", ">=",
                                            "is", "is not", "in", "not in"};
static const char *const unop_symbols[] = {"-", "+", "~", "not "};

const char *cj_binop_symbol(int op) { return binop_symbols[op]; }
const char *cj_cmpop_symbol(int op) { return cmpop_symbols[op]; }
const char *cj_unop_symbol(int op) { return unop_symbols[op]; }

static const char *vname(const cj_func_ir *ir, int v) {
    return v < 0 ? "NULL" : CJ_VEC_AT(ir->vars, cj_var, v).name;
}

/* "a, b, c" of the instruction's args from `first` on */
static PyObject *arg_list(const cj_func_ir *ir, const cj_instr *in, int first) {
    PyObject *parts = PyList_New(0);
    if (parts == NULL) {
        return NULL;
    }
    for (int i = first; i < in->nargs; i++) {
        PyObject *s = PyUnicode_FromString(vname(ir, in->args[i]));
        if (s == NULL || PyList_Append(parts, s) < 0) {
            Py_XDECREF(s);
            Py_DECREF(parts);
            return NULL;
        }
        Py_DECREF(s);
    }
    PyObject *sep = PyUnicode_FromString(", ");
    PyObject *joined = sep ? PyUnicode_Join(sep, parts) : NULL;
    Py_XDECREF(sep);
    Py_DECREF(parts);
    return joined;
}

/* The right-hand side of an instruction (new reference). */
static PyObject *format_rhs(const cj_func_ir *ir, const cj_instr *in) {
    const int *a = in->args;
    switch (in->op) {
    case CJ_I_CONST:
        return PyUnicode_FromFormat("const(%s, %R)", Py_TYPE(in->obj)->tp_name, in->obj);
    case CJ_I_ARG:
        return PyUnicode_FromFormat("arg(%d, name=%s)", in->index, vname(ir, in->dst));
    case CJ_I_GLOBAL:
        return PyUnicode_FromFormat("global(%R)", in->obj);
    case CJ_I_COPY:
        return PyUnicode_FromString(vname(ir, a[0]));
    case CJ_I_BINOP:
        return PyUnicode_FromFormat("%s %s%s %s", vname(ir, a[0]), binop_symbols[in->sub],
                                    (in->flags & CJ_F_INPLACE) ? "=" : "", vname(ir, a[1]));
    case CJ_I_UNARY:
        return PyUnicode_FromFormat("%s%s", unop_symbols[in->sub], vname(ir, a[0]));
    case CJ_I_COMPARE:
        return PyUnicode_FromFormat("%s %s %s", vname(ir, a[0]), cmpop_symbols[in->sub],
                                    vname(ir, a[1]));
    case CJ_I_TRUTH:
        return PyUnicode_FromFormat("bool(%s)", vname(ir, a[0]));
    case CJ_I_CALL: {
        PyObject *args = arg_list(ir, in, 1);
        if (args == NULL) {
            return NULL;
        }
        PyObject *r = in->obj && in->obj != Py_None
                          ? PyUnicode_FromFormat("call %s(%U, kws=%R)", vname(ir, a[0]), args,
                                                 in->obj)
                          : PyUnicode_FromFormat("call %s(%U)", vname(ir, a[0]), args);
        Py_DECREF(args);
        return r;
    }
    case CJ_I_GETATTR:
        return PyUnicode_FromFormat("getattr(%s, %U)", vname(ir, a[0]), in->obj);
    case CJ_I_GETITEM:
        return PyUnicode_FromFormat("getitem(%s, %s)", vname(ir, a[0]), vname(ir, a[1]));
    case CJ_I_SETITEM:
        return PyUnicode_FromFormat("setitem(%s, %s, %s)", vname(ir, a[0]), vname(ir, a[1]),
                                    vname(ir, a[2]));
    case CJ_I_BUILD_TUPLE:
    case CJ_I_BUILD_SLICE: {
        PyObject *args = arg_list(ir, in, 0);
        if (args == NULL) {
            return NULL;
        }
        PyObject *r = PyUnicode_FromFormat(in->op == CJ_I_BUILD_SLICE ? "slice(%U)"
                                           : in->flags & CJ_F_DICT    ? "build_map(%U)"
                                           : in->flags & CJ_F_SET     ? "build_set(%U)"
                                                                      : "build_tuple(%U)",
                                           args);
        Py_DECREF(args);
        return r;
    }
    case CJ_I_STATIC_ITEM:
        return PyUnicode_FromFormat("static_getitem(%s, %d)", vname(ir, a[0]), in->index);
    case CJ_I_GETITER:
        return PyUnicode_FromFormat("getiter(%s)", vname(ir, a[0]));
    case CJ_I_ITERNEXT:
        return PyUnicode_FromFormat("iternext(%s)", vname(ir, a[0]));
    case CJ_I_CATCH:
        return PyUnicode_FromString("catch");
    case CJ_I_EXC_MATCH:
        return PyUnicode_FromFormat("exception_match(%s, %s)", vname(ir, a[0]), vname(ir, a[1]));
    case CJ_I_YIELD:
        return PyUnicode_FromFormat("yield %s", vname(ir, a[0]));
    case CJ_I_JUMP:
        return PyUnicode_FromFormat("jump %d", in->target);
    case CJ_I_BRANCH:
        return PyUnicode_FromFormat("branch %s, %d, %d", vname(ir, a[0]), in->target,
                                    in->target2);
    case CJ_I_RETURN:
        return PyUnicode_FromFormat("return %s", vname(ir, a[0]));
    case CJ_I_RAISE:
        return PyUnicode_FromFormat("raise %s", vname(ir, a[0]));
    }
    return PyUnicode_FromString("?");
}

/* One instruction as a line: "dst = rhs  :: type" (new reference). */
static PyObject *format_instr(const cj_func_ir *ir, const cj_instr *in, int typed) {
    PyObject *rhs = format_rhs(ir, in);
    if (rhs == NULL) {
        return NULL;
    }
    PyObject *line;
    if (in->dst >= 0) {
        const cj_var *v = &CJ_VEC_AT(ir->vars, cj_var, in->dst);
        if (in->dst2 >= 0) {
            line = PyUnicode_FromFormat("%s, %s = %U", v->name, vname(ir, in->dst2), rhs);
        } else {
            line = PyUnicode_FromFormat("%s = %U", v->name, rhs);
        }
        if (line != NULL && typed && v->type != NULL) {
            Py_ssize_t len = PyUnicode_GetLength(line);
            char pad[41];
            int n = len < 40 ? (int)(40 - len) : 1;
            memset(pad, ' ', (size_t)n);
            pad[n] = 0;
            PyObject *t = PyUnicode_FromFormat("%U%s :: %s", line, pad, v->type->name);
            Py_DECREF(line);
            line = t;
        }
    } else {
        Py_INCREF(rhs);
        line = rhs;
    }
    Py_DECREF(rhs);
    return line;
}

static int append(PyObject *list, PyObject *s) { /* steals s */
    if (s == NULL) {
        return -1;
    }
    int rc = PyList_Append(list, s);
    Py_DECREF(s);
    return rc;
}

static PyObject *join_lines(PyObject *lines) {
    PyObject *nl = PyUnicode_FromString("\n");
    PyObject *text = nl ? PyUnicode_Join(nl, lines) : NULL;
    Py_XDECREF(nl);
    Py_DECREF(lines);
    return text;
}

PyObject *cj_ir_dump(const cj_func_ir *ir, int typed) {
    PyObject *lines = PyList_New(0);
    if (lines == NULL) {
        return NULL;
    }
    for (int b = 0; b < ir->blocks.len; b++) {
        const cj_block *block = &CJ_VEC_AT(ir->blocks, cj_block, b);
        char handler[32] = "";
        if (block->handler >= 0) {
            PyOS_snprintf(handler, sizeof(handler), " [except -> %d]", block->handler);
        }
        if (append(lines, PyUnicode_FromFormat("label %d (offset %d)%s%s:", b, block->offset,
                                               handler, block->reachable ? "" : " [pruned]")) < 0) {
            goto fail;
        }
        for (int i = 0; i < block->instrs.len; i++) {
            PyObject *s = format_instr(ir, &CJ_VEC_AT(block->instrs, cj_instr, i), typed);
            if (append(lines, s ? PyUnicode_FromFormat("    %U", s) : NULL) < 0) {
                Py_XDECREF(s);
                goto fail;
            }
            Py_DECREF(s);
        }
    }
    return join_lines(lines);
fail:
    Py_DECREF(lines);
    return NULL;
}


static int last_line(const cj_func_ir *ir) {
    int last = ir->firstline;
    for (int b = 0; b < ir->blocks.len; b++) {
        const cj_block *block = &CJ_VEC_AT(ir->blocks, cj_block, b);
        for (int i = 0; i < block->instrs.len; i++) {
            int l = CJ_VEC_AT(block->instrs, cj_instr, i).line;
            last = l > last ? l : last;
        }
    }
    return last;
}

/* Appends, as comments, the typed instructions of `lineno`. */
static int annotate_line(const cj_func_ir *ir, PyObject *lines, int lineno) {
    for (int b = 0; b < ir->blocks.len; b++) {
        const cj_block *block = &CJ_VEC_AT(ir->blocks, cj_block, b);
        for (int i = 0; i < block->instrs.len; i++) {
            const cj_instr *in = &CJ_VEC_AT(block->instrs, cj_instr, i);
            if (in->line != lineno) {
                continue;
            }
            PyObject *s = format_instr(ir, in, 1);
            if (append(lines, s ? PyUnicode_FromFormat("    #   %U", s) : NULL) < 0) {
                Py_XDECREF(s);
                return -1;
            }
            Py_DECREF(s);
        }
    }
    return 0;
}

PyObject *cj_ir_annotate(const cj_func_ir *ir, const char *signature) {
    PyObject *lines = PyList_New(0);
    if (lines == NULL) {
        return NULL;
    }
    if (append(lines, PyUnicode_FromString(signature)) < 0 ||
        append(lines, PyUnicode_FromString(
                          "--------------------------------------------------------------"
                          "------------------")) < 0 ||
        append(lines, PyUnicode_FromFormat("# File: %s", ir->filename)) < 0) {
        goto fail;
    }
    int last = last_line(ir);
    for (int l = ir->firstline; l <= last; l++) {
        if (append(lines, PyUnicode_FromFormat("# --- LINE %d --- ", l)) < 0 ||
            annotate_line(ir, lines, l) < 0 || append(lines, cj_ir_source_line(ir, l, "rstrip")) < 0) {
            goto fail;
        }
    }
    return join_lines(lines);
fail:
    Py_DECREF(lines);
    return NULL;
}
