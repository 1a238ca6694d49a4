/* set.h: the sets compiled code makes (numba's set type): a cj_dict (abi/dict.h) whose
 * values have no bytes, so a set's table, growth, hashing (hash.c) and the references its
 * elements hold are the dict's; set.c adds what only sets do (the algebra and comparisons).
 * Called without the GIL: failures return NULL/-1 with no exception. */
#ifndef CJ_ABI_SET_H
#define CJ_ABI_SET_H

#include "abi/dict.h"

/* cj_set_binop's and cj_set_inplace's operations: a | b, a & b, a - b, a ^ b. */
enum { CJ_SET_OR, CJ_SET_AND, CJ_SET_SUB, CJ_SET_XOR };
/* cj_set_compare's: ==, !=, <= (issubset), <, >= (issuperset), >, isdisjoint. */
enum { CJ_SETCMP_EQ, CJ_SETCMP_NE, CJ_SETCMP_LE, CJ_SETCMP_LT, CJ_SETCMP_GE, CJ_SETCMP_GT,
       CJ_SETCMP_DISJOINT };

/* s.add(key), taking what the key holds (dropped when it is there already): 0, or -1 out of
 * memory (nothing taken). */
int cj_set_add(cj_meminfo *mi, const char *key);
/* Whether `key` is in the set (1 or 0). */
int cj_set_contains(cj_meminfo *mi, const char *key);
/* Removes `key`, dropping what it held: 1, or 0 when it is missing. */
int cj_set_discard(cj_meminfo *mi, const char *key);
/* Removes the last added element into key_out (handing over what it holds): 1, 0 empty. */
int cj_set_pop(cj_meminfo *mi, char *key_out);
/* A new set (its one reference): a `op` b for two sets of one type; NULL out of memory. */
cj_meminfo *cj_set_binop(cj_meminfo *a, cj_meminfo *b, int op);
/* a `op`= b in place (a keeps its identity): 0, or -1 out of memory (a unchanged). */
int cj_set_inplace(cj_meminfo *a, cj_meminfo *b, int op);
/* a `op` b for a cj_set_compare operation: 1 or 0. */
int cj_set_compare(cj_meminfo *a, cj_meminfo *b, int op);

#endif
