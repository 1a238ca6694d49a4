/* util: arena allocation, growable arrays, the exception classes and the NumPy C API import.
 * Every layer may include this header. */
#ifndef CJ_UTIL_H
#define CJ_UTIL_H

#include <Python.h>
#include <stddef.h>
#include <stdint.h>

/* ---- arena.c: one arena per compilation, freed once on every path ---- */
typedef struct cj_arena_chunk cj_arena_chunk;
typedef struct cj_arena {
    cj_arena_chunk *head;
} cj_arena;

void cj_arena_init(cj_arena *arena);
/* Zeroed memory that lives until cj_arena_free; NULL with MemoryError set on failure. */
void *cj_arena_alloc(cj_arena *arena, size_t size);
/* A copy of `s` in the arena; NULL with MemoryError set on failure. */
char *cj_arena_strdup(cj_arena *arena, const char *s);
/* printf into the arena. */
char *cj_arena_printf(cj_arena *arena, const char *fmt, ...);
void cj_arena_free(cj_arena *arena);

/* A growable array of fixed-size items inside an arena (old storage is left to the arena). */
typedef struct cj_vec {
    void *items;
    int len;
    int cap;
} cj_vec;
/* Appends room for one item and returns it zeroed; NULL with MemoryError set on failure. */
void *cj_vec_push(cj_arena *arena, cj_vec *vec, size_t item_size);
#define CJ_VEC_AT(vec, type, i) (((type *)(vec).items)[i])

/* ---- background.c: long work on a thread of its own, so Ctrl-C can interrupt the wait ---- */
/* Runs work(arg) on a new thread while this one waits with the GIL, looking at signals every
 * 50 ms. 0: it finished, the caller has arg back. -1 with an exception: it did not start (the
 * caller still owns arg). -2 with the signal's exception (KeyboardInterrupt): the wait was
 * interrupted and arg is handed over: drop(arg) runs when the work ends. */
int cj_run_in_background(void (*work)(void *), void (*drop)(void *), void *arg);

/* ---- errors.c: exception classes, created at module init (borrowed, module-lifetime) ---- */
extern PyObject *cj_CujitError;        /* base of all cujit errors */
extern PyObject *cj_TypingError;       /* a function could not be typed */
extern PyObject *cj_UnsupportedError;  /* a construct the compiler does not support */
extern PyObject *cj_LoweringError;     /* code generation failed (an internal error) */
extern PyObject *cj_CudaSupportError;  /* no CUDA driver / device available */
extern PyObject *cj_CudaAPIError;      /* a CUDA driver call failed */
extern PyObject *cj_NvvmError;         /* libnvvm missing or failed */
int cj_errors_init(PyObject *module);

/* Internal invariant broken: a bug in cujit, never a user error. */
#define CJ_UNREACHABLE(what)                                                           \
    (PyErr_Format(PyExc_SystemError, "cujit internal error at %s:%d: %s", __FILE__,    \
                  __LINE__, (what)))

#endif
