/* dict.c: the dicts compiled code makes (dict.h's cj_dict, numba's typed dict): CPython's
 * compact design, an index table probed by perturbed open addressing over entries kept in
 * insertion order; it grows (to four times the live entries, as CPython's) when two thirds of
 * the slots have been written. An NRT allocation whose destructor drops what the entries
 * hold. Keys hash and compare by hash.c, except one int64/uint64, hashed (dict.h's rule) and
 * compared inline; growth with nothing deleted reallocs the entries and rebuilds the index
 * only (docs/architecture.md, "The dict table"). Called without the GIL: failures return
 * NULL/-1. */
#include "abi/dict.h"

#include <stdlib.h>
#include <string.h>

#define EMPTY (-1)
#define DUMMY (-2)
#define PERTURB_SHIFT 5
#define MIN_SLOTS 8

/* Whether the key is one int64 or uint64 (dict.h's commonest): its hash (dict.h's
 * cj_hash_signed/cj_hash_unsigned, never the deleted mark) and equality are inline here. */
static int int64_key(const cj_dict *d) {
    return d->ncode == 2 && (d->code[0] == CJ_KEY_I64 || d->code[0] == CJ_KEY_U64);
}

static uint64_t key_bits(const char *key) {
    uint64_t k;
    memcpy(&k, key, sizeof(k));
    return k;
}

/* The hash of an int64_key (never the deleted mark: it is below 2**61 in magnitude). */
static int64_t int64_hash(const cj_dict *d, uint64_t k) {
    return d->code[0] == CJ_KEY_I64 ? cj_hash_signed((int64_t)k) : cj_hash_unsigned(k);
}

/* A key's hash as the table stores it: never the deleted mark. */
static int64_t table_hash(const cj_dict *d, const char *key) {
    if (int64_key(d)) {
        return int64_hash(d, key_bits(key));
    }
    int64_t h = cj_key_hash(d->code, key);
    return h == CJ_DICT_DELETED ? h + 1 : h;
}

/* Index slot `j`: int32 while the table is below 2**31 entries (CPython's narrow indices: half
 * the cache misses of a large table), int64 beyond. */
static int64_t ix_get(const cj_dict *d, uint64_t j) {
    return d->wide ? ((const int64_t *)d->indices)[j] : ((const int32_t *)d->indices)[j];
}

static void ix_set(cj_dict *d, uint64_t j, int64_t v) {
    if (d->wide) {
        ((int64_t *)d->indices)[j] = v;
    } else {
        ((int32_t *)d->indices)[j] = (int32_t)v;
    }
}

static char *entry_at(const cj_dict *d, int64_t i) { return d->entries + i * d->entry_size; }

/* Copies a key's or value's `n` bytes: the common 8 as one move, not a call of memcpy. */
static void copy_part(char *dst, const char *src, int64_t n) {
    if (n == 8) {
        memcpy(dst, src, 8);
    } else if (n > 0) {
        memcpy(dst, src, (size_t)n);
    }
}

static int64_t entry_hash(const char *e) {
    int64_t h;
    memcpy(&h, e, sizeof(h));
    return h;
}

/* Drops the references at refs[first .. first + n) of entry `e`. */
static void drop_refs(const cj_dict *d, const char *e, int32_t first, int32_t n) {
    for (int32_t k = first; k < first + n; k++) {
        cj_meminfo *held;
        memcpy(&held, e + d->refs[k], sizeof(held));
        cj_nrt_decref(held);
    }
}

static void take_refs(const cj_dict *d, const char *e) {
    for (int32_t k = 0; k < d->nkeyrefs + d->nvalrefs; k++) {
        cj_meminfo *held;
        memcpy(&held, e + d->refs[k], sizeof(held));
        cj_nrt_incref(held);
    }
}

static void drop_all(cj_dict *d) {
    if (d->nkeyrefs + d->nvalrefs == 0) { /* scalars: nothing to visit */
        return;
    }
    for (int64_t i = 0; i < d->nentries; i++) {
        const char *e = entry_at(d, i);
        if (entry_hash(e) != CJ_DICT_DELETED) {
            drop_refs(d, e, 0, d->nkeyrefs + d->nvalrefs);
        }
    }
}

