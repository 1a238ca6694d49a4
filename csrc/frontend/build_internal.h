/* build_internal.h: what build.c (blocks, stack simulation, the driver) and build_ops.c (one
 * handler per opcode) share: the builder's state and its stack and edge primitives.
 * Frontend-private; nothing outside csrc/frontend includes it. */
#ifndef CJ_BUILD_INTERNAL_H
#define CJ_BUILD_INTERNAL_H

#include "frontend/frontend.h"

#define CJ_NULL (-1) /* a NULL pushed for the call protocol */
/* Markers that live on the stack only from a comprehension's LOAD_CONST <code> / LOAD_CLOSURE
 * to its MAKE_FUNCTION and CALL (3.11, build_inline.c); never a value */
#define CJ_CODE_MARK (-2)
#define CJ_CELL_MARK (-3)
/* A comprehension's function (3.11, MAKE_FUNCTION to its CALL): CJ_COMP_BASE - k, its code
 * the builder's comps[k]. It stays on the stack while the iterable is built, across blocks
 * when that is another comprehension: a block's entry carries it as it is (no variable). */
#define CJ_COMP_BASE (-96)
/* An inner function or lambda (build_closure.c): CJ_MADE_BASE - its index, down to -79; a
 * block's entry carries it as it is (f(f(x)): the inner call's return is a block) */
#define CJ_MADE_BASE (-16)

typedef struct cj_entry_state {
    int started;   /* an IR block exists and its entry stack is fixed */
    int block;     /* IR block */
    int depth;
    int *slots;    /* entry variable per stack slot, or CJ_NULL */
    int catching;  /* an exception handler's entry (build_try.c): its last slot is the caught
                    * exception, the one before the saved lasti when `lasti` */
    int lasti;
} cj_entry_state;

/* One entry of co_exceptiontable, in byte offsets: [start, end) goes to target. */
typedef struct cj_try_range {
    int start, end, target, depth, lasti;
} cj_try_range;

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
    int free_pack;        /* a genexpr reading its enclosing function's variables: the
                           * parameter holding their tuple (build_generator.c), or -1 */
    int genexpr_fn[8];    /* ... and in a function making them: the genexprs made, waiting */
    int genexpr_frees[8]; /* for their call, with the tuple of the variables they read */
    int ngenexprs;
    PyObject *made_code;  /* LOAD_CONST's code object, then MAKE_FUNCTION's (borrowed) */
    PyObject **comps;     /* the comprehensions' code made so far (borrowed), ncomps of them */
    int ncomps;
    struct cj_builder *outer; /* an inlined comprehension's (3.11): whose code it returns to */
    int cont;             /* ... at this byte offset of the outer code */
    cj_try_range *ranges; /* co_exceptiontable (build_try.c) */
    int nranges;
    int try_handler;      /* the IR handler block of the block being built, or -1 */
    int outer_handler;    /* that of a block outside every try range: -1, or for inlined code
                           * (a comprehension, an inner function) its call site's */
    void *made;           /* build_closure.c: the functions MAKE_FUNCTION made (outermost) */
    int nmade;
    int *fn_binding;      /* per local: whether it holds an inner function, and which */
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

/* The entry state of the block at bc index `k` for `depth` slots of `stack` arriving there:
 * made and queued on first arrival (SystemError when a later arrival's depth differs). */
cj_entry_state *cj_fe_arrive(cj_builder *b, int k, int depth, const int *stack);

/* ---- build_try.c: try/except/finally ---- */
int cj_fe_read_exception_table(cj_builder *b); /* b->ranges; -1 with an exception */
int cj_fe_try_leaders(cj_builder *b);          /* marks range starts, ends and handlers */
/* At the start of building the block at bc index `k` (entry `e`): a handler's own start (the
 * caught exception), then this block's handler: its entry slots copied, the block marked. */
