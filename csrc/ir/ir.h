/* ir: cujit's function IR, shared by every pass after decoding.
 * A function is a list of blocks; a block is a list of instructions ending in one terminator.
 * Values live in variables (named locals, and temporaries written once); a variable may be
 * assigned in several blocks, and typing unifies its assignments, as numba's IR does.
 * Sections: ir.c (construction), ir_print.c (text dump, also used by inspect_types), unroll.c
 * (literal_unroll's loops cloned per item). */
#ifndef CJ_IR_H
#define CJ_IR_H

#include <stdarg.h>

#include "types/types.h"
#include "util/util.h"

typedef enum cj_iop {
    /* values */
    CJ_I_CONST,        /* dst = obj (a Python constant: number, bool, None, str, tuple, array) */
    CJ_I_ARG,          /* dst = argument #index */
    CJ_I_GLOBAL,       /* dst = obj, a compile-time object (module, function, class, ...) */
    CJ_I_COPY,         /* dst = args[0] */
    CJ_I_BINOP,        /* dst = args[0] <sub> args[1]   (sub: cj_binop; flag: in-place) */
    CJ_I_UNARY,        /* dst = <sub> args[0]            (sub: cj_unop) */
    CJ_I_COMPARE,      /* dst = args[0] <sub> args[1]   (sub: cj_cmpop) */
    CJ_I_TRUTH,        /* dst = bool(args[0]) */
    CJ_I_CALL,         /* dst = args[0](args[1..]), the last `index` positionals are keywords
                        * named by obj (a tuple of str) */
    CJ_I_GETATTR,      /* dst = args[0].<obj: str> */
    CJ_I_GETITEM,      /* dst = args[0][args[1]] */
    CJ_I_SETITEM,      /* args[0][args[1]] = args[2] */
    CJ_I_BUILD_TUPLE,  /* dst = (args...) */
    CJ_I_BUILD_SLICE,  /* dst = slice(args...): 2 or 3 parts, None parts allowed; 1: the stop */
    CJ_I_STATIC_ITEM,  /* dst = args[0][index], for UNPACK_SEQUENCE (index is a constant) */
    CJ_I_GETITER,      /* dst = iter(args[0]) */
    CJ_I_ITERNEXT,     /* dst = next value of iterator args[0], dst2 = whether there was one */
    CJ_I_CATCH,        /* dst = the status of the exception that brought control to this handler
                        * block (try/except; its var is `caught`) */
    CJ_I_EXC_MATCH,    /* dst = whether caught exception args[0] is an instance of args[1] (a
                        * class or a tuple of classes known at compile time) */
    CJ_I_YIELD,        /* yield args[0]; dst = None (what `yield` gives back: no send())
                        * (generators: typing/generators.c, lower/lower_generator.c) */
    /* terminators */
    CJ_I_JUMP,         /* goto target */
    CJ_I_BRANCH,       /* if truth(args[0]) goto target else goto target2 */
    CJ_I_RETURN,       /* return args[0] */
    CJ_I_RAISE,        /* raise args[0] (an exception class or instance known at compile time,
                        * or a caught exception: re-raise) */
} cj_iop;

typedef enum cj_binop {
    CJ_ADD, CJ_SUB, CJ_MUL, CJ_TRUEDIV, CJ_FLOORDIV, CJ_MOD, CJ_POW,
    CJ_LSHIFT, CJ_RSHIFT, CJ_AND, CJ_OR, CJ_XOR, CJ_MATMUL,
} cj_binop;

typedef enum cj_unop { CJ_NEG, CJ_POS, CJ_INVERT, CJ_NOT } cj_unop;

typedef enum cj_cmpop { CJ_LT, CJ_LE, CJ_EQ, CJ_NE, CJ_GT, CJ_GE, CJ_IS, CJ_ISNOT, CJ_IN,
                        CJ_NOTIN } cj_cmpop;