static void dict_dtor(cj_meminfo *mi) {
    cj_dict *d = mi->data;
    drop_all(d);
    free(d->indices);
    free(d->entries);
}

/* Points entry `n` (hash `h`) from the first empty slot of its probe: a rebuilt table has no
 * deleted slots and no equal keys, so no key is compared. */
static void place_entry(cj_dict *d, int64_t h, int64_t n) {
    uint64_t mask = (uint64_t)d->mask, perturb = (uint64_t)h, j = (uint64_t)h & mask;
    if (!d->wide) { /* the common narrow table, its width not asked per probe */
        int32_t *indices = d->indices;
        while (indices[j] != EMPTY) {
            perturb >>= PERTURB_SHIFT;
            j = (j * 5 + perturb + 1) & mask;
        }
        indices[j] = (int32_t)n;
        return;
    }
    while (ix_get(d, j) != EMPTY) {
        perturb >>= PERTURB_SHIFT;
        j = (j * 5 + perturb + 1) & mask;
    }
    ix_set(d, j, n);
}

/* The live entries moved into room for `usable` (d->nentries then counts them): with none
 * deleted, realloc, which moves a large block's pages instead of copying and faulting them in
 * again; else a new block they are copied into. 0, or -1 out of memory (the dict unchanged). */
static int compact_entries(cj_dict *d, int64_t usable) {
    size_t size = (size_t)(usable * d->entry_size);
    if (d->nentries == d->used) {
        char *entries = realloc(d->entries, size > 0 ? size : 1);
        if (entries == NULL) {
            return -1;
        }
        d->entries = entries;
        return 0;
    }
    char *entries = malloc(size > 0 ? size : 1);
    if (entries == NULL) {
        return -1;
    }
    int64_t n = 0;
    for (int64_t i = 0; i < d->nentries; i++) {
        const char *e = entry_at(d, i);
        if (entry_hash(e) != CJ_DICT_DELETED) {
            memcpy(entries + n++ * d->entry_size, e, (size_t)d->entry_size);
        }
    }
    free(d->entries);
    d->entries = entries;
    d->nentries = n;
    return 0;
}

/* Sets up `slots` index slots (a power of two) over the live entries, compacting them. */
static int rebuild(cj_dict *d, int64_t slots) {
    int64_t usable = slots * 2 / 3;
    int wide = usable > INT32_MAX;
    size_t width = wide ? sizeof(int64_t) : sizeof(int32_t);
    if (slots > INT64_MAX / 8 || usable > INT64_MAX / (d->entry_size > 0 ? d->entry_size : 1)) {
        return -1;
    }
    void *indices = malloc((size_t)slots * width);
    if (indices == NULL || compact_entries(d, usable) < 0) {
        free(indices);
        return -1;
    }
    memset(indices, 0xff, (size_t)slots * width); /* EMPTY */
    free(d->indices);
    d->indices = indices;
    d->wide = wide;
    d->mask = slots - 1;
    for (int64_t i = 0; i < d->nentries; i++) {
        place_entry(d, entry_hash(entry_at(d, i)), i);
    }
    d->usable = usable - d->nentries;
    return 0;
}

cj_meminfo *cj_dict_new(int64_t key_size, int64_t val_size, const int32_t *code, int32_t ncode,
                        const int32_t *refs, int32_t nkeyrefs, int32_t nvalrefs) {
    if (key_size < 0 || val_size < 0 || key_size > (1 << 20) || val_size > (1 << 20) ||
        nkeyrefs < 0 || nvalrefs < 0 || nkeyrefs + nvalrefs > CJ_LIST_MAX_REFS ||
        cj_key_code_check(code, ncode, key_size) < 0) {
        return NULL;
    }
    cj_meminfo *mi = cj_nrt_allocate_zeroed((int64_t)sizeof(cj_dict));
    if (mi == NULL) {
        return NULL;
    }
    cj_dict *d = mi->data;
    d->key_size = key_size;
    d->val_size = val_size;
    d->val_offset = CJ_DICT_VAL_OFFSET(key_size);
    d->entry_size = d->val_offset + (val_size + 7) / 8 * 8;
    d->nkeyrefs = nkeyrefs;
    d->nvalrefs = nvalrefs;
    d->ncode = ncode;
    memcpy(d->code, code, sizeof(int32_t) * (size_t)ncode);
    if (nkeyrefs + nvalrefs > 0) {
        memcpy(d->refs, refs, sizeof(int32_t) * (size_t)(nkeyrefs + nvalrefs));
    }
    if (rebuild(d, MIN_SLOTS) < 0) {
        cj_nrt_free(mi);
        return NULL;
    }
    mi->dtor = dict_dtor;
    return mi;
}

