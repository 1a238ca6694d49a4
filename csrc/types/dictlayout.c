/* dictlayout.c: what abi/dict.c is told of a DictType (cj_dict_new's arguments), computed once
 * here for compiled code (lower/lower_dict.c) and for cujit.typed.Dict (jit/typed_dict.c):
 * the key's and value's sizes, hash.c's key code and the references an entry holds. */
#include "abi/dict.h"
#include "types/types.h"

int cj_abi_key_code(const cj_type *t, size_t base, int32_t *code, int *n) {
    static const int ints[2][4] = {{CJ_KEY_U8, CJ_KEY_U16, CJ_KEY_U32, CJ_KEY_U64},
                                   {CJ_KEY_I8, CJ_KEY_I16, CJ_KEY_I32, CJ_KEY_I64}};
    if (*n + 2 > CJ_KEY_MAX_CODE) {
        return -1;
    }
    int at = *n;
    *n += 2;
    code[at + 1] = (int32_t)base;
    switch (t->kind) {
    case CJ_BOOL:
        code[at] = CJ_KEY_BOOL;
        return 0;
    case CJ_INT:
        code[at] = ints[t->is_signed != 0][t->bits == 8    ? 0
                                           : t->bits == 16 ? 1
                                           : t->bits == 32 ? 2
                                                           : 3];
        return 0;
    case CJ_FLOAT:
        code[at] = t->bits == 32 ? CJ_KEY_F32 : CJ_KEY_F64;
        return t->bits == 32 || t->bits == 64 ? 0 : -1;
    case CJ_COMPLEX:
        code[at] = t->bits == 64 ? CJ_KEY_C64 : CJ_KEY_C128;
        return 0;
    case CJ_TUPLE:
        code[at] = CJ_KEY_TUPLE;
        code[at + 1] = t->n;
        for (int i = 0; i < t->n; i++) {
            if (cj_abi_key_code(t->items[i], base + cj_abi_tuple_offset(t, i), code, n) < 0) {
                return -1;
            }
        }
        return 0;
    case CJ_UNICODE: /* its meminfo (hash.c) */
        code[at] = CJ_KEY_STR;
        return 0;
    default:
        return -1;
    }
}

int cj_abi_dict_layout(const cj_type *dt, cj_dict_layout *out) {
    const cj_type *k = dt->items[0], *v = dt->items[1];
    int nkey = 0, nall;
    out->ncode = 0;
    out->key_size = (int64_t)cj_abi_size(k);
    out->val_size = (int64_t)cj_abi_size(v);
    if (dt->n != 2 || cj_abi_key_code(k, 0, out->code, &out->ncode) < 0 ||
        cj_abi_ref_offsets(k, 8, out->refs, &nkey, CJ_LIST_MAX_REFS) < 0) {
        return -1;
    }
    nall = nkey; /* the value's after the key's */
    if (cj_abi_ref_offsets(v, (size_t)CJ_DICT_VAL_OFFSET(out->key_size), out->refs, &nall,
                           CJ_LIST_MAX_REFS) < 0) {
        return -1;
    }
    out->nkeyrefs = nkey;
    out->nvalrefs = nall - nkey;
    return 0;
}
