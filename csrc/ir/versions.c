/* versions.c: numba's variable versioning (its SSA reconstruction) for named locals.
 * requires: IR from the frontend; produces: each local split into versions (x, x.1, x.2...).
 * Definitions that reach a common use must share a type, so they are one version; others are
 * independent: `x = a_list; ...; x = 1` types as two variables, as numba does, while a loop or
 * an if/else that joins two assignments still unifies them ("Cannot unify ... for 'x'").
 * Reaching definitions are a forward dataflow over the blocks; a union-find groups the
 * definitions each use sees. */
#include "ir/ir.h"

#include <string.h>

typedef struct def_site {
    int var;       /* the local */
    int block;     /* -1: the "not yet assigned" definition at entry */
    int index;     /* instruction index in the block */
} def_site;

typedef struct versioning {
    cj_func_ir *ir;
    def_site *defs;
    int ndefs;
    int words;          /* uint64 words per bit set */
    uint64_t *in, *out; /* per block */
    int *parent;        /* union-find over definitions */
    int *def_of_instr;  /* per (block, instr) flattened: the def index, or -1 */
    int *instr_base;    /* per block: offset into def_of_instr */
    int *first_def;     /* per variable: its entry pseudo-definition */
} versioning;

static int find(int *parent, int x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static void unite(int *parent, int a, int b) {
    a = find(parent, a);
    b = find(parent, b);
    if (a != b) {
        parent[b] = a;
    }
}

static int is_local(const cj_func_ir *ir, int var) {
    return var >= 0 && !CJ_VEC_AT(ir->vars, cj_var, var).is_temp;
}

#define BIT_SET(set, i) ((set)[(i) / 64] |= (uint64_t)1 << ((i) % 64))
#define BIT_CLR(set, i) ((set)[(i) / 64] &= ~((uint64_t)1 << ((i) % 64)))
#define BIT_GET(set, i) (((set)[(i) / 64] >> ((i) % 64)) & 1)

/* Numbers the definitions: one entry pseudo-definition per local, then each assignment. */
static int collect_defs(versioning *v) {
    cj_func_ir *ir = v->ir;
    int total = ir->vars.len, ninstr = 0;
    for (int b = 0; b < ir->blocks.len; b++) {
        ninstr += CJ_BLOCK(ir, b)->instrs.len;
        total += CJ_BLOCK(ir, b)->instrs.len;
    }
    v->defs = cj_arena_alloc(&ir->arena, sizeof(def_site) * (size_t)(total + 1));
    v->def_of_instr = cj_arena_alloc(&ir->arena, sizeof(int) * (size_t)(ninstr + 1));
    v->instr_base = cj_arena_alloc(&ir->arena, sizeof(int) * (size_t)(ir->blocks.len + 1));
    v->first_def = cj_arena_alloc(&ir->arena, sizeof(int) * (size_t)(ir->vars.len + 1));
    if (!v->defs || !v->def_of_instr || !v->instr_base || !v->first_def) {
        return -1;
    }
    for (int var = 0; var < ir->vars.len; var++) {
        v->first_def[var] = -1;
        if (is_local(ir, var)) {
            v->first_def[var] = v->ndefs;
            v->defs[v->ndefs++] = (def_site){var, -1, -1};
        }
    }
    int base = 0;
    for (int b = 0; b < ir->blocks.len; b++) {
        cj_block *blk = CJ_BLOCK(ir, b);
        v->instr_base[b] = base;
        for (int i = 0; i < blk->instrs.len; i++) {
            cj_instr *in = CJ_INSTR(blk, i);
            v->def_of_instr[base + i] = -1;
            if (is_local(ir, in->dst)) {
                v->def_of_instr[base + i] = v->ndefs;
                v->defs[v->ndefs++] = (def_site){in->dst, b, i};
            }
        }
        base += blk->instrs.len;
    }
    return 0;
}

/* Applies block b's definitions to `set` (a kill of the variable's others, then a gen). */
static void transfer(versioning *v, int b, uint64_t *set, int upto) {
    cj_block *blk = CJ_BLOCK(v->ir, b);
    for (int i = 0; i < upto && i < blk->instrs.len; i++) {
        int d = v->def_of_instr[v->instr_base[b] + i];
        if (d < 0) {
            continue;
        }
        for (int k = 0; k < v->ndefs; k++) {
            if (v->defs[k].var == v->defs[d].var) {
                BIT_CLR(set, k);
            }
        }
        BIT_SET(set, d);
    }
}

static int successors(cj_block *blk, int *succ) {
    cj_instr *t = cj_block_terminator(blk);
    if (t == NULL) {
        return 0;
    }
    if (t->op == CJ_I_JUMP) {
        succ[0] = t->target;
        return 1;
    }
    if (t->op == CJ_I_BRANCH) {
        succ[0] = t->target;
        succ[1] = t->target2;
        return 2;
    }
    return 0;
}

/* An exception can leave block b at any instruction: its handler sees what reached b and
 * every definition b makes. Returns whether the handler's in-set grew. */
static int merge_into_handler(versioning *v, int b, const uint64_t *in, const uint64_t *out) {
    int h = CJ_BLOCK(v->ir, b)->handler, changed = 0;
    uint64_t *hin = v->in + (size_t)h * (size_t)v->words;
    for (int w = 0; w < v->words; w++) {
        uint64_t merged = hin[w] | in[w] | out[w];
        changed |= merged != hin[w];
        hin[w] = merged;
    }
    cj_block *blk = CJ_BLOCK(v->ir, b);
    for (int i = 0; i < blk->instrs.len; i++) {
        int d = v->def_of_instr[v->instr_base[b] + i];
        if (d >= 0 && !BIT_GET(hin, d)) {
            BIT_SET(hin, d);
            changed = 1;
        }
    }
    return changed;
}

/* Forward dataflow to a fixpoint: in[b] = union of out[pred] (and of what reaches anywhere
 * in a block whose handler b is); out[b] = transfer(in[b]). */
static int reaching(versioning *v) {
    cj_func_ir *ir = v->ir;
    int nb = ir->blocks.len;
    v->words = (v->ndefs + 63) / 64;
    size_t bytes = sizeof(uint64_t) * (size_t)v->words * (size_t)nb;
    v->in = cj_arena_alloc(&ir->arena, bytes + 8);
    v->out = cj_arena_alloc(&ir->arena, bytes + 8);
    uint64_t *tmp = cj_arena_alloc(&ir->arena, sizeof(uint64_t) * (size_t)v->words + 8);
    if (!v->in || !v->out || !tmp) {
        return -1;
    }
    for (int var = 0; var < ir->vars.len; var++) { /* entry: every local "not yet assigned" */
        if (v->first_def[var] >= 0) {
            BIT_SET(v->in, v->first_def[var]);
        }
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (int b = 0; b < nb; b++) {
            uint64_t *in = v->in + (size_t)b * (size_t)v->words;
            uint64_t *out = v->out + (size_t)b * (size_t)v->words;
            memcpy(tmp, in, sizeof(uint64_t) * (size_t)v->words);
            transfer(v, b, tmp, CJ_BLOCK(ir, b)->instrs.len);
            if (memcmp(tmp, out, sizeof(uint64_t) * (size_t)v->words) != 0) {
                memcpy(out, tmp, sizeof(uint64_t) * (size_t)v->words);
                changed = 1;
            }
            int succ[2];
            int ns = successors(CJ_BLOCK(ir, b), succ);
            for (int s = 0; s < ns; s++) {
                uint64_t *sin = v->in + (size_t)succ[s] * (size_t)v->words;
                for (int w = 0; w < v->words; w++) {
                    uint64_t merged = sin[w] | out[w];
                    if (merged != sin[w]) {
                        sin[w] = merged;
                        changed = 1;
                    }
                }
            }
            if (CJ_BLOCK(ir, b)->handler >= 0 && merge_into_handler(v, b, in, out)) {
                changed = 1;
            }
        }
    }
    return 0;
}

/* Unites, for every use of a local, the definitions that reach it. */
static int group_uses(versioning *v) {
    cj_func_ir *ir = v->ir;
    uint64_t *set = cj_arena_alloc(&ir->arena, sizeof(uint64_t) * (size_t)v->words + 8);
    v->parent = cj_arena_alloc(&ir->arena, sizeof(int) * (size_t)(v->ndefs + 1));
    if (set == NULL || v->parent == NULL) {
        return -1;
    }
    for (int d = 0; d < v->ndefs; d++) {
        v->parent[d] = d;
    }
    for (int b = 0; b < ir->blocks.len; b++) {
        cj_block *blk = CJ_BLOCK(ir, b);
        memcpy(set, v->in + (size_t)b * (size_t)v->words, sizeof(uint64_t) * (size_t)v->words);
        for (int i = 0; i < blk->instrs.len; i++) {
            cj_instr *in = CJ_INSTR(blk, i);
            for (int a = 0; a < in->nargs; a++) {
                int var = in->args[a];
                if (!is_local(ir, var)) {
                    continue;
                }
                int first = -1;
                for (int d = 0; d < v->ndefs; d++) {
                    if (v->defs[d].var == var && BIT_GET(set, d)) {
                        if (first < 0) {
                            first = d;
                        } else {
                            unite(v->parent, first, d);
                        }
                    }
                }
            }
            int d = v->def_of_instr[v->instr_base[b] + i];
            if (d >= 0) {
                for (int k = 0; k < v->ndefs; k++) {
                    if (v->defs[k].var == v->defs[d].var) {
                        BIT_CLR(set, k);
                    }
                }
                BIT_SET(set, d);
            }
        }
    }
    return 0;
}

/* A new variable (x.1, x.2 ...) for each group without one, in the order of their first
 * definitions, before any use is renamed: a use may come in a block before its definition's
 * (blocks a transform appended, ir/unroll.c). */
static int new_versions(versioning *v, int *version, int *count) {
    cj_func_ir *ir = v->ir;
    for (int d = 0; d < v->ndefs; d++) {
        int var = v->defs[d].var, root = find(v->parent, d);
        if (v->defs[d].block < 0 || version[root] >= 0) {
            continue;
        }
        const cj_instr *in = CJ_INSTR(CJ_BLOCK(ir, v->defs[d].block), v->defs[d].index);
        char name[256];
        PyOS_snprintf(name, sizeof(name), "%s.%d", CJ_VAR(ir, var)->name, ++count[var]);
        int nv = cj_ir_new_var(ir, name, in->line);
        if (nv < 0) {
            return -1;
        }
        version[root] = nv;
    }
    return 0;
}

/* The version variable of each group: the group holding the entry definition (and so every
 * use that may see the parameter or an unassigned value) keeps the original variable. */
static int rename_versions(versioning *v) {
    cj_func_ir *ir = v->ir;
    int *version = cj_arena_alloc(&ir->arena, sizeof(int) * (size_t)(v->ndefs + 1));
    int *count = cj_arena_alloc(&ir->arena, sizeof(int) * (size_t)(ir->vars.len + 1));
    if (version == NULL || count == NULL) {
        return -1;
    }
    for (int d = 0; d < v->ndefs; d++) {
        version[d] = -1;
    }
    for (int var = 0; var < ir->vars.len; var++) {
        if (v->first_def[var] >= 0) {
            version[find(v->parent, v->first_def[var])] = var;
        }
    }
    if (new_versions(v, version, count) < 0) {
        return -1;
    }
    uint64_t *set = cj_arena_alloc(&ir->arena, sizeof(uint64_t) * (size_t)v->words + 8);
    if (set == NULL) {
        return -1;
    }
    for (int b = 0; b < ir->blocks.len; b++) {
        cj_block *blk = CJ_BLOCK(ir, b);
        memcpy(set, v->in + (size_t)b * (size_t)v->words, sizeof(uint64_t) * (size_t)v->words);
        for (int i = 0; i < blk->instrs.len; i++) {
            cj_instr *in = CJ_INSTR(blk, i);
            for (int a = 0; a < in->nargs; a++) { /* a use: the version of what reaches it */
                int var = in->args[a];
                if (!is_local(ir, var)) {
                    continue;
                }
                for (int d = 0; d < v->ndefs; d++) {
                    if (v->defs[d].var == var && BIT_GET(set, d)) {
                        int root = find(v->parent, d);
                        if (version[root] >= 0) {
                            in->args[a] = version[root];
                        }
                        break;
                    }
                }
            }
            int d = v->def_of_instr[v->instr_base[b] + i];
            if (d < 0) {
                continue;
            }
            int var = v->defs[d].var, root = find(v->parent, d);
            for (int k = 0; k < v->ndefs; k++) {
                if (v->defs[k].var == var) {
                    BIT_CLR(set, k);
                }
            }
            BIT_SET(set, d);
            in->dst = version[root];
        }
    }
    return 0;
}

int cj_version_locals(cj_func_ir *ir) {
    versioning v = {.ir = ir};
    if (collect_defs(&v) < 0 || reaching(&v) < 0 || group_uses(&v) < 0 || rename_versions(&v) < 0) {
        return -1;
    }
    return 0;
}
