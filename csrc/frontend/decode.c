/* decode.c: co_code -> version-neutral instructions. The opcode numbers and inline-cache
 * sizes come from one generated table per CPython version (opcodes_3XX.h); the opargs whose
 * encoding changed between versions are rewritten to one form here (neutral_arg), so that
 * nothing after this file asks the Python version. */
#include "frontend/frontend.h"

#include <string.h>

typedef struct opinfo {
    const char *name;
    int caches;
    cj_opcode op;
} opinfo;

#if PY_VERSION_HEX >= 0x030C0000 && PY_VERSION_HEX < 0x030D0000
#define CJ_OPCODE(name, num, cache) [num] = {#name, cache, CJ_OP_UNKNOWN},
static opinfo table[256] = {
#include "frontend/opcodes_312.h"
};
#undef CJ_OPCODE
#elif PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
#define CJ_OPCODE(name, num, cache) [num] = {#name, cache, CJ_OP_UNKNOWN},
static opinfo table[256] = {
#include "frontend/opcodes_311.h"
};
#undef CJ_OPCODE
#else
#error "cujit supports CPython 3.11 and 3.12"
#endif

static const char *const handled_names[] = {
    NULL,
#define CJ_OP_NAME(name) #name,
    CJ_HANDLED_OPS(CJ_OP_NAME)
#undef CJ_OP_NAME
};

/* Fills table[].op once: the neutral opcode of each name this version has. */
static void link_table(void) {
    static int linked;
    if (linked) {
        return;
    }
    for (int i = 0; i < 256; i++) {
        if (table[i].name == NULL) {
            continue;
        }
        for (size_t k = 1; k < sizeof(handled_names) / sizeof(handled_names[0]); k++) {
            if (strcmp(table[i].name, handled_names[k]) == 0) {
                table[i].op = (cj_opcode)k;
                break;
            }
        }
    }
    linked = 1;
}

/* offset/2 -> line, from co_lines(); lines of -1 (artificial) inherit the previous line. */
static int *line_map(cj_arena *arena, PyCodeObject *code, int units) {
    int *lines = cj_arena_alloc(arena, sizeof(int) * (size_t)(units + 1));
    if (lines == NULL) {
        return NULL;
    }
    for (int i = 0; i <= units; i++) {
        lines[i] = code->co_firstlineno;
    }
    PyObject *it = PyObject_CallMethod((PyObject *)code, "co_lines", NULL);
    if (it == NULL) {
        return NULL;
    }
    PyObject *entry;
    PyObject *iter = PyObject_GetIter(it);
    Py_DECREF(it);
    if (iter == NULL) {
        return NULL;
    }
    while ((entry = PyIter_Next(iter)) != NULL) {
        long start, end;
        PyObject *line;
        if (!PyArg_ParseTuple(entry, "llO", &start, &end, &line)) {
            Py_DECREF(entry);
            Py_DECREF(iter);
            return NULL;
        }
        long l = line == Py_None ? -1 : PyLong_AsLong(line);
        for (long off = start; l >= 0 && off < end && off / 2 < units; off += 2) {
            lines[off / 2] = (int)l;
        }
        Py_DECREF(entry);
    }
    Py_DECREF(iter);
    return PyErr_Occurred() ? NULL : lines;
}

static int is_backward_jump(cj_opcode op) {
    return op == CJ_OP_JUMP_BACKWARD || op == CJ_OP_JUMP_BACKWARD_NO_INTERRUPT ||
           op == CJ_OP_POP_JUMP_BACKWARD_IF_FALSE || op == CJ_OP_POP_JUMP_BACKWARD_IF_TRUE ||
           op == CJ_OP_POP_JUMP_BACKWARD_IF_NONE || op == CJ_OP_POP_JUMP_BACKWARD_IF_NOT_NONE;
}

static int is_forward_jump(cj_opcode op) {
    switch (op) {
    case CJ_OP_JUMP_FORWARD:
    case CJ_OP_POP_JUMP_IF_FALSE:
    case CJ_OP_POP_JUMP_IF_TRUE:
    case CJ_OP_POP_JUMP_IF_NONE:
    case CJ_OP_POP_JUMP_IF_NOT_NONE:
    case CJ_OP_POP_JUMP_FORWARD_IF_FALSE:
    case CJ_OP_POP_JUMP_FORWARD_IF_TRUE:
    case CJ_OP_POP_JUMP_FORWARD_IF_NONE:
    case CJ_OP_POP_JUMP_FORWARD_IF_NOT_NONE:
    case CJ_OP_JUMP_IF_FALSE_OR_POP:
    case CJ_OP_JUMP_IF_TRUE_OR_POP:
    case CJ_OP_FOR_ITER:
        return 1;
    default:
        return 0;
    }
}

/* The oparg in the neutral form frontend.h documents: LOAD_ATTR carries (name index << 1) |
 * method flag, as 3.12 encodes it (3.11 has the bare name index; its methods come as
 * LOAD_METHOD); COMPARE_OP carries the bare cmp_op index, as 3.11 encodes it (3.12 keeps the
 * specializer's mask in the low 4 bits). */
static int neutral_arg(cj_opcode op, int arg) {
#if PY_VERSION_HEX < 0x030C0000
    if (op == CJ_OP_LOAD_ATTR) {
        return arg << 1;
    }
#else
    if (op == CJ_OP_COMPARE_OP) {
        return arg >> 4;
    }
#endif
    return arg;
}

int cj_decode(cj_arena *arena, PyCodeObject *code, cj_bytecode *out) {
    link_table();
    PyObject *bytes = PyCode_GetCode(code);
    if (bytes == NULL) {
        return -1;
    }
    const unsigned char *co = (const unsigned char *)PyBytes_AS_STRING(bytes);
    int len = (int)PyBytes_GET_SIZE(bytes);
    int units = len / 2;
    int *lines = line_map(arena, code, units);
    out->ins = cj_arena_alloc(arena, sizeof(cj_bc) * (size_t)(units + 1));
    if (lines == NULL || out->ins == NULL) {
        Py_DECREF(bytes);
        return -1;
    }
    out->n = 0;
    out->code_len = len;
    int ext = 0, start = -1;
    for (int off = 0; off < len; off += 2) {
        const opinfo *info = &table[co[off]];
        int arg = co[off + 1] | ext;
        if (start < 0) {
            start = off;
        }
        if (info->name != NULL && strcmp(info->name, "EXTENDED_ARG") == 0) {
            ext = arg << 8;
            continue;
        }
        cj_bc *bc = &out->ins[out->n++];
        bc->offset = off;
        bc->start = start;
        bc->op = info->op;
        bc->name = info->name ? info->name : "<invalid opcode>";
        bc->arg = neutral_arg(bc->op, arg);
        bc->line = lines[off / 2];
        bc->next = off + 2 + 2 * info->caches;
        bc->jump = -1;
        if (is_forward_jump(bc->op)) {
            bc->jump = bc->next + 2 * arg;
        } else if (is_backward_jump(bc->op)) {
            bc->jump = bc->next - 2 * arg;
        }
        ext = 0;
        start = -1;
        off = bc->next - 2; /* skip the inline caches */
    }
    Py_DECREF(bytes);
    return 0;
}