typedef struct cj_instr {
    cj_iop op;
    int sub;           /* cj_binop / cj_unop / cj_cmpop; flag bits below */
    int flags;         /* CJ_F_INPLACE, CJ_F_LIST, CJ_F_CONST_EXP */
    int index;         /* argument index, static item index, keyword count */
    int dst;           /* variable written, or -1 */
    int dst2;          /* second variable written (ITERNEXT), or -1 */
    int nargs;
    int *args;         /* variables read */
    PyObject *obj;     /* borrowed; kept alive by the function's `keep` list */
    PyObject *name;    /* GLOBAL: the name it was loaded by (borrowed from co_names) */
    int target;        /* blocks */
    int target2;
    int line;          /* source line */
    /* filled by typing (infer.c), read by lowering */
    const cj_type *rtype;  /* the instruction's own result type (the variable may be wider) */
    const cj_type *optype; /* the type an operation computes in (both operands cast to it) */
    const void *resolved;  /* what a call / attribute / operation resolved to (typing-defined) */
    const cj_type *sig_ret;      /* for calls: the callee's return type */
    int sig_nargs;               /* for calls: argument count after keywords/defaults folded */
    const cj_type **sig_args;    /* for calls: argument types the callee takes */
    int *call_args;              /* for calls: folded argument variables (-1: default) */
} cj_instr;

#define CJ_F_INPLACE 1
/* A list literal: BUILD_TUPLE of BUILD_LIST, COPY of LIST_EXTEND (args: the items, the empty
 * list); a list (typing/lists.c), or the tuple np.array/np.asarray or a join reads */
#define CJ_F_LIST 2
/* A `**` whose exponent is a constant integer (numba's static_rhs), set by typing: `index`
 * holds it (|n| <= 0x10000, numba's cutoff) and lowering multiplies it out (lower_num.c) */
#define CJ_F_CONST_EXP 4
/* A SETITEM made by `obj.name = value` (STORE_ATTR): args[1] is the name, a constant */
#define CJ_F_ATTR 8
/* `sub` of a GETATTR/GETITEM/SETITEM typing resolved to a record's field (typing/
 * record_access.c): `index` is the field; on an array of records, a view of that field */
#define CJ_SUB_FIELD 0x100
/* `sub` of a GETITEM of a tuple by a constant slice (typing/tuples.c): `resolved` is int[2],
 * the start and step of the items it picks (lower/lower_tuple.c) */
#define CJ_SUB_STATIC_SLICE 2
/* A GETATTR of an extension's attribute (overload_attribute), set by typing: `resolved` is a
 * CJ_CALL_DISPATCHER call of its implementation with the object as argument */
#define CJ_F_ATTR_CALL 16
/* A string operation (typing/strings.c): lowered by lower/lower_str.c; `resolved` is its
 * CJ_CALL_STR record (none for a GETATTR binding a method) */
#define CJ_F_STR 32
/* A dict display: BUILD_TUPLE of keys and values interleaved (frontend/build_dict.c) */
#define CJ_F_DICT 64
/* A set display: BUILD_TUPLE of its elements (frontend/build_set.c) */
#define CJ_F_SET 0x400
/* Typed with its OptionalType operands as their value types (typing/optional.c), which then
 * reads them through checked copies */
#define CJ_F_OPT_UNPACK 128
/* A list operator (typing/list_ops.c: + * += *= == <): lowered by lower/lower_list_concat.c;
 * `resolved` is its CJ_CALL_LIST record */
#define CJ_F_LIST_OP 0x100
/* A CALL g(*t): its last argument is the tuple of positional arguments (typing/starargs.c) */
#define CJ_F_STAR_CALL (1 << 12)
/* An operator compiled as a call of a jitted library helper (typing/range_ops.c: `x in r`,
 * `r[i]` of a range): `resolved` is its CJ_CALL_DISPATCHER record, lowered as a call */
#define CJ_F_HELPER_CALL 0x800

typedef struct cj_block {
    int offset;     /* bytecode offset of the first instruction */
    cj_vec instrs;  /* of cj_instr */
    int reachable;  /* set by typing: 0 when pruned (a branch decided at compile time) */
    int handler;    /* the block an exception raised here goes to (try/except), or -1 */
} cj_block;

typedef struct cj_var {
    const char *name;      /* source name, or "$<n>" for temporaries */
    int is_temp;
    int line;              /* line of the first definition, for messages */
    const cj_type *type;   /* set by typing */
    int known;             /* typing: -1 unknown, else the compile-time truth value (pruning) */
    int caught;            /* holds a caught exception (CJ_I_CATCH): never a named variable */
} cj_var;

/* A literal_unroll loop over a heterogeneous tuple, to unroll (unroll.c): typing names it by
 * its call's place, which the next build of the IR has too. */
typedef struct cj_unroll_site {
    int offset;  /* bytecode offset of the block holding the literal_unroll call */
    int index;   /* the call's instruction index in that block */
    int len;     /* the tuple's length: the loop body is compiled once per item */
} cj_unroll_site;