int64_t cj_dict_len(cj_meminfo *mi) { return ((cj_dict *)mi->data)->used; }

/* find_slot of an int64 key in a narrow table: equal bits are equal keys (and hashes), and an
 * index read once per probe. Inline in cj_dict_lookup: a lookup is bound by the index's cache
 * miss, and fewer instructions per call let the processor overlap more of them. */
static inline int64_t find_int64_slot(const cj_dict *d, uint64_t key, int64_t h, int *found) {
    const int32_t *indices = d->indices;
    const char *keys = d->entries + 8;
    uint64_t mask = (uint64_t)d->mask, perturb = (uint64_t)h, j = (uint64_t)h & mask;
    for (;;) {
        int32_t ix = indices[j];
        if (ix >= 0 && key_bits(keys + (int64_t)ix * d->entry_size) == key) {
            *found = 1;
            return (int64_t)j;
        }
        if (ix == EMPTY) {
            *found = 0;
            return (int64_t)j;
        }
        perturb >>= PERTURB_SHIFT;
        j = (j * 5 + perturb + 1) & mask;
    }
}

/* The index slot of `key` (hash `h`): one holding its entry, else the empty slot ending the
 * probe (*found 0). */
static int64_t find_slot(const cj_dict *d, const char *key, int64_t h, int *found) {
    if (int64_key(d) && !d->wide) {
        return find_int64_slot(d, key_bits(key), h, found);
    }
    uint64_t perturb = (uint64_t)h, j = (uint64_t)h & (uint64_t)d->mask;
    for (;;) {
        int64_t ix = ix_get(d, j);
        if (ix == EMPTY) {
            *found = 0;
            return (int64_t)j;
        }
        if (ix >= 0) {
            const char *e = entry_at(d, ix);
            if (entry_hash(e) == h && cj_key_equal(d->code, e + 8, key)) {
                *found = 1;
                return (int64_t)j;
            }
        }
        perturb >>= PERTURB_SHIFT;
        j = (j * 5 + perturb + 1) & (uint64_t)d->mask;
    }
}

/* The index slot holding entry `ix` (of hash `h`): found by position, not by key equality,
 * which a NaN key never has. */
static int64_t slot_of_entry(const cj_dict *d, int64_t h, int64_t ix) {
    uint64_t perturb = (uint64_t)h, j = (uint64_t)h & (uint64_t)d->mask;
    while (ix_get(d, j) != ix) {
        perturb >>= PERTURB_SHIFT;
        j = (j * 5 + perturb + 1) & (uint64_t)d->mask;
    }
    return (int64_t)j;
}

char *cj_dict_lookup(cj_meminfo *mi, const char *key) {
    cj_dict *d = mi->data;
    int found;
    int64_t j;
    if (int64_key(d) && !d->wide) {
        uint64_t k = key_bits(key);
        j = find_int64_slot(d, k, int64_hash(d, k), &found);
    } else {
        j = find_slot(d, key, table_hash(d, key), &found);
    }
    return found ? entry_at(d, ix_get(d, j)) + d->val_offset : NULL;
}

/* Room for one more entry: grows to the next power of two above 3 * used. */
static int make_room(cj_dict *d) {
    if (d->usable > 0) {
        return 0;
    }
    int64_t slots = MIN_SLOTS;
    while (slots <= 3 * d->used && slots < INT64_MAX / 4) {
        slots <<= 1;
    }
    return rebuild(d, slots);
}