int cj_fe_enter_try(cj_builder *b, int k, const cj_entry_state *e);
int cj_fe_op_PUSH_EXC_INFO(cj_builder *b, const cj_bc *in);
int cj_fe_op_CHECK_EXC_MATCH(cj_builder *b, const cj_bc *in);
int cj_fe_op_POP_EXCEPT(cj_builder *b, const cj_bc *in);
int cj_fe_op_RERAISE(cj_builder *b, const cj_bc *in);
int cj_fe_reraise_current(cj_builder *b); /* a bare `raise` inside an except block */
/* UnsupportedError when `v` (to be stored in a named variable) is a caught exception. */
int cj_fe_check_not_caught(cj_builder *b, int v, int local);

/* ---- build_generator.c: generator functions (yield) ---- */
int cj_fe_op_YIELD_VALUE(cj_builder *b, const cj_bc *in);
int cj_fe_op_RETURN_GENERATOR(cj_builder *b, const cj_bc *in);
/* Drops from b->ranges 3.12's generator wrapper (the ranges whose handler turns a
 * StopIteration escaping the body into a RuntimeError): a compiled generator's exceptions go
 * to its caller as they are. */
void cj_fe_drop_generator_wrapper(cj_builder *b);
/* MAKE_FUNCTION of a generator expression's code `co` (borrowed): pushes a jitted generator
 * function of it, called next with the iterator (`.0`) as its argument; one reading the
 * enclosing function's variables (`has_closure`) takes the tuple of their values too. */
int cj_fe_make_genexpr(cj_builder *b, PyCodeObject *co, int has_closure);
/* The tuple of variables the genexpr `callee` reads, its call's second argument (taken: one
 * call each), or -1. */
int cj_fe_genexpr_frees(cj_builder *b, int callee);
/* In a genexpr's own function: its parameter 1 is that tuple (b->free_pack); -1 on error. */
int cj_fe_genexpr_pack_param(cj_builder *b);
/* LOAD_DEREF of `name` there: 1 pushed the tuple's item, 0 not such a genexpr, -1 error. */
int cj_fe_genexpr_free_var(cj_builder *b, PyObject *name);

/* ---- build_closure.c: inner functions and lambdas, inlined where they are called ---- */
int cj_fe_push_value(cj_builder *b, PyObject *v, PyObject *name); /* build_ops.c */
int cj_fe_is_made(int v);          /* whether a stack value is an inner function's marker */
int cj_fe_is_comprehension(int v); /* whether it is a comprehension's (CJ_COMP_BASE - k) */
int cj_fe_refuse_made(cj_builder *b); /* UnsupportedError: a function used as a value */
/* The code of marker `marker`, its defaults' constant tuple (borrowed, NULL when none or not
 * a constant) and whether it has defaults at all. */
PyCodeObject *cj_fe_made_code(cj_builder *b, int marker, PyObject **constant_defaults,
                              int *has_defaults);
/* ---- build_starcall.c: g(*t) ---- */
int cj_fe_op_CALL_FUNCTION_EX(cj_builder *b, const cj_bc *in);
int cj_fe_op_LIST_TO_TUPLE(cj_builder *b, const cj_bc *in);
int cj_fe_list_to_tuple(cj_builder *b); /* the list of g(a, *t) made a tuple */
/* LIST_APPEND of `v` to the list `list` of g(*t, a): 1 when `list` already has a star part
 * (then `v` is one more part, the tuple (v,)), 0 when it is another list, -1 on error. */
int cj_fe_star_append(cj_builder *b, int list, int v);
/* ---- build_bigtuple.c: a display of more than 30 items ---- */
/* 1 when the list on the stack's top is BUILD_LIST + LIST_APPENDs, made one BUILD_TUPLE; 0
 * when it is not such a list; -1 with an exception. */
int cj_fe_appended_tuple(cj_builder *b);
/* ---- build_funcvalue.c: an inner function or lambda passed as an argument ---- */
/* Replaces each marker among args[0..n) with a variable holding a jitted function of its
 * code (numba's MakeFunctionToJitFunction); -1 with an exception when it cannot be. */
