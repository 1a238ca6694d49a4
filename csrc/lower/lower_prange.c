/* lower_prange.c: `for i in prange(...)` under parallel=True on the CPU (numba's parfors, for
 * explicit loops). The loop's body blocks are outlined into a function of their own,
 *   i32 @<fn>.prange<k>(i8* ctx, i64 start, i64 stop, i8* partial)
 * running iterations [start, stop) of the range, and the loop's GETITER becomes a call of
 * cj_parallel_for (abi/workqueue.c); the loop header then goes straight to the loop's exit.
 * Variables of the body:
 *   shared     read there, never written: the body uses the function's own slot, through ctx
 *              (the function waits for the loop, so its frame outlives the workers' reads);
 *   private    written there: a slot per chunk (zero at its start); the function's variable
 *              keeps its value from before the loop;
 *   reduction  `v += x`, `v -= x`, `v *= x` (or `v = v + x` ...), `v = min(v, x)`, `v = max(v, x)`
 *              of a real number, v read in the body by those alone: a private slot from the
 *              operation's identity, stored into the chunk's partial and combined into v, in
 *              chunk order, after the loop.
 * A variable read in the body before it is written there (carried between iterations) that
 * is no such reduction, break/return out of the body, and objmode blocks in it are
 * UnsupportedErrors (np.random draws from each worker's own state). Without parallel=True, on CUDA and in a prange body, prange
 * is range. */
#include "lower/lower_internal.h"

#include <math.h>
#include <string.h>

enum { ROLE_NONE, ROLE_BODY, ROLE_HEADER };
enum { VAR_UNUSED, VAR_SHARED, VAR_PRIVATE, VAR_REDUCE_ADD, VAR_REDUCE_MUL, VAR_REDUCE_MIN,
       VAR_REDUCE_MAX };
#define IS_REDUCTION(cls) ((cls) >= VAR_REDUCE_ADD)

typedef struct prange_loop {
    cj_instr *getiter;   /* in the function: becomes the call */
    cj_instr *iternext;  /* in the header */
    int header, entry, exit;
    int from_zero;       /* prange(n): start 0, step 1 */
    char *in_body;       /* per block */
    char *cls;           /* per variable: VAR_* */
    LLVMValueRef body_fn;
} prange_loop;

struct cj_pranges {
    char *role;          /* per block: ROLE_* over every prange loop */
    cj_vec loops;        /* of prange_loop */
};

static int refuse(cj_lower *L, const cj_instr *in, const char *what) {
    PyErr_Format(cj_UnsupportedError, "%s inside a prange loop is not supported by cujit "
                                      "(line %d)", what, in ? in->line : 0);
    return -1;
}

/* The defining instruction of each variable (the last one seen; temporaries have one). */
static cj_instr **definitions(cj_lower *L) {
    cj_instr **def = cj_arena_alloc(&L->ir->arena, sizeof(cj_instr *) * (size_t)L->ir->vars.len);
    for (int b = 0; def != NULL && b < L->ir->blocks.len; b++) {
        cj_block *blk = CJ_BLOCK(L->ir, b);
        for (int k = 0; k < blk->instrs.len; k++) {
            cj_instr *in = CJ_INSTR(blk, k);
            if (in->dst >= 0) {
                def[in->dst] = in;
            }
        }
    }
    return def == NULL ? (cj_instr **)PyErr_NoMemory() : def;
}

/* Whether `in` calls the builtin `id` (a typed call's record). */
static int calls_builtin(const cj_instr *in, int id) {
    const cj_call *call = in != NULL && in->op == CJ_I_CALL ? in->resolved : NULL;
    return call != NULL && call->kind == CJ_CALL_BUILTIN && call->builtin == id;
}

/* What a body cannot run on a worker thread, or NULL: objmode blocks need the GIL. (np.random
 * has a state per thread: each worker draws from its own.) */
static const char *forbidden(const cj_instr *in) {
    const cj_call *call = in->op == CJ_I_CALL ? in->resolved : NULL;
    if (call == NULL || call->kind != CJ_CALL_OBJMODE) {
        return NULL;
    }
    return PyCFunction_Check((PyObject *)call->callee) ? "print()" : "an objmode block";
}

/* The successors of block b that typing kept. */
static int successors(cj_lower *L, int b, int *out) {
    cj_instr *t = cj_block_terminator(CJ_BLOCK(L->ir, b));
    if (t == NULL || t->op == CJ_I_RETURN || t->op == CJ_I_RAISE) {
        return 0;
    }
    if (t->op == CJ_I_JUMP) {
        out[0] = t->target;
        return 1;
    }
    int known = CJ_VAR(L->ir, t->args[0])->known, n = 0;
    if (known != 0) {
        out[n++] = t->target;
    }
    if (known != 1) {
        out[n++] = t->target2;
    }
    return n;
}

