/* dicttype.c: the type of dicts (numba's DictType, of dicts made in compiled code and of
 * cujit.typed.Dict objects alike) and of the iterators over their keys, values and items. */
#include "types/types.h"

const cj_type *cj_type_dict(const cj_type *key, const cj_type *value) {
    char name[4200]; /* two names of at most 2048: never cut, as it is the key */
    int known = key != NULL && value != NULL;
    PyOS_snprintf(name, sizeof(name), "DictType[%s,%s]<iv=None>",
                  known ? key->name : "undefined", known ? value->name : "undefined");
    const cj_type *items[2] = {key, value};
    cj_type t = {.kind = CJ_DICT, .n = known ? 2 : 0, .items = known ? items : NULL};
    t.name = name;
    return cj_type_intern(&t, name);
}

const cj_type *cj_type_dict_iter(const cj_type *dict, cj_iter_kind kind) {
    const cj_type *yield = kind == CJ_ITER_DICT_KEYS ? dict->items[0] : dict->items[1];
    if (kind == CJ_ITER_DICT_ITEMS && (yield = cj_type_tuple(2, dict->items)) == NULL) {
        return NULL;
    }
    return cj_type_iter(kind, yield, dict, 0, NULL);
}

int cj_type_is_dict_view(const cj_type *t) {
    return t->kind == CJ_ITER && (t->iter_kind == CJ_ITER_DICT_KEYS ||
                                  t->iter_kind == CJ_ITER_DICT_VALUES ||
                                  t->iter_kind == CJ_ITER_DICT_ITEMS);
}
