/* build_internal.h: what build.c (blocks, stack simulation, the driver) and build_ops.c (one
 * handler per opcode) share: the builder's state and its stack and edge primitives.
 * Frontend-private; nothing outside csrc/frontend includes it. */
#ifndef CJ_BUILD_INTERNAL_H
#define CJ_BUILD_INTERNAL_H

#include "frontend/frontend.h"

#define CJ_NULL (-1) /* a NULL pushed for the call protocol */

typedef struct cj_entry_state {
    int started;   /* an IR block exists and its entry stack is fixed */
    int block;     /* IR block */
    int depth;
    int *slots;    /* entry variable per stack slot, or CJ_NULL */
} cj_entry_state;

typedef struct cj_builder {
    cj_func_ir *ir;
    cj_bytecode bc;
    int *leader;          /* per bc index: 1 if a block starts there */
    cj_entry_state *entry; /* per bc index (only leaders used) */
    int *worklist;
    int nwork;
    int *stack;
    int sp;
    int max_stack;
    int cur;              /* current IR block */
    int line;
    int ended;            /* set by a handler that ended the block (branch, jump, return) */
    PyObject *kwnames;    /* borrowed from co_consts: names for the next CALL */
    int *locals;          /* co_varnames index -> variable */
    PyObject *globals;    /* borrowed */
    PyObject *builtins;   /* borrowed */
    PyCodeObject *code;
} cj_builder;

/* ---- build.c: the stack (-1 with SystemError on over/underflow) ---- */
int cj_fe_push(cj_builder *b, int v);
int cj_fe_pop(cj_builder *b, int *v);
/* A fresh temporary at the current line. */
int cj_fe_temp(cj_builder *b);
/* Emits into the current block at the current line. */
cj_instr *cj_fe_emit(cj_builder *b, cj_iop op, int dst, int nargs, const int *args);
/* Pushes the result of a fresh instruction with `nargs` args; returns the instruction. */
cj_instr *cj_fe_emit_push(cj_builder *b, cj_iop op, int nargs, const int *args);
/* UnsupportedError when a call-protocol NULL reaches a value position. */
int cj_fe_check_value(cj_builder *b, int v);

/* ---- build.c: blocks and edges ---- */
/* The bc index of the instruction at byte `offset` (SystemError if none). */
int cj_fe_bc_index_at(const cj_builder *b, int offset);
/* Ends the current block with a jump to the block at `offset`, with `depth` slots live. */
int cj_fe_jump_to(cj_builder *b, int offset, int depth);
/* Ends the block with `if cond: goto true_off else goto false_off`, each edge carrying its own
 * number of stack slots (the stack array holds the union). */
int cj_fe_branch(cj_builder *b, int cond, int true_off, int true_depth, int false_off,
                 int false_depth);

/* ---- build_ops.c ---- */
/* Builds one instruction with its opcode's handler; sets b->ended when it ended the block. */
int cj_fe_build_instr(cj_builder *b, const cj_bc *in);

#endif