int cj_fe_made_arguments_as_values(cj_builder *b, int *args, int n);
int cj_fe_scan_function_locals(cj_builder *b); /* b->fn_binding, before building */
int cj_fe_load_function_local(cj_builder *b, int local);
int cj_fe_store_function_local(cj_builder *b, int local, int v);
/* MAKE_FUNCTION of a function other than a 3.11 comprehension's (closure: its cells popped) */
int cj_fe_make_inner_function(cj_builder *b, const cj_bc *in, int closure);
/* A call of marker `marker` with `nargs` args (the last b->kwnames of them by keyword): its
 * code built inline, returning to byte offset `cont` with the value pushed. */
int cj_fe_inline_call(cj_builder *b, int marker, const int *args, int nargs, int cont);
int cj_fe_op_LOAD_DEREF(cj_builder *b, const cj_bc *in);
int cj_fe_op_STORE_DEREF(cj_builder *b, const cj_bc *in);

/* ---- build.c: the driver, for the inlined code of comprehensions too ---- */
/* Decodes b->code and allocates the per-instruction state (b->ir, b->code set). */
int cj_fe_setup(cj_builder *b);
int cj_fe_find_leaders(cj_builder *b);
int cj_fe_build_queued(cj_builder *b); /* builds the blocks queued on b's worklist */

/* ---- build_inline.c: comprehensions ---- */
/* Variables for co_cellvars (b->cells); -1 with an exception. */
int cj_fe_make_cells(cj_builder *b);
/* `inner` set up to build `code` inline in b's IR, returning to b's byte offset `cont`. */
void cj_fe_inner_builder(cj_builder *inner, cj_builder *b, PyCodeObject *code, int cont);
/* The variable of cell or free variable `name`: b's own cell, else the enclosing builders'
 * (an inlined comprehension reads its function's locals); -1 (no exception) when none. */
int cj_fe_cell_var(const cj_builder *b, PyObject *name);
/* 3.11: CALL 0 of the comprehension's function `marker` with its iterator `iter`: its code
 * built inline here, returning to b's byte offset `cont` with the list pushed. */
int cj_fe_inline_comprehension(cj_builder *b, int marker, int iter, int cont);
int cj_fe_op_MAKE_FUNCTION(cj_builder *b, const cj_bc *in);
int cj_fe_op_LIST_APPEND(cj_builder *b, const cj_bc *in);
int cj_fe_op_DELETE_SUBSCR(cj_builder *b, const cj_bc *in);
/* obj.<name>(arg): a method call the opcode stands for (typed as the source's would be). */
int cj_fe_method_call(cj_builder *b, int obj, const char *name, int arg);
/* build_set.c: set displays and comprehensions */
int cj_fe_op_BUILD_SET(cj_builder *b, const cj_bc *in);
int cj_fe_op_SET_ADD(cj_builder *b, const cj_bc *in);
int cj_fe_op_SET_UPDATE(cj_builder *b, const cj_bc *in);
/* build_dict.c: dict displays and comprehensions */
int cj_fe_op_BUILD_MAP(cj_builder *b, const cj_bc *in);
int cj_fe_op_BUILD_CONST_KEY_MAP(cj_builder *b, const cj_bc *in);
int cj_fe_op_MAP_ADD(cj_builder *b, const cj_bc *in);
/* RETURN_VALUE of inlined code: to the outer code's continuation (1), or 0 when not inlined. */
int cj_fe_inline_return(cj_builder *b, int v);

/* ---- build_format.c: f-strings (FORMAT_VALUE as str(), BUILD_STRING as `+`) ---- */
int cj_fe_op_FORMAT_VALUE(cj_builder *b, const cj_bc *in);
int cj_fe_op_BUILD_STRING(cj_builder *b, const cj_bc *in);

/* ---- build_ops.c ---- */
/* Builds one instruction with its opcode's handler; sets b->ended when it ended the block. */
int cj_fe_build_instr(cj_builder *b, const cj_bc *in);

#endif