/* Marks in `seen` the blocks reachable from `from` without passing `header`. */
static int reach(cj_lower *L, int from, int header, char *seen) {
    int nblocks = L->ir->blocks.len, top = 0;
    int *stack = cj_arena_alloc(&L->ir->arena, sizeof(int) * (size_t)(nblocks + 1));
    if (stack == NULL) {
        return PyErr_NoMemory(), -1;
    }
    memset(seen, 0, (size_t)nblocks);
    seen[from] = 1;
    stack[top++] = from;
    while (top > 0) {
        int b = stack[--top], next[2];
        for (int k = successors(L, b, next) - 1; k >= 0; k--) {
            if (next[k] != header && !seen[next[k]]) {
                seen[next[k]] = 1;
                stack[top++] = next[k];
            }
        }
    }
    return 0;
}

/* The body: the blocks reachable from the loop's entry without passing its header. -1 when
 * one of them goes where the loop's exit leads (break) or returns (return, or a break whose
 * target 3.12 made a copy of the return after the loop). */
static int find_body(cj_lower *L, prange_loop *p) {
    int nblocks = L->ir->blocks.len;
    char *after = cj_arena_alloc(&L->ir->arena, (size_t)nblocks);
    p->in_body = cj_arena_alloc(&L->ir->arena, (size_t)nblocks);
    if (after == NULL || p->in_body == NULL) {
        return PyErr_NoMemory(), -1;
    }
    if (reach(L, p->exit, p->header, after) < 0 || reach(L, p->entry, p->header, p->in_body) < 0) {
        return -1;
    }
    for (int b = 0; b < nblocks; b++) {
        cj_instr *t = p->in_body[b] ? cj_block_terminator(CJ_BLOCK(L->ir, b)) : NULL;
        if (p->in_body[b] && after[b]) {
            return refuse(L, t, "break");
        }
        if (t != NULL && t->op == CJ_I_RETURN) { /* 3.12 copies a return after the loop into
                                                    * the break's block: either of them */
            return refuse(L, t, "break or return");
        }
    }
    return 0;
}

/* Liveness over the body: live[b * nvars + v] when v is read in block b, or after it in the
 * body, before any write. Iterated to a fixed point (bodies are small). */
static char *live_in(cj_lower *L, const prange_loop *p) {
    int nvars = L->ir->vars.len, nblocks = L->ir->blocks.len;
    char *live = cj_arena_alloc(&L->ir->arena, (size_t)nvars * (size_t)nblocks);
    if (live == NULL) {
        return PyErr_NoMemory(), NULL;
    }
    memset(live, 0, (size_t)nvars * (size_t)nblocks);
    for (int changed = 1; changed;) {
        changed = 0;
        for (int b = nblocks - 1; b >= 0; b--) {
            if (!p->in_body[b]) {
                continue;
            }
            char *row = live + (size_t)b * (size_t)nvars;
            int next[2], nn = successors(L, b, next);
            for (int v = 0; v < nvars; v++) { /* the union of the successors' */
                int out = 0;
                for (int k = 0; k < nn; k++) {
                    out |= p->in_body[next[k]] && live[(size_t)next[k] * (size_t)nvars + v];
                }
                cj_block *blk = CJ_BLOCK(L->ir, b);
                for (int k = blk->instrs.len - 1; k >= 0; k--) { /* backwards through b */
                    cj_instr *in = CJ_INSTR(blk, k);
                    if (in->dst == v || in->dst2 == v) {
                        out = 0;
                    }
                    for (int a = 0; a < in->nargs && !out; a++) {
                        out = in->args[a] == v;
                    }
                }
                changed |= out && !row[v];
                row[v] |= (char)out;
            }
        }
    }
    return live;
}

/* The instructions of the body that read `var`: their count, *only the last of them. */
static int readers(cj_lower *L, const prange_loop *p, int var, cj_instr **only) {
    int n = 0;
    for (int b = 0; b < L->ir->blocks.len; b++) {
        cj_block *blk = CJ_BLOCK(L->ir, b);
        for (int k = 0; p->in_body[b] && k < blk->instrs.len; k++) {
            cj_instr *in = CJ_INSTR(blk, k);
            for (int a = 0; a < in->nargs; a++) {
                if (in->args[a] == var) {
                    n++;
                    *only = in;
                    break;
                }
            }
        }
    }
    return n;
}

/* The reduction kind of `op` reading $a (a copy of v): + - (ADD) or * (MUL) with $a on the
 * left, min(...)/max(...) of $a and another value (MIN/MAX); 0 for anything else. */