typedef struct cj_func_ir {
    cj_arena arena;        /* owns everything below except the Python references */
    PyObject *keep;        /* list: strong references to every obj in the IR */
    PyObject *pyfunc;      /* borrowed: the Python function (the dispatcher keeps it alive) */
    PyCodeObject *code;    /* borrowed */
    const char *name;      /* qualified name */
    const char *filename;
    int firstline;
    int nargs;
    cj_vec blocks;         /* of cj_block; block 0 is the entry */
    cj_vec vars;           /* of cj_var */
    int arg_vars[CJ_MAX_ARGS]; /* variable of each argument */
    int is_generator;      /* its code has CO_GENERATOR: calling it makes a generator */
    int unroll_wanted;     /* typing failed asking for unroll_request (jit/pipeline.c) */
    cj_unroll_site unroll_request;
} cj_func_ir;

/* ---- ir.c ---- */
cj_func_ir *cj_ir_new(PyObject *pyfunc);   /* NULL with an exception on failure */
void cj_ir_free(cj_func_ir *ir);           /* releases the arena and the references */
int cj_ir_new_var(cj_func_ir *ir, const char *name, int line);  /* index, or -1 */
int cj_ir_new_temp(cj_func_ir *ir, int line);
int cj_ir_new_block(cj_func_ir *ir, int offset);                /* index, or -1 */
/* Appends an instruction to block `b`, with its args copied; NULL with an exception on failure. */
cj_instr *cj_ir_emit(cj_func_ir *ir, int b, cj_iop op, int dst, int nargs, const int *args,
                     int line);
/* Keeps a reference to `obj` for the lifetime of the IR; returns obj (borrowed) or NULL. */
PyObject *cj_ir_keep(cj_func_ir *ir, PyObject *obj);
int cj_instr_is_terminator(const cj_instr *in);
/* The last instruction of a block (its terminator), or NULL when empty. */
cj_instr *cj_block_terminator(cj_block *b);
/* The first instruction (in block order) that defines `var`, or NULL. */
cj_instr *cj_ir_first_def(cj_func_ir *ir, int var);
#define CJ_BLOCK(ir, i) (&CJ_VEC_AT((ir)->blocks, cj_block, (i)))
#define CJ_VAR(ir, i) (&CJ_VEC_AT((ir)->vars, cj_var, (i)))
#define CJ_INSTR(block, i) (&CJ_VEC_AT((block)->instrs, cj_instr, (i)))

/* The variable's source name without its version suffix (x.2 -> x), written into buf. */
const char *cj_var_source_name(const cj_var *v, char *buf, size_t size);

/* ---- ir_print.c ---- */
/* The IR as text (new reference); with types when typing has run and `typed` is set. */
PyObject *cj_ir_dump(const cj_func_ir *ir, int typed);
/* numba's inspect_types layout: each source line, then its typed instructions as comments. */
PyObject *cj_ir_annotate(const cj_func_ir *ir, const char *signature);
const char *cj_binop_symbol(int op);
const char *cj_cmpop_symbol(int op);
const char *cj_unop_symbol(int op);

/* ---- versions.c ---- */
/* Splits each named local into versions whose definitions never meet at a use (numba's SSA
 * versioning): -1 with MemoryError on failure. */
int cj_version_locals(cj_func_ir *ir);

/* ---- unroll.c ---- */
/* Unrolls the loops at `sites` (each body cloned per item, fed `x = t[k]`) and versions the
 * locals again; -1 with UnsupportedError (numba's nesting error) or MemoryError. */
int cj_unroll_loops(cj_func_ir *ir, const cj_unroll_site *sites, int nsites);
/* cujit.misc.literal.literal_unroll (borrowed, kept for the process), or NULL with the import's
 * exception. */
PyObject *cj_literal_unroll_function(void);

/* ---- ir_loc.c ---- */
/* Source line `line` of the function's file through linecache, with `strip` ("strip",
 * "rstrip") applied (new reference; "" when the file is unknown). */
PyObject *cj_ir_source_line(const cj_func_ir *ir, int line, const char *strip);
/* 'File "f.py", line 3, in name:\n    <source line>\n    ^' (new reference). */
PyObject *cj_ir_loc_text(const cj_func_ir *ir, int line);
/* Sets `exc` with "<message>\n\n<location>" and returns -1. */
int cj_ir_error(const cj_func_ir *ir, PyObject *exc, int line, const char *fmt, ...);
/* The same with a prefix before the message and a va_list. */
int cj_ir_errorv(const cj_func_ir *ir, PyObject *exc, int line, const char *prefix,
                 const char *fmt, va_list ap);
#endif
