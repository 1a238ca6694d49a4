/* build_internal.h: what build.c (blocks, stack simulation, the driver) and build_ops.c (one
 * handler per opcode) share: the builder's state and its stack and edge primitives.
 * Frontend-private; nothing outside csrc/frontend includes it. */
#ifndef CJ_BUILD_INTERNAL_H
#define CJ_BUILD_INTERNAL_H

#include "frontend/frontend.h"

#define CJ_NULL (-1) /* a NULL pushed for the call protocol */
/* Markers that live on the stack only from a comprehension's LOAD_CONST <code> / LOAD_CLOSURE
 * to its MAKE_FUNCTION and CALL (3.11, build_inline.c); never a value, never across blocks */
#define CJ_CODE_MARK (-2)
#define CJ_CELL_MARK (-3)
#define CJ_FUNC_MARK (-4)

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
    int *cells;           /* per co_cellvars name: its variable (a local that a comprehension
                           * reads; build_inline.c), and ncells of them */
    int ncells;
    PyObject *made_code;  /* LOAD_CONST's code object, then MAKE_FUNCTION's (borrowed) */
    struct cj_builder *outer; /* an inlined comprehension's (3.11): whose code it returns to */
    int cont;             /* ... at this byte offset of the outer code */
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

/* ---- build.c: the driver, for the inlined code of comprehensions too ---- */
/* Decodes b->code and allocates the per-instruction state (b->ir, b->code set). */
int cj_fe_setup(cj_builder *b);
int cj_fe_find_leaders(cj_builder *b);
int cj_fe_build_queued(cj_builder *b); /* builds the blocks queued on b's worklist */

/* ---- build_inline.c: comprehensions ---- */
/* Variables for co_cellvars (b->cells); -1 with an exception. */
int cj_fe_make_cells(cj_builder *b);
/* The variable of cell or free variable `name`: b's own cell, else the enclosing builders'
 * (an inlined comprehension reads its function's locals); -1 (no exception) when none. */
int cj_fe_cell_var(const cj_builder *b, PyObject *name);
/* 3.11: CALL 0 of a comprehension's function with its iterator `iter`: its code built inline
 * here, returning to b's byte offset `cont` with the list pushed. */
int cj_fe_inline_comprehension(cj_builder *b, int iter, int cont);
int cj_fe_op_MAKE_FUNCTION(cj_builder *b, const cj_bc *in);
int cj_fe_op_LIST_APPEND(cj_builder *b, const cj_bc *in);
int cj_fe_op_DELETE_SUBSCR(cj_builder *b, const cj_bc *in);
/* build_dict.c: dict displays and comprehensions */
int cj_fe_op_BUILD_MAP(cj_builder *b, const cj_bc *in);
int cj_fe_op_BUILD_CONST_KEY_MAP(cj_builder *b, const cj_bc *in);
int cj_fe_op_MAP_ADD(cj_builder *b, const cj_bc *in);
/* RETURN_VALUE of inlined code: to the outer code's continuation (1), or 0 when not inlined. */
int cj_fe_inline_return(cj_builder *b, int v);

/* ---- build_ops.c ---- */
/* Builds one instruction with its opcode's handler; sets b->ended when it ended the block. */
int cj_fe_build_instr(cj_builder *b, const cj_bc *in);

#endif