static int reduction_op(const cj_instr *op, int a, int v) {
    if (op->op == CJ_I_BINOP) {
        if (op->args[0] != a || op->args[1] == v || op->args[1] == a) {
            return 0;
        }
        return op->sub == CJ_MUL ? VAR_REDUCE_MUL
               : op->sub == CJ_ADD || op->sub == CJ_SUB ? VAR_REDUCE_ADD : 0;
    }
    int is_min = calls_builtin(op, CJ_B_MIN), is_max = calls_builtin(op, CJ_B_MAX);
    const cj_call *call = op->resolved;
    if ((!is_min && !is_max) || call->nargs != 2) {
        return 0;
    }
    int other = call->args[0] == a ? call->args[1] : call->args[1] == a ? call->args[0] : -1;
    return other < 0 || other == v || other == a ? 0 : is_min ? VAR_REDUCE_MIN : VAR_REDUCE_MAX;
}

/* The reduction a read of v makes, `$a = v; $t = $a op x (or min/max($a, x)); v = $t`, each
 * temporary read once; 0 when the read is anything else. */
static int reduction_step(cj_lower *L, const prange_loop *p, const cj_instr *in, int v) {
    cj_instr *op = NULL, *back = NULL;
    if (in->op != CJ_I_COPY || !CJ_VAR(L->ir, in->dst)->is_temp ||
        readers(L, p, in->dst, &op) != 1 || op->dst < 0 ||
        readers(L, p, op->dst, &back) != 1 || back->op != CJ_I_COPY || back->dst != v) {
        return 0;
    }
    return reduction_op(op, in->dst, v);
}

/* Whether `op` reads a copy of v (the write `v = op's result` ends a reduction step). */
static int reads_copy_of(const cj_instr *op, cj_instr **def, int v) {
    for (int a = 0; op != NULL && a < op->nargs; a++) {
        const cj_instr *d = def[op->args[a]];
        if (d != NULL && d->op == CJ_I_COPY && d->args[0] == v) {
            return 1;
        }
    }
    return 0;
}

/* The reduction kind of v when it is a number (not complex; min/max not bool) read in the
 * body only by reduction steps of one kind and written only by their last copies; else 0. */
static int reduction_kind(cj_lower *L, const prange_loop *p, cj_instr **def, int v) {
    int kind = 0;
    const cj_type *t = CJ_VAR(L->ir, v)->type;
    if (!cj_type_is_number(t) || t->kind == CJ_COMPLEX) {
        return 0;
    }
    for (int b = 0; b < L->ir->blocks.len; b++) {
        cj_block *blk = CJ_BLOCK(L->ir, b);
        for (int k = 0; p->in_body[b] && k < blk->instrs.len; k++) {
            cj_instr *in = CJ_INSTR(blk, k);
            int reads = 0;
            for (int a = 0; a < in->nargs; a++) {
                reads |= in->args[a] == v;
            }
            if (reads) {
                int step = reduction_step(L, p, in, v);
                if (step == 0 || (kind != 0 && step != kind)) {
                    return 0;
                }
                kind = step;
            }
            if (in->dst == v && (in->op != CJ_I_COPY || !reads_copy_of(def[in->args[0]], def, v))) {
                return 0;
            }
        }
    }
    return (kind == VAR_REDUCE_MIN || kind == VAR_REDUCE_MAX) && t->kind == CJ_BOOL ? 0 : kind;
}

