/* dict.h: the dictionaries compiled code makes (numba's typed dict) and the hashing of their
 * keys, shared by compiled code (through cpu.c's symbols), jit/typed_dict.c and the tests.
 * Called without the GIL: failures return NULL/-1 with no exception. */
#ifndef CJ_ABI_DICT_H
#define CJ_ABI_DICT_H

#include "abi/abi.h"

/* ---- hash.c: a key's hash and equality, one rule per key kind ----
 * A key is described by a prefix code of int32 pairs (kind, offset of the field in the key's
 * bytes): a scalar is one pair; CJ_KEY_TUPLE's pair holds the item count in place of the
 * offset and is followed by its items' codes. A new key type (strings) adds a kind here, its
 * case in hash.c's switches (hash, equality, size check), its code in types/dictlayout.c and
 * its type in typing/dicts.c's cj_type_is_hashable; keys holding memory give dictlayout.c
 * their reference offsets (dict.c already drops a key's references). */
enum {
    CJ_KEY_BOOL, CJ_KEY_I8, CJ_KEY_I16, CJ_KEY_I32, CJ_KEY_I64,
    CJ_KEY_U8, CJ_KEY_U16, CJ_KEY_U32, CJ_KEY_U64, CJ_KEY_F32, CJ_KEY_F64, CJ_KEY_TUPLE,
    CJ_KEY_C64, CJ_KEY_C128, /* complex: two floats, hashed as CPython's complex */
    CJ_KEY_STR, /* a string: its cj_meminfo * (abi/unicode.c's hash and equality) */
};
/* CPython's hash() of an int (modulo 2**61 - 1, -1 becoming -2): the one rule, here so that
 * dict.c's int64 keys hash inline where hash.c's switch would cost a call per operation. */
#define CJ_HASH_MODULUS (((uint64_t)1 << 61) - 1)
static inline int64_t cj_hash_unsigned(uint64_t v) {
    uint64_t h = v < CJ_HASH_MODULUS ? v : v % CJ_HASH_MODULUS; /* most ints are their hash */
    return (int64_t)h == -1 ? -2 : (int64_t)h;
}
static inline int64_t cj_hash_signed(int64_t v) {
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    uint64_t h = mag < CJ_HASH_MODULUS ? mag : mag % CJ_HASH_MODULUS;
    h = v < 0 ? (uint64_t)0 - h : h;
    return (int64_t)h == -1 ? -2 : (int64_t)h;
}
/* The most int32 a key's code may take (2 per scalar or tuple). */
#define CJ_KEY_MAX_CODE 64
/* CPython's hash() of the key at `key` (its int, float and tuple rules; NaN hashes to 0, as
 * numba's and Python's before 3.10). */
int64_t cj_key_hash(const int32_t *code, const char *key);
/* Whether two keys are equal as Python's == says (-0.0 == 0.0, NaN never). */
int cj_key_equal(const int32_t *code, const char *a, const char *b);
/* 0 when `code` (of `n` int32) is well formed, else -1. */
int cj_key_code_check(const int32_t *code, int32_t n, int64_t key_size);

/* ---- dict.c: an insertion-ordered open-addressing table, as CPython's ----
 * A dict value is the cj_meminfo * of its allocation; its data is a cj_dict. Entries lie in
 * insertion order, each: int64 hash (CJ_DICT_DELETED once deleted), the key's bytes, the
 * value's bytes (each part 8-aligned). The dict holds one reference to what each entry holds
 * (at `refs`: nkeyrefs in the key then nvalrefs in the value, offsets from the entry's start):
 * an insert takes the caller's, deleting and freeing drop them, pop hands the value's over. */
typedef struct cj_dict {
    int64_t used;     /* first: the live entries (len) */
    int64_t nentries; /* entries written, deleted ones included */
    int64_t usable;   /* entries that fit before the table grows */
    int64_t mask;     /* index slots - 1 (a power of two, less one) */
    void *indices;    /* int32 (int64 when wide): -1 empty, -2 deleted, else an entry */
    int64_t wide;
    char *entries;
    int64_t key_size, val_size, entry_size, val_offset;
    int32_t nkeyrefs, nvalrefs, ncode;
    int32_t refs[CJ_LIST_MAX_REFS];
    int32_t code[CJ_KEY_MAX_CODE];
    void *parent;     /* a reflected set's Python set (jit/reflect_set.c), borrowed for the
                       * call, or NULL (abi/set.h: a set is a dict of no values) */
} cj_dict;
/* cj_dict_new's arguments for a DictType (types/dictlayout.c's cj_abi_dict_layout). */
typedef struct cj_dict_layout {
    int64_t key_size, val_size;
    int32_t code[CJ_KEY_MAX_CODE];
    int ncode, nkeyrefs, nvalrefs;
    int32_t refs[CJ_LIST_MAX_REFS];
} cj_dict_layout;
#define CJ_DICT_DELETED INT64_MIN
/* Where an entry's value starts: after the hash and the key rounded up to 8 bytes. */
#define CJ_DICT_VAL_OFFSET(key_size) (8 + (((key_size) + 7) / 8) * 8)
/* A new empty dict and its one reference, or NULL (out of memory or a malformed description:
 * `code` as hash.c reads it, `refs` nkeyrefs + nvalrefs offsets from an entry's start). */
cj_meminfo *cj_dict_new(int64_t key_size, int64_t val_size, const int32_t *code, int32_t ncode,
                        const int32_t *refs, int32_t nkeyrefs, int32_t nvalrefs);
int64_t cj_dict_len(cj_meminfo *mi);
/* The bytes of the value of `key`, or NULL when it is missing. */
char *cj_dict_lookup(cj_meminfo *mi, const char *key);
/* d[key] = val, taking what both hold (a replaced value's and an unused key's are dropped):
 * 0, or -1 out of memory (nothing taken). */
int cj_dict_insert(cj_meminfo *mi, const char *key, const char *val);
/* Removes `key`, its value's bytes (and references) copied to `val_out`: 1, or 0 missing. */
int cj_dict_pop(cj_meminfo *mi, const char *key, char *val_out);
/* Removes the last entry into key_out and val_out (handing over what they hold): 1, 0 empty. */
int cj_dict_popitem(cj_meminfo *mi, char *key_out, char *val_out);
void cj_dict_clear(cj_meminfo *mi);
/* A new dict with the same entries (each holding new references), or NULL. */
cj_meminfo *cj_dict_copy(cj_meminfo *mi);
/* dst.update(src) for dicts of one type: 0, or -1 out of memory. */
int cj_dict_update(cj_meminfo *dst, cj_meminfo *src);
/* The next live entry at or after *pos (then *pos moves past it), or NULL at the end. */
char *cj_dict_next(cj_meminfo *mi, int64_t *pos);

#endif