int cj_dict_insert(cj_meminfo *mi, const char *key, const char *val) {
    cj_dict *d = mi->data;
    int64_t h = table_hash(d, key);
    int found;
    int64_t j = find_slot(d, key, h, &found);
    if (found) { /* the old key stays, as CPython's */
        char *e = entry_at(d, ix_get(d, j));
        drop_refs(d, e, d->nkeyrefs, d->nvalrefs);
        copy_part(e + d->val_offset, val, d->val_size);
        for (int32_t k = 0; k < d->nkeyrefs; k++) {
            cj_meminfo *held;
            memcpy(&held, key + d->refs[k] - 8, sizeof(held));
            cj_nrt_decref(held);
        }
        return 0;
    }
    if (d->usable <= 0) {
        if (make_room(d) < 0) {
            return -1;
        }
        j = find_slot(d, key, h, &found);
    }
    char *e = entry_at(d, d->nentries);
    memcpy(e, &h, sizeof(h));
    copy_part(e + 8, key, d->key_size);
    copy_part(e + d->val_offset, val, d->val_size);
    ix_set(d, j, d->nentries++);
    d->used++;
    d->usable--;
    return 0;
}

/* Unlinks the entry in slot `j`, its bytes left in place but marked deleted. */
static char *unlink_slot(cj_dict *d, int64_t j) {
    char *e = entry_at(d, ix_get(d, j));
    int64_t deleted = CJ_DICT_DELETED;
    ix_set(d, j, DUMMY);
    memcpy(e, &deleted, sizeof(deleted));
    d->used--;
    return e;
}

int cj_dict_pop(cj_meminfo *mi, const char *key, char *val_out) {
    cj_dict *d = mi->data;
    int found;
    int64_t j = find_slot(d, key, table_hash(d, key), &found);
    if (!found) {
        return 0;
    }
    char *e = unlink_slot(d, j);
    drop_refs(d, e, 0, d->nkeyrefs);
    if (val_out != NULL) {
        memcpy(val_out, e + d->val_offset, (size_t)d->val_size);
    } else {
        drop_refs(d, e, d->nkeyrefs, d->nvalrefs);
    }
    return 1;
}

int cj_dict_popitem(cj_meminfo *mi, char *key_out, char *val_out) {
    cj_dict *d = mi->data;
    while (d->nentries > 0 && entry_hash(entry_at(d, d->nentries - 1)) == CJ_DICT_DELETED) {
        d->nentries--; /* (their slots stay DUMMY) */
    }
    if (d->used == 0) {
        return 0;
    }
    char *e = entry_at(d, d->nentries - 1);
    int64_t j = slot_of_entry(d, entry_hash(e), d->nentries - 1);
    memcpy(key_out, e + 8, (size_t)d->key_size);
    memcpy(val_out, e + d->val_offset, (size_t)d->val_size);
    unlink_slot(d, j);
    return 1;
}

void cj_dict_clear(cj_meminfo *mi) {
    cj_dict *d = mi->data;
    drop_all(d);
    d->nentries = 0;
    d->used = 0;
    rebuild(d, MIN_SLOTS); /* on failure the old table stays, emptied */
    memset(d->indices, 0xff, (size_t)(d->mask + 1) * (d->wide ? 8 : 4));
    d->usable = (d->mask + 1) * 2 / 3;
}

cj_meminfo *cj_dict_copy(cj_meminfo *mi) {
    cj_dict *d = mi->data;
    cj_meminfo *out = cj_dict_new(d->key_size, d->val_size, d->code, d->ncode, d->refs,
                                  d->nkeyrefs, d->nvalrefs);
    if (out == NULL || cj_dict_update(out, mi) < 0) {
        cj_nrt_decref(out);
        return NULL;
    }
    return out;
}

int cj_dict_update(cj_meminfo *dst, cj_meminfo *src) {
    cj_dict *s = src->data;
    for (int64_t i = 0; i < s->nentries; i++) {
        const char *e = entry_at(s, i);
        if (entry_hash(e) == CJ_DICT_DELETED) {
            continue;
        }
        take_refs(s, e);
        if (cj_dict_insert(dst, e + 8, e + s->val_offset) < 0) {
            drop_refs(s, e, 0, s->nkeyrefs + s->nvalrefs);
            return -1;
        }
    }
    return 0;
}

char *cj_dict_next(cj_meminfo *mi, int64_t *pos) {
    cj_dict *d = mi->data;
    for (int64_t i = *pos; i < d->nentries; i++) {
        char *e = entry_at(d, i);
        if (entry_hash(e) != CJ_DICT_DELETED) {
            *pos = i + 1;
            return e;
        }
    }
    *pos = d->nentries;
    return NULL;
}