/* Sorts the variables of the body into shared, private and reductions. */
static int classify(cj_lower *L, prange_loop *p, cj_instr **def) {
    int nvars = L->ir->vars.len;
    p->cls = cj_arena_alloc(&L->ir->arena, (size_t)nvars);
    char *live = live_in(L, p);
    if (p->cls == NULL || live == NULL) {
        return p->cls == NULL ? (PyErr_NoMemory(), -1) : -1;
    }
    memset(p->cls, VAR_UNUSED, (size_t)nvars);
    for (int b = 0; b < L->ir->blocks.len; b++) {
        cj_block *blk = CJ_BLOCK(L->ir, b);
        for (int k = 0; p->in_body[b] && k < blk->instrs.len; k++) {
            cj_instr *in = CJ_INSTR(blk, k);
            /* a try inside the body: its handler would be outside the outlined body */
            const char *why = blk->handler != CJ_BLOCK(L->ir, p->header)->handler
                                  ? "try/except"
                                  : forbidden(in);
            if (why != NULL) {
                return refuse(L, in, why);
            }
            for (int a = 0; a < in->nargs; a++) {
                if (p->cls[in->args[a]] == VAR_UNUSED) {
                    p->cls[in->args[a]] = VAR_SHARED;
                }
            }
            if (in->dst >= 0) {
                p->cls[in->dst] = VAR_PRIVATE;
            }
            if (in->dst2 >= 0) {
                p->cls[in->dst2] = VAR_PRIVATE;
            }
        }
    }
    p->cls[p->iternext->dst] = VAR_PRIVATE; /* the loop's value: set per iteration */
    p->cls[p->getiter->args[0]] = VAR_SHARED; /* the range */
    const char *entry_live = live + (size_t)p->entry * (size_t)nvars;
    for (int v = 0; v < nvars; v++) {
        if (p->cls[v] != VAR_PRIVATE || !entry_live[v] || v == p->iternext->dst ||
            CJ_VAR(L->ir, v)->type->kind == CJ_ITER) { /* iterators: the loop's own copies */
            continue;
        }
        int kind = reduction_kind(L, p, def, v);
        if (kind == 0) {
            char name[256];
            PyErr_Format(cj_UnsupportedError, "variable '%s' (line %d) is carried from one "
                         "iteration of a prange loop to the next: only reductions (v += x, "
                         "v -= x, v *= x, v = min(v, x), v = max(v, x) of a real number) are "
                         "supported by cujit",
                         cj_var_source_name(CJ_VAR(L->ir, v), name, sizeof(name)),
                         def[v] ? def[v]->line : 0);
            return -1;
        }
        p->cls[v] = (char)kind;
    }
    return 0;
}

/* ---- finding the loops ---- */

/* The loop a GETITER of a prange call starts: its header (the block the GETITER's block jumps
 * to), whose ITERNEXT's flag branches to the body's entry or the exit. 0 when the shape is
 * not a for loop's (the loop then runs as range). */
static int loop_shape(cj_lower *L, int b, cj_instr *getiter, prange_loop *p) {
    cj_instr *t = cj_block_terminator(CJ_BLOCK(L->ir, b));
    if (t == NULL || t->op != CJ_I_JUMP) {
        return 0;
    }
    cj_block *h = CJ_BLOCK(L->ir, t->target);
    cj_instr *next = h->instrs.len > 0 ? CJ_INSTR(h, 0) : NULL;
    cj_instr *branch = cj_block_terminator(h);
    if (next == NULL || next->op != CJ_I_ITERNEXT || branch == NULL ||
        branch->op != CJ_I_BRANCH || branch->args[0] != next->dst2 ||
        CJ_VAR(L->ir, next->args[0])->type != getiter->rtype) {
        return 0;
    }
    *p = (prange_loop){.getiter = getiter, .iternext = next, .header = t->target,
                       .entry = branch->target, .exit = branch->target2};
    return 1;
}

/* Appends "the names of the variables of class `cls`" (source names, temporaries left out)
 * to `text`; 0 or -1 with an exception. */
static int append_names(cj_lower *L, const prange_loop *p, int cls, const char *label,
                        PyObject **text) {
    static const char *const ops[] = {"+", "*", "min", "max"};
    int first = 1;
    for (int v = 0; v < L->ir->vars.len && *text != NULL; v++) {
        cj_var *var = CJ_VAR(L->ir, v);
        int match = cls == VAR_REDUCE_ADD ? IS_REDUCTION(p->cls[v]) : p->cls[v] == cls;
        if (!match || var->is_temp) {
            continue;
        }
        char name[256];
        PyObject *part = PyUnicode_FromFormat(
            "%s%s%s%s%s%s", first ? "; " : ", ", first ? label : "",
            cj_var_source_name(var, name, sizeof(name)), IS_REDUCTION(p->cls[v]) ? " (" : "",
            IS_REDUCTION(p->cls[v]) ? ops[p->cls[v] - VAR_REDUCE_ADD] : "",
            IS_REDUCTION(p->cls[v]) ? ")" : "");
        PyUnicode_AppendAndDel(text, part);
        first = 0;
    }
    return *text ? 0 : -1;
}

/* parallel_diagnostics' line for loop p (env->diagnostics). */
static int describe(cj_lower *L, const prange_loop *p) {
    if (L->env->diagnostics == NULL) {
        return 0;
    }
    int n = L->pranges ? L->pranges->loops.len : 0;
    PyObject *text = PyUnicode_FromFormat("prange loop #%d at line %d: runs on the thread pool",
                                          n, p->getiter->line);
    if (text == NULL || append_names(L, p, VAR_REDUCE_ADD, "reductions: ", &text) < 0 ||
        append_names(L, p, VAR_SHARED, "shared: ", &text) < 0 ||
        append_names(L, p, VAR_PRIVATE, "private: ", &text) < 0) {
        return -1;
    }
    int rc = PyList_Append(L->env->diagnostics, text);
    Py_DECREF(text);
    return rc;
}

