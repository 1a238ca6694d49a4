/* frontend: CPython bytecode -> cujit IR. decode.c turns co_code into version-neutral
 * instructions (one opcode table per CPython version, opargs rewritten to one form); build.c
 * finds the blocks, simulates the stack and emits IR with source lines, through one handler per
 * opcode in build_ops.c. Everything after decode.c is version-neutral. */
#ifndef CJ_FRONTEND_H
#define CJ_FRONTEND_H

#include "ir/ir.h"

/* The opcodes the frontend knows, by name; everything else is unsupported. */
#define CJ_HANDLED_OPS(X)                                                                     \
    X(NOP) X(RESUME) X(CACHE) X(EXTENDED_ARG) X(POP_TOP) X(PUSH_NULL) X(COPY) X(SWAP)         \
    X(LOAD_CONST) X(RETURN_CONST) X(LOAD_FAST) X(LOAD_FAST_CHECK) X(STORE_FAST)               \
    X(LOAD_GLOBAL) X(LOAD_DEREF) X(COPY_FREE_VARS) X(LOAD_ATTR) X(LOAD_METHOD) X(PRECALL)     \
    X(KW_NAMES) X(CALL) X(BINARY_OP) X(COMPARE_OP) X(IS_OP) X(CONTAINS_OP) X(UNARY_NEGATIVE)  \
    X(UNARY_POSITIVE) X(UNARY_NOT) X(UNARY_INVERT) X(CALL_INTRINSIC_1) X(BINARY_SUBSCR)       \
    X(STORE_SUBSCR) X(STORE_ATTR) X(BINARY_SLICE) X(STORE_SLICE) X(BUILD_TUPLE)               \
    X(BUILD_SLICE) X(UNPACK_SEQUENCE) X(GET_ITER) X(FOR_ITER) X(END_FOR) X(JUMP_FORWARD)      \
    X(JUMP_BACKWARD) X(JUMP_BACKWARD_NO_INTERRUPT) X(POP_JUMP_IF_FALSE) X(POP_JUMP_IF_TRUE)   \
    X(POP_JUMP_IF_NONE) X(POP_JUMP_IF_NOT_NONE) X(POP_JUMP_FORWARD_IF_FALSE)                  \
    X(POP_JUMP_FORWARD_IF_TRUE) X(POP_JUMP_FORWARD_IF_NONE) X(POP_JUMP_FORWARD_IF_NOT_NONE)   \
    X(POP_JUMP_BACKWARD_IF_FALSE) X(POP_JUMP_BACKWARD_IF_TRUE) X(POP_JUMP_BACKWARD_IF_NONE)   \
    X(POP_JUMP_BACKWARD_IF_NOT_NONE) X(JUMP_IF_FALSE_OR_POP) X(JUMP_IF_TRUE_OR_POP)           \
    X(RETURN_VALUE) X(RAISE_VARARGS) X(LOAD_ASSERTION_ERROR) X(MAKE_CELL) X(BUILD_LIST)       \
    X(LIST_EXTEND) X(MAKE_FUNCTION) X(LOAD_CLOSURE) X(STORE_DEREF) X(LIST_APPEND)             \
    X(LOAD_FAST_AND_CLEAR) X(DELETE_SUBSCR) X(PUSH_EXC_INFO) X(CHECK_EXC_MATCH) X(POP_EXCEPT)   \
    X(RERAISE) X(FORMAT_VALUE) X(BUILD_STRING) X(BUILD_MAP) X(BUILD_CONST_KEY_MAP) X(MAP_ADD) \
    X(BUILD_SET) X(SET_ADD) X(SET_UPDATE) X(YIELD_VALUE) X(RETURN_GENERATOR)                  \
    X(CALL_FUNCTION_EX) X(LIST_TO_TUPLE)

typedef enum cj_opcode {
    CJ_OP_UNKNOWN = 0,
#define CJ_OP_ENUM(name) CJ_OP_##name,
    CJ_HANDLED_OPS(CJ_OP_ENUM)
#undef CJ_OP_ENUM
} cj_opcode;

/* One decoded instruction. */
typedef struct cj_bc {
    int offset;       /* byte offset of the opcode (after its EXTENDED_ARGs) */
    int start;        /* byte offset of its first EXTENDED_ARG, the jump-target address */
    int next;         /* byte offset of the next instruction (after inline caches) */
    cj_opcode op;
    const char *name; /* CPython's name, for messages */
    int arg;          /* with EXTENDED_ARG folded in, version-neutral (decode.c): LOAD_ATTR
                       * (name index << 1) | method, COMPARE_OP the cmp_op index */
    int line;
    int jump;         /* byte offset of the jump target, or -1 */
} cj_bc;

typedef struct cj_bytecode {
    cj_bc *ins;       /* arena */
    int n;
    int code_len;     /* bytes */
} cj_bytecode;

/* ---- decode.c ---- */
/* Decodes `code` into `out` (arena-allocated); -1 with an exception on failure. */
int cj_decode(cj_arena *arena, PyCodeObject *code, cj_bytecode *out);

/* ---- build.c (blocks, stack, driver) and build_ops.c (the opcode handlers) ---- */
/* The IR of a Python function (plain function, not a generator/coroutine). NULL with
 * UnsupportedError/TypingError/... set on failure. The caller frees it with cj_ir_free. */
cj_func_ir *cj_build_ir(PyObject *pyfunc);

/* Raises UnsupportedError naming the construct, with "File ..., line n" (returns NULL/-1). */
int cj_unsupported_at(const cj_func_ir *ir, int line, const char *fmt, ...);

#endif