static int add_loop(cj_lower *L, int b, cj_instr *getiter, cj_instr **def) {
    prange_loop p;
    if (!loop_shape(L, b, getiter, &p)) {
        return 0;
    }
    p.from_zero = ((const cj_call *)def[getiter->args[0]]->resolved)->nargs == 1;
    if (find_body(L, &p) < 0 || classify(L, &p, def) < 0 || describe(L, &p) < 0) {
        return -1;
    }
    prange_loop *slot = cj_vec_push(&L->ir->arena, &L->pranges->loops, sizeof(prange_loop));
    if (slot == NULL) {
        return -1;
    }
    *slot = p;
    for (int i = 0; i < L->ir->blocks.len; i++) {
        L->pranges->role[i] = p.in_body[i] ? ROLE_BODY : L->pranges->role[i];
    }
    L->pranges->role[p.header] = ROLE_HEADER;
    return 0;
}

int cj_plan_pranges(cj_lower *L) {
    if (!L->env->parallel || L->env->target != CJ_TARGET_CPU) {
        return 0;
    }
    cj_instr **def = NULL;
    for (int b = 0; b < L->ir->blocks.len; b++) {
        cj_block *blk = CJ_BLOCK(L->ir, b);
        for (int k = 0; blk->reachable && k < blk->instrs.len; k++) {
            cj_instr *in = CJ_INSTR(blk, k);
            if (in->op != CJ_I_GETITER || (L->pranges && L->pranges->role[b] != ROLE_NONE)) {
                continue; /* a prange inside a prange body is a range */
            }
            if (def == NULL && (def = definitions(L)) == NULL) {
                return -1;
            }
            if (!calls_builtin(def[in->args[0]], CJ_B_PRANGE)) {
                continue;
            }
            if (L->pranges == NULL) {
                L->pranges = cj_arena_alloc(&L->ir->arena, sizeof(struct cj_pranges));
                char *role = cj_arena_alloc(&L->ir->arena, (size_t)L->ir->blocks.len);
                if (L->pranges == NULL || role == NULL) {
                    return PyErr_NoMemory(), -1;
                }
                memset(role, ROLE_NONE, (size_t)L->ir->blocks.len);
                *L->pranges = (struct cj_pranges){.role = role};
            }
            if (add_loop(L, b, in, def) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

int cj_prange_body(cj_lower *L, int block) {
    return L->pranges != NULL && L->pranges->role[block] == ROLE_BODY;
}

int cj_prange_header(cj_lower *L, int block) {
    return L->pranges != NULL && L->pranges->role[block] == ROLE_HEADER;
}

static prange_loop *loop_of(cj_lower *L, const cj_instr *getiter, int header) {
    for (int i = 0; L->pranges != NULL && i < L->pranges->loops.len; i++) {
        prange_loop *p = &CJ_VEC_AT(L->pranges->loops, prange_loop, i);
        if (p->getiter == getiter || p->header == header) {
            return p;
        }
    }
    return NULL;
}

int cj_prange_at(cj_lower *L, const cj_instr *getiter) {
    return loop_of(L, getiter, -1) != NULL;
}

int cj_lower_prange_header(cj_lower *L, int block) {
    LLVMPositionBuilderAtEnd(L->b, L->blocks[block]);
    LLVMBuildBr(L->b, L->blocks[loop_of(L, NULL, block)->exit]);
    return 0;
}

/* ---- the outlined body ---- */

/* The partials' struct: a field per reduction variable, in variable order (field[v], or -1). */
static LLVMTypeRef partial_type(cj_lower *L, const prange_loop *p, int *field) {
    LLVMTypeRef f[256];
    unsigned n = 0;
    for (int v = 0; v < L->ir->vars.len; v++) {
        field[v] = -1;
        if (IS_REDUCTION(p->cls[v]) && n < 256) {
            field[v] = (int)n;
            f[n++] = cj_llvm_type(L->ctx, CJ_VAR(L->ir, v)->type);
        }
    }
    return LLVMStructTypeInContext(L->ctx, f, n, 0);
}

/* Where a chunk's reduction starts: 1 for *, the type's largest value for min (+inf for
 * floats), its smallest for max (0 for + is the slot's zero). */
static LLVMValueRef identity(cj_lower *B, int kind, const cj_type *t) {
    LLVMTypeRef lt = cj_llvm_type(B->ctx, t);
    if (kind == VAR_REDUCE_MUL) {
        return cj_cast(B, cj_i64(B, 1), cj_t_int64, t);
    }
    int big = kind == VAR_REDUCE_MIN;
    if (t->kind == CJ_FLOAT) {
        return LLVMConstReal(lt, big ? HUGE_VAL : -HUGE_VAL);
    }
    unsigned long long top = t->is_signed ? (1ULL << (t->bits - 1)) - 1 : ~0ULL >> (64 - t->bits);
    unsigned long long bottom = t->is_signed ? 1ULL << (t->bits - 1) : 0;
    return LLVMConstInt(lt, big ? top : bottom, 0);
}

/* Shared variables are read from the function's slots (their addresses in ctx, in variable
 * order) once, into the body's own; the others start as the body's, reductions from their
 * identity. */
static void body_slots(cj_lower *B, const prange_loop *p, LLVMValueRef ctx) {
    LLVMBuilderRef b = LLVMCreateBuilderInContext(B->ctx);
    LLVMPositionBuilderAtEnd(b, B->alloca_bb);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(B->ctx), 0);
    for (int v = 0, j = 0; v < B->ir->vars.len; v++) {
        const cj_type *t = CJ_VAR(B->ir, v)->type;
        if (t == NULL) {
            continue;
        }
        if (p->cls[v] != VAR_SHARED) {
            cj_make_var_slot(B, v);
            if (IS_REDUCTION(p->cls[v]) && p->cls[v] != VAR_REDUCE_ADD) {
                LLVMBuildStore(b, identity(B, p->cls[v], t), B->slots[v]);
            }
            continue;
        }
        LLVMValueRef at = cj_i64(B, j++);
        LLVMValueRef addr = LLVMBuildLoad2(b, i8p, LLVMBuildGEP2(b, i8p, ctx, &at, 1, ""), "");
        cj_copy_in(B, b, v, addr);
    }
    LLVMDisposeBuilder(b);
}

/* The loop's value at iteration k: range.start + k * range.step. For prange(n) it is k, which
 * LLVM then knows is not negative (chunks start at 0 or above: an assumption it is told), so
 * an index by it needs no wrap-around. */
static LLVMValueRef loop_value(cj_lower *B, const prange_loop *p, LLVMValueRef k) {
    LLVMBuilderRef b = B->b;
    LLVMTypeRef i1 = LLVMInt1TypeInContext(B->ctx);
    LLVMValueRef assume = cj_runtime_fn(B, "llvm.assume", LLVMVoidTypeInContext(B->ctx), &i1, 1);
    LLVMValueRef first = LLVMBuildICmp(b, LLVMIntSGE, LLVMGetParam(B->fn, 1), cj_i64(B, 0), "");
    LLVMBuildCall2(b, LLVMGlobalGetValueType(assume), assume, &first, 1, "");
    if (p->from_zero) {
        return k;
    }
    LLVMValueRef range = cj_load_var(B, p->getiter->args[0]);
    return LLVMBuildAdd(b, LLVMBuildExtractValue(b, range, 0, ""),
                        LLVMBuildMul(b, k, LLVMBuildExtractValue(b, range, 2, ""), ""), "i");
}

/* for (k = start; k < stop; k++) { i = range.start + k * range.step; body } then the
 * reductions into *partial. The body's jumps back to the header go to the latch. */
static void drive(cj_lower *B, const prange_loop *p, LLVMTypeRef partial_t, const int *field) {
    LLVMBuilderRef b = B->b;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(B->ctx);
    LLVMValueRef counter = cj_entry_alloca(B, i64, "k");
    LLVMBasicBlockRef head = cj_new_bb(B, "prange_head"), set = cj_new_bb(B, "prange_index");
    LLVMBasicBlockRef done = cj_new_bb(B, "prange_done");
    LLVMPositionBuilderAtEnd(b, B->alloca_bb);
    LLVMBuildStore(b, LLVMGetParam(B->fn, 1), counter);
    LLVMBuildBr(b, head);
    LLVMPositionBuilderAtEnd(b, head);
    LLVMValueRef k = LLVMBuildLoad2(b, i64, counter, "k");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, k, LLVMGetParam(B->fn, 2), ""), set, done);
    LLVMPositionBuilderAtEnd(b, set);
    cj_store_var(B, p->iternext->dst, loop_value(B, p, k), cj_t_int64);
    LLVMBuildBr(b, B->blocks[p->entry]);
    LLVMPositionBuilderAtEnd(b, B->blocks[p->header]); /* the latch */
    LLVMValueRef next = LLVMBuildNSWAdd(b, LLVMBuildLoad2(b, i64, counter, ""), cj_i64(B, 1), "");
    cj_ub_proof(next, "position: below stop, an iteration count (<= INT64_MAX)");
    LLVMBuildStore(b, next, counter);
    LLVMBuildBr(b, head);
    LLVMPositionBuilderAtEnd(b, done);
    LLVMValueRef out = LLVMBuildBitCast(b, LLVMGetParam(B->fn, 3),
                                        LLVMPointerType(partial_t, 0), "");
    for (int v = 0; v < B->ir->vars.len; v++) {
        if (field[v] >= 0) {
            LLVMBuildStore(b, cj_load_var(B, v),
                           LLVMBuildStructGEP2(b, partial_t, out, (unsigned)field[v], ""));
        }
    }
    cj_emit_return(B, LLVMConstInt(LLVMInt32TypeInContext(B->ctx), 0, 0));
}

/* Lowers the loop's body blocks into a new function (see the file's comment). */
static LLVMValueRef outline(cj_lower *P, prange_loop *p) {
    cj_func_ir *ir = P->ir;
    cj_lower_env env = *P->env;
    env.at_line = NULL; /* the line table belongs to the function's subprogram */
    env.parallel = 0;   /* array expressions in the body run on its thread */
    cj_lower B = {.ir = ir, .env = &env, .ctx = P->ctx, .mod = P->mod, .ret_type = cj_t_none,
                  .argtypes = P->argtypes};
    int *field = cj_arena_alloc(&ir->arena, sizeof(int) * (size_t)ir->vars.len);
    B.slots = cj_arena_alloc(&ir->arena, sizeof(LLVMValueRef) * (size_t)(ir->vars.len + 1));
    B.blocks = cj_arena_alloc(&ir->arena, sizeof(LLVMBasicBlockRef) * (size_t)ir->blocks.len);
    if (field == NULL || B.slots == NULL || B.blocks == NULL) {
        return PyErr_NoMemory(), NULL;
    }
    B.fn = cj_pool_function(P, "prange");
    cj_mark_function(&B); /* fastmath */
    B.b = LLVMCreateBuilderInContext(B.ctx);
    B.alloca_bb = cj_new_bb(&B, "entry");
    LLVMPositionBuilderAtEnd(B.b, B.alloca_bb);
    B.ret_ptr = LLVMConstNull(LLVMPointerType(cj_llvm_type(B.ctx, cj_t_none), 0));
    body_slots(&B, p, LLVMBuildBitCast(B.b, LLVMGetParam(B.fn, 0), LLVMPointerType(
                                           LLVMPointerType(LLVMInt8TypeInContext(B.ctx), 0), 0),
                                       "ctx"));
    int rc = cj_plan_refs(&B) == 0 && cj_find_fused_array_ops(&B) == 0 ? 0 : -1;
    for (int v = 0; rc == 0 && v < ir->vars.len; v++) {
        if (p->cls[v] == VAR_SHARED) {
            B.ref_plan[v] = CJ_REFS_BORROWED; /* the function's references */
        }
    }
    memset(B.blocks, 0, sizeof(LLVMBasicBlockRef) * (size_t)ir->blocks.len);
    for (int b = 0; b < ir->blocks.len; b++) {
        if (p->in_body[b] && CJ_BLOCK(ir, b)->reachable) {
            B.blocks[b] = cj_new_bb(&B, "body");
        }
    }
    B.blocks[p->header] = cj_new_bb(&B, "prange_latch");
    if (rc == 0) {
        drive(&B, p, partial_type(&B, p, field), field);
    }
    for (int b = 0; rc == 0 && b < ir->blocks.len; b++) {
        if (p->in_body[b] && CJ_BLOCK(ir, b)->reachable) {
            rc = cj_lower_block(&B, b);
        }
    }
    if (rc == 0) {
        cj_finish_exit(&B);
        cj_seal_empty_blocks(&B);
    }
    LLVMDisposeBuilder(B.b);
    return rc == 0 ? B.fn : NULL;
}

/* ---- the call ---- */

typedef struct combine {
    const prange_loop *p;
    LLVMTypeRef partial_t;
    LLVMValueRef partials;
    const int *field;
} combine;

/* v = v op partials[c].v for each reduction (the loop over chunks, in order). */
static void combine_chunk(cj_lower *L, LLVMValueRef c, void *arg) {
    const combine *m = arg;
    LLVMValueRef idx[2] = {cj_i64(L, 0), c};
    LLVMTypeRef all = LLVMArrayType(m->partial_t, CJ_PARALLEL_MAX_THREADS);
    LLVMValueRef chunk = LLVMBuildGEP2(L->b, all, m->partials, idx, 2, "");
    for (int v = 0; v < L->ir->vars.len; v++) {
        if (m->field[v] < 0) {
            continue;
        }
        const cj_type *t = CJ_VAR(L->ir, v)->type;
        LLVMValueRef part = LLVMBuildLoad2(L->b, cj_llvm_type(L->ctx, t),
                                           LLVMBuildStructGEP2(L->b, m->partial_t, chunk,
                                                               (unsigned)m->field[v], ""), "");
        int kind = m->p->cls[v];
        LLVMValueRef acc = cj_load_var(L, v);
        acc = kind == VAR_REDUCE_MIN || kind == VAR_REDUCE_MAX
                  ? cj_pick_minmax(L, kind == VAR_REDUCE_MAX, acc, part, t)
                  : cj_lower_binop(L, kind == VAR_REDUCE_MUL ? CJ_MUL : CJ_ADD, acc, t, part, t,
                                   t, t);
        cj_store_var(L, v, acc, t);
    }
}

/* ctx: the addresses of the shared variables' slots, in variable order. */
static LLVMValueRef shared_slots(cj_lower *L, const prange_loop *p) {
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    int n = 0;
    for (int v = 0; v < L->ir->vars.len; v++) {
        n += p->cls[v] == VAR_SHARED && CJ_VAR(L->ir, v)->type != NULL;
    }
    LLVMValueRef ctx = cj_entry_alloca(L, LLVMArrayType(i8p, (unsigned)(n > 0 ? n : 1)), "ctx");
    for (int v = 0, j = 0; v < L->ir->vars.len; v++) {
        if (p->cls[v] == VAR_SHARED && CJ_VAR(L->ir, v)->type != NULL) {
            LLVMValueRef idx[2] = {cj_i64(L, 0), cj_i64(L, j++)};
            LLVMBuildStore(L->b, LLVMBuildBitCast(L->b, L->slots[v], i8p, ""),
                           LLVMBuildGEP2(L->b, LLVMArrayType(i8p, (unsigned)n), ctx, idx, 2, ""));
        }
    }
    return LLVMBuildBitCast(L->b, ctx, i8p, "");
}

int cj_lower_prange(cj_lower *L, cj_instr *getiter) {
    prange_loop *p = loop_of(L, getiter, -1);
    LLVMValueRef body = outline(L, p);
    int *field = cj_arena_alloc(&L->ir->arena, sizeof(int) * (size_t)L->ir->vars.len);
    if (body == NULL || field == NULL) {
        return body == NULL ? -1 : (PyErr_NoMemory(), -1);
    }
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx), i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMTypeRef partial_t = partial_type(L, p, field);
    LLVMValueRef partials = cj_entry_alloca(L, LLVMArrayType(partial_t, CJ_PARALLEL_MAX_THREADS),
                                            "partials");
    LLVMValueRef status = cj_entry_alloca(L, i32, "status");
    LLVMTypeRef params[6] = {i8p, i8p, i64, i8p, i64, LLVMPointerType(i32, 0)};
    LLVMValueRef fn = cj_runtime_fn(L, "cj_parallel_for", i64, params, 6);
    LLVMValueRef args[6] = {LLVMBuildBitCast(L->b, body, i8p, ""), shared_slots(L, p),
                            cj_range_len(L, cj_load_var(L, getiter->args[0])),
                            LLVMBuildBitCast(L->b, partials, i8p, ""),
                            LLVMSizeOf(partial_t), status};
    LLVMValueRef chunks = LLVMBuildCall2(L->b, LLVMGlobalGetValueType(fn), fn, args, 6, "chunks");
    cj_emit_check_status(L, LLVMBuildLoad2(L->b, i32, status, ""));
    combine m = {p, partial_t, partials, field};
    cj_emit_for(L, chunks, combine_chunk, &m);
    return 0;
}

/* get_thread_id() / get_num_threads() in compiled code: the pool's answers, as int64. On
 * CUDA these are not compiled (typing refuses no builtin there: the CPU's runtime is not
 * linked into kernels, so the call is an UnsupportedError). */
LLVMValueRef cj_lower_thread_query(cj_lower *L, int id) {
    if (L->env->target != CJ_TARGET_CPU) {
        PyErr_SetString(cj_UnsupportedError, "get_thread_id()/get_num_threads() are not "
                                             "supported in CUDA code");
        return NULL;
    }
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMValueRef fn = cj_runtime_fn(L, id == CJ_B_GET_THREAD_ID ? "cj_get_thread_id"
                                                                : "cj_get_num_threads",
                                    i32, NULL, 0);
    LLVMValueRef v = LLVMBuildCall2(L->b, LLVMGlobalGetValueType(fn), fn, NULL, 0, "");
    return LLVMBuildSExt(L->b, v, LLVMInt64TypeInContext(L->ctx), "");
}
